"""
Python Board figures for `npm run bench -- boards`: random playouts per CPU second through get_legal_actions + _move
on one game's Python Board, with playouts.py's loop (the same loop, and the same games, as bench-boards.ts's TS and
C++ playouts). For Reversi also board.py as written (PlainBoard, the platform's file), interleaved round by round
with the fast Board in this process, and the loop alone on a stub Board (playouts.LoopOnly). Prints one JSON object
{"board": [rate per round], "plain": [...] or null, "loop": [...] or null}.
Usage: python3 boards_speed.py <folder with board_<game>.py> <game id> <CPU seconds per round> <rounds>
"""
import importlib.util
import json
import os
import sys


def main():
    folder, game, seconds, rounds = sys.argv[1], sys.argv[2], float(sys.argv[3]), int(sys.argv[4])
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import playouts

    spec = importlib.util.spec_from_file_location('board', os.path.join(folder, 'board_%s.py' % game))
    board_module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(board_module)
    boards = {'board': (lambda: board_module.Board(True)) if game == 'gomoku-exact5' else board_module.Board}
    if game == 'reversi':
        boards['plain'] = board_module.PlainBoard
        boards['loop'] = playouts.LoopOnly
    # A side with no move passes in Reversi (two passes end it); in every other game it has lost.
    rates = playouts.interleaved(boards, game == 'reversi', seconds, rounds)
    print(json.dumps({'board': rates['board'], 'plain': rates.get('plain'), 'loop': rates.get('loop')}))


if __name__ == '__main__':
    main()
