/** Greedy: the move that flips the most discs; ties go to the first in board.py's order. */
import { flips, orderedMoves, out } from '../../harness/games/reversi/core.js';
import { popcount as bitCount } from '../../harness/games/reversi/core.js';
import type { ReversiState } from '../../harness/games/reversi/index.js';
import type { AgentFactory } from '../../harness/referee/agent.js';
import { requireReversi, sidesOf } from './position.js';

export function greedyMove(state: ReversiState): number {
  const { ph, pl, oh, ol } = sidesOf(state);
  let best = -1;
  let bestFlips = -1;
  for (const sq of orderedMoves(ph, pl, oh, ol)) {
    flips(sq, ph, pl, oh, ol);
    const n = bitCount(out.hi, out.lo);
    if (n > bestFlips) {
      bestFlips = n;
      best = sq;
    }
  }
  return best;
}

export const greedyAgent: AgentFactory = (game) => {
  requireReversi(game, 'greedy');
  return { choose: (state) => greedyMove(state as ReversiState) };
};
