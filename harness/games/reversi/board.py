"""
The course platform's board.py, name for name and behaviour for behaviour: `from board import Board` in a
submission gets this module's Board. Rows and columns are 0-based, 'D3' is column D, row 3 -> (2, 3);
`_board[row][col]` is '.', 'X' or 'O'. Black ('X') moves first.

The orders matter (students break ties by them) and agree with the TypeScript engine exactly:
get_legal_actions scans the opponent's discs row by row and yields each empty neighbour (directions N, NE, E,
SE, S, SW, W, NW) the first time it is seen, if it flips something; _can_fliped lists the flipped discs per
direction E, SE, S, SW, W, NW, N, NE, each from the far end back towards the move.

Two classes: PlainBoard is board.py as written (a list of lists scanned square by square); Board gives the same
answers from two 64-bit integers (bit row * 8 + col) and precomputed tables, several times faster. Board keeps
board.py's `_board` exact: reading it builds the list of lists once and every later move writes into those same
lists; a student's own writes into them are noticed at the next call and taken in. Anything the integers cannot
hold (a cell that is not '.', 'X' or 'O', a colour other than 'X'/'O', an action board.py would choke on) is
handed to PlainBoard's code, so its result, or its error, is board.py's.
"""
import copy as _copy

_ROWS = '12345678'
_COLS = 'ABCDEFGH'
_FLIP_DIRECTIONS = ((0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1))
_NEAR_DIRECTIONS = ((-1, 0), (-1, 1), (0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1))


