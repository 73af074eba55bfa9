// Referee's C++ Board for Amazons (header-only; Botzone's 8 x 8, or 10 x 10 under the board10 rule), mirroring the
// TypeScript student Board: a move is "C1-C4/F4" (the queen on C1 goes to C4 and shoots its arrow to F4; row 1 is
// the top, as on Botzone), legal moves by queen, destination, arrow, each row by row from A1. Include it from
// AIPlayer.cpp: `#include "referee/amazons.h"`.
//
//   class AIPlayer { public: explicit AIPlayer(char color); std::string getMove(const Board& board); };
#ifndef REFEREE_AMAZONS_H
#define REFEREE_AMAZONS_H

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <utility>
#include <vector>
#include "actions.h"

class Board {
 public:
  static constexpr const char* GAME = "amazons";
  static constexpr int MAX = 10;
  static constexpr char EMPTY = '.';
  static constexpr char ARROW = '#';
  static constexpr const char* FILES = "ABCDEFGHIJ";

  /** A move as three cells, each row * 10 + col. */
  struct Move {
    int from, to, arrow;
  };
  /**
   * Every move of a position: at most 4 queens x 35 squares x 35 arrows on 10 x 10 (referee/actions.h: converts to
   * std::vector<std::string>; `auto` keeps it on the stack, ~150 KB, and allocates nothing).
   */
  using Actions = referee::Names<4 * 35 * 35>;

  /** 8 (Botzone) or 10. */
  int size = 8;

  /** Botzone's 8 x 8 start; Board(10) the standard 10 x 10 one. */
  explicit Board(int boardSize = 8) : size(boardSize == 10 ? 10 : 8) {
    for (auto& row : cells_) for (char& cell : row) cell = EMPTY;
    const char* first8[] = {"A3", "C1", "F1", "H3"};
    const char* second8[] = {"A6", "C8", "F8", "H6"};
    const char* first10[] = {"A4", "D1", "G1", "J4"};
    const char* second10[] = {"A7", "D10", "G10", "J7"};
    for (int i = 0; i < 4; i++) {
      int r, c;
      if (cellOf(size == 10 ? first10[i] : first8[i], r, c)) cells_[r][c] = 'X';
      if (cellOf(size == 10 ? second10[i] : second8[i], r, c)) cells_[r][c] = 'O';
    }
  }

  /** The referee's state text: rows from row 1, '/'-separated, x o # and numbers for empty runs, then the last move. */
  static bool fromState(const std::string& state, Board& board, std::string& why) {
    size_t space = state.find(' ');
    if (space == std::string::npos) {
      why = "the state has no last-move field";
      return false;
    }
    int rows = 1;
    for (size_t i = 0; i < space; i++) rows += state[i] == '/';
    board = Board(rows);
    for (auto& row : board.cells_) for (char& cell : row) cell = EMPTY;
    int row = 0, col = 0;
    for (size_t i = 0; i < space; i++) {
      char c = state[i];
      if (c == '/') {
        row++;
        col = 0;
      } else if (c == 'x' || c == 'o' || c == '#') {
        if (row >= board.size || col >= board.size) break;
        board.cells_[row][col++] = c == 'x' ? 'X' : c == 'o' ? 'O' : ARROW;
      } else if (c >= '0' && c <= '9') {
        int run = 0;
        while (i < space && state[i] >= '0' && state[i] <= '9') run = run * 10 + (state[i++] - '0');
        i--;
        col += run;
      } else {
        why = std::string("unexpected character '") + c + "'";
        return false;
      }
    }
    std::string last = state.substr(space + 1);
    Move m;
    if (last != "-" && board.parse(last, m)) board.remember(m);
    return true;
  }

  /** Every move of `color`: by queen, destination, arrow, each row by row from A1. */
  Actions getLegalActions(char color) const {
    Actions actions;
    if (color != 'X' && color != 'O') return actions;
    Board scratch = *this;
    char text[16];
    for (int from = 0; from < MAX * MAX; from++) {
      if (at(from) != color) continue;
      int targets[36], arrows[36];
      const int nTargets = scratch.reach(from, targets);
      scratch.set(from, EMPTY);
      int head = writeName(text, from);
      text[head++] = '-';
      for (int t = 0; t < nTargets; t++) {
        const int to = targets[t];
        scratch.set(to, color);
        int mid = head + writeName(text + head, to);
        text[mid++] = '/';
        const int nArrows = scratch.reach(to, arrows);
        for (int a = 0; a < nArrows; a++) {
          text[mid + writeName(text + mid, arrows[a])] = 0;
          actions.add(text);
        }
        scratch.set(to, EMPTY);
      }
      scratch.set(from, color);
    }
    return actions;
  }
  Actions get_legal_actions(char color) const { return getLegalActions(color); }

