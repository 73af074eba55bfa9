/** The classic 8x8 positional weight table: corners 100, X-squares −50, C-squares −20. */
import { out, flips } from '../../harness/games/reversi/core.js';

// prettier-ignore
export const SQUARE_WEIGHTS: readonly number[] = [
  100, -20, 10,  5,  5, 10, -20, 100,
  -20, -50, -2, -2, -2, -2, -50, -20,
   10,  -2, -1, -1, -1, -1,  -2,  10,
    5,  -2, -1, -1, -1, -1,  -2,   5,
    5,  -2, -1, -1, -1, -1,  -2,   5,
   10,  -2, -1, -1, -1, -1,  -2,  10,
  -20, -50, -2, -2, -2, -2, -50, -20,
  100, -20, 10,  5,  5, 10, -20, 100,
];

/** ROW_SUMS[row * 256 + byte]: the weight of the discs a row's byte holds, so a board sums in 8 lookups. */
const ROW_SUMS = new Int32Array(8 * 256);
for (let row = 0; row < 8; row++) {
  for (let byte = 0; byte < 256; byte++) {
    let sum = 0;
    for (let col = 0; col < 8; col++) if ((byte >> col) & 1) sum += SQUARE_WEIGHTS[row * 8 + col];
    ROW_SUMS[row * 256 + byte] = sum;
  }
}

/** Total table weight of a disc set. */
export function tableWeight(hi: number, lo: number): number {
  return (
    ROW_SUMS[lo & 255] +
    ROW_SUMS[256 + ((lo >>> 8) & 255)] +
    ROW_SUMS[512 + ((lo >>> 16) & 255)] +
    ROW_SUMS[768 + (lo >>> 24)] +
    ROW_SUMS[1024 + (hi & 255)] +
    ROW_SUMS[1280 + ((hi >>> 8) & 255)] +
    ROW_SUMS[1536 + ((hi >>> 16) & 255)] +
    ROW_SUMS[1792 + (hi >>> 24)]
  );
}

/** Table weight of the mover's discs minus the opponent's after the mover plays `sq`. */
export function weightAfterMove(sq: number, ph: number, pl: number, oh: number, ol: number): number {
  flips(sq, ph, pl, oh, ol);
  const fh = out.hi;
  const fl = out.lo;
  const nph = ph | fh | (sq >= 32 ? 1 << (sq - 32) : 0);
  const npl = pl | fl | (sq < 32 ? 1 << sq : 0);
  return tableWeight(nph, npl) - tableWeight(oh & ~fh, ol & ~fl);
}