class PlainBoard(object):
    """
    Reversi on a list of lists, answering as the platform's board.py does (Referee's own code): the stand-in for
    that file in the bench, and what the fast Board hands anything to that its integers cannot hold. Cells are
    '.', 'X' and 'O' in `_board[row][col]`; `empty` is the empty cell's mark.
    """

    def __init__(self):
        self.empty = '.'
        self._board = [[self.empty] * 8 for _ in range(8)]
        for row, col, disc in ((3, 3, 'O'), (3, 4, 'X'), (4, 3, 'X'), (4, 4, 'O')):
            self._board[row][col] = disc

    def __getitem__(self, index):
        return self._board[index]

    # --- coordinates -------------------------------------------------------------------------------------------

    def board_num(self, action):
        """'D3' or 'd3' -> (row 2, column 3); None when it names no square."""
        column_text, row_text = str(action[0]).upper(), str(action[1]).upper()
        if row_text in _ROWS and column_text in _COLS:
            return _ROWS.index(row_text), _COLS.index(column_text)
        return None

    def num_board(self, action):
        """(row 2, column 3) -> 'D3'; None when off the board."""
        row, col = action
        if row in range(8) and col in range(8):
            return chr(ord('A') + col) + str(row + 1)
        return None

    def is_on_board(self, x, y):
        return 0 <= x <= 7 and 0 <= y <= 7

    # --- counting ----------------------------------------------------------------------------------------------

    def count(self, color):
        """How many cells hold `color` ('X', 'O' or '.')."""
        return sum(1 for row in self._board for cell in row if cell == color)

    def get_winner(self):
        """(0 if Black has more discs, 1 if White has, 2 for a draw; the difference, 0 for a draw)."""
        black = sum(row.count('X') for row in self._board)
        white = sum(row.count('O') for row in self._board)
        if black == white:
            return 2, 0
        return (0, black - white) if black > white else (1, white - black)

    def display(self, step_time=None, total_time=None):
        """The board, then per side its discs, its last move's time and its total time (zeros without both)."""
        if not step_time or not total_time:
            step_time, total_time = {'X': 0, 'O': 0}, {'X': 0, 'O': 0}
        lines = ['  ' + ' '.join(_COLS)]
        for number, row in enumerate(self._board, 1):
            lines.append('%d %s' % (number, ' '.join(row)))
        lines.append('discs / last move time / total time:')
        for name, disc in (('Black (X)', 'X'), ('White (O)', 'O')):
            lines.append('%s: %s / %s / %s' % (name, self.count(disc), step_time[disc], total_time[disc]))
        print('\n'.join(lines) + '\n')

    # --- moves -------------------------------------------------------------------------------------------------

    def _can_fliped(self, action, color):
        """
        The names of the discs `color` would turn by playing `action` ('D3' or (row, col)), or False; the board is
        not changed. Per direction (E, SE, S, SW, W, NW, N, NE) the run is listed from its far end to the move.
        """
        if isinstance(action, str):
            action = self.board_num(action)
        row, col = action
        cells = self._board
        if not self.is_on_board(row, col) or cells[row][col] != self.empty:
            return False
        rival = 'O' if color == 'X' else 'X'
        turned = []
        for step_row, step_col in _FLIP_DIRECTIONS:
            run = []
            r, c = row + step_row, col + step_col
            while self.is_on_board(r, c) and cells[r][c] == rival:
                run.append((r, c))
                r, c = r + step_row, c + step_col
            if run and self.is_on_board(r, c) and cells[r][c] == color:
                turned.extend(reversed(run))
        if not turned:
            return False
        return [self.num_board(cell) for cell in turned]

    def _move(self, action, color):
        """Play `action` for `color`: the list of turned discs (their names), or False and no change."""
        if isinstance(action, str):
            action = self.board_num(action)
        turned = self._can_fliped(action, color)
        if not turned:
            return False
        for name in turned:
            r, c = self.board_num(name)
            self._board[r][c] = color
        self._board[action[0]][action[1]] = color
        return turned

    def backpropagation(self, action, flipped_pos, color):
        """Take back `_move`: `action` empty again, the `flipped_pos` discs back to the other colour."""
        if isinstance(action, str):
            action = self.board_num(action)
        self._board[action[0]][action[1]] = self.empty
        previous = 'O' if color == 'X' else 'X'
        for cell in flipped_pos:
            r, c = self.board_num(cell) if isinstance(cell, str) else cell
            self._board[r][c] = previous

    def get_legal_actions(self, color):
        """
        A generator of the squares `color` may play, as names. When first advanced it lists the empty squares
        next to the other colour's discs (discs row by row, neighbours N, NE, E, SE, S, SW, W, NW, each square the
        first time it is reached); each is yielded if it turns something on the board as it is at that moment.
        """
        rival = 'O' if color == 'X' else 'X'
        cells = self._board
        candidates, seen = [], set()
        for row in range(8):
            for col in range(8):
                if cells[row][col] != rival:
                    continue
                for step_row, step_col in _NEAR_DIRECTIONS:
                    r, c = row + step_row, col + step_col
                    if 0 <= r <= 7 and 0 <= c <= 7 and cells[r][c] == self.empty and (r, c) not in seen:
                        seen.add((r, c))
                        candidates.append((r, c))
        for cell in candidates:
            if self._can_fliped(cell, color):
                yield self.num_board(cell)


# ---- the fast Board: tables -------------------------------------------------------------------------------------

_FULL = (1 << 64) - 1
_INNER = 0x7e7e7e7e7e7e7e7e  # columns B..G: a sideways step from them cannot wrap to the next row
_NAMES = tuple(_COLS[sq & 7] + _ROWS[sq >> 3] for sq in range(64))
_CELL = tuple((sq >> 3, sq & 7) for sq in range(64))
# 'D3', 'd3', (2, 3) -> square; anything else goes through board.py's own code.
_SQUARE = {}
for _sq in range(64):
    _SQUARE[_NAMES[_sq]] = _sq
    _SQUARE[_NAMES[_sq].lower()] = _sq
_BIT_OF_NAME = {name: 1 << sq for name, sq in _SQUARE.items()}
# _SCAN_RANK[s - o + 9]: the place of the step o -> s in get_legal_actions' scan N, NE, E, SE, S, SW, W, NW.
_SCAN_RANK = [0] * 19
for _rank, (_dr, _dc) in enumerate(_NEAR_DIRECTIONS):
    _SCAN_RANK[_dr * 8 + _dc + 9] = _rank


