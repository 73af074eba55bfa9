"""
Deepcopy-heavy students for `npm run bench` (issue #20): what a deepcopy costs on board.py as written (PlainBoard,
the platform's anchor, no audit hook there) and on the sandbox's fast Board, before and after `_board` was read,
and the same copies of board._board; then a small MCTS that deep-copies the board every simulation. Run once bare
and once as the sandbox's host sets itself up (its audit hook and copy's list copier, both installed for good),
so the difference between the two runs is what the sandbox costs. Prints one JSON object; CPU seconds, best of 5.
Usage: python3 deepcopy_speed.py <folder with the host's files> bare|sandbox
"""
import copy
import json
import random
import sys
import time

HERE = sys.argv[1]
MODE = sys.argv[2]
sys.path.insert(0, HERE)
import board_reversi  # noqa: E402

if MODE == 'sandbox':
    import deepcopy_lists  # noqa: E402
    import guard  # noqa: E402
    deepcopy_lists.install()
    guard.install([HERE, sys.prefix, sys.base_prefix], None)

clock = time.process_time


def per_call_us(make, repeat=2000):
    best = float('inf')
    for _ in range(5):
        value = make()
        started = clock()
        for _ in range(repeat):
            copy.deepcopy(value)
        best = min(best, (clock() - started) / repeat)
    return best * 1e6


def midgame(board_class):
    rng, board, color = random.Random(5), board_class(), 'X'
    for _ in range(20):
        legal = list(board.get_legal_actions(color))
        if legal:
            board._move(rng.choice(legal), color)
        color = 'O' if color == 'X' else 'X'
    return board


def read_rows(board):
    board._board[0][0]
    return board


def mcts_us(board_class, simulations=60):
    """One MCTS-style move: a deepcopy of the board per simulation, one random step, a deepcopy of its cells."""
    best = float('inf')
    for _ in range(5):
        board, rng = midgame(board_class), random.Random(9)
        board._board  # students read it (the fast board keeps it up to date from then on)
        started = clock()
        for _ in range(simulations):
            state = copy.deepcopy(board)
            legal = list(state.get_legal_actions('X'))
            if legal:
                state._move(rng.choice(legal), 'X')
            copy.deepcopy(state._board)
        best = min(best, (clock() - started) / simulations)
    return best * 1e6


result = {
    'board.py deepcopy(board)': per_call_us(lambda: midgame(board_reversi.PlainBoard)),
    'board.py deepcopy(board._board)': per_call_us(lambda: midgame(board_reversi.PlainBoard)._board),
    'fast deepcopy(board), _board never read': per_call_us(lambda: midgame(board_reversi.Board)),
    'fast deepcopy(board), after reading _board': per_call_us(lambda: read_rows(midgame(board_reversi.Board))),
    'fast deepcopy(board._board)': per_call_us(lambda: midgame(board_reversi.Board)._board),
    'MCTS simulation, board.py': mcts_us(board_reversi.PlainBoard),
    'MCTS simulation, fast Board': mcts_us(board_reversi.Board),
}
print(json.dumps(result))
