"""
The course platform's board.py, name for name and behaviour for behaviour, written here from its documented
behaviour: `from board import Board` in a submission gets this class. Rows and columns are 0-based, 'D3' is
column D, row 3 -> (2, 3); `_board[row][col]` is '.', 'X' or 'O'. Black ('X') moves first.

The orders matter (students break ties by them) and agree with the TypeScript engine exactly:
get_legal_actions scans the opponent's discs row by row and yields each empty neighbour (directions N, NE, E,
SE, S, SW, W, NW) the first time it is seen, if it flips something; _can_fliped lists the flipped discs per
direction E, SE, S, SW, W, NW, N, NE, each from the far end back towards the move.
"""

_ROWS = '12345678'
_COLS = 'ABCDEFGH'
_FLIP_DIRECTIONS = ((0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1))
_NEAR_DIRECTIONS = ((-1, 0), (-1, 1), (0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1))


class Board(object):
    def __init__(self):
        self.empty = '.'
        self._board = [[self.empty for _ in range(8)] for _ in range(8)]
        self._board[3][4] = 'X'
        self._board[4][3] = 'X'
        self._board[3][3], self._board[4][4] = 'O', 'O'

    def __getitem__(self, index):
        return self._board[index]

    def display(self, step_time=None, total_time=None):
        """Print the board, then discs / last step time / total time per side (zeros before the game)."""
        print(' ', ' '.join(list(_COLS)))
        for i in range(8):
            print(str(i + 1), ' '.join(self._board[i]))
        if (not step_time) or (not total_time):
            step_time = {'X': 0, 'O': 0}
            total_time = {'X': 0, 'O': 0}
        print('统计棋局: 棋子总数 / 每一步耗时 / 总时间 ')
        print('黑   棋: ' + str(self.count('X')) + ' / ' + str(step_time['X']) + ' / ' + str(total_time['X']))
        print('白   棋: ' + str(self.count('O')) + ' / ' + str(step_time['O']) + ' / ' + str(total_time['O']) + '\n')

    def count(self, color):
        """Discs of `color` ('X', 'O' or '.') on the board."""
        count = 0
        for y in range(8):
            for x in range(8):
                if self._board[x][y] == color:
                    count += 1
        return count

    def get_winner(self):
        """(0 Black wins | 1 White wins | 2 draw, the disc difference)."""
        black_count, white_count = 0, 0
        for i in range(8):
            for j in range(8):
                if self._board[i][j] == 'X':
                    black_count += 1
                if self._board[i][j] == 'O':
                    white_count += 1
        if black_count > white_count:
            return 0, black_count - white_count
        elif black_count < white_count:
            return 1, white_count - black_count
        return 2, 0

    def _move(self, action, color):
        """Play `action` ('D3' or (2, 3)) for `color`: the flipped squares, or False (the board unchanged)."""
        if isinstance(action, str):
            action = self.board_num(action)
        fliped = self._can_fliped(action, color)
        if fliped:
            for flip in fliped:
                x, y = self.board_num(flip)
                self._board[x][y] = color
            x, y = action
            self._board[x][y] = color
            return fliped
        return False

    def backpropagation(self, action, flipped_pos, color):
        """Undo `_move`: empty `action` and give the `flipped_pos` squares back to the opponent of `color`."""
        if isinstance(action, str):
            action = self.board_num(action)
        self._board[action[0]][action[1]] = self.empty
        op_color = 'O' if color == 'X' else 'X'
        for p in flipped_pos:
            if isinstance(p, str):
                p = self.board_num(p)
            self._board[p[0]][p[1]] = op_color

    def is_on_board(self, x, y):
        return x >= 0 and x <= 7 and y >= 0 and y <= 7

    def _can_fliped(self, action, color):
        """The squares `color` would flip by playing `action`, or False. The board is left as it was."""
        if isinstance(action, str):
            action = self.board_num(action)
        xstart, ystart = action
        if not self.is_on_board(xstart, ystart) or self._board[xstart][ystart] != self.empty:
            return False
        self._board[xstart][ystart] = color
        op_color = 'O' if color == 'X' else 'X'
        flipped_pos = []
        flipped_pos_board = []
        for xdirection, ydirection in _FLIP_DIRECTIONS:
            x, y = xstart, ystart
            x += xdirection
            y += ydirection
            if self.is_on_board(x, y) and self._board[x][y] == op_color:
                x += xdirection
                y += ydirection
                if not self.is_on_board(x, y):
                    continue
                while self._board[x][y] == op_color:
                    x += xdirection
                    y += ydirection
                    if not self.is_on_board(x, y):
                        break
                if not self.is_on_board(x, y):
                    continue
                if self._board[x][y] == color:
                    while True:
                        x -= xdirection
                        y -= ydirection
                        if x == xstart and y == ystart:
                            break
                        flipped_pos.append([x, y])
        self._board[xstart][ystart] = self.empty
        if len(flipped_pos) == 0:
            return False
        for fp in flipped_pos:
            flipped_pos_board.append(self.num_board(fp))
        return flipped_pos_board

    def get_legal_actions(self, color):
        """A generator of the squares `color` may play, as 'D3' strings, in board.py's order."""
        op_color = 'O' if color == 'X' else 'X'
        op_color_near_points = []
        board = self._board
        for i in range(8):
            for j in range(8):
                if board[i][j] == op_color:
                    for dx, dy in _NEAR_DIRECTIONS:
                        x, y = i + dx, j + dy
                        if 0 <= x <= 7 and 0 <= y <= 7 and board[x][y] == self.empty and (
                                x, y) not in op_color_near_points:
                            op_color_near_points.append((x, y))
        l = [0, 1, 2, 3, 4, 5, 6, 7]
        for p in op_color_near_points:
            if self._can_fliped(p, color):
                if p[0] in l and p[1] in l:
                    p = self.num_board(p)
                yield p

    def board_num(self, action):
        """'D3' (either case) -> (2, 3); None when it names no square."""
        row, col = str(action[1]).upper(), str(action[0]).upper()
        if row in _ROWS and col in _COLS:
            x, y = _ROWS.index(row), _COLS.index(col)
            return x, y

    def num_board(self, action):
        """(2, 3) -> 'D3'; None when off the board."""
        row, col = action
        l = [0, 1, 2, 3, 4, 5, 6, 7]
        if col in l and row in l:
            return chr(ord('A') + col) + str(row + 1)


def _from_state(text, game_id):
    """The host's board for an encoded state: 64 cells of . X O (A1..H1, A2..H8), a space, the side to move."""
    board = Board()
    for row in range(8):
        board._board[row] = list(text[row * 8:row * 8 + 8])
    return board


def _fingerprint(board, _type=type, _len=len, _list=list, _str=str, _dict=object.__getattribute__):
    """
    The board's contents as a plain string, or None when `_board` is no longer 8 lists of 8 cells. The builtins
    it uses are bound when the module loads, so a submission replacing them cannot change the answer.
    """
    try:
        rows = _dict(board, '__dict__').get('_board')
    except Exception:
        return None
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
    return '|'.join(cells)
