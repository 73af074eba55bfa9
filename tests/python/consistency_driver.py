"""
The Python side of the Board consistency test: one long-lived process fed one game per JSON line on stdin:
{"game": id, "initial": encoded state, "plies": [[color, move or null (a pass)], ...], "toMove": color}.
It replays the game on the Python Board and answers one line per game: per ply the legal actions (joined by ',')
and what _move returned, then get_winner() and the final board. Usage: python3 consistency_driver.py <host dir>
(the staged Python runtime, where each game's board.py is board_<game id>.py)
"""
import importlib.util
import json
import os
import sys



def load(path):
    spec = importlib.util.spec_from_file_location(os.path.basename(path)[:-3], path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def main():
    modules = {}
    for line in sys.stdin:
        request = json.loads(line)
        game = request['game']
        if game not in modules:
            modules[game] = load(os.path.join(sys.argv[1], 'board_%s.py' % game))
        board = modules[game]._from_state(request['initial'], game)
        plies = []
        for color, move in request['plies']:
            legal = ','.join(board.get_legal_actions(color))
            plies.append([legal, None if move is None else board._move(move, color)])
        if game in ('nogo', 'amazons'):
            winner = board.get_winner(request['toMove'])
        else:
            winner = board.get_winner()
        rows = board._board if game == 'reversi' else board.board
        final = '/'.join(''.join(row) for row in rows)
        sys.stdout.write(json.dumps({'plies': plies, 'winner': winner, 'final': final}) + '\n')
        sys.stdout.flush()


if __name__ == '__main__':
    main()