  bool isLegal(const std::string& action, char color) const {
    Move m;
    return parse(action, m) && legal(m, color);
  }
  bool is_legal(const std::string& action, char color) const { return isLegal(action, color); }

  /** Plays `action` for `color`: true, or false (and the board unchanged) when it is not legal. */
  bool move(const std::string& action, char color) {
    Move m;
    if (!parse(action, m) || !legal(m, color)) return false;
    set(m.from, EMPTY);
    set(m.to, color);
    set(m.arrow, ARROW);
    remember(m);
    return true;
  }
  bool _move(const std::string& action, char color) { return move(action, color); }

  /** Takes `action` back (it must be the move that put its queen and arrow where they are). */
  void undo(const std::string& action) {
    Move m;
    if (!parse(action, m) || at(m.arrow) != ARROW || (at(m.to) != 'X' && at(m.to) != 'O') || (m.from != m.arrow && at(m.from) != EMPTY)) return;
    char queen = at(m.to);
    set(m.arrow, EMPTY);
    set(m.to, EMPTY);
    set(m.from, queen);
    for (int i = moves_; i-- > 0;) {
      if (history_[i][0] == m.from && history_[i][1] == m.to && history_[i][2] == m.arrow) {
        for (int j = i + 1; j < moves_; j++) for (int k = 0; k < 3; k++) history_[j - 1][k] = history_[j][k];
        moves_--;
        break;
      }
    }
  }
  void backpropagation(const std::string& action) { undo(action); }

  /** With `toMove` to play: {0 Black wins | 1 White wins, 1} when `toMove` cannot move, else nothing. */
  std::optional<std::pair<int, int>> getWinner(char toMove) const {
    if (hasMove(toMove)) return std::nullopt;
    return std::make_pair(toMove == 'X' ? 1 : 0, 1);
  }
  std::optional<std::pair<int, int>> get_winner(char toMove) const { return getWinner(toMove); }

  std::string lastMove() const {
    if (moves_ == 0) return "";
    const unsigned char* m = history_[moves_ - 1];
    return name(m[0]) + "-" + name(m[1]) + "/" + name(m[2]);
  }
  /** '.', 'X', 'O' or '#' at (row, col), 0-based, row 0 = row '1' (the top); '?' off the board. */
  char get(int row, int col) const { return row >= 0 && row < size && col >= 0 && col < size ? cells_[row][col] : '?'; }
  bool isOnBoard(int row, int col) const { return row >= 0 && row < size && col >= 0 && col < size; }
  /** Queens of `color` (4), or arrows with '#'. */
  int count(char color) const {
    int n = 0;
    for (int r = 0; r < size; r++) for (int c = 0; c < size; c++) n += cells_[r][c] == color;
    return n;
  }
  Board copy() const { return *this; }

  std::string toString() const {
    std::string text = "  ";
    for (int c = 0; c < size; c++) text += std::string(" ") + FILES[c];
    text += "\n";
    for (int r = 0; r < size; r++) {
      std::string label = std::to_string(r + 1);
      text += (label.size() < 2 ? " " : "") + label;
      for (int c = 0; c < size; c++) text += std::string(" ") + cells_[r][c];
      text += "\n";
    }
    return text;
  }
  void display() const { std::fputs(toString().c_str(), stdout); }

  /** "C1" → (row, col) on this board; false when it names no square of it. */
  bool cellOf(const std::string& text, int& row, int& col) const {
    if (text.size() < 2 || text.size() > 3 || text[0] < 'A' || text[0] > 'J') return false;
    std::string digits = text.substr(1);
    if (digits != "10" && (digits.size() != 1 || digits[0] < '1' || digits[0] > '9')) return false;
    row = std::atoi(digits.c_str()) - 1;
    col = text[0] - 'A';
    return row < size && col < size;
  }

