"""
The Connect Four board (both variants) for Python submissions, name for name with the TypeScript Board in
harness/games/connect4/board.ts, plus snake_case aliases. `from board import Board` gets this class when the game
is connect4 or connect4-nogo.

Rows are 0-based from the bottom, columns 0-based from the left; an action is a column, '3' or 3. `top[col]` is
the row the next disc in that column lands on, already stepping over the no-go cell (M when the column is full).
Getters return copies, so only the methods change a board (what the tamper check compares).
"""
import re

EMPTY, FIRST, SECOND, NO_GO = 0, 1, 2, 3
WIN_LENGTH = 4
_SYMBOL = {EMPTY: '.', FIRST: 'X', SECOND: 'O', NO_GO: '#'}
_DIRECTIONS = ((0, 1), (1, 0), (1, 1), (1, -1))
_COLUMN = re.compile(r'(0|[1-9][0-9]?)\Z')
# '0'..'31', built once (a board is at most 32 columns wide).
_COLUMN_NAMES = tuple(str(col) for col in range(32))


def _check_color(color):
    if color == 'X' or color == 'O':
        return color
    raise ValueError("color must be 'X' (moves first) or 'O', got %r" % (color,))


def _to_column(action, cols):
    """'3' or 3 -> 3 when it names a column of a board `cols` wide, else -1."""
    if isinstance(action, str):
        if not _COLUMN.match(action):
            return -1
        action = int(action)
    if type(action) is not int or action < 0 or action >= cols:
        return -1
    return action


