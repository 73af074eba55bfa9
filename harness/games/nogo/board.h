// Referee's C++ Board for NoGo (header-only, 9 x 9), mirroring the TypeScript student Board: cells 'A1'..'J9' (a Go
// board's files, I skipped; rows from the bottom), legal moves in index order, a move that captures or leaves its
// own group without liberties is illegal, and Black's first move may not be E5 under the centre rule (the state
// says when it applies). Include it from AIPlayer.cpp: `#include "referee/nogo.h"`.
//
//   class AIPlayer { public: explicit AIPlayer(char color); std::string getMove(const Board& board); };
#ifndef REFEREE_NOGO_H
#define REFEREE_NOGO_H

#include <cstdio>
#include <optional>
#include <string>
#include <utility>
#include <vector>

class Board {
 public:
  static constexpr const char* GAME = "nogo";
  static constexpr int SIZE = 9;
  static constexpr char EMPTY = '.';
  static constexpr const char* FILES = "ABCDEFGHJ";

  /** Whether Black's first move may not be the centre (E5) on the empty board. */
  bool centerFirstMoveBanned = true;

  Board() {
    for (auto& row : cells_) for (char& cell : row) cell = EMPTY;
  }

  /** The referee's state text (rows 9 down to 1, 'x'/'o' and digit runs, the last move, ' !E5' for the centre rule). */
  static bool fromState(const std::string& state, Board& board, std::string& why) {
    board = Board();
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
        col += c - '0';
      } else {
        why = std::string("unexpected character '") + c + "'";
        return false;
      }
    }
    std::string rest = state.substr(space + 1);
    size_t bang = rest.find(" !E5");
    board.centerFirstMoveBanned = bang != std::string::npos;
    std::string last = rest.substr(0, rest.find(' '));
    int r, c;
    if (last != "-" && cellOf(last, r, c)) board.history_.push_back(r * SIZE + c);
    return true;
  }

  /** The legal cells for `color` in index order (A1, B1, … J1, A2, …). */
  std::vector<std::string> getLegalActions(char color) const {
    std::vector<std::string> actions;
    for (int r = 0; r < SIZE; r++) {
      for (int c = 0; c < SIZE; c++) {
        if (legalAt(r, c, color)) actions.push_back(cellName(r, c));
      }
    }
    return actions;
  }
  std::vector<std::string> get_legal_actions(char color) const { return getLegalActions(color); }

  bool isLegal(const std::string& action, char color) const {
    int r, c;
    return cellOf(action, r, c) && legalAt(r, c, color);
  }

  /** Place a stone of `color`: true, or false (the board unchanged) when the move is illegal. */
  bool move(const std::string& action, char color) {
    int r, c;
    if (!cellOf(action, r, c) || !legalAt(r, c, color)) return false;
    cells_[r][c] = color;
    history_.push_back(r * SIZE + c);
    return true;
  }
  bool _move(const std::string& action, char color) { return move(action, color); }

  void undo(const std::string& action) {
    int r, c;
    if (!cellOf(action, r, c)) return;
    cells_[r][c] = EMPTY;
    for (size_t i = history_.size(); i-- > 0;) {
      if (history_[i] == r * SIZE + c) {
        history_.erase(history_.begin() + static_cast<long>(i));
        break;
      }
    }
  }
  void backpropagation(const std::string& action) { undo(action); }

  /** With `toMove` to play: {winner, 1} when `toMove` has no legal move (and so has lost), else nothing. */
  std::optional<std::pair<int, int>> getWinner(char toMove) const {
    for (int r = 0; r < SIZE; r++) for (int c = 0; c < SIZE; c++) if (legalAt(r, c, toMove)) return std::nullopt;
    return std::make_pair(toMove == 'X' ? 1 : 0, 1);
  }
  std::optional<std::pair<int, int>> get_winner(char toMove) const { return getWinner(toMove); }

  std::string lastMove() const { return history_.empty() ? "" : cellName(history_.back() / SIZE, history_.back() % SIZE); }
  char get(int row, int col) const { return row >= 0 && row < SIZE && col >= 0 && col < SIZE ? cells_[row][col] : '?'; }
  int count(char color) const {
    int n = 0;
    for (const auto& row : cells_) for (char cell : row) n += cell == color;
    return n;
  }
  Board copy() const { return *this; }

  std::string toString() const {
    std::string text = "  A B C D E F G H J\n";
    for (int r = SIZE - 1; r >= 0; r--) {
      text += std::to_string(r + 1);
      for (int c = 0; c < SIZE; c++) {
        text += ' ';
        text += cells_[r][c];
      }
      text += '\n';
    }
    return text;
  }
  void display() const { std::fputs(toString().c_str(), stdout); }

  /** 'E5' → (row 4, col 4); false for anything else (I is not a file). */
  static bool cellOf(const std::string& action, int& row, int& col) {
    if (action.size() != 2 || action[1] < '1' || action[1] > '9') return false;
    for (int i = 0; i < SIZE; i++) {
      if (FILES[i] == action[0]) {
        col = i;
        row = action[1] - '1';
        return true;
      }
    }
    return false;
  }
  static std::string cellName(int row, int col) { return std::string(1, FILES[col]) + static_cast<char>('1' + row); }

 private:
  char cells_[SIZE][SIZE];
  std::vector<int> history_;

  bool empty() const { return count('X') + count('O') == 0; }

  /** Whether the group holding (r, c) has a liberty, with the board as it is. */
  bool hasLiberty(int r, int c, char board[SIZE][SIZE]) const {
    const char piece = board[r][c];
    bool seen[SIZE][SIZE] = {};
    std::vector<std::pair<int, int>> stack{{r, c}};
    seen[r][c] = true;
    const int steps[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
    while (!stack.empty()) {
      auto [x, y] = stack.back();
      stack.pop_back();
      for (const auto& step : steps) {
        int i = x + step[0], j = y + step[1];
        if (i < 0 || i >= SIZE || j < 0 || j >= SIZE || seen[i][j]) continue;
        if (board[i][j] == EMPTY) return true;
        if (board[i][j] == piece) {
          seen[i][j] = true;
          stack.push_back({i, j});
        }
      }
    }
    return false;
  }

  bool legalAt(int r, int c, char color) const {
    if (cells_[r][c] != EMPTY) return false;
    if (centerFirstMoveBanned && r == 4 && c == 4 && empty()) return false;
    char trial[SIZE][SIZE];
    for (int i = 0; i < SIZE; i++) for (int j = 0; j < SIZE; j++) trial[i][j] = cells_[i][j];
    trial[r][c] = color;
    if (!hasLiberty(r, c, trial)) return false;  // suicide
    const char opponent = color == 'X' ? 'O' : 'X';
    const int steps[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
    for (const auto& step : steps) {
      int i = r + step[0], j = c + step[1];
      if (i >= 0 && i < SIZE && j >= 0 && j < SIZE && trial[i][j] == opponent && !hasLiberty(i, j, trial)) return false;  // a capture
    }
    return true;
  }
};

#endif
