/** connect4 reference AIs: the per-game heuristics and the ladder the registry (reference-ai/index.ts) serves. */
import { mctsAgent } from '../generic/mcts.js';
import { randomAgent } from '../generic/random.js';
import type { ReferenceLevel } from '../level.js';
import { connect4AlphaBetaAgent, connect4HeuristicAgent } from './agents.js';

export { connect4AlphaBetaAgent, connect4HeuristicAgent, heuristicMove } from './agents.js';
export { centreFirst, evaluateConnect4 } from './evaluate.js';

export const CONNECT4_ALPHABETA_NODES = 20_000;
export const CONNECT4_MCTS_PLAYOUTS = 2_000;

/** Both Connect Four variants, weakest first (order measured with scripts/ladder.ts; see the README). */
export const connect4Levels: readonly ReferenceLevel[] = [
  { name: 'random', description: 'uniformly random legal columns (seeded)', factory: randomAgent },
  {
    name: 'heuristic',
    description: 'wins if it can, else blocks, else the best window evaluation one ply ahead',
    factory: connect4HeuristicAgent,
  },
  {
    name: 'mcts',
    description: `UCT Monte-Carlo tree search, ${CONNECT4_MCTS_PLAYOUTS} random playouts per move (seeded)`,
    factory: mctsAgent({ playouts: CONNECT4_MCTS_PLAYOUTS }),
  },
  {
    name: 'alphabeta',
    description: `alpha-beta on windows of four, centre-first, ${CONNECT4_ALPHABETA_NODES / 1000}k nodes a move`,
    factory: connect4AlphaBetaAgent(CONNECT4_ALPHABETA_NODES),
  },
];
