"""
game.py's call conventions for the Python host, kept apart from the host's channel code:

- `call_plan(get_move)`: game.py calls `player.get_move(board=board)` by keyword. The host does the same, and
  passes the move info only to a parameter literally named `info` (by keyword); a default parameter such as
  `depth=1` never receives anything. A first parameter with another name (`get_move(self, b)`) fails on the
  platform; the host still plays it (positionally) and the interface check warns.
- `LiveBoard`: within a game the player receives the same Board object every turn, and both sides' moves are
  played on it between turns with Board._move, as game.py does. The tamper rule compares it once per turn, after
  the last ask, with the fingerprint taken before the first.

Everything used here is bound when the host starts, before any student code runs.
"""
import inspect

_signature = inspect.signature
_POSITIONAL_OR_KEYWORD = inspect.Parameter.POSITIONAL_OR_KEYWORD
_KEYWORD_ONLY = inspect.Parameter.KEYWORD_ONLY
_VAR_KEYWORD = inspect.Parameter.VAR_KEYWORD


def call_plan(method):
    """(board_by_keyword, wants_info) for a bound get_move."""
    try:
        parameters = list(_signature(method).parameters.values())
    except (TypeError, ValueError):
        return True, False
    named = dict((p.name, p) for p in parameters if p.kind in (_POSITIONAL_OR_KEYWORD, _KEYWORD_ONLY))
    board_by_keyword = 'board' in named or any(p.kind == _VAR_KEYWORD for p in parameters)
    return board_by_keyword, 'info' in named


def call_get_move(get_move, plan, board, info):
    board_by_keyword, wants_info = plan
    if board_by_keyword:
        if wants_info:
            return get_move(board=board, info=info())
        return get_move(board=board)
    if wants_info:
        return get_move(board, info=info())
    return get_move(board)


class LiveBoard(object):
    """This game's one Board and its fingerprint when the current turn began."""

    def __init__(self, board_module, game, symbols):
        self._from_state = board_module._from_state
        self.fingerprint = board_module._fingerprint
        self._play = getattr(board_module.Board, '_move', None)
        self._game = game
        self._symbols = tuple(symbols)
        self.board = None
        self.snapshot = None

    def reset(self):
        self.board = None
        self.snapshot = None

    def begin_turn(self, state, played):
        """Bring the board up to `state` by playing `played` on it; a board that then differs is replaced."""
        truth = self._from_state(state, self._game)
        board = self.board
        if board is not None and self._play is not None:
            try:
                for entry in played or ():
                    self._play(board, entry['move'], self._symbols[entry['side']])
                if self.fingerprint(board) != self.fingerprint(truth) or self.fingerprint(board) is None:
                    board = truth
            except Exception:
                board = truth
        else:
            board = truth
        self.board = board
        self.snapshot = self.fingerprint(board)
        return board

    def changed(self):
        after = self.fingerprint(self.board)
        return after is None or after != self.snapshot
