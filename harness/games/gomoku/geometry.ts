/** Gomoku's board as data (web board, report viewer): the points of the Go-board picture, and the winning five. */
import { goBoardCells } from '../common/go-board.js';
import { lineThrough } from '../common/lines.js';
import type { BoardGeometry } from '../game.js';
import { cellName, EMPTY, parseCell, SIZE, WIN_LENGTH } from './core.js';
import { SPEC } from './render.js';
import type { GomokuState } from './state.js';

const SIDES = ['Black', 'White'];

export function gomokuGeometry(exactFive: boolean): BoardGeometry<GomokuState> {
  const wins = exactFive ? (n: number) => n === WIN_LENGTH : (n: number) => n >= WIN_LENGTH;
  return {
    cells: (s) => goBoardCells(SPEC, s.cells),
    landing: (s, move) => (parseCell(move) >= 0 && s.cells[parseCell(move)] === EMPTY && !s.over ? move : null),
    whyIllegal(s, move) {
      const cell = parseCell(move);
      if (cell < 0) return `${move} is not a point of the board (A1 to O15)`;
      if (s.over) return 'the game is over';
      if (s.cells[cell] !== EMPTY) return `${move} is taken: every stone stays where it is played`;
      return null;
    },
    ending(s) {
      if (s.winner === null) return { reason: 'the board is full: nobody made five in a row', line: [], score: null };
      const line = lineThrough(s.cells, SIZE, SIZE, s.lastMove, wins).map(cellName);
      const what = exactFive ? 'exactly five in a row' : line.length > WIN_LENGTH ? `${line.length} in a row` : 'five in a row';
      return { reason: `${SIDES[s.winner]} made ${what} (${line[0]}–${line[line.length - 1]})`, line, score: null };
    },
  };
}
