/** Seeded in-process agents for referee tests. */
import type { AnyGame } from '../../../harness/games/game.js';
import type { AgentFactory } from '../../../harness/referee/agent.js';
import { InProcessPlayer } from '../../../harness/referee/in-process.js';
import { createRng } from '../../../harness/referee/seed.js';

/** Picks uniformly among legal moves with an RNG seeded from the game seed and its side. */
export const randomAgent: AgentFactory = (game, side, seed) => {
  const rng = createRng(seed * 2 + side);
  return {
    choose(state) {
      const legal = game.legalMoves(state);
      return legal[rng.int(legal.length)];
    },
  };
};

/** Always the first legal move in the game's own order. */
export const firstAgent: AgentFactory = (game) => ({ choose: (state) => game.legalMoves(state)[0] });

export function lookupOnly(game: AnyGame): (id: string) => AnyGame {
  return (id) => {
    if (id !== game.id) throw new Error(`unknown game ${JSON.stringify(id)}; known: ${game.id}`);
    return game;
  };
}

export function inProcess(name: string, factory: AgentFactory, game: AnyGame): InProcessPlayer {
  return new InProcessPlayer(name, factory, lookupOnly(game));
}
