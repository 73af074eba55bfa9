/**
 * The course variant's drawn layout: rows and columns each from 9..12 and one no-go cell anywhere on the board,
 * all from the game's seed. Games may not import the referee's seed helpers (folders import downwards only), so
 * the generator lives here; its output is fixed by the seed alone, which the layout tests pin.
 */

export const MIN_SIZE = 9;
export const MAX_SIZE = 12;

export interface Layout {
  rows: number;
  cols: number;
  /** The no-go cell, row 0 at the bottom. */
  noGoRow: number;
  noGoCol: number;
}

/** mulberry32: a small, well-mixed 32-bit generator; returns a function giving floats in [0, 1). */
function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The layout a seed draws (any finite number; it is folded to 32 bits). */
export function drawLayout(seed: number): Layout {
  if (!Number.isFinite(seed)) throw new Error(`connect4-nogo: seed must be a finite number, got ${seed}`);
  const next = mulberry32(Math.trunc(seed));
  const span = MAX_SIZE - MIN_SIZE + 1;
  const rows = MIN_SIZE + Math.floor(next() * span);
  const cols = MIN_SIZE + Math.floor(next() * span);
  const cell = Math.floor(next() * rows * cols);
  return { rows, cols, noGoRow: Math.floor(cell / cols), noGoCol: cell % cols };
}
