// Referee's own Judge.h for the Connect Four SDK interface (used when a submission ships none): helpers a
// strategy may call on its own copy of the board, board[x][y] with x the row from the top, 1 the opponent's
// discs ("user") and 2 its own ("machine").
#ifndef REFEREE_SDK_JUDGE_H
#define REFEREE_SDK_JUDGE_H

// Whether the opponent's disc at (x, y) completes four in a line.
bool userWin(const int x, const int y, const int M, const int N, int* const* board);

// Whether the player's own disc at (x, y) completes four in a line.
bool machineWin(const int x, const int y, const int M, const int N, int* const* board);

// Whether every column is full (top[y] == 0 for all y): a draw if nobody has won.
bool isTie(const int N, const int* top);

#endif
