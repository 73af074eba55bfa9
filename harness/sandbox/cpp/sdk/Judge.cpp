// Referee's own implementation of the SDK's Judge.h helpers, linked in when a submission ships no Judge.cpp.
// Every definition is weak, so a submission that defines the helpers itself (say, pasted into Strategy.cpp)
// keeps its own; both board parameter spellings students' copies of Judge.h use (int** and int* const*) exist.
#include "Judge.h"

namespace {

// Length of the line of `piece` through (x, y) along (dx, dy), both ways, the cell itself included.
int lineThrough(int x, int y, int dx, int dy, int M, int N, int* const* board, int piece) {
  int length = 1;
  for (int i = x + dx, j = y + dy; i >= 0 && i < M && j >= 0 && j < N && board[i][j] == piece; i += dx, j += dy) length++;
  for (int i = x - dx, j = y - dy; i >= 0 && i < M && j >= 0 && j < N && board[i][j] == piece; i -= dx, j -= dy) length++;
  return length;
}

bool wins(int x, int y, int M, int N, int* const* board, int piece) {
  const int steps[4][2] = {{0, 1}, {1, 0}, {1, 1}, {1, -1}};
  for (const auto& step : steps) {
    if (lineThrough(x, y, step[0], step[1], M, N, board, piece) >= 4) return true;
  }
  return false;
}

}  // namespace

__attribute__((weak)) bool userWin(const int x, const int y, const int M, const int N, int* const* board) { return wins(x, y, M, N, board, 1); }
__attribute__((weak)) bool machineWin(const int x, const int y, const int M, const int N, int* const* board) { return wins(x, y, M, N, board, 2); }

bool userWin(const int x, const int y, const int M, const int N, int** board);
bool machineWin(const int x, const int y, const int M, const int N, int** board);
__attribute__((weak)) bool userWin(const int x, const int y, const int M, const int N, int** board) { return wins(x, y, M, N, board, 1); }
__attribute__((weak)) bool machineWin(const int x, const int y, const int M, const int N, int** board) { return wins(x, y, M, N, board, 2); }

__attribute__((weak)) bool isTie(const int N, const int* top) {
  for (int y = 0; y < N; y++) {
    if (top[y] > 0) return false;
  }
  return true;
}
