/** The generic ladder, for any game without heuristics of its own (order not measured per game). */
import type { ReferenceLevel } from '../level.js';
import { alphaBetaAgent } from './alphabeta.js';
import { mctsAgent } from './mcts.js';
import { randomAgent } from './random.js';

export const GENERIC_MCTS_PLAYOUTS = 2000;
export const GENERIC_ALPHABETA_NODES = 50_000;

export const genericLevels: readonly ReferenceLevel[] = [
  { name: 'random', description: 'uniformly random legal moves (seeded)', factory: randomAgent },
  {
    name: 'alphabeta',
    description: `alpha-beta to the deepest depth ${GENERIC_ALPHABETA_NODES} nodes allow, win/loss values only`,
    factory: alphaBetaAgent({ nodeBudget: GENERIC_ALPHABETA_NODES, transposition: true }),
  },
  {
    name: 'mcts',
    description: `UCT Monte-Carlo tree search, ${GENERIC_MCTS_PLAYOUTS} random playouts per move (seeded)`,
    factory: mctsAgent({ playouts: GENERIC_MCTS_PLAYOUTS }),
  },
];
