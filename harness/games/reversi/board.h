// Referee's C++ Board for Reversi (header-only), mirroring the TypeScript student Board and the course platform's
// board.py name for name: the same methods (camelCase, with board.py's snake_case names too), the same square
// names ('A1'..'H8', letter = column, number = row) and the same move order (board.py's get_legal_actions scan,
// _can_fliped's flip order). Include it from AIPlayer.cpp: `#include "referee/reversi.h"`.
//
//   class AIPlayer { public: explicit AIPlayer(char color); std::string getMove(const Board& board); };
#ifndef REFEREE_REVERSI_H
#define REFEREE_REVERSI_H

#include <cstdio>
#include <string>
#include <utility>
#include <vector>

class Board {
 public:
  static constexpr const char* GAME = "reversi";
  static constexpr char EMPTY = '.';

  /** The start position: D4 and E5 White (O), E4 and D5 Black (X). */
  Board() {
    for (auto& row : cells_) for (char& cell : row) cell = EMPTY;
    cells_[3][3] = 'O';
    cells_[3][4] = 'X';
    cells_[4][3] = 'X';
    cells_[4][4] = 'O';
  }

  /** The referee's state text (64 cells row by row from A1, then the side to move); false and why if malformed. */
  static bool fromState(const std::string& state, Board& board, std::string& why) {
    if (state.size() < 64) {
      why = "a Reversi state has 64 cells";
      return false;
    }
    for (int i = 0; i < 64; i++) {
      char c = state[static_cast<size_t>(i)];
      if (c != EMPTY && c != 'X' && c != 'O') {
        why = std::string("unexpected cell '") + c + "'";
        return false;
      }
      board.cells_[i / 8][i % 8] = c;
    }
    return true;
  }

  /** The cell at (row, col), both 0..7: '.', 'X' or 'O' ('?' off the board). */
  char get(int row, int col) const { return isOnBoard(row, col) ? cells_[row][col] : '?'; }

  /** Legal squares for `color` in board.py's order: the opponent's discs row by row, their empty neighbours N, NE, E, SE, S, SW, W, NW. */
  std::vector<std::string> getLegalActions(char color) const {
    const char opponent = other(color);
    std::vector<int> seen;
    std::vector<std::string> actions;
    for (int i = 0; i < 8; i++) {
      for (int j = 0; j < 8; j++) {
        if (cells_[i][j] != opponent) continue;
        for (const auto& step : SCAN) {
          int x = i + step[0], y = j + step[1];
          if (!isOnBoard(x, y) || cells_[x][y] != EMPTY) continue;
          int square = x * 8 + y;
          bool known = false;
          for (int s : seen) known = known || s == square;
          if (known) continue;
          seen.push_back(square);
          if (!flips(x, y, color).empty()) actions.push_back(numBoard(x, y));
        }
      }
    }
    return actions;
  }
  std::vector<std::string> get_legal_actions(char color) const { return getLegalActions(color); }

  /** The discs `color` would flip by playing `action` (board.py's order); empty when it is not a legal move. */
  std::vector<std::string> canFlipped(const std::string& action, char color) const {
    int x, y;
    if (!boardNum(action, x, y) || cells_[x][y] != EMPTY) return {};
    std::vector<std::string> names;
    for (int square : flips(x, y, color)) names.push_back(numBoard(square / 8, square % 8));
    return names;
  }
  std::vector<std::string> _can_fliped(const std::string& action, char color) const { return canFlipped(action, color); }

  /** Play `action` for `color`: the flipped squares, or an empty list (and the board unchanged) when illegal. */
  std::vector<std::string> move(const std::string& action, char color) {
    int x, y;
    if (!boardNum(action, x, y) || cells_[x][y] != EMPTY) return {};
    std::vector<int> turned = flips(x, y, color);
    if (turned.empty()) return {};
    cells_[x][y] = color;
    std::vector<std::string> names;
    for (int square : turned) {
      cells_[square / 8][square % 8] = color;
      names.push_back(numBoard(square / 8, square % 8));
    }
    return names;
  }
  std::vector<std::string> _move(const std::string& action, char color) { return move(action, color); }

  /** Undo a move: empty `action` and give the `flipped` squares back to the opponent (board.py's backpropagation). */
  void undo(const std::string& action, const std::vector<std::string>& flipped, char color) {
    int x, y;
    if (boardNum(action, x, y)) cells_[x][y] = EMPTY;
    for (const std::string& name : flipped) {
      if (boardNum(name, x, y)) cells_[x][y] = other(color);
    }
  }
  void backpropagation(const std::string& action, const std::vector<std::string>& flipped, char color) { undo(action, flipped, color); }

  int count(char color) const {
    int n = 0;
    for (const auto& row : cells_) for (char cell : row) n += cell == color;
    return n;
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
        text += cells_[i][j];
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
  char cells_[8][8];
  static constexpr int SCAN[8][2] = {{-1, 0}, {-1, 1}, {0, 1}, {1, 1}, {1, 0}, {1, -1}, {0, -1}, {-1, -1}};
  // _can_fliped's directions: E, SE, S, SW, W, NW, N, NE.
  static constexpr int FLIP[8][2] = {{0, 1}, {1, 1}, {1, 0}, {1, -1}, {0, -1}, {-1, -1}, {-1, 0}, {-1, 1}};

  static char other(char color) { return color == 'X' ? 'O' : 'X'; }

  /** The squares `color` flips by playing the empty (x, y): per direction, from the far end back towards the move. */
  std::vector<int> flips(int x, int y, char color) const {
    const char opponent = other(color);
    std::vector<int> turned;
    for (const auto& step : FLIP) {
      int i = x + step[0], j = y + step[1], run = 0;
      while (isOnBoard(i, j) && cells_[i][j] == opponent) {
        i += step[0];
        j += step[1];
        run++;
      }
      if (run == 0 || !isOnBoard(i, j) || cells_[i][j] != color) continue;
      for (int k = run; k >= 1; k--) turned.push_back((x + k * step[0]) * 8 + (y + k * step[1]));
    }
    return turned;
  }
};

#endif
