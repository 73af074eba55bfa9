// Referee's C++ Board for Reversi (header-only), mirroring the TypeScript student Board and the course platform's
// board.py name for name: the same methods (camelCase, with board.py's snake_case names too), the same square
// names ('A1'..'H8', letter = column, number = row) and the same move order (board.py's get_legal_actions scan,
// _can_fliped's flip order). Include it from AIPlayer.cpp: `#include "referee/reversi.h"`.
//
// The discs are two 64-bit sets (square = row * 8 + col), like the TypeScript Board's: legal moves come from shifts
// of the whole board, and lists of squares are referee::Names (referee/actions.h) — they convert to
// std::vector<std::string>, but `auto` keeps them on the stack: getLegalActions and move allocate nothing.
//
//   class AIPlayer { public: explicit AIPlayer(char color); std::string getMove(const Board& board); };
#ifndef REFEREE_REVERSI_H
#define REFEREE_REVERSI_H

#include <cstdint>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>
#include "actions.h"

class Board {
 public:
  static constexpr const char* GAME = "reversi";
  static constexpr char EMPTY = '.';
  /** Every legal move of a position (at most 64 empty squares). */
  using Actions = referee::Names<64>;
  /** The discs one move flips (at most 6 on each of the 4 lines through it). */
  using Flipped = referee::Names<24>;

  /** The start position: D4 and E5 White (O), E4 and D5 Black (X). */
  Board() : black_(bit(28) | bit(35)), white_(bit(27) | bit(36)) {}

  /** The referee's state text (64 cells row by row from A1, then the side to move); false and why if malformed. */
  static bool fromState(const std::string& state, Board& board, std::string& why) {
    if (state.size() < 64) {
      why = "a Reversi state has 64 cells";
      return false;
    }
    std::uint64_t black = 0, white = 0;
    for (int i = 0; i < 64; i++) {
      char c = state[static_cast<size_t>(i)];
      if (c != EMPTY && c != 'X' && c != 'O') {
        why = std::string("unexpected cell '") + c + "'";
        return false;
      }
      if (c == 'X') black |= bit(i);
      if (c == 'O') white |= bit(i);
    }
    board.black_ = black;
    board.white_ = white;
    return true;
  }

  /** The cell at (row, col), both 0..7: '.', 'X' or 'O' ('?' off the board). */
  char get(int row, int col) const {
    if (!isOnBoard(row, col)) return '?';
    std::uint64_t b = bit(row * 8 + col);
    return black_ & b ? 'X' : white_ & b ? 'O' : EMPTY;
  }

  /**
   * Legal squares for `color` in board.py's order: the opponent's discs row by row, their empty neighbours N, NE, E,
   * SE, S, SW, W, NW. A square is listed under its lowest opponent neighbour o, in o's scan order: its rank
   * o * 8 + direction (0..511) names it alone, so the ranks are set in a 512-bit set and read back in order.
   */
  Actions getLegalActions(char color) const {
    Actions actions;
    if (color != 'X' && color != 'O') return actions;
    const std::uint64_t me = color == 'X' ? black_ : white_, them = color == 'X' ? white_ : black_;
    const Tables& t = tables();
    std::uint64_t ranks[8] = {0, 0, 0, 0, 0, 0, 0, 0};
    unsigned words = 0;
    for (std::uint64_t legal = legalMask(me, them); legal; legal &= legal - 1) {
      const int s = __builtin_ctzll(legal);
      const int rank = t.rankOf[s][__builtin_ctzll(t.near[s] & them)];
      ranks[rank >> 6] |= bit(rank & 63);
      words |= 1u << (rank >> 6);
    }
    for (; words; words &= words - 1) {
      const int w = __builtin_ctz(words);
      for (std::uint64_t left = ranks[w]; left; left &= left - 1) actions.add2(t.names[t.squareOfRank[(w << 6) | __builtin_ctzll(left)]]);
    }
    return actions;
  }
  Actions get_legal_actions(char color) const { return getLegalActions(color); }

  /** The discs `color` would flip by playing `action` (board.py's order); empty when it is not a legal move. */
  Flipped canFlipped(const std::string& action, char color) const {
    Flipped names;
    int x, y;
    if ((color != 'X' && color != 'O') || !boardNum(action, x, y) || ((black_ | white_) & bit(x * 8 + y))) return names;
    flips(x * 8 + y, color == 'X' ? black_ : white_, color == 'X' ? white_ : black_, &names);
    return names;
  }
  Flipped _can_fliped(const std::string& action, char color) const { return canFlipped(action, color); }