class Board(object):
    def __init__(self, rows=6, cols=7, noGo=None):
        if type(rows) is not int or type(cols) is not int or rows < 4 or cols < 4 or rows > 32 or cols > 32:
            raise ValueError('a board is 4..32 rows by 4..32 columns, got %r x %r' % (rows, cols))
        blocked = -1
        if noGo is not None:
            row, col = noGo
            if type(row) is not int or type(col) is not int or not (0 <= row < rows and 0 <= col < cols):
                raise ValueError('the no-go cell [%r, %r] is off a %d x %d board' % (row, col, rows, cols))
            blocked = row * cols + col
        self.empty = '.'
        self._rows = rows
        self._cols = cols
        self._cells = [EMPTY] * (rows * cols)
        self._top = [0] * cols
        if blocked >= 0:
            self._cells[blocked] = NO_GO
            if blocked < cols:
                self._top[blocked] = 1
        self._blocked = blocked
        self._last_cell = -1
        self._history = []
        self._winner = None

    # What the no-go course gives its players every turn.
    @property
    def M(self):
        """Rows."""
        return self._rows

    @property
    def N(self):
        """Columns."""
        return self._cols

    @property
    def top(self):
        """Next landing row per column (M when full), as a fresh list."""
        return list(self._top)

    @property
    def board(self):
        """M rows of N cells, row 0 the bottom: '.', 'X', 'O', or '#' for the no-go cell (a fresh copy)."""
        n = self._cols
        return [[_SYMBOL[v] for v in self._cells[r * n:(r + 1) * n]] for r in range(self._rows)]

    @property
    def lastMove(self):
        """Column of the last move, or None before the first."""
        return None if self._last_cell < 0 else self._last_cell % self._cols

    @property
    def lastCell(self):
        """[row, col] of the last disc played, or None before the first."""
        return None if self._last_cell < 0 else [self._last_cell // self._cols, self._last_cell % self._cols]

    @property
    def noGo(self):
        """[row, col] of the no-go cell, or None on a board without one."""
        return None if self._blocked < 0 else [self._blocked // self._cols, self._blocked % self._cols]

    def get(self, row, col):
        """'.', 'X', 'O' or '#' at (row, col)."""
        if not self.isOnBoard(row, col):
            raise IndexError('(%r, %r) is off the board: rows 0..%d, cols 0..%d' % (row, col, self._rows - 1, self._cols - 1))
        return _SYMBOL[self._cells[row * self._cols + col]]

    def isOnBoard(self, row, col):
        return type(row) is int and type(col) is int and 0 <= row < self._rows and 0 <= col < self._cols

    def getLegalActions(self, color=None):
        """Columns with room, as '0', '1', ...; empty once the game is over. `color` is checked but does not matter."""
        if color is not None:
            _check_color(color)
        if self._winner is not None:
            return []
        rows, top = self._rows, self._top
        return [_COLUMN_NAMES[col] for col in range(self._cols) if top[col] < rows]

    def move(self, action, color):
        """Drops a `color` disc into column `action`: the row it landed on, or False (full, off the board, game over)."""
        piece = FIRST if _check_color(color) == 'X' else SECOND
        col = _to_column(action, self._cols)
        if col < 0 or self._top[col] >= self._rows or self._winner is not None:
            return False
        self._history.append(self._last_cell)
        row = self._top[col]
        cell = row * self._cols + col
        self._cells[cell] = piece
        above = row + 1
        if above < self._rows and self._cells[above * self._cols + col] == NO_GO:
            above += 1
        self._top[col] = above
        self._last_cell = cell
        rays = _RAYS[self._rows][self._cols] or _build_rays(self._rows, self._cols)
        if _four_through(self._cells, piece, rays[cell]):
            self._winner = 0 if piece == FIRST else 1
        return row

    def _move(self, action, color):
        return self.move(action, color)

    def undo(self, action):
        """Takes back the top disc of column `action` (the last move made there)."""
        col = _to_column(action, self._cols)
        if col < 0:
            raise ValueError('cannot undo %r: not a column 0..%d' % (action, self._cols - 1))
        row = self._top[col] - 1
        if row >= 0 and row * self._cols + col == self._blocked:
            row -= 1
        if row < 0:
            raise ValueError('cannot undo column %d: it holds no disc' % col)
        self._cells[row * self._cols + col] = EMPTY
        self._top[col] = row
        self._last_cell = self._history.pop() if self._history else -1
        self._winner = None

    def backpropagation(self, action, *ignored):
        """board.py's name for undo; the extra arguments are accepted for symmetry with Reversi and ignored."""
        self.undo(action)

    def count(self, color):
        piece = FIRST if _check_color(color) == 'X' else SECOND
        return self._cells.count(piece)

    def getWinner(self):
        """(0 X connected four | 1 O did | 2 draw (full board), 1 for a win or 0 for a draw), or None while playing."""
        if self._winner is not None:
            return (self._winner, 1)
        if all(t >= self._rows for t in self._top):
            return (2, 0)
        return None

    def get_winner(self):
        return self.getWinner()

    def isOver(self):
        return self.getWinner() is not None

    def toString(self):
        """Top row first, row numbers on the left, column numbers underneath."""
        width = 3 if self._cols > 10 else 2
        lines = []
        for row in range(self._rows - 1, -1, -1):
            line = str(row).rjust(2)
            for col in range(self._cols):
                line += _SYMBOL[self._cells[row * self._cols + col]].rjust(width)
            lines.append(line)
        lines.append('  ' + ''.join(str(col).rjust(width) for col in range(self._cols)))
        return '\n'.join(lines)

    def __str__(self):
        return self.toString()

    def display(self):
        print(self.toString())

    def copy(self):
        """An independent copy (deepcopy(board) works too)."""
        board = Board.__new__(Board)
        board.__dict__.update(self.__dict__)
        board._cells = list(self._cells)
        board._top = list(self._top)
        board._history = list(self._history)
        return board

    # snake_case aliases
    get_legal_actions = getLegalActions
    is_on_board = isOnBoard
    is_over = isOver
    last_move = lastMove
    last_cell = lastCell
    no_go = noGo

    def _line_through(self, cell):
        """Length of the longest line of equal discs through `cell`."""
        rows, cols, cells = self._rows, self._cols, self._cells
        piece = cells[cell]
        row, col = divmod(cell, cols)
        longest = 0
        for dr, dc in _DIRECTIONS:
            length = 1
            r, c = row + dr, col + dc
            while 0 <= r < rows and 0 <= c < cols and cells[r * cols + c] == piece:
                length += 1
                r += dr
                c += dc
            r, c = row - dr, col - dc
            while 0 <= r < rows and 0 <= c < cols and cells[r * cols + c] == piece:
                length += 1
                r -= dr
                c -= dc
            if length > longest:
                longest = length
        return longest


# Per board size (built on first use), per cell: for each direction the cells beyond it one way and the other,
# at most WIN_LENGTH - 1 each, so a move's win check walks fixed index lists (was 4.0 of 11.6 s of a playout loop
# walking rows and columns with bounds tests).
_RAYS = [[None] * 33 for _ in range(33)]


def _build_rays(rows, cols):
    rays = []
    for cell in range(rows * cols):
        row, col = divmod(cell, cols)
        own = []
        for dr, dc in _DIRECTIONS:
            for sense in (1, -1):
                line = []
                r, c = row + sense * dr, col + sense * dc
                while 0 <= r < rows and 0 <= c < cols and len(line) < WIN_LENGTH - 1:
                    line.append(r * cols + c)
                    r, c = r + sense * dr, c + sense * dc
                own.append(tuple(line))
        rays.append(tuple(own))
    _RAYS[rows][cols] = rays = tuple(rays)
    return rays


def _four_through(cells, piece, lines):
    """Whether `piece`, just placed, has WIN_LENGTH in a row through its cell: lines holds the cells beyond it,
    one way then the other, per direction."""
    for i in (0, 2, 4, 6):
        length = 1
        for other in lines[i]:
            if cells[other] != piece:
                break
            length += 1
        for other in lines[i + 1]:
            if cells[other] != piece:
                break
            length += 1
        if length >= WIN_LENGTH:
            return True
    return False


def _from_state(text, game_id):
    """The host's board for an encoded state: rows top to bottom, '/'-separated, x o # and runs of empties, then
    a space and the last move's column or '-'."""
    grid_text, last_text = text.split(' ')
    parsed = []
    for row_text in grid_text.split('/'):
        values = []
        digits = ''
        for ch in row_text + '/':
            if ch.isdigit():
                digits += ch
                continue
            if digits:
                values.extend([EMPTY] * int(digits))
                digits = ''
            if ch == 'x':
                values.append(FIRST)
            elif ch == 'o':
                values.append(SECOND)
            elif ch == '#':
                values.append(NO_GO)
        parsed.append(values)
    rows, cols = len(parsed), len(parsed[0])
    board = Board(rows, cols)
    cells = board._cells
    for i, values in enumerate(parsed):
        row = rows - 1 - i
        for col, value in enumerate(values):
            cells[row * cols + col] = value
            if value == NO_GO:
                board._blocked = row * cols + col
    for col in range(cols):
        height = 0
        for row in range(rows):
            value = cells[row * cols + col]
            if value == NO_GO:
                if height == row:
                    height = row + 1
            elif value != EMPTY:
                height = row + 1
        board._top[col] = height
    if last_text != '-':
        col = int(last_text)
        for row in range(rows - 1, -1, -1):
            if cells[row * cols + col] in (FIRST, SECOND):
                board._last_cell = row * cols + col
                break
        if board._line_through(board._last_cell) >= WIN_LENGTH:
            board._winner = 0 if cells[board._last_cell] == FIRST else 1
    return board


def _fingerprint(board, _type=type, _list=list, _int=int, _attrs=object.__getattribute__, _dict=dict, _get=dict.get):
    """The position as a plain string, or None when the board's fields are no longer what the class keeps."""
    try:
        fields = _attrs(board, '__dict__')
        cells, top, last = _get(fields, '_cells'), _get(fields, '_top'), _get(fields, '_last_cell')
    except Exception:
        return None
    if _type(fields) is not _dict:  # a dict subclass could answer .get() with anything
        return None
    if _type(cells) is not _list or _type(top) is not _list or _type(last) is not _int:
        return None
    for value in cells + top:
        if _type(value) is not _int:
            return None
    return '%s:%s:%d' % (_list.__repr__(cells), _list.__repr__(top), last)
