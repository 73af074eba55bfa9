// Referee's C++ Board for Gomoku (header-only), both variants as the TypeScript student Board: freestyle (five or
// more in a line win) and gomoku-exact5 (`exactFive`: only a line of exactly five wins; an overline of six or more
// does not). Cells 'A1'..'O15' (file letter from the left, I not skipped; row number from the bottom), legal moves in
// index order (A1, B1, … O1, A2, …), the same method names. Include it from AIPlayer.cpp:
// `#include "referee/gomoku.h"`. Under the grader `Board()` plays the graded variant (referee::playedGame());
// in your own program it is freestyle unless you write `Board(true)`.
//
//   class AIPlayer { public: explicit AIPlayer(char color); std::string getMove(const Board& board); };
#ifndef REFEREE_GOMOKU_H
#define REFEREE_GOMOKU_H

#include <cstdio>
#include <optional>
#include <string>
#include <utility>
#include <vector>
#include "actions.h"

class Board {
 public:
  /** The games this Board plays, space-separated. */
  static constexpr const char* GAME = "gomoku gomoku-exact5";
  static constexpr int SIZE = 15;
  static constexpr char EMPTY = '.';
  /** Every empty cell: at most 225 (referee/actions.h: converts to std::vector<std::string>; `auto` allocates nothing). */
  using Actions = referee::Names<SIZE * SIZE>;

  /** True when only a line of exactly five wins (the gomoku-exact5 variant). */
  bool exactFive = false;

  /** The empty board of the variant the grader plays (freestyle in a program of your own). */
  Board() : Board(referee::playedGame() == "gomoku-exact5") {}
  /** The empty board; exactFive: only a line of exactly five wins. */
  explicit Board(bool exactFive) : exactFive(exactFive) {
    for (auto& row : cells_) for (char& cell : row) cell = EMPTY;
  }

  /** The referee's state text (rows 15 down to 1, 'x'/'o' and digit runs, then the last move); false and why if malformed. */
  static bool fromState(const std::string& state, Board& board, std::string& why) {
    board = Board(board.exactFive);
    size_t space = state.find(' ');
    if (space == std::string::npos) {
      why = "the state has no last-move field";
      return false;
    }
    int row = SIZE - 1, col = 0;
    for (size_t i = 0; i < space; i++) {
      char c = state[i];
      if (c == '/') {
        row--;
        col = 0;
      } else if (c == 'x' || c == 'o') {
        if (row < 0 || col >= SIZE) break;
        board.cells_[row][col++] = c == 'x' ? 'X' : 'O';
      } else if (c >= '1' && c <= '9') {
        int run = c - '0';
        while (i + 1 < space && state[i + 1] >= '0' && state[i + 1] <= '9') run = run * 10 + (state[++i] - '0');
        col += run;
      } else {
        why = std::string("unexpected character '") + c + "'";
        return false;
      }
    }
    if (row != 0) {
      why = "a Gomoku state has 15 rows";
      return false;
    }
    std::string last = state.substr(space + 1);
    int r, c;
    if (last != "-" && cellOf(last, r, c)) {
      board.history_.push_back(r * SIZE + c);
      if (board.winsAt(r, c)) board.winner_ = board.cells_[r][c] == 'X' ? 0 : 1;
    }
    board.stones_ = board.count('X') + board.count('O');
    return true;
  }

  /** Every empty cell in index order (A1, B1, … O1, A2, …); none once someone has won. */
  Actions getLegalActions(char color = 'X') const {
    (void)color;
    Actions actions;
    if (winner_ >= 0) return actions;
    const char(&names)[SIZE * SIZE][4] = nameTable();
    const char* cells = &cells_[0][0];
    for (int i = 0; i < SIZE * SIZE; i++) if (cells[i] == EMPTY) actions.add(names[i]);
    return actions;
  }
  Actions get_legal_actions(char color = 'X') const { return getLegalActions(color); }

  /** Place a stone of `color` on `action`: true, or false (and the board unchanged) when it cannot go there. */
  bool move(const std::string& action, char color) {
    int r, c;
    if (winner_ >= 0 || !cellOf(action, r, c) || cells_[r][c] != EMPTY) return false;
    cells_[r][c] = color;
    history_.push_back(r * SIZE + c);
    if (winsAt(r, c)) winner_ = color == 'X' ? 0 : 1;
    stones_++;
    return true;
  }
  bool _move(const std::string& action, char color) { return move(action, color); }

