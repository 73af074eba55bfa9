// Referee's own Strategy.h for the Connect Four SDK interface (used when a submission ships none).
//
// getPoint is asked for one move: M rows and N columns; top[y] is one row below the cell where the next disc in
// column y lands (M for an empty column, 0 for a full one), already stepping over the no-go cell, so the legal
// point in column y is (top[y] - 1, y); _board is M*N, row-major, _board[x * N + y] with x counted from the top:
// 0 empty, 1 the opponent's disc, 2 your own (the no-go cell reads 0); lastX, lastY is the opponent's last move
// (-1, -1 on the first move); noX, noY is the no-go cell. Every argument is a copy made for this call.
// clearPoint is called with the returned pointer once the harness has read it.
#ifndef REFEREE_SDK_STRATEGY_H
#define REFEREE_SDK_STRATEGY_H

#include "Point.h"

extern "C" Point* getPoint(const int M, const int N, const int* top, const int* _board, const int lastX, const int lastY,
                           const int noX, const int noY);

extern "C" void clearPoint(Point* p);

void clearArray(int M, int N, int** board);

#endif
