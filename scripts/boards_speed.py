"""
Python Board figures for `npm run bench -- boards`: random playouts per CPU second through get_legal_actions +
_move (the names a student's search calls) on one game's Python Board, the loop of bench-boards.ts's TS and C++
playouts. For Reversi also board.py as written (PlainBoard, the platform's file), interleaved round by round with
the fast Board. Prints one JSON object {"board": rate, "plain": rate or null}.
Usage: python3 boards_speed.py <folder with board_<game>.py> <game id> <CPU seconds per round> <rounds>
"""
import importlib.util
import json
import os
import random
import sys
import time

FOLDER, GAME, SECONDS, ROUNDS = sys.argv[1], sys.argv[2], float(sys.argv[3]), int(sys.argv[4])
spec = importlib.util.spec_from_file_location('board', os.path.join(FOLDER, 'board_%s.py' % GAME))
board_module = importlib.util.module_from_spec(spec)
spec.loader.exec_module(board_module)

# A side with no move passes in Reversi (two passes end it); in every other game it has lost.
PASSES = GAME == 'reversi'
MAKE = {'gomoku-exact5': lambda: board_module.Board(True)}.get(GAME, board_module.Board)


def playout(make, rng):
    board, color, passes = make(), 'X', 0
    while passes < 2:
        legal = list(board.get_legal_actions(color))
        if legal:
            passes = 0
            board._move(rng.choice(legal), color)
        else:
            passes = passes + 1 if PASSES else 2
        color = 'O' if color == 'X' else 'X'


def rate(make, rng):
    clock = time.process_time
    done, started = 0, clock()
    while clock() - started < SECONDS:
        playout(make, rng)
        done += 1
    return done / (clock() - started)


boards = {'board': MAKE}
if GAME == 'reversi':
    boards['plain'] = board_module.PlainBoard
best = {name: 0.0 for name in boards}
for _ in range(ROUNDS):
    for name, make in boards.items():
        best[name] = max(best[name], rate(make, random.Random(1)))
print(json.dumps({'board': best['board'], 'plain': best.get('plain')}))
