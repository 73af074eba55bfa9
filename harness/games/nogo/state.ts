/** The immutable NoGo state; `applyCell` copies the 81-byte board and plays on the copy. */
import type { Side } from '../game.js';
import { BLACK, CELLS, CENTER, cellName, isLegal, WHITE } from './core.js';

export interface NoGoState {
  /** 81 cells: 0 empty, 1 Black (X), 2 White (O). Never mutated. */
  readonly cells: Uint8Array;
  readonly side: Side;
  /** Cell of the last move, -1 before the first. */
  readonly lastMove: number;
  readonly stones: number;
  /**
   * The seed course code's rule (第一步不可在正中央): Black's first move may not be the centre, E5. Only meaningful
   * before the first move; false after it.
   */
  readonly centerBanned: boolean;
}

/** Whether `cell` is the centre while the centre rule forbids it (the first move of a game that has the rule). */
export const bannedNow = (state: NoGoState, cell: number): boolean =>
  cell === CENTER && state.centerBanned && state.stones === 0;

export const pieceOf = (side: Side): number => (side === 0 ? BLACK : WHITE);

export function emptyState(centerBanned: boolean): NoGoState {
  return { cells: new Uint8Array(CELLS), side: 0, lastMove: -1, stones: 0, centerBanned };
}

export function applyCell(state: NoGoState, cell: number): NoGoState {
  const piece = pieceOf(state.side);
  if (bannedNow(state, cell)) throw new Error("nogo: E5 is not a legal first move (the centre rule: 第一步不可在正中央)");
  if (!isLegal(state.cells, piece, cell)) {
    const name = Number.isInteger(cell) && cell >= 0 && cell < CELLS ? cellName(cell) : String(cell);
    throw new Error(`nogo: ${name} is not a legal move (taken, off the board, a capture or a suicide)`);
  }
  const cells = state.cells.slice();
  cells[cell] = piece;
  return { cells, side: (state.side ^ 1) as Side, lastMove: cell, stones: state.stones + 1, centerBanned: false };
}