 private:
  char cells_[MAX][MAX];
  // The moves made, for lastMove and undo: every move leaves an arrow, so at most 100 - 8 of them.
  unsigned char history_[MAX * MAX - 8][3] = {};
  int moves_ = 0;

  void remember(const Move& m) {
    if (moves_ == MAX * MAX - 8) return;
    history_[moves_][0] = static_cast<unsigned char>(m.from);
    history_[moves_][1] = static_cast<unsigned char>(m.to);
    history_[moves_][2] = static_cast<unsigned char>(m.arrow);
    moves_++;
  }

  /** The cell's name ("C1", "J10") into `text`: its length. */
  static int writeName(char* text, int cell) {
    text[0] = FILES[cell % MAX];
    const int row = cell / MAX + 1;
    if (row < 10) {
      text[1] = static_cast<char>('0' + row);
      return 2;
    }
    text[1] = '1';
    text[2] = '0';
    return 3;
  }

  char at(int cell) const { return cells_[cell / MAX][cell % MAX]; }
  void set(int cell, char value) { cells_[cell / MAX][cell % MAX] = value; }
  bool onBoard(int row, int col) const { return row >= 0 && row < size && col >= 0 && col < size; }
  static std::string name(int cell) { return std::string(1, FILES[cell % MAX]) + std::to_string(cell / MAX + 1); }

  bool parse(const std::string& text, Move& m) const {
    size_t dash = text.find('-'), slash = text.find('/');
    if (dash == std::string::npos || slash == std::string::npos || slash < dash) return false;
    int r0, c0, r1, c1, r2, c2;
    if (!cellOf(text.substr(0, dash), r0, c0) || !cellOf(text.substr(dash + 1, slash - dash - 1), r1, c1) || !cellOf(text.substr(slash + 1), r2, c2)) return false;
    m = Move{r0 * MAX + c0, r1 * MAX + c1, r2 * MAX + c2};
    return true;
  }

  /** Empty squares queen-like from `from`, in square order, into `found` (at most 35): how many. */
  int reach(int from, int* found) const {
    // Each square found is inserted in order (at most 35: a short insertion sort, no allocation).
    static const int DR[] = {-1, -1, -1, 0, 0, 1, 1, 1}, DC[] = {-1, 0, 1, -1, 1, -1, 0, 1};
    int n = 0;
    const int r0 = from / MAX, c0 = from % MAX;
    for (int d = 0; d < 8; d++) {
      for (int r = r0 + DR[d], c = c0 + DC[d]; onBoard(r, c) && cells_[r][c] == EMPTY; r += DR[d], c += DC[d]) {
        const int cell = r * MAX + c;
        int j = n++;
        for (; j > 0 && found[j - 1] > cell; j--) found[j] = found[j - 1];
        found[j] = cell;
      }
    }
    return n;
  }

  /** Whether `to` is a free queen's line from `from`, with `vacated` (if any) counted as empty. */
  bool inLine(int from, int to, int vacated = -1) const {
    auto free = [&](int cell) { return cell == vacated || at(cell) == EMPTY; };
    if (from == to || !free(to)) return false;
    int dr = to / MAX - from / MAX, dc = to % MAX - from % MAX;
    if (dr != 0 && dc != 0 && std::abs(dr) != std::abs(dc)) return false;
    int step = (dr > 0) - (dr < 0);
    step = step * MAX + ((dc > 0) - (dc < 0));
    for (int cell = from + step; cell != to; cell += step) if (!free(cell)) return false;
    return true;
  }

  bool legal(const Move& m, char color) const {
    if ((color != 'X' && color != 'O') || at(m.from) != color || !inLine(m.from, m.to)) return false;
    return inLine(m.to, m.arrow, m.from);  // the arrow flies with the queen gone from m.from
  }

  bool hasMove(char color) const {
    for (int r = 0; r < size; r++) {
      for (int c = 0; c < size; c++) {
        if (cells_[r][c] != color) continue;
        for (int dr = -1; dr <= 1; dr++) for (int dc = -1; dc <= 1; dc++) if ((dr || dc) && onBoard(r + dr, c + dc) && cells_[r + dr][c + dc] == EMPTY) return true;
      }
    }
    return false;
  }
};

#endif
