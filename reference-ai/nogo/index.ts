/** nogo reference AIs: the per-game heuristics and the ladder the registry (reference-ai/index.ts) serves. */
import { mctsAgent } from '../generic/mcts.js';
import { randomAgent } from '../generic/random.js';
import type { ReferenceLevel } from '../level.js';
import { nogoAlphaBetaAgent, nogoHeuristicAgent } from './agents.js';
import { nogoPlayout } from './playout.js';

export { heuristicMove, nogoAlphaBetaAgent, nogoHeuristicAgent } from './agents.js';
export { evaluateNoGo, mobility } from './evaluate.js';
export { nogoPlayout } from './playout.js';

export const NOGO_ALPHABETA_NODES = 5_000;
export const NOGO_MCTS_PLAYOUTS = 2_000;

/** NoGo, weakest first (order measured with scripts/ladder.ts; see the README). */
export const nogoLevels: readonly ReferenceLevel[] = [
  { name: 'random', description: 'uniformly random legal cells (seeded)', factory: randomAgent },
  { name: 'heuristic', description: 'the cell that leaves it the most legal moves over the opponent', factory: nogoHeuristicAgent },
  {
    name: 'mcts',
    description: `UCT Monte-Carlo tree search, ${NOGO_MCTS_PLAYOUTS} random playouts per move (seeded)`,
    factory: mctsAgent({ playouts: NOGO_MCTS_PLAYOUTS, playout: nogoPlayout }),
    // Long random playouts on 81 cells: the heaviest reference AI (`npm run bench -- table` prints its CPU a move).
    heavy: true,
  },
  {
    name: 'alphabeta',
    description: `alpha-beta on mobility, ${NOGO_ALPHABETA_NODES / 1000}k nodes a move`,
    factory: nogoAlphaBetaAgent(NOGO_ALPHABETA_NODES),
  },
];
