/**
 * Gomoku core on a 15 x 15 typed array: cell = row * 15 + col, row 0 is row '1' (the bottom, as on a Go board),
 * col 0 is file 'A'. Files run A..O without skipping I (the Renju/RIF convention), so the centre is 'H8'.
 */

export const SIZE = 15;
export const CELLS = SIZE * SIZE;
export const EMPTY = 0;
/** Cells hold 1 for Black's stones (X, moves first), 2 for White's (O). */
export const BLACK = 1;
export const WHITE = 2;
export const WIN_LENGTH = 5;

const FILES = 'ABCDEFGHIJKLMNO';

/** Steps (dRow, dCol) of the four line directions. */
const DIRECTIONS: readonly (readonly [number, number])[] = [
  [0, 1],
  [1, 0],
  [1, 1],
  [1, -1],
];

/** Run of equal stones through `cell` in direction `d` (0..3), the cell itself included. */
export function runLength(cells: Uint8Array, cell: number, d: number): number {
  const piece = cells[cell];
  const [dr, dc] = DIRECTIONS[d];
  const row = (cell / SIZE) | 0;
  const col = cell - row * SIZE;
  let length = 1;
  for (let r = row + dr, c = col + dc; r >= 0 && r < SIZE && c >= 0 && c < SIZE && cells[r * SIZE + c] === piece; r += dr, c += dc) length++;
  for (let r = row - dr, c = col - dc; r >= 0 && r < SIZE && c >= 0 && c < SIZE && cells[r * SIZE + c] === piece; r -= dr, c -= dc) length++;
  return length;
}

/**
 * Whether the stone on `cell` makes a winning line: five or more (freestyle), or, with `exactFive`, a line of
 * exactly five in some direction (an overline of six or more does not win, but a five in another direction does).
 */
export function winsAt(cells: Uint8Array, cell: number, exactFive: boolean): boolean {
  if (cells[cell] === EMPTY) return false;
  for (let d = 0; d < 4; d++) {
    const length = runLength(cells, cell, d);
    if (exactFive ? length === WIN_LENGTH : length >= WIN_LENGTH) return true;
  }
  return false;
}

/** 0..224 → 'A1'..'O15'. */
export function cellName(cell: number): string {
  return FILES[cell % SIZE] + String(Math.floor(cell / SIZE) + 1);
}

/** Strict notation: 'H8' (capital file, row 1..15 without leading zero) → cell, else -1. */
export function parseCell(text: unknown): number {
  if (typeof text !== 'string' || !/^[A-O](?:[1-9]|1[0-5])$/.test(text)) return -1;
  return (Number(text.slice(1)) - 1) * SIZE + (text.charCodeAt(0) - 65);
}
