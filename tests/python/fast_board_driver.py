"""
The fast Python Board against board.py as written (PlainBoard), method for method, on seeded random games with
the things students do beside the hot calls: reading and writing `_board`, deepcopy and copy.copy, moving while a
get_legal_actions generator is open, odd actions and colours. Every call's result (or exception type and message)
and the board afterwards must be the same. Prints 'ok <calls>'; an assertion names the seed and step that differ.
Usage: python3 fast_board_driver.py <the staged Python runtime (pythonRuntimeDir), with board_reversi.py> <games>
"""
import copy
import random
import sys

sys.path.insert(0, sys.argv[1])
import board_reversi  # noqa: E402

Fast, Plain = board_reversi.Board, board_reversi.PlainBoard
ODD_ACTIONS = ['d3', 'D3x', 'Z9', 'A0', (2, 3), [4, 5], (8, 0), (-1, 2), 'H8', (2.0, 3), '']
calls = 0


def outcome(fn):
    try:
        value = fn()
        if hasattr(value, '__next__'):
            value = list(value)
        return ('ok', value)
    except Exception as error:  # the same exception, same message (board.py's class is called Board)
        return ('raise', type(error).__name__, str(error).replace('PlainBoard', 'Board'))


def same(seed, step, what, fast, plain):
    global calls
    calls += 1
    a, b = outcome(lambda: what(fast)), outcome(lambda: what(plain))
    assert a == b, 'seed %d step %d: %r != %r' % (seed, step, a, b)
    if (seed + step) % 7 == 0:
        assert getattr(fast, '_board', None) == getattr(plain, '_board', None), 'seed %d step %d: boards differ' % (seed, step)


