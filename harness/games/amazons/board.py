"""
The Python Amazons Board (the `board` module a Python AIPlayer imports), with the names of the other games' Boards
and the TypeScript Board's move order. A move is 'C1-C4/F4': the queen on C1 goes to C4 and shoots its arrow to F4
(row 1 is the top, as on Botzone: x is the file, y the row - 1). Botzone's six numbers [x0, y0, x1, y1, x2, y2]
are accepted too. Standard library only.
"""
import re

STRIDE = 10
EMPTY, BLACK, WHITE, ARROW, OFF = 0, 1, 2, 3, 4
_SYMBOL = ['.', 'X', 'O', '#', ' ']
_FILES = 'ABCDEFGHIJ'
_DIRECTIONS = [(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)]
_CELL = re.compile(r'^([A-J])(10|[1-9])$')
_MOVE = re.compile(r'^([A-J](?:10|[1-9]))-([A-J](?:10|[1-9]))/([A-J](?:10|[1-9]))$')
_START = {
    8: (['A3', 'C1', 'F1', 'H3'], ['A6', 'C8', 'F8', 'H6']),
    10: (['A4', 'D1', 'G1', 'J4'], ['A7', 'D10', 'G10', 'J7']),
}


def cell_name(cell):
    return '%s%d' % (_FILES[cell % STRIDE], cell // STRIDE + 1)


# Every cell's name, built once: getLegalActions joins these instead of formatting three cells a move.
_NAMES = tuple(cell_name(cell) for cell in range(STRIDE * STRIDE))


def _parse_cell(text, size):
    match = _CELL.match(text) if isinstance(text, str) else None
    if not match:
        return -1
    col, row = ord(match.group(1)) - 65, int(match.group(2)) - 1
    return row * STRIDE + col if row < size and col < size else -1


def _piece_of(color):
    if color == 'X':
        return BLACK
    if color == 'O':
        return WHITE
    raise ValueError("color must be 'X' (Black, moves first) or 'O' (White), got %r" % (color,))


def format_move(frm, to, arrow):
    return '%s-%s/%s' % (cell_name(frm), cell_name(to), cell_name(arrow))


def to_move(action, size):
    """An action -> (from, to, arrow) cells, or None when it names no move of a board of `size`."""
    if isinstance(action, str):
        match = _MOVE.match(action)
        if not match:
            return None
        cells = tuple(_parse_cell(match.group(i), size) for i in (1, 2, 3))
        return None if min(cells) < 0 else cells
    if isinstance(action, (list, tuple)) and len(action) == 6 and all(type(n) is int and 0 <= n < size for n in action):
        x0, y0, x1, y1, x2, y2 = action
        return (y0 * STRIDE + x0, y1 * STRIDE + x1, y2 * STRIDE + x2)
    return None


def _rays_of(size):
    """Per cell of the STRIDE x STRIDE grid, the cells queen-like from it to the edge of a size x size board, per
    direction (the bounds _reach's walk tests, done once)."""
    rays = []
    for frm in range(STRIDE * STRIDE):
        row0, col0 = divmod(frm, STRIDE)
        own = []
        for dr, dc in _DIRECTIONS:
            line = []
            row, col = row0 + dr, col0 + dc
            while 0 <= row < size and 0 <= col < size:
                line.append(row * STRIDE + col)
                row += dr
                col += dc
            if line:
                own.append(tuple(line))
        rays.append(tuple(own))
    return tuple(rays)


_RAYS = {}  # 8 and 10 -> _rays_of(size), built on first use (~5 ms each; kept off the module's import)


def _reach(cells, size, frm):
    """Empty cells queen-like from `frm`, in cell order."""
    rays = _RAYS.get(size) if type(size) is int else None
    if rays is None and (size == 8 or size == 10) and type(size) is int:
        rays = _RAYS[size] = _rays_of(size)
    found = []
    if rays is not None:  # the board sizes there are: walk the tables (1.5x the bounds-tested walk below)
        for line in rays[frm]:
            for cell in line:
                if cells[cell] != EMPTY:
                    break
                found.append(cell)
        found.sort()
        return found
    row0, col0 = divmod(frm, STRIDE)
    for dr, dc in _DIRECTIONS:
        row, col = row0 + dr, col0 + dc
        while 0 <= row < size and 0 <= col < size and cells[row * STRIDE + col] == EMPTY:
            found.append(row * STRIDE + col)
            row += dr
            col += dc
    found.sort()
    return found


def _in_line(cells, size, frm, to):
    if frm == to or cells[to] != EMPTY:
        return False
    dr = to // STRIDE - frm // STRIDE
    dc = to % STRIDE - frm % STRIDE
    if dr and dc and abs(dr) != abs(dc):
        return False
    step = (dr > 0) - (dr < 0)
    step = step * STRIDE + ((dc > 0) - (dc < 0))
    cell = frm + step
    while cell != to:
        if cells[cell] != EMPTY:
            return False
        cell += step
    return True


def _legal(cells, size, piece, move):
    frm, to, arrow = move
    if cells[frm] != piece or not _in_line(cells, size, frm, to):
        return False
    cells[frm], cells[to] = EMPTY, piece
    ok = _in_line(cells, size, to, arrow)
    cells[frm], cells[to] = piece, EMPTY
    return ok


def _has_move(cells, size, piece):
    for cell in range(STRIDE * STRIDE):
        if cells[cell] != piece:
            continue
        row0, col0 = divmod(cell, STRIDE)
        for dr, dc in _DIRECTIONS:
            row, col = row0 + dr, col0 + dc
            if 0 <= row < size and 0 <= col < size and cells[row * STRIDE + col] == EMPTY:
                return True
    return False


def _start_cells(size):
    cells = [OFF] * (STRIDE * STRIDE)
    for row in range(size):
        for col in range(size):
            cells[row * STRIDE + col] = EMPTY
    first, second = _START[size]
    for name in first:
        cells[_parse_cell(name, size)] = BLACK
    for name in second:
        cells[_parse_cell(name, size)] = WHITE
    return cells


class Board(object):
    def __init__(self, size=8):
        """Board() is Botzone's 8 x 8 start; Board(10) the standard 10 x 10 one."""
        if size not in (8, 10):
            raise ValueError('an Amazons board is 8 x 8 or 10 x 10, got %r' % (size,))
        self.empty = '.'
        self.arrow = '#'
        self.size = size
        self._cells = _start_cells(size)
        self._history = []

    def get(self, row, col):
        """'.', 'X', 'O' or '#' (an arrow) at (row, col), 0-based, row 0 = row '1' (the top)."""
        if not self.isOnBoard(row, col):
            raise IndexError('(%r, %r) is off the board: row and col go 0..%d' % (row, col, self.size - 1))
        return _SYMBOL[self._cells[row * STRIDE + col]]

    def isOnBoard(self, row, col):
        return type(row) is int and type(col) is int and 0 <= row < self.size and 0 <= col < self.size

    @property
    def board(self):
        """The rows of '.', 'X', 'O', '#', row 0 = row '1' (a fresh copy)."""
        return [[_SYMBOL[v] for v in self._cells[r * STRIDE:r * STRIDE + self.size]] for r in range(self.size)]

    @property
    def lastMove(self):
        """The last move, e.g. 'C1-C4/F4', or None before the first."""
        return format_move(*self._history[-1]) if self._history else None

    def getLegalActions(self, color):
        """Every move of `color`: by queen, destination, arrow, each row by row from A1."""
        piece = _piece_of(color)
        cells, size = self._cells, self.size
        actions = []
        for frm in range(STRIDE * STRIDE):
            if cells[frm] != piece:
                continue
            targets = _reach(cells, size, frm)
            cells[frm] = EMPTY
            for to in targets:
                cells[to] = piece
                head = _NAMES[frm] + '-' + _NAMES[to] + '/'
                actions.extend([head + _NAMES[arrow] for arrow in _reach(cells, size, to)])
                cells[to] = EMPTY
            cells[frm] = piece
        return actions

    def get_legal_actions(self, color):
        return self.getLegalActions(color)

    def isLegal(self, action, color):
        move = to_move(action, self.size)
        return move is not None and _legal(self._cells, self.size, _piece_of(color), move)

    def move(self, action, color):
        """Plays `action` for `color`: True, or False (and the board unchanged) when it is not legal."""
        move = to_move(action, self.size)
        if move is None or not _legal(self._cells, self.size, _piece_of(color), move):
            return False
        frm, to, arrow = move
        cells = self._cells
        cells[to], cells[frm] = cells[frm], EMPTY
        cells[arrow] = ARROW
        self._history.append(move)
        return True

    def _move(self, action, color):
        return self.move(action, color)

    def undo(self, action):
        """Takes `action` back: it must be the move that put its queen and arrow where they are."""
        move = to_move(action, self.size)
        cells = self._cells
        if move is None or cells[move[2]] != ARROW or cells[move[1]] not in (BLACK, WHITE) or \
                (move[0] != move[2] and cells[move[0]] != EMPTY):
            raise ValueError('cannot undo %r: its queen and arrow are not on the board' % (action,))
        frm, to, arrow = move
        cells[arrow] = EMPTY
        cells[frm], cells[to] = cells[to], EMPTY
        if move in self._history:
            del self._history[len(self._history) - 1 - self._history[::-1].index(move)]

    def backpropagation(self, action, *ignored):
        self.undo(action)

    def count(self, color):
        """Queens of `color` (4), or arrows with '#'."""
        return self._cells.count(ARROW if color == '#' else _piece_of(color))

    def getWinner(self, toMove):
        """With `toMove` to play: (0 Black wins | 1 White wins, 1) when `toMove` cannot move, else None."""
        piece = _piece_of(toMove)
        if _has_move(self._cells, self.size, piece):
            return None
        return (1 if piece == BLACK else 0, 1)

    def get_winner(self, toMove):
        return self.getWinner(toMove)

    def toString(self):
        lines = ['   ' + ' '.join(_FILES[:self.size])]
        for row in range(self.size):
            lines.append(str(row + 1).rjust(2) + ''.join(' ' + _SYMBOL[v] for v in self._cells[row * STRIDE:row * STRIDE + self.size]))
        return '\n'.join(lines)

    def __str__(self):
        return self.toString()

    def display(self):
        print(self.toString())

    def copy(self):
        """An independent copy (deepcopy(board) works too)."""
        board = Board(self.size)
        board._cells = list(self._cells)
        board._history = list(self._history)
        return board

    is_legal = isLegal
    is_on_board = isOnBoard
    last_move = lastMove


def _from_state(text, game_id):
    """The host's board for an encoded state (harness/games/amazons/state.ts): rows from row 1, '/'-separated,
    x o # and numbers for runs of empty squares, then a space and the last move or '-'."""
    grid_text, last_text = text.split(' ')
    rows = grid_text.split('/')
    board = Board(len(rows))
    cells = board._cells
    for row in range(board.size):  # the start position's queens go: the text places every piece
        for col in range(board.size):
            cells[row * STRIDE + col] = EMPTY
    for row, row_text in enumerate(rows):
        col = 0
        for token in re.findall(r'[0-9]+|[xo#]', row_text):
            if token[0].isdigit():
                col += int(token)
            else:
                cells[row * STRIDE + col] = {'x': BLACK, 'o': WHITE, '#': ARROW}[token]
                col += 1
    if last_text != '-':
        board._history = [to_move(last_text, board.size)]
    return board


def _fingerprint(board, _type=type, _list=list, _int=int, _tuple=tuple, _attrs=object.__getattribute__, _dict=dict, _get=dict.get):
    """The position as a plain string, or None when the board's fields are no longer what the class keeps."""
    try:
        fields = _attrs(board, '__dict__')
        cells, history = _get(fields, '_cells'), _get(fields, '_history')
    except Exception:
        return None
    if _type(fields) is not _dict or _type(cells) is not _list or _type(history) is not _list:
        return None
    for value in cells:
        if _type(value) is not _int:
            return None
    for move in history:
        if _type(move) is not _tuple:
            return None
        for value in move:
            if _type(value) is not _int:
                return None
    return '%s:%s' % (_list.__repr__(cells), _list.__repr__([_tuple.__repr__(m) for m in history]))
