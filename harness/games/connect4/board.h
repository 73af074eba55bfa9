// Referee's C++ Board for Connect Four (header-only; the standard 6 x 7 board and the course variant with an M x N
// board and a no-go cell), mirroring the TypeScript student Board: a move is a column '0'..'N-1', rows count from
// the bottom, top[col] is the row the next disc lands on (stepping over the no-go cell; M when full). Include it
// from AIPlayer.cpp: `#include "referee/connect4.h"`. (The course's own getPoint interface needs no header of ours.)
//
//   class AIPlayer { public: explicit AIPlayer(char color); std::string getMove(const Board& board); };
#ifndef REFEREE_CONNECT4_H
#define REFEREE_CONNECT4_H

#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <utility>
#include <vector>
#include "actions.h"

class Board {
 public:
  /** The games this Board plays, space-separated. */
  static constexpr const char* GAME = "connect4 connect4-nogo";
  static constexpr char EMPTY = '.';
  static constexpr char NO_GO = '#';
  /** The open columns: at most 32 (referee/actions.h: converts to std::vector<std::string>; `auto` allocates nothing). */
  using Actions = referee::Names<32>;

  int M = 6, N = 7;
  /** top[col]: the row the next disc in that column lands on (M when the column is full). */
  std::vector<int> top;
  /** (row, col) of the no-go cell, or (-1, -1) on the standard board. */
  std::pair<int, int> noGo{-1, -1};

  Board() : top(7, 0), cells_(42, EMPTY) { history_.reserve(42); }

  /** The referee's state text (rows top to bottom, 'x' 'o' '#' and digit runs, then the last column); false and why if malformed. */
  static bool fromState(const std::string& state, Board& board, std::string& why) {
    size_t space = state.find(' ');
    if (space == std::string::npos) {
      why = "the state has no last-move field";
      return false;
    }
    std::vector<std::string> rows(1);
    for (size_t i = 0; i < space; i++) {
      char c = state[i];
      if (c == '/') {
        rows.emplace_back();
      } else if (c == 'x' || c == 'o' || c == '#') {
        rows.back() += c == 'x' ? 'X' : c == 'o' ? 'O' : NO_GO;
      } else if (c >= '1' && c <= '9') {
        int run = c - '0';
        while (i + 1 < space && state[i + 1] >= '0' && state[i + 1] <= '9') run = run * 10 + (state[++i] - '0');
        rows.back() += std::string(static_cast<size_t>(run), EMPTY);
      } else {
        why = std::string("unexpected character '") + c + "'";
        return false;
      }
    }
    board.M = static_cast<int>(rows.size());
    board.N = static_cast<int>(rows[0].size());
    board.cells_.assign(static_cast<size_t>(board.M * board.N), EMPTY);
    for (int i = 0; i < board.M; i++) {
      if (static_cast<int>(rows[static_cast<size_t>(i)].size()) != board.N) {
        why = "the state's rows differ in length";
        return false;
      }
      int row = board.M - 1 - i;
      for (int col = 0; col < board.N; col++) {
        char cell = rows[static_cast<size_t>(i)][static_cast<size_t>(col)];
        board.cells_[static_cast<size_t>(row * board.N + col)] = cell;
        if (cell == NO_GO) board.noGo = {row, col};
      }
    }
    board.history_.reserve(static_cast<size_t>(board.M * board.N));
    board.top.assign(static_cast<size_t>(board.N), board.M);
    for (int col = 0; col < board.N; col++) {
      for (int row = 0; row < board.M; row++) {
        if (board.at(row, col) == EMPTY) {
          board.top[static_cast<size_t>(col)] = row;
          break;
        }
      }
    }
    std::string last = state.substr(space + 1);
    if (last != "-") {
      int col = std::atoi(last.c_str());
      int row = board.top[static_cast<size_t>(col)] - 1;
      if (row >= 0 && board.at(row, col) == NO_GO) row--;
      board.history_.push_back(col);
      if (row >= 0 && board.winsAt(row, col)) board.winner_ = board.at(row, col) == 'X' ? 0 : 1;
    }
    return true;
  }