  /** Play `action` for `color`: the flipped squares, or an empty list (and the board unchanged) when illegal. */
  Flipped move(const std::string& action, char color) {
    Flipped names;
    int x, y;
    if ((color != 'X' && color != 'O') || !boardNum(action, x, y)) return names;
    const int sq = x * 8 + y;
    if ((black_ | white_) & bit(sq)) return names;
    std::uint64_t& me = color == 'X' ? black_ : white_;
    std::uint64_t& them = color == 'X' ? white_ : black_;
    std::uint64_t turned = flips(sq, me, them, &names);
    if (turned) {
      me |= turned | bit(sq);
      them &= ~turned;
    }
    return names;
  }
  Flipped _move(const std::string& action, char color) { return move(action, color); }

  /** Undo a move: empty `action` and give the `flipped` squares back to the opponent (board.py's backpropagation). */
  template <class List>
  void undo(const std::string& action, const List& flipped, char color) {
    int x, y;
    if (boardNum(action, x, y)) {
      black_ &= ~bit(x * 8 + y);
      white_ &= ~bit(x * 8 + y);
    }
    std::uint64_t& mine = color == 'X' ? white_ : black_;  // the opponent of `color` gets them back
    std::uint64_t& theirs = color == 'X' ? black_ : white_;
    for (const std::string& name : flipped) {
      if (!boardNum(name, x, y)) continue;
      mine |= bit(x * 8 + y);
      theirs &= ~bit(x * 8 + y);
    }
  }
  void undo(const std::string& action, const std::vector<std::string>& flipped, char color) { undo<std::vector<std::string>>(action, flipped, color); }
  template <class List>
  void backpropagation(const std::string& action, const List& flipped, char color) { undo(action, flipped, color); }
  void backpropagation(const std::string& action, const std::vector<std::string>& flipped, char color) { undo(action, flipped, color); }

  int count(char color) const {
    if (color == 'X') return __builtin_popcountll(black_);
    if (color == 'O') return __builtin_popcountll(white_);
    if (color == EMPTY) return 64 - __builtin_popcountll(black_ | white_);
    return 0;
  }

  /** {0 Black wins | 1 White wins | 2 draw, disc difference}, as board.py's get_winner. */
  std::pair<int, int> getWinner() const {
    int black = count('X'), white = count('O');
    if (black > white) return {0, black - white};
    if (white > black) return {1, white - black};
    return {2, 0};
  }
  std::pair<int, int> get_winner() const { return getWinner(); }

  std::string toString() const {
    std::string text = "  A B C D E F G H\n";
    for (int i = 0; i < 8; i++) {
      text += std::to_string(i + 1);
      for (int j = 0; j < 8; j++) {
        text += ' ';
        text += get(i, j);
      }
      text += '\n';
    }
    return text;
  }
  void display() const { std::fputs(toString().c_str(), stdout); }

  Board copy() const { return *this; }

  /** 'D3' → (row 2, col 3); false for anything else. */
  static bool boardNum(const std::string& action, int& row, int& col) {
    if (action.size() != 2 || action[0] < 'A' || action[0] > 'H' || action[1] < '1' || action[1] > '8') return false;
    col = action[0] - 'A';
    row = action[1] - '1';
    return true;
  }
  static bool board_num(const std::string& action, int& row, int& col) { return boardNum(action, row, col); }
  static std::string numBoard(int row, int col) { return std::string(1, static_cast<char>('A' + col)) + static_cast<char>('1' + row); }
  static std::string num_board(int row, int col) { return numBoard(row, col); }
  static bool isOnBoard(int x, int y) { return x >= 0 && x < 8 && y >= 0 && y < 8; }
  static bool is_on_board(int x, int y) { return isOnBoard(x, y); }

 private:
  std::uint64_t black_, white_;

  static constexpr std::uint64_t bit(int sq) { return std::uint64_t{1} << sq; }

