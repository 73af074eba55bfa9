"""
board.py's API on the Reversi Board, checked in Python itself (the consistency test covers the rules; this covers
the names, types and the small behaviours students rely on). Prints 'ok'; an assertion names what broke.
Usage: python3 board_api.py <the staged Python runtime (pythonRuntimeDir), with board_reversi.py>
"""
import contextlib
import io
import sys
import types
from copy import deepcopy

sys.path.insert(0, sys.argv[1])
import board_reversi as board_module  # noqa: E402

sys.modules['board'] = board_module
from board import Board  # noqa: E402

board = Board()
assert board.empty == '.'
assert board._board[3][4] == 'X' and board._board[4][3] == 'X' and board[3][3] == 'O' and board[4][4] == 'O'
assert board.board_num('D3') == (2, 3) and board.board_num('d3') == (2, 3), 'board_num'
assert board.board_num('Z9') is None
assert board.num_board((2, 3)) == 'D3' and board.num_board((8, 0)) is None, 'num_board'
assert board.is_on_board(0, 7) and not board.is_on_board(8, 0) and not board.is_on_board(0, -1)
legal = board.get_legal_actions('X')
assert isinstance(legal, types.GeneratorType), 'get_legal_actions is a generator'
assert sorted(legal) == ['C4', 'D3', 'E6', 'F5']
assert board._can_fliped('D3', 'X') == ['D4'] and board._can_fliped('A1', 'X') is False
assert board._can_fliped((2, 3), 'X') == ['D4']
copied = deepcopy(board)
flipped = copied._move('D3', 'X')
assert flipped == ['D4'] and copied.count('X') == 4 and board.count('X') == 2, 'deepcopy is independent'
copied.backpropagation('D3', flipped, 'X')
assert copied._board == board._board, 'backpropagation undoes _move'
assert board._move('A1', 'X') is False and board._board == Board()._board
assert board.get_winner() == (2, 0)
board._move('D3', 'X')
assert board.get_winner() == (0, 3) and board.count('O') == 1
out = io.StringIO()
with contextlib.redirect_stdout(out):
    board.display()
    board.display({'X': 1.5, 'O': 0}, {'X': 3, 'O': 2})
lines = out.getvalue().splitlines()
assert lines[0].split() == list('ABCDEFGH') and lines[3].split() == ['3', '.', '.', '.', 'X', '.', '.', '.', '.']
assert '4 / 1.5 / 3' in out.getvalue(), 'display shows discs / step time / total time'
print('ok')
