"""
`from game import Game` for submissions written beside the course notebook's game.py: students import it to play
local test games, some at import time. This module offers the names that file is used by, written for Referee
from their documented behaviour:

    Game(black_player, white_player)  sets black_player.color = 'X' and white_player.color = 'O'
    .board                            a fresh Board (the `board` module's), never the game being graded
    .black_player .white_player .current_player
    .run()                            plays to the end and returns ('black_win' | 'white_win' | 'draw', diff)
    .switch_player(black, white)      the side to ask next: black first, then alternating
    .game_over()                      True when neither colour has a legal move
    .force_loss(is_timeout=False, is_board=False, is_legal=False)   the side to move loses: (winner, 0)
    .print_winner(winner)             prints who won (0 Black, 1 White, 2 draw)

Per turn, as on the platform: a side without a legal move passes; get_move(board=board) is called through
func_timeout with 60 s, up to 3 times until it answers a legal move ('Q' ends the game); changing the board, three
illegal answers or 60 s lose. None is an illegal answer like any other: func_timeout returns it when get_move ended
in FunctionTimedOut of its own (a func_timeout inside it that fired) or SystemExit, so those are asked again too. Any
other exception from get_move is not caught: it ends run() with it. A local game here is the student's own business: what it
prints is in the submission's output and its time counts against loading; the graded game is played by the
referee with its own board.
"""
import time as _time

import board as _board_module
from func_timeout import FunctionTimedOut, func_timeout

_SECONDS_PER_MOVE = 60
_ASKS_PER_TURN = 3
_OUTCOMES = ('black_win', 'white_win', 'draw')
_ANNOUNCE = ('Black (X) wins', 'White (O) wins', 'Draw')


def _rows_of(board):
    """A plain copy of the board's cells, to tell whether a player changed them."""
    return [list(row) for row in board._board]


class Game(object):
    def __init__(self, black_player, white_player):
        if not hasattr(_board_module.Board, 'get_legal_actions'):
            raise NotImplementedError("game.Game plays Reversi (the notebook's game.py); this assignment's game has no local Game")
        self.game_name = 'Reversi'
        self.board = _board_module.Board()
        self.black_player = black_player
        self.white_player = white_player
        self.current_player = None
        black_player.color = 'X'
        white_player.color = 'O'

    # --- turn order ----------------------------------------------------------------------------------------------

    def switch_player(self, black_player, white_player):
        if self.current_player is None or self.current_player is white_player:
            return black_player
        return white_player

    def _color_of(self, player):
        return 'X' if player is self.black_player else 'O'

    def game_over(self):
        for color in ('X', 'O'):
            for _ in self.board.get_legal_actions(color):
                return False
        return True

    # --- endings -------------------------------------------------------------------------------------------------

    def force_loss(self, is_timeout=False, is_board=False, is_legal=False):
        loser = self._color_of(self.current_player)
        winner = 1 if loser == 'X' else 0
        if is_timeout:
            print('%s used more than %d s for a move and loses' % (loser, _SECONDS_PER_MOVE))
        if is_legal:
            print('%s answered %d illegal moves and loses' % (loser, _ASKS_PER_TURN))
        if is_board:
            print('%s changed the board it was given and loses' % loser)
        return winner, 0

    def print_winner(self, winner):
        if winner in (0, 1, 2):
            print(_ANNOUNCE[winner])

    # --- play ----------------------------------------------------------------------------------------------------

    def _ask(self, player, legal):
        """The player's answer for this turn, or the ending it caused as ('loss', flags)."""
        before = _rows_of(self.board)
        answer = None
        for _ in range(_ASKS_PER_TURN):
            started = _time.monotonic()
            try:
                answer = func_timeout(_SECONDS_PER_MOVE, player.get_move, kwargs={'board': self.board})
            except FunctionTimedOut:
                return 'loss', {'is_timeout': True}
            if _time.monotonic() - started > _SECONDS_PER_MOVE:
                return 'loss', {'is_timeout': True}
            if answer == 'Q' or answer in legal:
                break
            print('%s: %r is not a legal move, asking again' % (self._color_of(player), answer))
        else:
            return 'loss', {'is_legal': True}
        if _rows_of(self.board) != before:
            return 'loss', {'is_board': True}
        return 'answer', answer

    def run(self):
        print('Game starts')
        self.board.display()
        winner, diff = None, -1
        while True:
            self.current_player = self.switch_player(self.black_player, self.white_player)
            color = self._color_of(self.current_player)
            legal = list(self.board.get_legal_actions(color))
            if not legal:
                if self.game_over():
                    winner, diff = self.board.get_winner()
                    break
                continue
            kind, value = self._ask(self.current_player, legal)
            if kind == 'loss':
                winner, diff = self.force_loss(**value)
                break
            if value == 'Q':
                winner, diff = self.board.get_winner()
                break
            self.board._move(value, color)
            if self.game_over():
                winner, diff = self.board.get_winner()
                break
        print('Game over')
        self.board.display()
        self.print_winner(winner)
        if winner is not None and diff > -1:
            return _OUTCOMES[winner], diff
