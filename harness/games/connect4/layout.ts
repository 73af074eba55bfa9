/**
 * The course variant's drawn layout: rows and columns each from 9..12 and one no-go cell anywhere on the board,
 * all from the game's seed through the shared seeded generator; the layout tests pin what a seed draws.
 */
import { createRng } from '../common/seed.js';

export const MIN_SIZE = 9;
export const MAX_SIZE = 12;

export interface Layout {
  rows: number;
  cols: number;
  /** The no-go cell, row 0 at the bottom. */
  noGoRow: number;
  noGoCol: number;
}

/** The layout a seed draws (any finite number; it is folded to 32 bits). */
export function drawLayout(seed: number): Layout {
  if (!Number.isFinite(seed)) throw new Error(`connect4-nogo: seed must be a finite number, got ${seed}`);
  const { next } = createRng(Math.trunc(seed) | 0);
  const span = MAX_SIZE - MIN_SIZE + 1;
  const rows = MIN_SIZE + Math.floor(next() * span);
  const cols = MIN_SIZE + Math.floor(next() * span);
  const cell = Math.floor(next() * rows * cols);
  return { rows, cols, noGoRow: Math.floor(cell / cols), noGoCol: cell % cols };
}
