"""
Python Board figures for `npm run bench`: random playouts/s through get_legal_actions + _move (playouts.py's loop,
the one every Board figure uses) on board.py as written (PlainBoard, the anchor) and on the fast Board, and each
hot method's cost on the positions of seeded
random games, both boards in the same process, interleaved. Prints one JSON object.
Usage: python3 board_speed.py <folder with board_reversi.py> <CPU seconds for the playout measurement, 0 for none>
"""
import json
import os
import random
import statistics
import sys
import time

sys.path.insert(0, sys.argv[1])
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import board_reversi  # noqa: E402
import playouts  # noqa: E402

SECONDS = float(sys.argv[2])
BOARDS = {'plain': board_reversi.PlainBoard, 'fast': board_reversi.Board}


def playouts_per_second():
    """Per CPU second (a shared machine's load moves wall time far more): three rounds alternating between the
    boards, the shared loop of playouts.py; the median round of each counts."""
    rates = playouts.interleaved(BOARDS, True, SECONDS / 6, 3)
    return {name: statistics.median(each) for name, each in rates.items()}


def games(count):
    """Seeded random games as lists of (action, colour), passes left out."""
    rng, played = random.Random(7), []
    for _ in range(count):
        board, color, passes, moves = board_reversi.PlainBoard(), 'X', 0, []
        while passes < 2:
            legal = list(board.get_legal_actions(color))
            if legal:
                passes = 0
                action = rng.choice(legal)
                board._move(action, color)
                moves.append((action, color))
            else:
                passes += 1
            color = 'O' if color == 'X' else 'X'
        played.append(moves)
    return played


WEIGHTS = [[100, -20, 10, 5, 5, 10, -20, 100]] + [[(r * 8 + c) % 7 for c in range(8)] for r in range(1, 8)]


def weighted(board, color):
    """A student's classic evaluation: every cell of `_board` read once."""
    score = 0
    for i in range(8):
        for j in range(8):
            if board._board[i][j] == color:
                score += WEIGHTS[i][j]
    return score


def method_micros(board_class, played, repeat=4):
    """Mean CPU µs per call of each hot method over every position of `played`."""
    clock = time.process_time
    total = {'get_legal_actions': 0.0, '_move': 0.0, 'backpropagation': 0.0, 'count': 0.0, 'get_winner': 0.0,
             '_can_fliped': 0.0, 'weighted eval (64 _board reads)': 0.0}
    calls = 0
    for moves in played:
        board = board_class()
        flipped = []
        started = clock()
        for action, color in moves:
            flipped.append(board._move(action, color))
        total['_move'] += clock() - started
        started = clock()
        for (action, color), flips in zip(reversed(moves), reversed(flipped)):
            board.backpropagation(action, flips, color)
        total['backpropagation'] += clock() - started
        for action, color in moves:
            started = clock()
            for _ in range(repeat):
                list(board.get_legal_actions(color))
            middle = clock()
            for _ in range(repeat):
                board._can_fliped(action, color)
            counted = clock()
            for _ in range(repeat):
                board.count(color)
            won = clock()
            for _ in range(repeat):
                board.get_winner()
            ended = clock()
            total['get_legal_actions'] += middle - started
            total['_can_fliped'] += counted - middle
            total['count'] += won - counted
            total['get_winner'] += ended - won
            board._move(action, color)
        # On a board of its own: once read, `_board` is kept in step by every move (what a student reading it pays)
        reader = board_class()
        for action, color in moves:
            started = clock()
            for _ in range(repeat):
                weighted(reader, color)
            total['weighted eval (64 _board reads)'] += clock() - started
            reader._move(action, color)
        calls += len(moves)
    result = {}
    for name, seconds in total.items():
        per = calls if name in ('_move', 'backpropagation') else calls * repeat
        result[name] = seconds / per * 1e6
    return result


played = games(40)
rates = playouts_per_second() if SECONDS > 0 else None  # 0: the caller measures playouts (bench-boards' rounds)
methods = {name: method_micros(board_class, played) for name, board_class in BOARDS.items()}
fresh = {name: method_micros(board_class, played) for name, board_class in BOARDS.items()}
for name in methods:  # the better of two passes of each, as the machine is shared
    methods[name] = {method: min(methods[name][method], fresh[name][method]) for method in methods[name]}
print(json.dumps({'python': sys.version.split()[0], 'playouts': rates, 'methods': methods}))
