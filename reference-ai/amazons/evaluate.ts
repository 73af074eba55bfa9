/**
 * Amazons evaluation: territory by queen distance. Each side's "queen distance" to an empty square is the fewest
 * queen moves (over empty squares) one of its queens needs to reach it; a square closer to one side is that side's
 * territory, a tie is worth a little to the side to move (it gets there first). The value for the side to move is
 * its territory minus the opponent's, plus a small mobility term (empty squares next to its queens), which keeps
 * queens out of boxes before territory is settled.
 */
import { CELLS, EMPTY, FIRST, NEXT, SECOND } from '../../harness/games/amazons/core.js';
import type { AmazonsState } from '../../harness/games/amazons/index.js';

const UNREACHED = 255;
const distance: [Uint8Array, Uint8Array] = [new Uint8Array(CELLS), new Uint8Array(CELLS)];
const queue = new Int16Array(CELLS);

/** Queen distance from `piece`'s queens to every square into `out` (UNREACHED where none gets). */
function queenDistance(cells: Uint8Array, size: number, piece: number, out: Uint8Array): void {
  out.fill(UNREACHED);
  const table = NEXT[size];
  let head = 0;
  let tail = 0;
  for (let cell = 0; cell < CELLS; cell++) {
    if (cells[cell] === piece) {
      out[cell] = 0;
      queue[tail++] = cell;
    }
  }
  while (head < tail) {
    const from = queue[head++];
    const next = out[from] + 1;
    for (let d = 0; d < 8 * CELLS; d += CELLS) {
      for (let cell = table[d + from]; cell >= 0 && cells[cell] === EMPTY; cell = table[d + cell]) {
        if (out[cell] <= next) continue; // reached as soon or sooner: keep walking the ray past it
        out[cell] = next;
        queue[tail++] = cell;
      }
    }
  }
}

/** Empty squares next to `piece`'s queens (a queen with none cannot move). */
function freedom(cells: Uint8Array, size: number, piece: number): number {
  let n = 0;
  for (let cell = 0; cell < CELLS; cell++) {
    if (cells[cell] !== piece) continue;
    for (let d = 0; d < 8 * CELLS; d += CELLS) {
      const neighbour = NEXT[size][d + cell];
      if (neighbour >= 0 && cells[neighbour] === EMPTY) n++;
    }
  }
  return n;
}

/** Territory (and a little mobility) of the side to move minus the opponent's, in squares. */
export function evaluateAmazons(state: AmazonsState): number {
  const { cells, size } = state;
  const mine = state.side === 0 ? FIRST : SECOND;
  const theirs = mine === FIRST ? SECOND : FIRST;
  queenDistance(cells, size, mine, distance[0]);
  queenDistance(cells, size, theirs, distance[1]);
  let territory = 0;
  for (let cell = 0; cell < CELLS; cell++) {
    if (cells[cell] !== EMPTY) continue;
    const a = distance[0][cell];
    const b = distance[1][cell];
    if (a < b) territory += 1;
    else if (b < a) territory -= 1;
    else if (a !== UNREACHED) territory += 0.2;
  }
  return territory + 0.1 * (freedom(cells, size, mine) - freedom(cells, size, theirs));
}
