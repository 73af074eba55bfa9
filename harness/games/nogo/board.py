"""
The NoGo board for Python submissions, name for name with the TypeScript Board in harness/games/nogo/board.ts,
plus snake_case aliases. `from board import Board` gets this class when the game is nogo.

9 x 9; 'E5' is file E (col 4), row 5 (row index 4); row 1 is the bottom; files skip I (A B C D E F G H J).
Actions are 'E5' or (row, col). A move is illegal if it captures or leaves its own group without liberties.
Getters return copies, so only the methods change a board (what the tamper check compares).
"""
import re

SIZE = 9
CELLS = SIZE * SIZE
# E5, the cell the seed course code keeps Black's first move off ("legal(): 第一步不可在正中央").
CENTER = 4 * SIZE + 4
EMPTY, BLACK, WHITE = 0, 1, 2
_FILES = 'ABCDEFGHJ'
_SYMBOL = ('.', 'X', 'O')
_CELL = re.compile(r'[A-HJ][1-9]\Z')


def _neighbours(cell):
    row, col = divmod(cell, SIZE)
    found = []
    if row > 0:
        found.append(cell - SIZE)
    if row < SIZE - 1:
        found.append(cell + SIZE)
    if col > 0:
        found.append(cell - 1)
    if col < SIZE - 1:
        found.append(cell + 1)
    return tuple(found)


_NEIGHBOURS = tuple(_neighbours(cell) for cell in range(CELLS))


def _piece_of(color):
    if color == 'X':
        return BLACK
    if color == 'O':
        return WHITE
    raise ValueError("color must be 'X' (Black, moves first) or 'O' (White), got %r" % (color,))


