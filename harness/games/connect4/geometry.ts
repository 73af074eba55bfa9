/**
 * Connect Four's board as data (web board, report viewer): every cell of the picture, each touch meaning its
 * column (a disc falls to the lowest free cell), why a column cannot take a disc, and the winning four.
 */
import { lineThrough } from '../common/lines.js';
import type { BoardCell, BoardGeometry } from '../game.js';
import { FIRST, NO_GO, SECOND, WIN_LENGTH } from './core.js';
import { cellName, DISC_RADIUS, UNIT } from './render.js';
import type { Connect4State } from './state.js';

const SIDES = ['Red', 'Yellow'];

/** The column a notation names on this board ('3'; plain decimal as the platform compares strings), or -1. */
function columnOf(s: Connect4State, move: string): number {
  if (!/^(0|[1-9][0-9]?)$/.test(move)) return -1;
  const col = Number(move);
  return col < s.cols ? col : -1;
}

export const connect4Geometry: BoardGeometry<Connect4State> = {
  cells(s) {
    const cells: BoardCell[] = [];
    for (let row = s.rows - 1; row >= 0; row--) {
      for (let col = 0; col < s.cols; col++) {
        const value = s.cells[row * s.cols + col];
        cells.push({
          name: cellName(row, col),
          row: s.rows - 1 - row,
          col,
          x: col * UNIT + UNIT / 2,
          y: (s.rows - 1 - row) * UNIT + UNIT / 2,
          r: DISC_RADIUS,
          piece: value === FIRST ? 'X' : value === SECOND ? 'O' : null,
          move: String(col),
          note: value === NO_GO ? 'the no-go cell: no disc ever rests here' : null,
        });
      }
    }
    return cells;
  },
  landing(s, move) {
    const col = columnOf(s, move);
    return col < 0 || s.over || s.top[col] >= s.rows ? null : cellName(s.top[col], col);
  },
  whyIllegal(s, move) {
    const col = columnOf(s, move);
    if (col < 0) return `${move} is not a column of this board (0 to ${s.cols - 1})`;
    if (s.over) return 'the game is over';
    if (s.top[col] >= s.rows) return `column ${col} is full: drop the disc into another column`;
    return null;
  },
  ending(s) {
    if (s.winner === null) return { reason: 'the board is full: nobody made four in a row', line: [], score: null };
    const cells = lineThrough(s.cells, s.rows, s.cols, s.lastCell, (n) => n >= WIN_LENGTH);
    const line = cells.map((cell) => cellName(Math.floor(cell / s.cols), cell % s.cols));
    const columns = [...new Set(cells.map((cell) => cell % s.cols))].sort((a, b) => a - b);
    const where = columns.length === 1 ? `in column ${columns[0]}` : `across columns ${columns[0]}–${columns[columns.length - 1]}`;
    const what = cells.length > WIN_LENGTH ? `${cells.length} in a row` : 'four in a row';
    return { reason: `${SIDES[s.winner]} made ${what} ${where}`, line, score: null };
  },
};