def _build_rays():
    """
    Per square, the rays of _can_fliped's directions with at least two squares, as (mask, increasing): the first
    four directions (E, SE, S, SW) run towards higher squares, the last four towards lower ones. _FLIPS maps a
    flipped run (mask, and the direction's sense) to its names, far end first, as board.py lists them.
    """
    rays, flips = [], {}
    for sq in range(64):
        own = []
        for index, (dr, dc) in enumerate(_FLIP_DIRECTIONS):
            squares = []
            r, c = (sq >> 3) + dr, (sq & 7) + dc
            while 0 <= r <= 7 and 0 <= c <= 7:
                squares.append(r * 8 + c)
                r, c = r + dr, c + dc
            if len(squares) < 2:
                continue
            mask = 0
            for s in squares:
                mask |= 1 << s
            increasing = index < 4
            own.append((mask, increasing))
            run = 0
            for k in range(1, len(squares)):
                run |= 1 << squares[k - 1]
                names = tuple(_NAMES[s] for s in reversed(squares[:k]))
                flips[run if increasing else -run] = names
        rays.append(tuple(own))
    return tuple(rays), flips


_RAYS, _FLIPS = _build_rays()
# Per square, (ray, its first square) towards higher squares (_UP) and towards lower ones (_DOWN).
_UP = tuple(tuple((mask, mask & -mask) for mask, increasing in rays if increasing) for rays in _RAYS)
_DOWN = tuple(tuple((mask, 1 << (mask.bit_length() - 1)) for mask, increasing in rays if not increasing)
              for rays in _RAYS)
_X_BITS = str.maketrans({'X': '1', 'O': '0', '.': '0'})
_O_BITS = str.maketrans({'X': '0', 'O': '1', '.': '0'})


# The board turned half a circle (A1 <-> H8) is int.from_bytes(x.to_bytes(8, 'little').translate(_REVERSED_BYTE),
# 'big'): its bytes in the other order, each byte's bits reversed.
_REVERSED_BYTE = bytes(int('{:08b}'.format(b)[::-1], 2) for b in range(256))
_LANE = 80  # where the turned board sits in a packed pair (the 80 in _legal): a step of at most 18 bits cannot reach it
_INNER_PAIR = _INNER | _INNER << _LANE


def _legal(p, o, _rev=_REVERSED_BYTE, _full=_FULL, _inner=_INNER_PAIR):
    """Squares where the side with discs p may move against o. The board and its half-turned copy share one
    integer, so a step towards higher squares covers its opposite direction too (E also W, S also N, SE also NW,
    SW also NE). Sideways, a run of o's discs is crossed by a carry: adding the square after a p disc to the run
    ends on the square past it. The other three: the runs of o's discs next to p, doubled twice (Kogge-Stone:
    runs of up to six), then one step on. About 55 integer operations and three byte swaps (the unturned board,
    the sideways runs filled step by step: about 90)."""
    pp = p | int.from_bytes(p.to_bytes(8, 'little').translate(_rev), 'big') << 80
    oo = o | int.from_bytes(o.to_bytes(8, 'little').translate(_rev), 'big') << 80
    mm = oo & _inner  # no run crosses from column H to column A of the next row
    moves = mm + ((pp << 1) & mm)
    t = oo & (pp << 8); t |= oo & (t << 8); pair = oo & (oo << 8)
    t |= pair & (t << 16); t |= pair & (t << 16)
    moves |= t << 8
    t = mm & (pp << 9); t |= mm & (t << 9); pair = mm & (mm << 9)
    t |= pair & (t << 18); t |= pair & (t << 18)
    moves |= t << 9
    t = mm & (pp << 7); t |= mm & (t << 7); pair = mm & (mm << 7)
    t |= pair & (t << 14); t |= pair & (t << 14)
    moves |= t << 7
    moves |= int.from_bytes(((moves >> 80) & _full).to_bytes(8, 'little').translate(_rev), 'big')
    return moves & ~(p | o) & _full


