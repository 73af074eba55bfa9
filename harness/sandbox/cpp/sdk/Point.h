// Referee's own Point.h for the Connect Four SDK interface: a point on the board, x the row counted from the top
// (0 = top row) and y the column. Used when a submission ships no Point.h of its own.
#ifndef REFEREE_SDK_POINT_H
#define REFEREE_SDK_POINT_H

class Point {
 public:
  int x;
  int y;
  Point(int x, int y) : x(x), y(y) {}
};

#endif
