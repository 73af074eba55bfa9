/** The immutable NoGo state; `applyCell` copies the 81-byte board and plays on the copy. */
import type { Side } from '../game.js';
import { BLACK, CELLS, cellName, isLegal, WHITE } from './core.js';

export interface NoGoState {
  /** 81 cells: 0 empty, 1 Black (X), 2 White (O). Never mutated. */
  readonly cells: Uint8Array;
  readonly side: Side;
  /** Cell of the last move, -1 before the first. */
  readonly lastMove: number;
  readonly stones: number;
}

export const pieceOf = (side: Side): number => (side === 0 ? BLACK : WHITE);

export function emptyState(): NoGoState {
  return { cells: new Uint8Array(CELLS), side: 0, lastMove: -1, stones: 0 };
}

export function applyCell(state: NoGoState, cell: number): NoGoState {
  const piece = pieceOf(state.side);
  if (!isLegal(state.cells, piece, cell)) {
    const name = Number.isInteger(cell) && cell >= 0 && cell < CELLS ? cellName(cell) : String(cell);
    throw new Error(`nogo: ${name} is not a legal move (taken, off the board, a capture or a suicide)`);
  }
  const cells = state.cells.slice();
  cells[cell] = piece;
  return { cells, side: (state.side ^ 1) as Side, lastMove: cell, stones: state.stones + 1 };
}
