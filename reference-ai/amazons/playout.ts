/**
 * Amazons' random playout for the MCTS reference AI, on one scratch board played in place: a random queen that can
 * move, a random destination, a random arrow (not uniform over whole moves, which would cost a full move list a
 * ply; a seed still plays the same playouts). The side that cannot move has lost.
 */
import type { Side } from '../../harness/games/game.js';
import { ARROW, CELLS, EMPTY, FIRST, reach, SECOND } from '../../harness/games/amazons/core.js';
import type { AmazonsState } from '../../harness/games/amazons/index.js';
import type { Rng } from '../../harness/referee/seed.js';

const board = new Uint8Array(CELLS);
const targets = new Int16Array(CELLS);
const queens = new Int16Array(4);
const movable = new Int16Array(4);

export function amazonsPlayout(state: unknown, rng: Rng): Side {
  const s = state as AmazonsState;
  board.set(s.cells);
  let side = s.side;
  for (;;) {
    const piece = side === 0 ? FIRST : SECOND;
    let nQueens = 0;
    for (let cell = 0; cell < CELLS && nQueens < 4; cell++) if (board[cell] === piece) queens[nQueens++] = cell;
    let nMovable = 0;
    for (let i = 0; i < nQueens; i++) if (reach(board, s.size, queens[i], targets, 0) > 0) movable[nMovable++] = queens[i];
    if (nMovable === 0) return (side ^ 1) as Side;
    const from = movable[rng.int(nMovable)];
    const to = targets[rng.int(reach(board, s.size, from, targets, 0))];
    board[from] = EMPTY;
    board[to] = piece;
    board[targets[rng.int(reach(board, s.size, to, targets, 0))]] = ARROW;
    side = (side ^ 1) as Side;
  }
}
