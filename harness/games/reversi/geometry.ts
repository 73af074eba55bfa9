/** Reversi's board as data (web board, report viewer): the 64 squares of the picture, why a square is not playable, the count. */
import type { BoardCell, BoardGeometry } from '../game.js';
import { squareName } from './board.js';
import { flips, hasSquare, legalMask, out, popcount } from './core.js';
import { boardLayout } from './render.js';
import type { ReversiState } from './state.js';

const SIDES = ['Black', 'White'];

/** The side to move's discs first. */
const sides = (s: ReversiState): [number, number, number, number] => (s.side === 0 ? [s.bh, s.bl, s.wh, s.wl] : [s.wh, s.wl, s.bh, s.bl]);

function canMove(ph: number, pl: number, oh: number, ol: number): boolean {
  legalMask(ph, pl, oh, ol);
  return (out.hi | out.lo) !== 0;
}

/** The square a notation names ('D3' only, as the platform compares strings), or -1. */
const squareOf = (move: string): number => (/^[A-H][1-8]$/.test(move) ? (move.charCodeAt(1) - 49) * 8 + (move.charCodeAt(0) - 65) : -1);

export const reversiGeometry: BoardGeometry<ReversiState> = {
  cells(s, size = 320) {
    const { margin, sq, radius } = boardLayout(size);
    const cells: BoardCell[] = [];
    for (let row = 0; row < 8; row++) {
      for (let col = 0; col < 8; col++) {
        const square = row * 8 + col;
        const name = squareName(square);
        const piece = hasSquare(s.bh, s.bl, square) ? 'X' : hasSquare(s.wh, s.wl, square) ? 'O' : null;
        cells.push({ name, row, col, x: margin + (col + 0.5) * sq, y: margin + (row + 0.5) * sq, r: radius, piece, move: name, note: null });
      }
    }
    return cells;
  },
  landing: (s, move) => (reversiGeometry.whyIllegal(s, move) === null ? move : null),
  whyIllegal(s, move) {
    const square = squareOf(move);
    if (square < 0) return `${move} is not a square of the board (A1 to H8)`;
    const [ph, pl, oh, ol] = sides(s);
    if (hasSquare(ph | oh, pl | ol, square)) return `${move} is taken: a disc is never moved, only turned over`;
    if (!canMove(ph, pl, oh, ol)) {
      return canMove(oh, ol, ph, pl) ? `${SIDES[s.side]} has no legal move and must pass` : 'the game is over: neither side can move';
    }
    flips(square, ph, pl, oh, ol);
    if ((out.hi | out.lo) === 0) {
      return `${move} turns over no disc: a move must close a line of ${SIDES[1 - s.side]}'s discs between it and one of ${SIDES[s.side]}'s`;
    }
    return null;
  },
  ending(s) {
    const black = popcount(s.bh, s.bl);
    const white = popcount(s.wh, s.wl);
    const full = black + white === 64;
    const count = black === white ? `${black} discs each` : `${SIDES[black > white ? 0 : 1]} has more discs`;
    return { reason: `${full ? 'the board is full' : 'neither side can move'}: ${count}`, line: [], score: `${black}–${white}` };
  },
};
