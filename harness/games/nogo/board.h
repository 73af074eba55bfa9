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
#include "actions.h"

class Board {
 public:
  static constexpr const char* GAME = "nogo";
  static constexpr int SIZE = 9;
  static constexpr char EMPTY = '.';
  static constexpr const char* FILES = "ABCDEFGHJ";
  /** Every legal cell: at most 81 (referee/actions.h: converts to std::vector<std::string>; `auto` allocates nothing). */
  using Actions = referee::Names<SIZE * SIZE>;

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
  Actions getLegalActions(char color) const {
    Actions actions;
    Groups groups;
    findGroups(groups);
    const Tables& t = tables();
    for (int cell = 0; cell < SIZE * SIZE; cell++) {
      if (legalAt(cell, color, groups)) actions.add(t.names[cell]);
    }
    return actions;
  }
  Actions get_legal_actions(char color) const { return getLegalActions(color); }

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
    Groups groups;
    findGroups(groups);
    for (int cell = 0; cell < SIZE * SIZE; cell++) if (legalAt(cell, toMove, groups)) return std::nullopt;
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

  bool empty() const {
    for (const auto& row : cells_) for (char cell : row) if (cell != EMPTY) return false;
    return true;
  }

  struct Tables {
    char names[SIZE * SIZE][3];
    signed char next[SIZE * SIZE][4];  // the on-board neighbours of each cell, -1 where the board ends
    Tables() : names(), next() {
      const int steps[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
      for (int cell = 0; cell < SIZE * SIZE; cell++) {
        names[cell][0] = FILES[cell % SIZE];
        names[cell][1] = static_cast<char>('1' + cell / SIZE);
        for (int d = 0; d < 4; d++) {
          int r = cell / SIZE + steps[d][0], c = cell % SIZE + steps[d][1];
          next[cell][d] = static_cast<signed char>(r >= 0 && r < SIZE && c >= 0 && c < SIZE ? r * SIZE + c : -1);
        }
      }
    }
  };
  static const Tables& tables() {
    static const Tables built;
    return built;
  }

  /** Every group of the position: each stone's group, and per group whether it has one liberty or more (and which). */
  struct Groups {
    signed char group[SIZE * SIZE];
    signed char liberty[SIZE * SIZE];  // a group's first liberty found, -1 for none
    bool several[SIZE * SIZE];  // the group has a second, different liberty
    bool boardEmpty;
  };

  void findGroups(Groups& g) const {
    const Tables& t = tables();
    const char* cells = &cells_[0][0];
    int groups = 0;
    g.boardEmpty = true;
    for (int cell = 0; cell < SIZE * SIZE; cell++) g.group[cell] = -1;
    for (int start = 0; start < SIZE * SIZE; start++) {
      if (cells[start] == EMPTY || g.group[start] >= 0) continue;
      g.boardEmpty = false;
      const char piece = cells[start];
      const signed char id = static_cast<signed char>(groups++);
      signed char first = -1;
      bool several = false;
      signed char stack[SIZE * SIZE];
      int top = 0;
      stack[top++] = static_cast<signed char>(start);
      g.group[start] = id;
      while (top > 0) {
        const int at = stack[--top];
        for (int d = 0; d < 4; d++) {
          const int n = t.next[at][d];
          if (n < 0) continue;
          if (cells[n] == EMPTY) {
            if (first < 0) first = static_cast<signed char>(n);
            else if (first != n) several = true;
          } else if (cells[n] == piece && g.group[n] < 0) {
            g.group[n] = id;
            stack[top++] = static_cast<signed char>(n);
          }
        }
      }
      g.liberty[id] = first;
      g.several[id] = several;
    }
  }

  /**
   * Whether `color` may play the empty `cell`: it must not take an opponent group's last liberty (a capture), and its
   * own new group must keep one (no suicide): an empty neighbour, or a neighbouring group of its own with a liberty
   * besides this cell.
   */
  bool legalAt(int cell, char color, const Groups& g) const {
    const char* cells = &cells_[0][0];
    if (cells[cell] != EMPTY || (color != 'X' && color != 'O')) return false;
    if (centerFirstMoveBanned && cell == 4 * SIZE + 4 && g.boardEmpty) return false;
    const signed char* next = tables().next[cell];
    bool breathes = false;
    for (int d = 0; d < 4; d++) {
      const int n = next[d];
      if (n < 0) continue;
      if (cells[n] == EMPTY) {
        breathes = true;
      } else if (cells[n] == color) {
        breathes = breathes || g.several[g.group[n]];
      } else if (!g.several[g.group[n]]) {
        return false;  // its one liberty is this cell: a capture
      }
    }
    return breathes;
  }

  /** legalAt for one cell: only the groups next to it are walked. */
  bool legalAt(int r, int c, char color) const {
    const int cell = r * SIZE + c;
    const char* cells = &cells_[0][0];
    if (cells[cell] != EMPTY || (color != 'X' && color != 'O')) return false;
    if (centerFirstMoveBanned && cell == 4 * SIZE + 4 && empty()) return false;
    const signed char* next = tables().next[cell];
    bool breathes = false;
    for (int d = 0; d < 4; d++) {
      const int n = next[d];
      if (n < 0) continue;
      if (cells[n] == EMPTY) breathes = true;
      else if (cells[n] == color) breathes = breathes || breathesBesides(n, cell);
      else if (!breathesBesides(n, cell)) return false;  // a capture
    }
    return breathes;
  }

  /** Whether the group holding `start` has a liberty other than `except`. */
  bool breathesBesides(int start, int except) const {
    const Tables& t = tables();
    const char* cells = &cells_[0][0];
    const char piece = cells[start];
    bool seen[SIZE * SIZE] = {};
    signed char stack[SIZE * SIZE];
    int top = 0;
    stack[top++] = static_cast<signed char>(start);
    seen[start] = true;
    while (top > 0) {
      const int at = stack[--top];
      for (int d = 0; d < 4; d++) {
        const int n = t.next[at][d];
        if (n < 0 || seen[n]) continue;
        if (cells[n] == EMPTY) {
          if (n != except) return true;
        } else if (cells[n] == piece) {
          seen[n] = true;
          stack[top++] = static_cast<signed char>(n);
        }
      }
    }
    return false;
  }
};

#endif
