/**
 * Variety for deterministic reference AIs: the opponent plays its first few moves at random, drawn from the game's
 * seed, then its own choices. Without it a deterministic opponent plays the same two games (one per colour) over
 * and over, and a win rate over ten games says no more than two; with it each seed is a different, reproducible game.
 */
import type { AgentFactory } from '../harness/referee/agent.js';
import { createRng } from '../harness/referee/seed.js';

export function withRandomOpening(factory: AgentFactory, moves: number): AgentFactory {
  if (moves <= 0) return factory;
  return (game, side, seed) => {
    const agent = factory(game, side, seed);
    const rng = createRng(seed);
    return {
      choose(state, info) {
        if (info.moveNumber > moves) return agent.choose(state, info);
        const legal = game.legalMoves(state);
        return legal[rng.int(legal.length)];
      },
    };
  };
}
