"""
The Gomoku board (freestyle and exactly-five) for Python submissions, name for name with the TypeScript Board in
harness/games/gomoku/board.ts, plus snake_case aliases. `from board import Board` gets this class when the game is
gomoku or gomoku-exact5.

15 x 15; 'H8' is file H (col 7), row 8 (row index 7); row 1 is the bottom; files A..O do not skip I. Actions are
'H8' or (row, col). Getters return copies, so only the methods change a board (what the tamper check compares).
"""
import re
from itertools import compress, repeat
from operator import eq

SIZE = 15
CELLS = SIZE * SIZE
EMPTY, BLACK, WHITE = 0, 1, 2
WIN_LENGTH = 5
_FILES = 'ABCDEFGHIJKLMNO'
_SYMBOL = ('.', 'X', 'O')
_DIRECTIONS = ((0, 1), (1, 0), (1, 1), (1, -1))
_CELL = re.compile(r'[A-O](?:[1-9]|1[0-5])\Z')


def _check_color(color):
    if color == 'X' or color == 'O':
        return color
    raise ValueError("color must be 'X' (Black, moves first) or 'O' (White), got %r" % (color,))


def cell_name(cell):
    """0..224 -> 'A1'..'O15'."""
    return _FILES[cell % SIZE] + str(cell // SIZE + 1)


# Every cell's name, built once: getLegalActions reads them instead of building 225 strings a call.
_NAMES = tuple(cell_name(cell) for cell in range(CELLS))


def to_cell(action):
    """'H8' or (7, 7) -> cell index, or -1 when it names no cell (strict: capital file, no leading zero)."""
    if isinstance(action, str):
        if not _CELL.match(action):
            return -1
        return (int(action[1:]) - 1) * SIZE + _FILES.index(action[0])
    if isinstance(action, (list, tuple)) and len(action) == 2:
        row, col = action
        if type(row) is int and type(col) is int and 0 <= row < SIZE and 0 <= col < SIZE:
            return row * SIZE + col
    return -1


def _run_length(cells, cell, dr, dc):
    piece = cells[cell]
    row, col = divmod(cell, SIZE)
    length = 1
    r, c = row + dr, col + dc
    while 0 <= r < SIZE and 0 <= c < SIZE and cells[r * SIZE + c] == piece:
        length += 1
        r += dr
        c += dc
    r, c = row - dr, col - dc
    while 0 <= r < SIZE and 0 <= c < SIZE and cells[r * SIZE + c] == piece:
        length += 1
        r -= dr
        c -= dc
    return length


def _wins_at(cells, cell, exact_five):
    """Five or more in a line through `cell` (freestyle), or exactly five in some direction (exactFive)."""
    if cells[cell] == EMPTY:
        return False
    for dr, dc in _DIRECTIONS:
        length = _run_length(cells, cell, dr, dc)
        if (length == WIN_LENGTH) if exact_five else (length >= WIN_LENGTH):
            return True
    return False


class Board(object):
    def __init__(self, exactFive=False):
        """The empty 15 x 15 board; exactFive: only a line of exactly five wins."""
        self.empty = '.'
        self.size = SIZE
        self.exactFive = bool(exactFive)
        self._cells = [EMPTY] * CELLS
        self._last_move = -1
        self._history = []
        self._winner = None

    def get(self, row, col):
        """'.', 'X' or 'O' at (row, col), 0-based."""
        if not self.isOnBoard(row, col):
            raise IndexError('(%r, %r) is off the board: row and col go 0..%d' % (row, col, SIZE - 1))
        return _SYMBOL[self._cells[row * SIZE + col]]

    def isOnBoard(self, row, col):
        return type(row) is int and type(col) is int and 0 <= row < SIZE and 0 <= col < SIZE

    @property
    def board(self):
        """15 rows of '.', 'X', 'O', row 0 = row '1' (a fresh copy)."""
        return [[_SYMBOL[v] for v in self._cells[r * SIZE:(r + 1) * SIZE]] for r in range(SIZE)]

    @property
    def lastMove(self):
        """The last move, e.g. 'H8', or None before the first."""
        return None if self._last_move < 0 else cell_name(self._last_move)

    def getLegalActions(self, color=None):
        """Empty cells as 'A1', 'B1', ... 'O15' (row by row from row 1); empty once the game is over."""
        if color is not None:
            _check_color(color)
        if self._winner is not None:
            return []
        # compress/map keep the 225-cell scan in C (it was 63% of a profiled playout loop as a comprehension)
        return list(compress(_NAMES, map(eq, self._cells, repeat(EMPTY))))

    def move(self, action, color):
        """Places a `color` stone: True, or False when the cell is off the board, taken, or the game is over."""
        piece = BLACK if _check_color(color) == 'X' else WHITE
        cell = to_cell(action)
        if cell < 0 or self._cells[cell] != EMPTY or self._winner is not None:
            return False
        self._cells[cell] = piece
        self._history.append(self._last_move)
        self._last_move = cell
        if _wins_at(self._cells, cell, self.exactFive):
            self._winner = 0 if piece == BLACK else 1
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
        self._winner = None

    def backpropagation(self, action, *ignored):
        """board.py's name for undo; extra arguments are accepted for symmetry with Reversi and ignored."""
        self.undo(action)

    def count(self, color):
        return self._cells.count(BLACK if _check_color(color) == 'X' else WHITE)

    def getWinner(self):
        """(0 Black made five | 1 White did | 2 draw (full board), 1 for a win or 0 for a draw), or None while playing."""
        if self._winner is not None:
            return (self._winner, 1)
        return (2, 0) if EMPTY not in self._cells else None

    def get_winner(self):
        return self.getWinner()

    def isOver(self):
        return self.getWinner() is not None

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
        board = Board(self.exactFive)
        board._cells = list(self._cells)
        board._last_move = self._last_move
        board._history = list(self._history)
        board._winner = self._winner
        return board

    # snake_case aliases
    get_legal_actions = getLegalActions
    is_on_board = isOnBoard
    is_over = isOver
    last_move = lastMove


def _from_state(text, game_id):
    """The host's board for an encoded state: rows 15 down to 1, '/'-separated, x o and runs of empties, then a
    space and the last move or '-'."""
    grid_text, last_text = text.split(' ')
    board = Board(game_id == 'gomoku-exact5')
    cells = board._cells
    for i, row_text in enumerate(grid_text.split('/')):
        row = SIZE - 1 - i
        col = 0
        for token in re.findall(r'[1-9][0-9]*|[xo]', row_text):
            if token == 'x' or token == 'o':
                cells[row * SIZE + col] = BLACK if token == 'x' else WHITE
                col += 1
            else:
                col += int(token)
    if last_text != '-':
        board._last_move = to_cell(last_text)
        if _wins_at(cells, board._last_move, board.exactFive):
            board._winner = 0 if cells[board._last_move] == BLACK else 1
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
