/** amazons reference AIs: the per-game heuristics and the ladder the registry (reference-ai/index.ts) serves. */
import { mctsAgent } from '../generic/mcts.js';
import { randomAgent } from '../generic/random.js';
import type { ReferenceLevel } from '../level.js';
import { amazonsAlphaBetaAgent, amazonsHeuristicAgent, WIDTH } from './agents.js';
import { amazonsPlayout } from './playout.js';

export { amazonsAlphaBetaAgent, amazonsHeuristicAgent, heuristicMove } from './agents.js';
export { evaluateAmazons } from './evaluate.js';
export { amazonsPlayout } from './playout.js';

export const AMAZONS_ALPHABETA_NODES = 1_000;
export const AMAZONS_MCTS_PLAYOUTS = 2_000;

/**
 * Amazons, weakest first. `npm run ladder -- --game amazons --games 8 --seed 1`: mcts 8-0 random, heuristic 8-0
 * mcts, alphabeta 7-0-1 heuristic (see harness/games/amazons/README.md).
 */
export const amazonsLevels: readonly ReferenceLevel[] = [
  { name: 'random', description: 'uniformly random legal moves (seeded)', factory: randomAgent },
  {
    name: 'mcts',
    description: `UCT Monte-Carlo tree search, ${AMAZONS_MCTS_PLAYOUTS} random playouts per move (seeded)`,
    factory: mctsAgent({ playouts: AMAZONS_MCTS_PLAYOUTS, playout: amazonsPlayout }),
    heavy: true,
  },
  { name: 'heuristic', description: 'the move that leaves it the most territory by queen distance (one ply)', factory: amazonsHeuristicAgent },
  {
    name: 'alphabeta',
    description: `alpha-beta on territory by queen distance, 2 plies, the best ${WIDTH} moves a node (by one-ply territory)`,
    factory: amazonsAlphaBetaAgent(AMAZONS_ALPHABETA_NODES),
  },
];
