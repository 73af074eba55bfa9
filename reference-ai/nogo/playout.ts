/**
 * NoGo's random playout for the MCTS reference AI, on one scratch board played in place: the generic playout's
 * moves and random draws exactly (legalCells is what `legalMoves` and `isTerminal` both rest on, in the same
 * index order; a stone never captures), without a new state, a legal-move array and a second terminal scan per
 * move. tests/reference-ai/nogo-playout.test.ts holds it to the generic playout and to the same MCTS moves.
 */
import type { Side } from '../../harness/games/game.js';
import { BLACK, CELLS, legalCells, WHITE } from '../../harness/games/nogo/core.js';
import type { NoGoState } from '../../harness/games/nogo/index.js';
import type { Rng } from '../../harness/referee/seed.js';

const board = new Uint8Array(CELLS);
const moves = new Int16Array(CELLS);

/** The winner of a random playout from `state`; undefined for a first move (its rules are the Game's to apply). */
export function nogoPlayout(state: unknown, rng: Rng): Side | null | undefined {
  const s = state as NoGoState;
  if (s.stones === 0) return undefined;
  board.set(s.cells);
  let side = s.side;
  for (;;) {
    const piece = side === 0 ? BLACK : WHITE;
    const n = legalCells(board, piece, moves);
    if (n === 0) return (side ^ 1) as Side; // the side to move has no legal move: it has lost
    board[moves[rng.int(n)]] = piece;
    side = (side ^ 1) as Side;
  }
}