# get_legal_actions' order: a square comes when the scan first reaches it, from its lowest opponent neighbour o,
# as o * 8 + the step's place in the scan (N, NE, E, SE, S, SW, W, NW). A square's lowest opponent neighbour is
# the first of s-9, s-8, s-7, s-1, s+1, s+7, s+8, s+9 that is the opponent's, so each class of squares by that
# step is found with one shift, and a class's keys come from one table: _KEY_BY_STEP[k][s + 1] (s + 1 is the
# square's bit_length, which reads a set's top square with no new integer; x & -x makes two).
_NOT_A = 0xfefefefefefefefe
_NOT_H = 0x7f7f7f7f7f7f7f7f
_BIT_OF_LENGTH = tuple([0] + [1 << _s for _s in range(64)])
_NAME_OF_KEY = [None] * 512
_KEY_BY_STEP = []
for _off in (-9, -8, -7, -1, 1, 7, 8, 9):
    _keys = [None] * 65
    for _s in range(64):
        _o = _s + _off
        if 0 <= _o < 64 and abs((_o & 7) - (_s & 7)) <= 1:
            _keys[_s + 1] = _o * 8 + _SCAN_RANK[_s - _o + 9]
            _NAME_OF_KEY[_o * 8 + _SCAN_RANK[_s - _o + 9]] = _NAMES[_s]
    _KEY_BY_STEP.append(tuple(_keys))


_SCAN_STEPS = tuple(zip((0, 1, 2, 8, 10, 16, 17), (_NOT_A, _FULL, _NOT_H, _NOT_A, _NOT_H, _NOT_A, _FULL), _KEY_BY_STEP))


def _in_scan_order(squares, opp, _steps=_SCAN_STEPS, _bit=_BIT_OF_LENGTH, _name=_NAME_OF_KEY.__getitem__,
                   _last=_KEY_BY_STEP[7]):
    """The squares (a set, each next to one of opp's discs) in get_legal_actions' order, as names: each class
    by its step (the lowest opponent neighbour's place, in order; the last class is what is left), then sorted.
    Every step's neighbour set is one shift of opp << 9 (s-9 is the opponent's: bit s of opp << 9; s-8: of
    opp << 8 = (opp << 9) >> 1; ... s+8: (opp << 9) >> 17)."""
    keys = []
    add = keys.append
    high = opp << 9
    for shift, mask, table in _steps:
        t = squares & (high >> shift) & mask
        if t:
            squares ^= t
            while t:
                n = t.bit_length()
                t ^= _bit[n]
                add(table[n])
            if not squares:
                keys.sort()
                return list(map(_name, keys))
    while squares:
        n = squares.bit_length()
        squares ^= _bit[n]
        add(_last[n])
    keys.sort()
    return list(map(_name, keys))


def _flips(sq, own, opp, _up=_UP, _down=_DOWN, _names=_FLIPS):
    """(flipped set, names in board.py's order) for own playing the empty square sq; (0, []) if nothing flips.
    Along a ray the first square that is not the opponent's ends the run: the lowest such bit on a ray towards
    higher squares, the highest on one towards lower squares; the run flips when that square is own. A ray is
    looked at only when its first square is the opponent's, so a run that flips is never empty."""
    flipped = 0
    names = []
    free = ~opp
    for mask, near in _up[sq]:
        if opp & near:
            stop = mask & free
            first = stop & -stop
            if first & own:
                run = mask & (first - 1)
                flipped |= run
                names += _names[run]
    for mask, near in _down[sq]:
        if opp & near:
            stop = mask & free
            if stop:
                first = 1 << (stop.bit_length() - 1)
                if first & own:
                    run = mask & -(first << 1)
                    flipped |= run
                    names += _names[-run]
    return flipped, names


def _popcount(x):
    return bin(x).count('1')


def _bits_of_rows(rows):
    """(black, white) from a list of 8 lists of 8 cells '.', 'X', 'O'; None for anything else."""
    if type(rows) is not list or len(rows) != 8:
        return None
    for row in rows:
        if type(row) is not list or len(row) != 8:
            return None
        for cell in row:
            if type(cell) is not str:
                return None
    text = ''.join([''.join(row) for row in rows])
    if len(text) != 64 or text.strip('.XO'):
        return None
    reverse = text[::-1]
    return int(reverse.translate(_X_BITS), 2), int(reverse.translate(_O_BITS), 2)