  /** Take back the stone on `action` (the game goes on: only the last stone can have won). */
  void undo(const std::string& action) {
    int r, c;
    if (!cellOf(action, r, c)) return;
    if (cells_[r][c] != EMPTY) stones_--;
    cells_[r][c] = EMPTY;
    for (size_t i = history_.size(); i-- > 0;) {
      if (history_[i] == r * SIZE + c) {
        history_.erase(history_.begin() + static_cast<long>(i));
        break;
      }
    }
    winner_ = -1;
  }
  void backpropagation(const std::string& action) { undo(action); }

  /** {0 X won | 1 O won | 2 draw, diff} once the game is over, else nothing. */
  std::optional<std::pair<int, int>> getWinner() const {
    if (winner_ >= 0) return std::make_pair(winner_, 1);
    if (stones_ == SIZE * SIZE) return std::make_pair(2, 0);
    return std::nullopt;
  }
  std::optional<std::pair<int, int>> get_winner() const { return getWinner(); }
  bool isOver() const { return winner_ >= 0 || stones_ == SIZE * SIZE; }

  /** The last move as 'H8', or "" before the first. */
  std::string lastMove() const { return history_.empty() ? "" : cellName(history_.back() / SIZE, history_.back() % SIZE); }

  /** The cell at (row, col), row 0 the bottom row: '.', 'X' or 'O' ('?' off the board). */
  char get(int row, int col) const { return row >= 0 && row < SIZE && col >= 0 && col < SIZE ? cells_[row][col] : '?'; }

  int count(char color) const {
    int n = 0;
    for (const auto& row : cells_) for (char cell : row) n += cell == color;
    return n;
  }

  Board copy() const { return *this; }

  std::string toString() const {
    std::string text = "   A B C D E F G H I J K L M N O\n";
    for (int r = SIZE - 1; r >= 0; r--) {
      std::string number = std::to_string(r + 1);
      text += std::string(3 - number.size(), ' ') + number;
      for (int c = 0; c < SIZE; c++) {
        text += ' ';
        text += cells_[r][c];
      }
      text += '\n';
    }
    return text;
  }
  void display() const { std::fputs(toString().c_str(), stdout); }

  /** 'H8' → (row 7, col 7); false for anything else (strict: capital letter, no leading zero). */
  static bool cellOf(const std::string& action, int& row, int& col) {
    if (action.size() < 2 || action.size() > 3 || action[0] < 'A' || action[0] >= 'A' + SIZE || action[1] < '1' || action[1] > '9') return false;
    int number = 0;
    for (size_t i = 1; i < action.size(); i++) {
      if (action[i] < '0' || action[i] > '9') return false;
      number = number * 10 + (action[i] - '0');
    }
    if (number < 1 || number > SIZE) return false;
    col = action[0] - 'A';
    row = number - 1;
    return true;
  }
  static std::string cellName(int row, int col) { return std::string(1, static_cast<char>('A' + col)) + std::to_string(row + 1); }

 private:
  char cells_[SIZE][SIZE];
  std::vector<int> history_;
  int winner_ = -1;
  int stones_ = 0;

  /** 'A1', 'B1', … 'O15' by cell index, built once. */
  static const char (&nameTable())[SIZE * SIZE][4] {
    static const struct Table {
      char names[SIZE * SIZE][4];
      Table() : names() {
        for (int i = 0; i < SIZE * SIZE; i++) {
          std::string name = cellName(i / SIZE, i % SIZE);
          for (size_t k = 0; k < name.size(); k++) names[i][k] = name[k];
        }
      }
    } table;
    return table.names;
  }

  /** Five or more of the stone on (r, c) in a line through it; with exactFive, exactly five in some direction. */
  bool winsAt(int r, int c) const {
    const char piece = cells_[r][c];
    const int steps[4][2] = {{0, 1}, {1, 0}, {1, 1}, {1, -1}};
    for (const auto& step : steps) {
      int length = 1;
      for (int i = r + step[0], j = c + step[1]; i >= 0 && i < SIZE && j >= 0 && j < SIZE && cells_[i][j] == piece; i += step[0], j += step[1]) length++;
      for (int i = r - step[0], j = c - step[1]; i >= 0 && i < SIZE && j >= 0 && j < SIZE && cells_[i][j] == piece; i -= step[0], j -= step[1]) length++;
      if (exactFive ? length == 5 : length >= 5) return true;
    }
    return false;
  }
};

#endif
