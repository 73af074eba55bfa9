/**
 * Gomoku pattern knowledge for the reference AIs: which empty cells are worth considering (near stones), how
 * strong a stone on a cell would be for a side (runs and open ends in the four directions), and a window
 * evaluation of a whole position. The same scores serve both variants; the exact-five rule only changes which
 * lines win, which the game itself decides.
 */
import { SIZE } from '../../harness/games/gomoku/index.js';
import type { GomokuState } from '../../harness/games/gomoku/index.js';

const CELLS = SIZE * SIZE;
const CENTRE = 7 * SIZE + 7;
const DIRECTIONS: readonly (readonly [number, number])[] = [
  [0, 1],
  [1, 0],
  [1, 1],
  [1, -1],
];

/** Empty cells within two steps of a stone, in index order; the centre on an empty board. */
export function candidateMoves(cells: Uint8Array): number[] {
  const near = new Uint8Array(CELLS);
  let any = false;
  for (let cell = 0; cell < CELLS; cell++) {
    if (cells[cell] === 0) continue;
    any = true;
    const row = (cell / SIZE) | 0;
    const col = cell % SIZE;
    for (let r = Math.max(0, row - 2); r <= Math.min(SIZE - 1, row + 2); r++) {
      for (let c = Math.max(0, col - 2); c <= Math.min(SIZE - 1, col + 2); c++) near[r * SIZE + c] = 1;
    }
  }
  if (!any) return [CENTRE];
  const moves: number[] = [];
  for (let cell = 0; cell < CELLS; cell++) if (near[cell] && cells[cell] === 0) moves.push(cell);
  return moves;
}

/** Value of a run of `length` stones with `open` free ends (0..2). */
function runValue(length: number, open: number): number {
  if (length >= 5) return 1_000_000;
  if (open === 0) return 0;
  if (length === 4) return open === 2 ? 100_000 : 10_000;
  if (length === 3) return open === 2 ? 5_000 : 500;
  if (length === 2) return open === 2 ? 100 : 10;
  return open === 2 ? 2 : 1;
}

/** How strong a `piece` stone on the empty `cell` would be: the sum of its four line runs' values. */
export function stoneValue(cells: Uint8Array, cell: number, piece: number): number {
  const row = (cell / SIZE) | 0;
  const col = cell % SIZE;
  let total = 0;
  for (const [dr, dc] of DIRECTIONS) {
    let length = 1;
    let open = 0;
    for (const sign of [1, -1]) {
      let r = row + sign * dr;
      let c = col + sign * dc;
      while (r >= 0 && r < SIZE && c >= 0 && c < SIZE && cells[r * SIZE + c] === piece) {
        length++;
        r += sign * dr;
        c += sign * dc;
      }
      if (r >= 0 && r < SIZE && c >= 0 && c < SIZE && cells[r * SIZE + c] === 0) open++;
    }
    total += runValue(length, open);
  }
  return total;
}

/** A move's worth for the side to move: its own attack plus most of what it takes from the opponent. */
export function moveValue(state: GomokuState, cell: number): number {
  const mine = state.side + 1;
  return stoneValue(state.cells, cell, mine) + 0.9 * stoneValue(state.cells, cell, 3 - mine);
}

/** Candidates best first (ties in index order), at most `limit` of them. */
export function rankedCandidates(state: GomokuState, limit: number): number[] {
  const moves = candidateMoves(state.cells);
  const values = new Map(moves.map((m) => [m, moveValue(state, m)]));
  return moves.sort((a, b) => values.get(b)! - values.get(a)! || a - b).slice(0, limit);
}

const WINDOW_VALUE = [0, 1, 10, 100, 1_000, 10_000];

/**
 * Every window of five cells scores for the side whose stones it holds alone (1, 10, 100, 1000 for one to
 * four); the side to move's windows count double, since it moves next. Value for the side to move.
 */
export function evaluateGomoku(state: GomokuState): number {
  const { cells } = state;
  const mine = state.side + 1;
  let value = 0;
  for (let row = 0; row < SIZE; row++) {
    for (let col = 0; col < SIZE; col++) {
      for (const [dr, dc] of DIRECTIONS) {
        const endR = row + 4 * dr;
        const endC = col + 4 * dc;
        if (endR >= SIZE || endC < 0 || endC >= SIZE) continue;
        let own = 0;
        let theirs = 0;
        for (let k = 0; k < 5; k++) {
          const v = cells[(row + k * dr) * SIZE + col + k * dc];
          if (v === mine) own++;
          else if (v !== 0) theirs++;
        }
        if (theirs === 0) value += 2 * WINDOW_VALUE[own];
        else if (own === 0) value -= WINDOW_VALUE[theirs];
      }
    }
  }
  return value;
}