  struct Tables {
    char names[64][3];
    std::uint64_t near[64];  // each square's on-board neighbours
    signed char scanRank[19];  // [s - o + 9]: the place of the step o → s in board.py's scan N, NE, E, SE, S, SW, W, NW
    std::uint64_t rays[64][8];  // the squares beyond each square, E, SE, S, SW, W, NW, N, NE (_can_fliped's order)
    short rankOf[64][64];  // [s][o]: the rank (o * 8 + scan direction) of square s listed under its neighbour o
    signed char squareOfRank[512];  // the square a rank names
    signed char direction[19];  // [n - sq + 9]: the _can_fliped direction of the step from sq to its neighbour n
    Tables() : names(), near(), scanRank(), rays(), rankOf(), squareOfRank(), direction() {
      const int flipSteps[8][2] = {{0, 1}, {1, 1}, {1, 0}, {1, -1}, {0, -1}, {-1, -1}, {-1, 0}, {-1, 1}};
      const int steps[8][2] = {{-1, 0}, {-1, 1}, {0, 1}, {1, 1}, {1, 0}, {1, -1}, {0, -1}, {-1, -1}};
      for (int rank = 0; rank < 8; rank++) scanRank[steps[rank][0] * 8 + steps[rank][1] + 9] = static_cast<signed char>(rank);
      for (int d = 0; d < 8; d++) direction[flipSteps[d][0] * 8 + flipSteps[d][1] + 9] = static_cast<signed char>(d);
      for (int sq = 0; sq < 64; sq++) {
        names[sq][0] = static_cast<char>('A' + sq % 8);
        names[sq][1] = static_cast<char>('1' + sq / 8);
        for (const auto& step : steps) {
          int r = sq / 8 + step[0], c = sq % 8 + step[1];
          if (isOnBoard(r, c)) near[sq] |= bit(r * 8 + c);
        }
        for (const auto& step : steps) {
          int r = sq / 8 + step[0], c = sq % 8 + step[1];
          if (!isOnBoard(r, c)) continue;
          const int s = r * 8 + c, rank = (sq << 3) | scanRank[step[0] * 8 + step[1] + 9];
          rankOf[s][sq] = static_cast<short>(rank);
          squareOfRank[rank] = static_cast<signed char>(s);
        }
        for (int d = 0; d < 8; d++) {
          for (int r = sq / 8 + flipSteps[d][0], c = sq % 8 + flipSteps[d][1]; isOnBoard(r, c); r += flipSteps[d][0], c += flipSteps[d][1]) rays[sq][d] |= bit(r * 8 + c);
        }
      }
    }
  };
  static const Tables& tables() {
    static const Tables built;
    return built;
  }

  /** The empty squares where `me` flips something: the eight directions' runs of `them`, shifted together. */
  static std::uint64_t legalMask(std::uint64_t me, std::uint64_t them) {
    const std::uint64_t empty = ~(me | them);
    const std::uint64_t inner = them & 0x7e7e7e7e7e7e7e7eULL;  // no wrap across the A and H files
    return (runs<1>(me, inner) | runs<7>(me, inner) | runs<8>(me, them) | runs<9>(me, inner)) & empty;
  }
  /**
   * The squares just past a run of `mask` that starts next to `me`, both ways along shift S (constant: no variable
   * shifts): one step, a second, then two doublings over pairs of `mask` (runs of up to six in four steps).
   */
  template <int S>
  static std::uint64_t runs(std::uint64_t me, std::uint64_t mask) {
    std::uint64_t up = mask & (me << S), down = mask & (me >> S);
    up |= mask & (up << S);
    down |= mask & (down >> S);
    const std::uint64_t pairUp = mask & (mask << S), pairDown = pairUp >> S;
    up |= pairUp & (up << (2 * S));
    down |= pairDown & (down >> (2 * S));
    up |= pairUp & (up << (2 * S));
    down |= pairDown & (down >> (2 * S));
    return (up << S) | (down >> S);
  }

  /**
   * The discs `me` flips by playing the empty `sq`, as a set; with `names`, also listed in _can_fliped's order:
   * directions E, SE, S, SW, W, NW, N, NE, each from the far end back towards the move. On each ray the run ends at
   * the first square that is not the opponent's (the lowest bit on rays towards higher squares, the highest on the
   * others); it flips when that square is `me`'s.
   */
  static std::uint64_t flips(int sq, std::uint64_t me, std::uint64_t them, Flipped* names) {
    const Tables& t = tables();
    const std::uint64_t* rays = t.rays[sq];
    std::uint64_t runs[8], all = 0;
    unsigned dirs = 0;
    // Only a direction whose first square is the opponent's can flip (one to three of the eight on most moves).
    for (std::uint64_t near = t.near[sq] & them; near; near &= near - 1) {
      const int d = t.direction[__builtin_ctzll(near) - sq + 9];
      const std::uint64_t stop = rays[d] & ~them;
      if (!stop) continue;
      const std::uint64_t first = d < 4 ? stop & (~stop + 1) : bit(63 - __builtin_clzll(stop));
      if (!(first & me)) continue;
      runs[d] = d < 4 ? rays[d] & (first - 1) : rays[d] & ~((first << 1) - 1);
      all |= runs[d];
      dirs |= 1u << d;
    }
    if (names) {
      for (; dirs; dirs &= dirs - 1) {
        const int d = __builtin_ctz(dirs);
        if (d < 4) {
          for (std::uint64_t run = runs[d]; run;) {
            const int top = 63 - __builtin_clzll(run);
            names->add2(t.names[top]);
            run ^= bit(top);
          }
        } else {
          for (std::uint64_t run = runs[d]; run; run &= run - 1) names->add2(t.names[__builtin_ctzll(run)]);
        }
      }
    }
    return all;
  }
};

#endif
