/**
 * Connect Four evaluation for both variants: every window of four cells in a line (computed once per board
 * shape, skipping windows through the no-go cell) scores for the side whose discs it holds alone — 1, 4, 16 for
 * one, two, three discs — plus a small bonus for discs near the centre column. Value for the side to move.
 */
import { NO_GO } from '../../harness/games/connect4/core.js';
import type { Connect4State } from '../../harness/games/connect4/index.js';

const WINDOW_VALUE = [0, 1, 4, 16];
const CENTRE_WEIGHT = 2;

/** Flat list of windows (4 cell indices each) per board shape, so evaluation does no line geometry. */
const windowCache = new Map<string, Int16Array>();

function windowsFor(rows: number, cols: number, blocked: number): Int16Array {
  const key = `${rows}x${cols}#${blocked}`;
  let windows = windowCache.get(key);
  if (windows) return windows;
  const cells: number[] = [];
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      for (const [dr, dc] of [[0, 1], [1, 0], [1, 1], [1, -1]]) {
        const endR = r + 3 * dr;
        const endC = c + 3 * dc;
        if (endR < 0 || endR >= rows || endC < 0 || endC >= cols) continue;
        const window = [0, 1, 2, 3].map((k) => (r + k * dr) * cols + c + k * dc);
        if (!window.includes(blocked)) cells.push(...window);
      }
    }
  }
  windows = Int16Array.from(cells);
  windowCache.set(key, windows);
  return windows;
}

export function evaluateConnect4(state: Connect4State): number {
  const { rows, cols, cells, blocked } = state;
  const windows = windowsFor(rows, cols, blocked);
  const mine = state.side + 1;
  let value = 0;
  for (let w = 0; w < windows.length; w += 4) {
    let own = 0;
    let theirs = 0;
    for (let k = 0; k < 4; k++) {
      const v = cells[windows[w + k]];
      if (v === mine) own++;
      else if (v !== 0 && v !== NO_GO) theirs++;
    }
    if (theirs === 0) value += WINDOW_VALUE[own] ?? 0;
    else if (own === 0) value -= WINDOW_VALUE[theirs] ?? 0;
  }
  const centre = (cols - 1) / 2;
  for (let cell = 0; cell < cells.length; cell++) {
    const v = cells[cell];
    if (v !== 1 && v !== 2) continue;
    const bonus = Math.max(0, CENTRE_WEIGHT - Math.abs((cell % cols) - centre));
    value += v === mine ? bonus : -bonus;
  }
  return value;
}

/** Columns ordered centre-first (ties to the left), the classic move order for Connect Four searches. */
export function centreFirst(state: Connect4State, moves: number[]): number[] {
  const centre = (state.cols - 1) / 2;
  return [...moves].sort((a, b) => Math.abs(a - centre) - Math.abs(b - centre) || a - b);
}
