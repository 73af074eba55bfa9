/** amazons reference AIs: the per-game heuristics and the ladder the registry (reference-ai/index.ts) serves. */
import { mctsAgent } from '../generic/mcts.js';
import { randomAgent } from '../generic/random.js';
import type { ReferenceLevel } from '../level.js';
import { amazonsAlphaBetaAgent, amazonsHeuristicAgent } from './agents.js';
import { amazonsPlayout } from './playout.js';

export { amazonsAlphaBetaAgent, amazonsHeuristicAgent, heuristicMove } from './agents.js';
export { evaluateAmazons } from './evaluate.js';
export { amazonsPlayout } from './playout.js';

export const AMAZONS_ALPHABETA_NODES = 3_000;
export const AMAZONS_MCTS_PLAYOUTS = 3_000;

/** Amazons, weakest first (order measured with scripts/ladder.ts; see harness/games/amazons/README.md). */
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
    description: `alpha-beta on territory by queen distance, ${AMAZONS_ALPHABETA_NODES / 1000}k nodes a move, best 24 moves a node`,
    factory: amazonsAlphaBetaAgent(AMAZONS_ALPHABETA_NODES),
  },
];