def _rows_of_bits(black, white):
    rows = []
    for r in range(8):
        row = []
        for c in range(8):
            bit = 1 << (r * 8 + c)
            row.append('X' if black & bit else 'O' if white & bit else '.')
        rows.append(row)
    return rows


# The instance's own attribute dict, read past Board's __dict__ property (which shows board.py's attributes).
_fields_of = PlainBoard.__dict__['__dict__'].__get__
# The shared state of a Board, one list so that copy.copy(board) shares it as it shares board.py's _board:
_BLACK, _WHITE, _ROWS_SEEN, _SNAPSHOT, _PLAIN = 0, 1, 2, 3, 4
# _ROWS_SEEN: the `_board` lists last synced with (None until `_board` is first read or set); _SNAPSHOT: their
# contents then; _PLAIN: True once the board holds something the integers cannot, after which PlainBoard's code
# runs it. `_board` itself lives in the instance's __dict__ once read, so reading it is a plain attribute read.
_ABSENT = object()


def _rows_moved(fields, state):
    """Whether `_board` (in the instance's __dict__ `fields`) was set, deleted or written since the last sync."""
    rows = fields.get('_board', _ABSENT)
    if rows is _ABSENT:
        return state[_ROWS_SEEN] is not None
    if rows is not state[_ROWS_SEEN] or rows is None:
        return True
    try:
        return rows != state[_SNAPSHOT]
    except Exception:
        return True


def _sync(fields, state):
    """Take in a student's writes into `_board` since the last call (or go plain when they are not '.XO')."""
    if not _rows_moved(fields, state):
        return
    rows = fields.get('_board', _ABSENT)
    if rows is _ABSENT:  # deleted: board.py's code, and its AttributeError, from now on
        state[_PLAIN] = True
        return
    state[_ROWS_SEEN] = rows
    bits = _bits_of_rows(rows)
    if bits is None:
        state[_PLAIN] = True
        return
    state[_BLACK], state[_WHITE] = bits
    state[_SNAPSHOT] = [row[:] for row in rows]


def _square_of(action):
    """'D3', 'd3', (2, 3) or [2, 3] -> 0..63; -1 for anything else (left to board.py's own code)."""
    if type(action) is str:
        return _SQUARE.get(action, -1)
    if (type(action) is tuple or type(action) is list) and len(action) == 2:
        x, y = action
        if type(x) is int and type(y) is int and 0 <= x <= 7 and 0 <= y <= 7:
            return x * 8 + y
    return -1


def _write(state, names, sq, color):
    """Mirror a move into the `_board` lists handed out (and their snapshot)."""
    rows, snapshot = state[_ROWS_SEEN], state[_SNAPSHOT]
    r, c = _CELL[sq]
    rows[r][c] = color
    snapshot[r][c] = color
    for name in names:
        r, c = _CELL[_SQUARE[name]]
        rows[r][c] = color
        snapshot[r][c] = color


class _RowsOnFirstRead(object):
    """
    `_board` until it is first read: builds board.py's list of lists from the integers and stores it in the
    instance's __dict__, which from then on answers every read directly (this descriptor defines no __set__, so
    the instance's own attribute wins). A student's assignment or writes are noticed by the next method call.
    """

    def __get__(self, board, owner=None):
        if board is None:
            return self
        state = board._s
        if state[_ROWS_SEEN] is not None or state[_PLAIN]:  # it was handed out, then deleted: as in board.py
            raise AttributeError("'%s' object has no attribute '_board'" % type(board).__name__)
        return _hand_out_rows(_fields_of(board), state)


def _hand_out_rows(fields, state):
    """Build board.py's list of lists from the integers and keep it in the instance's dict from now on."""
    rows = _rows_of_bits(state[_BLACK], state[_WHITE])
    state[_ROWS_SEEN] = rows
    state[_SNAPSHOT] = [row[:] for row in rows]
    fields['_board'] = rows
    return rows


_set_fields = PlainBoard.__dict__['__dict__'].__set__


