"""
My __TITLE__ AI. The grader builds a fresh AIPlayer for every game and calls get_move(board) on every turn, the
same interface as the course platform: code written for the platform runs here unchanged.

The board is a copy of the position (the grader's board module; board.py next to this file is a local copy for
your editor and your own tests). RULES.md has the rules, the notation and the whole Board API:
  board.getLegalActions(color)      your legal moves, as strings
  board.copy() / deepcopy(board)    a copy to search on
  board.display()                   prints the board (debugging; output appears in the report)
Changing the board you were handed loses the game. Only the standard library, board and func_timeout import.
"""
import random


class AIPlayer:
    def __init__(self, color):
        """color: '__X__' (moves first) or '__O__'."""
        self.color = color

    def get_move(self, board):
        """Return one of board.getLegalActions(self.color), spelled exactly as given."""
        actions = list(board.getLegalActions(self.color))
        # Replace this with your search.
        return random.choice(actions)
