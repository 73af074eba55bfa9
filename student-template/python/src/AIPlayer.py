"""
My Reversi AI. The grader builds a fresh AIPlayer for every game and calls get_move(board) on every turn, the
same interface as the course platform: code written for the platform runs here unchanged.

The board is a copy of the position (the platform's board.py, see board.py next to this file):
  board.get_legal_actions(color)      a generator of your legal moves, e.g. 'D3' (list(...) it to count them)
  board._move(action, color)          play a move: the flipped squares, or False if it was illegal
  board.backpropagation(action, flipped, color)   undo a _move
  board._can_fliped(action, color)    what a move would flip, without playing it
  board.count(color), board.get_winner(), board._board (8 lists of '.', 'X', 'O'), board.display()
Search on deepcopy(board) (from copy import deepcopy) or undo your moves: changing the board you were handed
loses the game. Only the standard library, board and func_timeout can be imported.
"""
import random


class AIPlayer:
    def __init__(self, color):
        """color: 'X' (Black, moves first) or 'O' (White)."""
        self.color = color

    def get_move(self, board):
        """Return one of board.get_legal_actions(self.color), spelled exactly as given (e.g. 'D3')."""
        actions = list(board.get_legal_actions(self.color))
        # Replace this with your search: prefer the move that flips the most discs, for a start.
        return max(actions, key=lambda action: (len(board._can_fliped(action, self.color)), random.random()))