def cell_name(cell):
    """0..80 -> 'A1'..'J9'."""
    return _FILES[cell % SIZE] + str(cell // SIZE + 1)


# Every cell's name, built once: getLegalActions reads them instead of building a string per legal cell.
_NAMES = tuple(cell_name(cell) for cell in range(CELLS))


def to_cell(action):
    """'E5' or (4, 4) -> cell index, or -1 when it names no cell (strict: capital file, no I)."""
    if isinstance(action, str):
        if not _CELL.match(action):
            return -1
        return (int(action[1]) - 1) * SIZE + _FILES.index(action[0])
    if isinstance(action, (list, tuple)) and len(action) == 2:
        row, col = action
        if type(row) is int and type(col) is int and 0 <= row < SIZE and 0 <= col < SIZE:
            return row * SIZE + col
    return -1


# The rules on 81-bit integers (bit = cell): a group is flooded by whole-board shifts, its liberties are one more
# shift, and the legal cells of a position are three set operations on the result — no per-cell walk in Python.
_FULL = (1 << CELLS) - 1
_NOT_FIRST_FILE = sum(1 << cell for cell in range(CELLS) if cell % SIZE != 0)
_NOT_LAST_FILE = sum(1 << cell for cell in range(CELLS) if cell % SIZE != SIZE - 1)
# bytes(cells) -> one '1'/'0' character per cell for each piece, read last cell first by int(..., 2)
_IS_BLACK = bytes.maketrans(bytes((EMPTY, BLACK, WHITE)), b'010')
_IS_WHITE = bytes.maketrans(bytes((EMPTY, BLACK, WHITE)), b'001')
_VALUES = bytes((EMPTY, BLACK, WHITE))
_NEAR_BITS = tuple(sum(1 << n for n in _NEIGHBOURS[cell]) for cell in range(CELLS))


def _spread(x):
    """The cells next to any cell of x (files A and J do not wrap onto the neighbouring rows)."""
    return (((x << 1) & _NOT_FIRST_FILE) | ((x >> 1) & _NOT_LAST_FILE) | (x << SIZE) | (x >> SIZE)) & _FULL


def _bits(cells):
    """(black, white) as integers, from the list of cell values (0, 1, 2); None if it holds anything else."""
    if type(cells) is not list:
        return None
    try:
        raw = bytes(cells)[::-1]
    except (TypeError, ValueError):
        return None
    if len(raw) != CELLS or raw.translate(None, _VALUES):
        return None
    return int(raw.translate(_IS_BLACK), 2), int(raw.translate(_IS_WHITE), 2)


def _group(seed, stones):
    """The group of `stones` that holds the cell set `seed`."""
    group = seed
    while True:
        grown = group | (_spread(group) & stones)
        if grown == group:
            return group
        group = grown


def _legal_mask(own, opp, _a=_NOT_FIRST_FILE, _j=_NOT_LAST_FILE, _full=_FULL, _size=SIZE):
    """
    The empty cells `own` may play: not the last liberty of an opponent group (a capture) and, unless the cell has
    an empty neighbour, next to one of its own groups that keeps another liberty (else it is suicide). The flood
    and the spreads are written out here: this runs once a ply of every playout.
    """
    empty = ~(own | opp) & _full
    captures = 0  # the last liberty of each opponent group in atari
    breathing = 0  # own groups with two liberties or more
    for stones, mine in ((opp, False), (own, True)):
        left = stones
        while left:
            group = left & -left
            while True:
                near = ((group << 1) & _a) | ((group >> 1) & _j) | (group << _size) | (group >> _size)
                grown = group | (near & stones)
                if grown == group:
                    break
                group = grown
            left &= ~group
            libs = near & empty
            if mine:
                if libs & (libs - 1):
                    breathing |= group
            elif libs & (libs - 1) == 0:
                captures |= libs
    return empty & ~captures & (_spread(empty) | _spread(breathing))


def _legal_bits(cells, piece):
    """The cells `piece` may play as an integer, or None when `cells` holds something the integers cannot."""
    bits = _bits(cells)
    if bits is None:
        return None
    black, white = bits
    return _legal_mask(black, white) if piece == BLACK else _legal_mask(white, black)


def _legal_cells(cells, piece):
    """The cells `piece` may play, ascending."""
    legal = _legal_bits(cells, piece)
    if legal is None:
        return _legal_cells_by_walk(cells, piece)
    found = []
    for row in range(SIZE):
        found += _ROW_CELLS[row][(legal >> (row * SIZE)) & _ROW]
    return found


# _ROW_CELLS[row][pattern] / _ROW_NAMES: the cells of one row (and their names) whose bits are set in the 9-bit pattern
_ROW = (1 << SIZE) - 1
_ROW_CELLS = tuple(tuple(tuple(row * SIZE + col for col in range(SIZE) if pattern >> col & 1) for pattern in range(1 << SIZE))
                   for row in range(SIZE))
_ROW_NAMES = tuple(tuple(tuple(_NAMES[cell] for cell in cells) for cells in row) for row in _ROW_CELLS)


def _is_legal(cells, piece, cell):
    if type(cell) is not int or cell < 0 or cell >= CELLS or cells[cell] != EMPTY:
        return False
    bits = _bits(cells)
    if bits is None:
        group_of, liberties = _label_groups(cells)
        return _legal_after_labelling(cells, piece, cell, group_of, liberties)
    own, opp = bits if piece == BLACK else bits[::-1]
    # Only the groups next to the cell matter: flood those alone.
    empty = ~(own | opp) & _FULL
    here = 1 << cell
    near = _NEAR_BITS[cell]
    safe = near & empty != 0
    for n in _NEIGHBOURS[cell]:
        stone = 1 << n
        if opp & stone:
            if _spread(_group(stone, opp)) & empty == here:
                return False
        elif not safe and own & stone:
            libs = _spread(_group(stone, own)) & empty
            safe = libs & (libs - 1) != 0
    return safe


def _label_groups(cells):
    """Group id per cell (-1 for empty) and the number of distinct liberties per group: the walk for cells the
    integers cannot hold (a submission that wrote something else into `_cells`)."""
    group_of = [-1] * CELLS
    liberties = []
    for start in range(CELLS):
        piece = cells[start]
        if piece == EMPTY or group_of[start] >= 0:
            continue
        group = len(liberties)
        group_of[start] = group
        stack = [start]
        libs = set()
        while stack:
            cell = stack.pop()
            for n in _NEIGHBOURS[cell]:
                value = cells[n]
                if value == EMPTY:
                    libs.add(n)
                elif value == piece and group_of[n] < 0:
                    group_of[n] = group
                    stack.append(n)
        liberties.append(len(libs))
    return group_of, liberties


def _legal_after_labelling(cells, piece, cell, group_of, liberties):
    safe = False
    for n in _NEIGHBOURS[cell]:
        value = cells[n]
        if value == EMPTY:
            safe = True
        elif value == piece:
            safe = safe or liberties[group_of[n]] >= 2
        elif liberties[group_of[n]] == 1:
            return False
    return safe


def _legal_cells_by_walk(cells, piece):
    group_of, liberties = _label_groups(cells)
    return [cell for cell in range(CELLS)
            if cells[cell] == EMPTY and _legal_after_labelling(cells, piece, cell, group_of, liberties)]


class Board(object):
    def __init__(self, center_first_move_banned=True):
        """
        The empty 9 x 9 board, under the centre rule by default (第一步不可在正中央: Black's first move may not be
        E5); Board(False) is the board without it. The board handed to get_move follows the game's rule.
        """
        self.empty = '.'
        self.size = SIZE
        self._cells = [EMPTY] * CELLS
        self._last_move = -1
        self._history = []
        self.center_first_move_banned = center_first_move_banned

    def _banned_now(self, cell):
        """Whether `cell` is the centre while the centre rule forbids it: the board is still empty."""
        return cell == CENTER and getattr(self, 'center_first_move_banned', False) and not any(self._cells)

    def get(self, row, col):
        """'.', 'X' or 'O' at (row, col), 0-based."""
        if not self.isOnBoard(row, col):
            raise IndexError('(%r, %r) is off the board: row and col go 0..%d' % (row, col, SIZE - 1))
        return _SYMBOL[self._cells[row * SIZE + col]]

    def isOnBoard(self, row, col):
        return type(row) is int and type(col) is int and 0 <= row < SIZE and 0 <= col < SIZE

    @property
    def board(self):
        """9 rows of '.', 'X', 'O', row 0 = row '1' (a fresh copy)."""
        return [[_SYMBOL[v] for v in self._cells[r * SIZE:(r + 1) * SIZE]] for r in range(SIZE)]

    @property
    def lastMove(self):
        """The last move, e.g. 'E5', or None before the first."""
        return None if self._last_move < 0 else cell_name(self._last_move)

    def getLegalActions(self, color):
        """
        Cells `color` may play (empty, no capture, no suicide; not E5 as the first move under the centre rule), as
        'A1', 'B1', ... row by row from row 1.
        """
        piece = _piece_of(color)
        legal = _legal_bits(self._cells, piece)
        if legal is not None:
            if legal >> CENTER & 1 and self._banned_now(CENTER):
                legal ^= 1 << CENTER
            names = []
            for row in range(SIZE):
                names += _ROW_NAMES[row][(legal >> (row * SIZE)) & _ROW]
            return names
        cells = _legal_cells_by_walk(self._cells, piece)
        if self._banned_now(CENTER):
            cells = [cell for cell in cells if cell != CENTER]
        return [_NAMES[cell] for cell in cells]

    def get_legal_actions(self, color):
        return self.getLegalActions(color)

    def isLegal(self, action, color):
        cell = to_cell(action)
        return not self._banned_now(cell) and _is_legal(self._cells, _piece_of(color), cell)

    def move(self, action, color):
        """Places a `color` stone: True, or False (and the board unchanged) when the move is not legal."""
        piece = _piece_of(color)
        cell = to_cell(action)
        if self._banned_now(cell) or not _is_legal(self._cells, piece, cell):
            return False
        self._cells[cell] = piece
        self._history.append(self._last_move)
        self._last_move = cell
        return True

    def _move(self, action, color):
        return self.move(action, color)

    def undo(self, action):
        """Takes the stone on `action` back off the board."""
        cell = to_cell(action)
        if cell < 0 or self._cells[cell] == EMPTY:
            raise ValueError('cannot undo %r: no stone there' % (action,))
        self._cells[cell] = EMPTY
        self._last_move = self._history.pop() if self._history else -1

    def backpropagation(self, action, *ignored):
        """board.py's name for undo; extra arguments are accepted for symmetry with Reversi and ignored."""
        self.undo(action)

    def count(self, color):
        return self._cells.count(_piece_of(color))

    def getWinner(self, toMove):
        """With `toMove` to play: (0 Black wins | 1 White wins, 1) when `toMove` has no legal move, else None."""
        piece = _piece_of(toMove)
        legal = _legal_bits(self._cells, piece)
        if legal if legal is not None else _legal_cells_by_walk(self._cells, piece):
            return None
        return (1 if piece == BLACK else 0, 1)

    def get_winner(self, toMove):
        return self.getWinner(toMove)

    def toString(self):
        lines = []
        for row in range(SIZE - 1, -1, -1):
            lines.append(str(row + 1).rjust(2) + ''.join(' ' + _SYMBOL[v] for v in self._cells[row * SIZE:(row + 1) * SIZE]))
        lines.append('   ' + ' '.join(_FILES))
        return '\n'.join(lines)

    def __str__(self):
        return self.toString()

    def display(self):
        print(self.toString())

    def copy(self):
        """An independent copy (deepcopy(board) works too)."""
        board = Board(getattr(self, 'center_first_move_banned', False))
        board._cells = list(self._cells)
        board._last_move = self._last_move
        board._history = list(self._history)
        return board

    # snake_case aliases
    is_legal = isLegal
    is_on_board = isOnBoard
    last_move = lastMove


def _from_state(text, game_id):
    """The host's board for an encoded state: rows 9 down to 1, '/'-separated, x o and digits for empties, then a
    space and the last move or '-'."""
    parts = text.split(' ')
    grid_text, last_text = parts[0], parts[1]
    # ' !E5' after the empty board: the centre rule is on (see harness/games/nogo/codec.ts).
    board = Board(len(parts) > 2 and parts[2] == '!E5')
    cells = board._cells
    for i, row_text in enumerate(grid_text.split('/')):
        row = SIZE - 1 - i
        col = 0
        for ch in row_text:
            if ch == 'x' or ch == 'o':
                cells[row * SIZE + col] = BLACK if ch == 'x' else WHITE
                col += 1
            else:
                col += int(ch)
    if last_text != '-':
        board._last_move = to_cell(last_text)
    return board


def _fingerprint(board, _type=type, _list=list, _int=int, _attrs=object.__getattribute__, _dict=dict, _get=dict.get):
    """The position as a plain string, or None when the board's fields are no longer what the class keeps."""
    try:
        fields = _attrs(board, '__dict__')
        cells, last = _get(fields, '_cells'), _get(fields, '_last_move')
    except Exception:
        return None
    if _type(fields) is not _dict:  # a dict subclass could answer .get() with anything
        return None
    if _type(cells) is not _list or _type(last) is not _int:
        return None
    for value in cells:
        if _type(value) is not _int:
            return None
    return '%s:%d' % (_list.__repr__(cells), last)
