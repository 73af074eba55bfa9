/**
 * Gomoku reference AIs (both variants): a one-ply pattern heuristic and alpha-beta over the best few candidates.
 * Random and MCTS are the generic agents.
 */
import type { AnyGame } from '../../harness/games/game.js';
import { gomoku, gomokuExact5, type GomokuState } from '../../harness/games/gomoku/index.js';
import type { AgentFactory } from '../../harness/referee/agent.js';
import { alphaBetaAgent } from '../generic/alphabeta.js';
import { requireGame } from '../generic/pick.js';
import { evaluateGomoku, rankedCandidates } from './patterns.js';

const IDS = [gomoku.id, gomokuExact5.id];

function requireGomoku(game: AnyGame, agent: string): void {
  requireGame(game, agent, IDS);
}

/** The candidate with the best attack + defence value: completes five, blocks four, builds open threes. */
export function heuristicMove(state: GomokuState): number {
  return rankedCandidates(state, 1)[0];
}

export const gomokuHeuristicAgent: AgentFactory = (game) => {
  requireGomoku(game, 'heuristic');
  return { choose: (state) => heuristicMove(state as GomokuState) };
};

/**
 * Alpha-beta on the window evaluation, searching only the `width` best candidates at each node (the generic
 * search visits exactly the moves `orderMoves` returns), `nodeBudget` states per move.
 */
export function gomokuAlphaBetaAgent(nodeBudget: number, width = 8): AgentFactory {
  const search = alphaBetaAgent<GomokuState, number>({
    nodeBudget,
    evaluate: evaluateGomoku,
    orderMoves: (state) => rankedCandidates(state, width),
    maxDepth: 6,
  });
  return (game, side, seed) => {
    requireGomoku(game, 'alphabeta');
    return search(game, side, seed);
  };
}