  /** The open columns as '0', '1', …; none once someone has won. */
  Actions getLegalActions(char color = 'X') const {
    (void)color;
    Actions actions;
    if (winner_ >= 0) return actions;
    static const char names[32][3] = {"0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12", "13", "14", "15",
                                      "16", "17", "18", "19", "20", "21", "22", "23", "24", "25", "26", "27", "28", "29", "30", "31"};
    for (int col = 0; col < N && col < 32; col++) if (top[static_cast<size_t>(col)] < M) actions.add(names[col]);
    return actions;
  }
  Actions get_legal_actions(char color = 'X') const { return getLegalActions(color); }

  /** Drop a disc of `color` into column `action`: the row it lands on, or -1 (the board unchanged). */
  int move(const std::string& action, char color) {
    int col;
    if (winner_ >= 0 || !columnOf(action, col) || top[static_cast<size_t>(col)] >= M) return -1;
    int row = top[static_cast<size_t>(col)];
    cells_[static_cast<size_t>(row * N + col)] = color;
    int next = row + 1;
    if (next < M && at(next, col) == NO_GO) next++;
    top[static_cast<size_t>(col)] = next;
    history_.push_back(col);
    if (winsAt(row, col)) winner_ = color == 'X' ? 0 : 1;
    return row;
  }
  int _move(const std::string& action, char color) { return move(action, color); }

  /** Take back the top disc of column `action`. */
  void undo(const std::string& action) {
    int col;
    if (!columnOf(action, col)) return;
    int row = top[static_cast<size_t>(col)] - 1;
    if (row >= 0 && at(row, col) == NO_GO) row--;
    if (row < 0) return;
    cells_[static_cast<size_t>(row * N + col)] = EMPTY;
    top[static_cast<size_t>(col)] = row;
    for (size_t i = history_.size(); i-- > 0;) {
      if (history_[i] == col) {
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
    for (int col = 0; col < N; col++) if (top[static_cast<size_t>(col)] < M) return std::nullopt;
    return std::make_pair(2, 0);
  }
  std::optional<std::pair<int, int>> get_winner() const { return getWinner(); }
  bool isOver() const { return getWinner().has_value(); }

  /** The last move's column as '3', or "" before the first. */
  std::string lastMove() const { return history_.empty() ? "" : std::to_string(history_.back()); }

  /** The cell at (row, col), row 0 the bottom: '.', 'X', 'O' or '#' ('?' off the board). */
  char get(int row, int col) const { return row >= 0 && row < M && col >= 0 && col < N ? at(row, col) : '?'; }

  int count(char color) const {
    int n = 0;
    for (char cell : cells_) n += cell == color;
    return n;
  }

  Board copy() const { return *this; }

  std::string toString() const {
    std::string text;
    for (int row = M - 1; row >= 0; row--) {
      for (int col = 0; col < N; col++) {
        text += col ? " " : "";
        text += at(row, col);
      }
      text += '\n';
    }
    return text;
  }
  void display() const { std::fputs(toString().c_str(), stdout); }

 private:
  std::vector<char> cells_;
  std::vector<int> history_;
  int winner_ = -1;

  char at(int row, int col) const { return cells_[static_cast<size_t>(row * N + col)]; }

  bool columnOf(const std::string& action, int& col) const {
    if (action.empty() || action.size() > 2 || (action.size() == 2 && action[0] == '0')) return false;
    col = 0;
    for (char c : action) {
      if (c < '0' || c > '9') return false;
      col = col * 10 + (c - '0');
    }
    return col < N;
  }

  bool winsAt(int row, int col) const {
    const char piece = at(row, col);
    if (piece != 'X' && piece != 'O') return false;
    const int steps[4][2] = {{0, 1}, {1, 0}, {1, 1}, {1, -1}};
    for (const auto& step : steps) {
      int length = 1;
      for (int r = row + step[0], c = col + step[1]; r >= 0 && r < M && c >= 0 && c < N && at(r, c) == piece; r += step[0], c += step[1]) length++;
      for (int r = row - step[0], c = col - step[1]; r >= 0 && r < M && c >= 0 && c < N && at(r, c) == piece; r -= step[0], c -= step[1]) length++;
      if (length >= 4) return true;
    }
    return false;
  }
};

#endif
