/** NoGo's board as data (web board, report viewer): the points of the Go-board picture, and why a point is not playable. */
import { goBoardCells } from '../common/go-board.js';
import type { BoardGeometry } from '../game.js';
import { cellName, hasLegalMove, parseCell, whyIllegalCell } from './core.js';
import { SPEC } from './render.js';
import { bannedNow, pieceOf, type NoGoState } from './state.js';

const SIDES = ['Black', 'White'];

/** 'E3', 'E3 and E4', 'D3, E3 and E4'. */
const listed = (cells: number[]): string => {
  const names = cells.map(cellName);
  return names.length === 1 ? names[0] : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
};

export const nogoGeometry: BoardGeometry<NoGoState> = {
  cells: (s) => goBoardCells(SPEC, s.cells),
  landing: (s, move) => (nogoGeometry.whyIllegal(s, move) === null ? move : null),
  whyIllegal(s, move) {
    const cell = parseCell(move);
    if (cell < 0) return `${move} is not a point of the board (A1 to J9, no I)`;
    const piece = pieceOf(s.side);
    if (!hasLegalMove(s.cells, piece)) return `the game is over: ${SIDES[s.side]} has no legal move`;
    if (bannedNow(s, cell)) return `${SIDES[s.side]}'s first move may not be the centre (E5): the course's centre rule`;
    const why = whyIllegalCell(s.cells, piece, cell);
    if (why === null) return null;
    const them = SIDES[1 - s.side];
    if (why.kind === 'taken') return `${move} is taken: every stone stays where it is played`;
    if (why.kind === 'capture') {
      const stones = why.stones.length === 1 ? `${them}'s stone on ${listed(why.stones)}` : `${them}'s stones on ${listed(why.stones)}`;
      return `${move} would capture ${stones} (taking their last liberty): capturing is not allowed in NoGo`;
    }
    if (why.stones.length === 1) return `${move} would have no liberty: suicide is not allowed in NoGo`;
    return `${move} would leave ${SIDES[s.side]}'s stones on ${listed(why.stones)} without a liberty: suicide is not allowed in NoGo`;
  },
  ending(s) {
    return { reason: `${SIDES[s.side]} has no legal move (every empty point would capture or be suicide)`, line: [], score: null };
  },
};