def _board_py_fields(board):
    """
    `board.__dict__` and `vars(board)`: the instance dict as board.py's shows it, {'empty': '.', '_board': rows}.
    The integers live in a slot, outside it; reading it hands out `_board` as reading the attribute does.
    """
    fields = _fields_of(board)
    try:
        state = _state_of(board)
    except AttributeError:  # a Board being rebuilt by copy.copy or pickle: no state yet
        return fields
    if '_board' not in fields and state[_ROWS_SEEN] is None and not state[_PLAIN]:
        _hand_out_rows(fields, state)
    return fields


class Board(PlainBoard):
    __slots__ = ('_s',)  # the integers, outside the instance dict board.py's code and students look at

    def __init__(self):
        self.empty = '.'
        self._s = [0x0000000810000000, 0x0000001008000000, None, None, False]

    _board = _RowsOnFirstRead()
    __dict__ = property(_board_py_fields, _set_fields)  # board.py's instances let __dict__ be replaced too

    def __delattr__(self, name):
        if name == '_board' and '_board' not in _fields_of(self):
            state = self._s
            if state[_ROWS_SEEN] is None and not state[_PLAIN]:  # never read, but board.py's would be there
                state[_PLAIN] = True
                # An open get_legal_actions generator sees the board changed (it checks the integers by
                # identity) and goes on through board.py's code, which raises as board.py's would.
                state[_BLACK] = None
                return
        object.__delattr__(self, name)

    def __deepcopy__(self, memo):
        """
        A copy costs the same whatever was read before: the integers, plus the rows by slicing once `_board` was
        handed out (never through copy.deepcopy's per-cell walk). Only a board gone plain, or extra attributes a
        student set, go through copy.deepcopy.
        """
        state = self._s
        fields = _fields_of(self)
        fresh = Board.__new__(Board)
        memo[id(self)] = fresh
        fresh_fields = _fields_of(fresh)
        if state[_ROWS_SEEN] is not None or '_board' in fields:
            _sync(fields, state)
        if state[_PLAIN]:
            fresh_fields.update(_copy.deepcopy(fields, memo))
            fresh._s = _copy.deepcopy(state, memo)
            return fresh
        rows = state[_ROWS_SEEN]
        for key, value in fields.items():
            if key != '_board':
                fresh_fields[key] = value if key == 'empty' and value == '.' else _copy.deepcopy(value, memo)
        if rows is None:
            fresh._s = [state[_BLACK], state[_WHITE], None, None, False]
        else:
            copied = [row[:] for row in rows]
            memo[id(rows)] = copied
            fresh_fields['_board'] = copied
            fresh._s = [state[_BLACK], state[_WHITE], copied, [row[:] for row in rows], False]
        return fresh

    def count(self, color):
        state = self._s
        fields = _fields_of(self)
        if state[_ROWS_SEEN] is not None or '_board' in fields:
            _sync(fields, state)
        if state[_PLAIN]:
            return PlainBoard.count(self, color)
        if color == 'X':
            return _popcount(state[_BLACK])
        if color == 'O':
            return _popcount(state[_WHITE])
        if color == '.':
            return 64 - _popcount(state[_BLACK] | state[_WHITE])
        return 0

    def get_winner(self):
        state = self._s
        fields = _fields_of(self)
        if state[_ROWS_SEEN] is not None or '_board' in fields:
            _sync(fields, state)
        if state[_PLAIN]:
            return PlainBoard.get_winner(self)
        black, white = _popcount(state[_BLACK]), _popcount(state[_WHITE])
        if black > white:
            return 0, black - white
        elif black < white:
            return 1, white - black
        return 2, 0

    def display(self, step_time=None, total_time=None):
        state = self._s
        if state[_ROWS_SEEN] is not None or state[_PLAIN] or '_board' in _fields_of(self):
            return PlainBoard.display(self, step_time, total_time)
        # board.py's display, from a throwaway copy of the rows so reading them costs nothing later
        shown = PlainBoard.__new__(PlainBoard)
        shown.empty = self.empty
        shown._board = _rows_of_bits(state[_BLACK], state[_WHITE])
        return PlainBoard.display(shown, step_time, total_time)

    def _square(self, action, color):
        """The square of a well-formed action for colour 'X'/'O' on an integer board, or -1 (board.py's code)."""
        state = self._s
        fields = _fields_of(self)
        if state[_ROWS_SEEN] is not None or '_board' in fields:
            _sync(fields, state)
        if state[_PLAIN] or (color != 'X' and color != 'O') or self.empty != '.':
            return -1
        return _square_of(action)

    def _can_fliped(self, action, color):
        sq = self._square(action, color)
        if sq < 0:
            return PlainBoard._can_fliped(self, action, color)
        state = self._s
        black, white = state[_BLACK], state[_WHITE]
        if (black | white) >> sq & 1:
            return False
        _, names = _flips(sq, black, white) if color == 'X' else _flips(sq, white, black)
        return names if names else False

    def _move(self, action, color):
        state = self._s
        fields = _fields_of(self)
        if state[2] is not None or '_board' in fields:  # _ROWS_SEEN: literal indices on the hot paths
            _sync(fields, state)
        sq = _SQUARE.get(action, -1) if type(action) is str else _square_of(action)
        if sq < 0 or state[4] or self.empty != '.':
            return PlainBoard._move(self, action, color)
        black, white = state[0], state[1]
        if color == 'X':
            if (black | white) >> sq & 1:
                return False
            flipped, names = _flips(sq, black, white)
            if not flipped:
                return False
            state[0] = black | flipped | 1 << sq
            state[1] = white ^ flipped
        elif color == 'O':
            if (black | white) >> sq & 1:
                return False
            flipped, names = _flips(sq, white, black)
            if not flipped:
                return False
            state[1] = white | flipped | 1 << sq
            state[0] = black ^ flipped
        else:
            return PlainBoard._move(self, action, color)
        if state[2] is not None:
            _write(state, names, sq, color)
        return names

    def backpropagation(self, action, flipped_pos, color):
        state = self._s
        fields = _fields_of(self)
        if state[_ROWS_SEEN] is not None or '_board' in fields:
            _sync(fields, state)
        sq = _SQUARE.get(action, -1) if type(action) is str else _square_of(action)
        flipped = 0
        try:
            for p in flipped_pos:
                flipped |= _BIT_OF_NAME[p]
        except (KeyError, TypeError):  # not a list of 'D3' names: board.py's own code
            sq = -1
        if sq < 0 or state[_PLAIN] or self.empty != '.':
            return PlainBoard.backpropagation(self, action, flipped_pos, color)
        bit = 1 << sq
        black, white = state[_BLACK] & ~bit, state[_WHITE] & ~bit
        op_color = 'O' if color == 'X' else 'X'
        if op_color == 'X':
            state[_BLACK], state[_WHITE] = black | flipped, white & ~flipped
        else:
            state[_BLACK], state[_WHITE] = black & ~flipped, white | flipped
        rows = state[_ROWS_SEEN]
        if rows is not None:
            snapshot = state[_SNAPSHOT]
            r, c = _CELL[sq]
            rows[r][c] = snapshot[r][c] = '.'
            for p in flipped_pos:
                r, c = _CELL[_SQUARE[p]]
                rows[r][c] = snapshot[r][c] = op_color

    def get_legal_actions(self, color):
        """A generator of the squares `color` may play, as 'D3' strings, in board.py's order. As board.py's, it
        looks at the board when first advanced, and checks each later square against the board as it is then."""
        state = self._s
        fields = _fields_of(self)
        if state[2] is not None or '_board' in fields:  # _ROWS_SEEN: literal indices on the hot paths
            _sync(fields, state)
        black, white = state[0], state[1]
        if color == 'X':
            own, opp = black, white
        elif color == 'O':
            own, opp = white, black
        else:
            own = None
        if own is None or state[4] or self.empty != '.':
            yield from PlainBoard.get_legal_actions(self, color)
            return
        legal = _legal(own, opp)
        if not legal:
            return
        names = _in_scan_order(legal, opp)
        if state[2] is None and '_board' not in fields:
            # The common case, `_board` never read: after each square, checks by identity alone, so that only a
            # board that may have changed (an int rebuilt, rows handed out or set) pays for the full test.
            for name in names:
                yield name
                if state[0] is not black or state[1] is not white or state[2] is not None or '_board' in fields:
                    if state[0] != black or state[1] != white or (
                            (state[2] is not None or '_board' in fields) and _rows_moved(fields, state)):
                        break
            else:
                return
        else:
            for name in names:
                yield name
                if state[0] != black or state[1] != white or _rows_moved(fields, state):
                    break
            else:
                return
        # The board changed while the caller iterated: go on as board.py does, through the squares it collected at
        # the start, each checked against the board as it is now.
        near = _in_scan_order(_NEAR_ALL(opp) & ~(own | opp), opp)
        for name in near[near.index(name) + 1:]:
            if self._can_fliped(_CELL[_SQUARE[name]], color):
                yield name


