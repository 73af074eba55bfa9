/** Greedy: the move that flips the most discs; ties go to the first in board.py's order. */
import { flips, orderedMoves, out, popcount as bitCount } from '../../harness/games/reversi/core.js';
import type { ReversiState } from '../../harness/games/reversi/index.js';
import type { AgentFactory } from '../../harness/referee/agent.js';
import { firstBest } from '../generic/pick.js';
import { requireReversi, sidesOf } from './position.js';

export function greedyMove(state: ReversiState): number {
  const { ph, pl, oh, ol } = sidesOf(state);
  return firstBest(orderedMoves(ph, pl, oh, ol), (sq) => {
    flips(sq, ph, pl, oh, ol);
    return bitCount(out.hi, out.lo);
  });
}

export const greedyAgent: AgentFactory = (game) => {
  requireReversi(game, 'greedy');
  return { choose: (state) => greedyMove(state as ReversiState) };
};
