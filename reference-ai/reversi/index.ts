/**
 * The Reversi ladder, weakest first, in the order measured by scripts/ladder.ts (see the budgets' comments):
 * random < greedy < weighted < mcts < mobility < alphabeta.
 */
import { mctsAgent } from '../generic/mcts.js';
import { randomAgent } from '../generic/random.js';
import type { ReferenceLevel } from '../level.js';
import { engineAgent } from './engine-agent.js';
import { mobilityEvaluation, strongEvaluation } from './evaluate.js';
import { greedyAgent } from './greedy.js';
import { weightedAgent } from './weighted.js';

/** 2000 random playouts: clearly above weighted, clearly below a depth-4 mobility search. */
export const REVERSI_MCTS_PLAYOUTS = 2000;
/** Depth 4 rather than 3: depth 3 beats weighted only ~67% of the time, short of the ladder's 70% step. */
export const MOBILITY_DEPTH = 4;
/** ≈ depth 7–9 in the middle game at ~2.5 M nodes/s: tens of milliseconds a move. */
export const ALPHABETA_NODES = 100_000;
/** Exact solve from 14 empties: ~0.5 M nodes on average; the budget covers the rare hard ones. */
export const ALPHABETA_SOLVE_EMPTIES = 14;
export const ALPHABETA_SOLVE_NODES = 4_000_000;

export const reversiLevels: readonly ReferenceLevel[] = [
  { name: 'random', description: 'uniformly random legal moves (seeded)', factory: randomAgent },
  { name: 'greedy', description: "flips the most discs; ties go to the first move in board.py's order", factory: greedyAgent },
  {
    name: 'weighted',
    description: 'one ply on the classic positional table (corners 100, X-squares −50, C-squares −20)',
    factory: weightedAgent,
  },
  {
    name: 'mcts',
    description: `UCT Monte-Carlo tree search, ${REVERSI_MCTS_PLAYOUTS} random playouts per move (seeded)`,
    factory: mctsAgent({ playouts: REVERSI_MCTS_PLAYOUTS }),
  },
  {
    name: 'mobility',
    description: `depth-${MOBILITY_DEPTH} alpha-beta on mobility and corners`,
    factory: engineAgent('mobility', {
      evaluate: mobilityEvaluation,
      nodeBudget: Number.MAX_SAFE_INTEGER,
      maxDepth: MOBILITY_DEPTH,
      solveEmpties: 0,
      solveBudget: 0,
    }),
  },
  {
    name: 'alphabeta',
    description:
      `iterative-deepening alpha-beta, ${ALPHABETA_NODES / 1000}k nodes a move (mobility, frontier, corners, ` +
      `weights), exact endgame from ${ALPHABETA_SOLVE_EMPTIES} empties`,
    factory: engineAgent('alphabeta', {
      evaluate: strongEvaluation,
      nodeBudget: ALPHABETA_NODES,
      maxDepth: 60,
      solveEmpties: ALPHABETA_SOLVE_EMPTIES,
      solveBudget: ALPHABETA_SOLVE_NODES,
    }),
  },
];
