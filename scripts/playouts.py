"""
The random-playout loop every Board figure of `npm run bench` is measured with, in Python (bench-boards.ts holds
the same loop for the TS and C++ Boards): get_legal_actions + _move, the names a student's search calls, from the
start position to the end of the game. The move is drawn by the same 32-bit LCG as the TS and C++ loops
(seed = seed * 1664525 + 1013904223; index = seed * n >> 32), so every language's Board, and board.py, plays the
very same games. board_speed.py and boards_speed.py import it (run with -I, so their folder is added by hand).
"""
import time

_MASK = 0xFFFFFFFF


def rate(make, passes_allowed, seconds, clock=time.process_time):
    """
    Random playouts per CPU second on boards from `make()` for at least `seconds` of CPU: a side with no move
    passes (`passes_allowed`: Reversi, where two passes end the game) or has lost (every other game). The clock is
    read once a batch, and a batch doubles until it takes 20 ms, so reading it costs nothing measurable.
    """
    seed, done, batch = 1, 0, 1
    started = clock()
    elapsed = 0.0
    while elapsed < seconds:
        for _ in range(batch):
            board, color, passes = make(), 'X', 0
            while passes < 2:
                legal = list(board.get_legal_actions(color))
                if legal:
                    passes = 0
                    seed = (seed * 1664525 + 1013904223) & _MASK
                    board._move(legal[(seed * len(legal)) >> 32], color)
                elif passes_allowed:
                    passes += 1
                else:
                    passes = 2
                color = 'O' if color == 'X' else 'X'
        done += batch
        took = clock() - started - elapsed
        elapsed += took
        if took < 0.02:
            batch *= 2
    return done / elapsed


_STUB_MOVES = ['A1', 'B2', 'C3', 'D4', 'E5', 'F6', 'G7', 'H8', 'A2', 'B3']


class LoopOnly(object):
    """A stub Board that answers at once: ten moves a ply for 60 plies (a Reversi game's length), then none. Its
    playouts per second are the loop's own cost, to set beside a real Board's."""

    def __init__(self):
        self.plies = 0

    def get_legal_actions(self, color):
        self.plies += 1
        return _STUB_MOVES if self.plies <= 60 else []

    def _move(self, action, color):
        return True


def interleaved(boards, passes_allowed, seconds, rounds):
    """{name: [rate per round]} for several Board classes, one round of each in turn (load swings hit all alike)."""
    rates = {name: [] for name in boards}
    for _ in range(rounds):
        for name, make in boards.items():
            rates[name].append(rate(make, passes_allowed, seconds))
    return rates
