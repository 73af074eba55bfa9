// My __TITLE__ AI in C++. Referee builds this file with g++ -std=c++17 -O2 and calls
// AIPlayer(color) once per game, then getMove(board) every turn; return one of board.getLegalActions(color_).
// The Board (referee/__GAME__.h) has the TypeScript Board's methods and move order; see RULES.md.
#include <cstdlib>
#include <string>
#include <vector>
#include "referee/__GAME__.h"

class AIPlayer {
 public:
  explicit AIPlayer(char color) : color_(color) {}

  std::string getMove(const Board& board) {
    std::vector<std::string> actions = board.getLegalActions(color_);
    return actions[static_cast<size_t>(std::rand()) % actions.size()];
  }

 private:
  char color_;
};
