// My __TITLE__ AI, written against the course SDK (Point.h, Strategy.h, Judge.h). Referee builds the folder with
// g++ -std=c++17 -O2 and calls getPoint for every move: 3 s of wall time each (budget with std::chrono, not clock()).
#include <chrono>
#include <cstdlib>
#include "Point.h"
#include "Strategy.h"
#include "Judge.h"

extern "C" Point* getPoint(const int M, const int N, const int* top, const int* _board,
	const int lastX, const int lastY, const int noX, const int noY) {
	// _board[x * N + y]: x is the row from the top; 0 empty, 1 the opponent, 2 yours. The legal point of column y
	// is (top[y] - 1, y) when top[y] > 0.
	int open[16], k = 0;
	for (int y = 0; y < N; y++) if (top[y] > 0) open[k++] = y;
	int y = open[std::rand() % k];
	(void)M; (void)_board; (void)lastX; (void)lastY; (void)noX; (void)noY;
	return new Point(top[y] - 1, y);
}

extern "C" void clearPoint(Point* p) { delete p; }

void clearArray(int M, int N, int** board) {
	for (int i = 0; i < M; i++) delete[] board[i];
	delete[] board;
	(void)N;
}
