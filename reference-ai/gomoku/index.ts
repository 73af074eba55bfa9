/** gomoku reference AIs: the per-game heuristics and the ladder the registry (reference-ai/index.ts) serves. */
import { mctsAgent } from '../generic/mcts.js';
import { randomAgent } from '../generic/random.js';
import type { ReferenceLevel } from '../level.js';
import { gomokuAlphaBetaAgent, gomokuHeuristicAgent } from './agents.js';

export { gomokuAlphaBetaAgent, gomokuHeuristicAgent, heuristicMove } from './agents.js';
export { candidateMoves, evaluateGomoku, moveValue, rankedCandidates, stoneValue } from './patterns.js';

export const GOMOKU_ALPHABETA_NODES = 2_000;
export const GOMOKU_MCTS_PLAYOUTS = 500;

/** Both Gomoku variants, weakest first (order measured with scripts/ladder.ts; see the README). */
export const gomokuLevels: readonly ReferenceLevel[] = [
  { name: 'random', description: 'uniformly random empty cells (seeded)', factory: randomAgent },
  {
    name: 'mcts',
    description: `UCT Monte-Carlo tree search, ${GOMOKU_MCTS_PLAYOUTS} random playouts per move (seeded; weak on 225 cells)`,
    factory: mctsAgent({ playouts: GOMOKU_MCTS_PLAYOUTS }),
  },
  {
    name: 'heuristic',
    description: 'the candidate with the best attack + 0.9 x defence value (fives, fours, open threes)',
    factory: gomokuHeuristicAgent,
  },
  {
    name: 'alphabeta',
    description: `alpha-beta over the 8 best candidates per node, ${GOMOKU_ALPHABETA_NODES / 1000}k nodes a move`,
    factory: gomokuAlphaBetaAgent(GOMOKU_ALPHABETA_NODES),
  },
];
