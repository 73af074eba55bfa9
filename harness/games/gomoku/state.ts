/** The immutable Gomoku state; `applyCell` copies the 225-byte board and plays on the copy. */
import type { Side } from '../game.js';
import { BLACK, CELLS, EMPTY, WHITE, winsAt } from './core.js';

export interface GomokuState {
  /** 225 cells: 0 empty, 1 Black (X), 2 White (O). Never mutated. */
  readonly cells: Uint8Array;
  readonly side: Side;
  /** Cell of the last move, -1 before the first. */
  readonly lastMove: number;
  readonly stones: number;
  /** The side that made a winning line, or null. */
  readonly winner: Side | null;
  /** Someone won or the board is full. */
  readonly over: boolean;
}

export const pieceOf = (side: Side): number => (side === 0 ? BLACK : WHITE);

export function emptyState(): GomokuState {
  return { cells: new Uint8Array(CELLS), side: 0, lastMove: -1, stones: 0, winner: null, over: false };
}

export function applyCell(state: GomokuState, cell: number, exactFive: boolean, id: string): GomokuState {
  if (state.over) throw new Error(`${id}: the game is over; no move can be applied`);
  if (!Number.isInteger(cell) || cell < 0 || cell >= CELLS || state.cells[cell] !== EMPTY) {
    throw new Error(`${id}: ${String(cell)} is not an empty cell`);
  }
  const cells = state.cells.slice();
  cells[cell] = pieceOf(state.side);
  const stones = state.stones + 1;
  const winner = winsAt(cells, cell, exactFive) ? state.side : null;
  return { cells, side: (state.side ^ 1) as Side, lastMove: cell, stones, winner, over: winner !== null || stones === CELLS };
}