def game(seed):
    rng = random.Random(seed)
    fast, plain = Fast(), Plain()
    color, passes, step = 'X', 0, 0
    history = []
    while passes < 2:
        step += 1
        roll = rng.random()
        if roll < 0.03:  # a student reads _board (fast: builds the lists once)
            same(seed, step, lambda b: [row[:] for row in b._board], fast, plain)
        elif roll < 0.05:  # ... and writes a cell
            r, c, v = rng.randrange(8), rng.randrange(8), rng.choice('.XO')
            fast._board[r][c] = v
            plain._board[r][c] = v
        elif roll < 0.06:  # replaces a row
            r = rng.randrange(8)
            row = [rng.choice('.XO') for _ in range(8)]
            fast._board[r] = row[:]
            plain._board[r] = row[:]
        elif roll < 0.062:  # a whole new _board, or a reference kept across moves
            if rng.random() < 0.5:
                rows = [[rng.choice('.XO') if rng.random() < 0.1 else cell for cell in row] for row in plain._board]
                fast._board = [row[:] for row in rows]
                plain._board = [row[:] for row in rows]
            else:
                kept_fast, kept_plain = fast._board, plain._board
                legal = list(plain.get_legal_actions(color))
                if legal:
                    a = rng.choice(legal)
                    same(seed, step, lambda b: b._move(a, color), fast, plain)
                    assert kept_fast == kept_plain, 'seed %d step %d: a kept _board reference' % (seed, step)
        elif roll < 0.063:  # _board deleted (half the time while a generator is open): board.py's AttributeError
            if rng.random() < 0.5:
                def delete_while_open(b):
                    seen = []
                    for a in b.get_legal_actions(color):
                        seen.append(a)
                        if len(seen) == 1:
                            del b._board
                    return seen
                same(seed, step, delete_while_open, fast, plain)
            else:
                del fast._board
                del plain._board
            same(seed, step, lambda b: b.count('X'), fast, plain)
            same(seed, step, lambda b: b.get_legal_actions('O'), fast, plain)
            same(seed, step, lambda b: b._move('D3', 'X'), fast, plain)
            return
        elif roll < 0.07:  # deepcopy: the copy plays on, the original is untouched
            copies = copy.deepcopy(fast), copy.deepcopy(plain)
            legal = list(plain.get_legal_actions(color))
            if legal:
                a = rng.choice(legal)
                same(seed, step, lambda b: copies[0 if b is fast else 1]._move(a, color), fast, plain)
                assert fast._board == plain._board and copies[0]._board == copies[1]._board, 'seed %d: deepcopy' % seed
            if rng.random() < 0.5:
                fast, plain = copies
        elif roll < 0.075:  # a shallow copy shares the board, as board.py's does
            shallow_fast, shallow_plain = copy.copy(fast), copy.copy(plain)
            legal = list(plain.get_legal_actions(color))
            if legal:
                a = rng.choice(legal)
                same(seed, step, lambda b: (shallow_fast if b is fast else shallow_plain)._move(a, color), fast, plain)
        elif roll < 0.09:  # an odd action or colour
            a = rng.choice(ODD_ACTIONS)
            c = rng.choice(['X', 'O', 'x', 'Y'])
            method = rng.choice(['_move', '_can_fliped', 'get_legal_actions', 'count'])
            if method == 'get_legal_actions' or method == 'count':
                same(seed, step, lambda b: getattr(b, method)(c), fast, plain)
            else:
                same(seed, step, lambda b: getattr(b, method)(a, c), fast, plain)
        elif roll < 0.16:  # move and undo while iterating the generator (MCTS expansion), or move and keep going
            mode = rng.choice(['undo', 'keep', 'other'])
            other = 'O' if color == 'X' else 'X'

            def expand(b):
                seen = []
                for a in b.get_legal_actions(color):
                    seen.append(a)
                    if mode == 'other':  # the opponent plays in the middle of the iteration
                        replies = list(b.get_legal_actions(other))
                        if replies:
                            seen.append(b._move(replies[len(seen) % len(replies)], other))
                        continue
                    flipped = b._move(a, color)
                    if mode == 'undo':
                        b.backpropagation(a, flipped, color)
                return seen
            same(seed, step, expand, fast, plain)
        elif roll < 0.17 and history:  # undo the last move
            a, flipped, who = history.pop()
            same(seed, step, lambda b: b.backpropagation(a, flipped, who), fast, plain)
        same(seed, step, lambda b: b.count(rng_color), fast, plain) if (rng_color := rng.choice('XO.')) else None
        same(seed, step, lambda b: b.get_winner(), fast, plain)
        legal_plain = list(plain.get_legal_actions(color))
        same(seed, step, lambda b: b.get_legal_actions(color), fast, plain)
        if not legal_plain:
            passes += 1
        else:
            passes = 0
            a = rng.choice(legal_plain)
            if rng.random() < 0.3:
                a = board_reversi.PlainBoard.board_num(plain, a)
                a = list(a) if rng.random() < 0.5 else a
            same(seed, step, lambda b: b._can_fliped(a, color), fast, plain)
            result = outcome(lambda: plain._move(a, color))
            assert outcome(lambda: fast._move(a, color)) == result, 'seed %d step %d: _move' % (seed, step)
            if result[0] == 'ok' and result[1]:
                history.append((a, result[1], color))
        color = 'O' if color == 'X' else 'X'
        if step > 200:
            break
    assert fast._board == plain._board, 'seed %d: final boards differ' % seed


def fingerprints():
    """The host's tamper check sees every change and no reading: through _move, _board writes, a replaced row."""
    fp = board_reversi._fingerprint
    board = board_reversi._from_state('.' * 27 + 'OX......XO' + '.' * 27 + ' X', 'reversi')
    start = fp(board)
    assert start is not None and fp(Fast()) == start, 'a fresh board and the start state agree'
    assert board._board[3][3] == 'O' and fp(board) == start, 'reading _board is no change'
    flipped = board._move('D3', 'X')
    assert fp(board) != start, '_move is a change'
    board.backpropagation('D3', flipped, 'X')
    assert fp(board) == start, 'undone'
    board._board[0][0] = 'X'
    assert fp(board) != start, 'a write into _board is a change'
    board._board[0][0] = '.'
    assert fp(board) == start
    board._board[0][0] = 'x'
    assert fp(board) not in (None, start), 'an odd cell is a change'
    board._board = None
    assert fp(board) is None, 'no board at all'
    fresh = Fast()
    fresh._board = [list('.' * 8) for _ in range(8)]
    assert fp(fresh) != start, 'a _board set before it was ever read is a change'
    read = Fast()
    read._board[0][0]
    del read._board
    assert fp(read) is None, '_board deleted'
    other = Fast()
    other._move('D3', 'X')
    del other._s  # the integers live in a slot (vars(board) shows board.py's attributes only)
    assert fp(other) is None, 'state removed'


fingerprints()
for seed in range(int(sys.argv[2])):
    game(seed)
print('ok', calls)
