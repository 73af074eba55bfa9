"""
The NoGo Python Board's integer rules against its own walk (_label_groups, kept for cells the integers cannot hold)
on seeded random games: at every ply, both colours' legal cells, every cell's legality and what move() answers; and
a `_cells` holding what the integers cannot (True, 1.0, a list subclass) answers as the walk does.
Usage: python3 nogo_board_driver.py <folder with board_nogo.py> <games>. Prints "ok <positions>" or raises.
"""
import random
import sys

sys.path.insert(0, sys.argv[1])
import board_nogo as nogo  # noqa: E402


def by_walk(cells, piece, cell):
    if cells[cell] != nogo.EMPTY:
        return False
    group_of, liberties = nogo._label_groups(cells)
    return nogo._legal_after_labelling(cells, piece, cell, group_of, liberties)


class Cells(list):
    pass


def main():
    rng, positions = random.Random(35), 0
    for _ in range(int(sys.argv[2])):
        board, color = nogo.Board(rng.random() < 0.5), 'X'
        while True:
            for piece in (nogo.BLACK, nogo.WHITE):
                walk = nogo._legal_cells_by_walk(board._cells, piece)
                assert nogo._legal_cells(board._cells, piece) == walk, (board.toString(), piece)
                for cell in range(nogo.CELLS) if positions % 3 == 0 else ():
                    assert nogo._is_legal(board._cells, piece, cell) == by_walk(board._cells, piece, cell), (board.toString(), piece, cell)
            positions += 1
            legal = board.get_legal_actions(color)
            if not legal:
                assert board.get_winner(color) == (1 if color == 'X' else 0, 1)
                break
            assert board.get_winner(color) is None
            cell = nogo._NAMES[rng.randrange(nogo.CELLS)]  # any cell: the board must refuse what is not legal
            if cell not in legal:
                before = list(board._cells)
                assert board.move(cell, color) is False and board._cells == before
                cell = rng.choice(legal)
            assert board.move(cell, color) is True
            color = 'O' if color == 'X' else 'X'
        # What the integers cannot hold: the walk's answers (True == 1 and 1.0 == 1 for it, as for board.py's code).
        for odd in (True, 1.0):
            cells = list(board._cells)
            empty = [i for i, v in enumerate(cells) if v == nogo.EMPTY]
            if empty:
                cells[empty[0]] = odd
            for piece in (nogo.BLACK, nogo.WHITE):
                assert nogo._legal_cells(cells, piece) == nogo._legal_cells_by_walk(cells, piece)
        sub = Cells(board._cells)
        assert nogo._legal_cells(sub, nogo.BLACK) == nogo._legal_cells_by_walk(sub, nogo.BLACK)
    print('ok %d' % positions)


main()
