/** Uniformly random legal moves: the floor of every ladder. */
import type { AgentFactory } from '../../harness/referee/agent.js';
import { createRng, deriveSeed } from '../../harness/referee/seed.js';

/** Each move draws from its own stream (seed, move number), so a move depends only on the seed and the position. */
export const randomAgent: AgentFactory = (game, _side, seed) => ({
  choose(state, info) {
    const moves = game.legalMoves(state);
    return moves[createRng(deriveSeed(seed, info.moveNumber)).int(moves.length)];
  },
});