_state_of = Board.__dict__['_s'].__get__  # the slot itself, whatever a submission puts on the class later


def _NEAR_ALL(discs):
    """Every square next to one of `discs`."""
    m = discs & _INNER
    near = (discs << 8) | (discs >> 8) | (m << 1) | (m >> 1) | (m << 9) | (m >> 9) | (m << 7) | (m >> 7)
    # a disc on column A/H still reaches sideways inwards
    a = discs & 0x0101010101010101
    h = discs & 0x8080808080808080
    near |= (a << 1) | (a << 9) | (a >> 7) | (h >> 1) | (h >> 9) | (h << 7)
    return near & _FULL


def _from_state(text, game_id):
    """The host's board for an encoded state: 64 cells of . X O (A1..H1, A2..H8), a space, the side to move."""
    board = Board()
    rows = [list(text[row * 8:row * 8 + 8]) for row in range(8)]
    bits = _bits_of_rows(rows)
    if bits is None:
        board._board = rows
    else:
        board._s[_BLACK], board._s[_WHITE] = bits
    return board


# The tamper fingerprint's own translation tables: bytes, which nothing can change (a dict could be edited).
_X_TABLE = bytes.maketrans(b'XO.', b'100')
_O_TABLE = bytes.maketrans(b'XO.', b'010')


