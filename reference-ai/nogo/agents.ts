/**
 * NoGo reference AIs: a one-ply mobility heuristic and alpha-beta on mobility. Random and MCTS (the classic
 * strong NoGo player) are the generic agents.
 */
import type { AnyGame } from '../../harness/games/game.js';
import { nogo, type NoGoState } from '../../harness/games/nogo/index.js';
import type { AgentFactory } from '../../harness/referee/agent.js';
import { alphaBetaAgent } from '../generic/alphabeta.js';
import { firstBest, requireGame } from '../generic/pick.js';
import { evaluateNoGo } from './evaluate.js';

function requireNoGo(game: AnyGame, agent: string): void {
  requireGame(game, agent, [nogo.id]);
}

/** The move after which the opponent is worst off in mobility (ties to the first in index order). */
export function heuristicMove(state: NoGoState): number {
  return firstBest(nogo.legalMoves(state), (cell) => -evaluateNoGo(nogo.apply(state, cell)));
}

export const nogoHeuristicAgent: AgentFactory = (game) => {
  requireNoGo(game, 'heuristic');
  return { choose: (state) => heuristicMove(state as NoGoState) };
};

/** Alpha-beta on mobility, `nodeBudget` states per move. */
export function nogoAlphaBetaAgent(nodeBudget: number): AgentFactory {
  const search = alphaBetaAgent<NoGoState, number>({ nodeBudget, evaluate: evaluateNoGo, transposition: true });
  return (game, side, seed) => {
    requireNoGo(game, 'alphabeta');
    return search(game, side, seed);
  };
}