def _fingerprint(board, _type=type, _len=len, _list=list, _str=str, _int=int, _dict=dict, _get=dict.get,
                 _fields=_fields_of, _state=_state_of, _join=''.join, _strip=str.strip, _encode=str.encode,
                 _translate=bytes.translate, _x=_X_TABLE, _o=_O_TABLE):
    """
    The board's contents as a plain string, or None when it no longer holds a board. The same contents give the
    same string whether the board lives in its integers or in `_board`'s lists (reading `_board` is no change).
    Everything it calls is bound when the module loads and none of it looks up a name at call time, so a
    submission replacing builtins or this module's globals cannot change the answer.
    """
    try:
        fields = _fields(board)  # the instance dict itself (not the __dict__ property, which hands out _board)
        state = _state(board)
    except Exception:
        return None
    if _type(fields) is not _dict:  # a dict subclass could answer .get() with anything
        return None
    rows = _get(fields, '_board')
    if _type(state) is _list and _len(state) == 5 and '_board' not in fields and state[2] is None and not state[4]:
        black, white = state[0], state[1]  # never read: the integers are the board
        if _type(black) is not _int or _type(white) is not _int:
            return None
        return '%x,%x' % (black, white)
    if _type(rows) is not _list or _len(rows) != 8:
        return None
    cells = []
    for row in rows:
        if _type(row) is not _list or _len(row) != 8:
            return None
        for cell in row:
            if _type(cell) is not _str:
                return None
            cells.append(cell)
    text = _join(cells)
    if _len(text) == 64 and not _strip(text, '.XO'):
        # As _bits_of_rows: A1 is bit 0, so the text is read from its end.
        reverse = _encode(text[::-1], 'ascii')
        return '%x,%x' % (_int(_translate(reverse, _x), 2), _int(_translate(reverse, _o), 2))
    return '|'.join(cells)
