/** Amazons reference AIs: a one-ply territory heuristic and alpha-beta on territory (random and MCTS are generic). */
import type { AnyGame } from '../../harness/games/game.js';
import { amazons, type AmazonsState } from '../../harness/games/amazons/index.js';
import type { AgentFactory } from '../../harness/referee/agent.js';
import { alphaBetaAgent } from '../generic/alphabeta.js';
import { firstBest, requireGame } from '../generic/pick.js';
import { evaluateAmazons } from './evaluate.js';

/** Moves searched at each node, best first by one-ply territory. */
export const WIDTH = 6;

const requireAmazons = (game: AnyGame, agent: string): void => requireGame(game, agent, [amazons.id]);

/** The move after which the opponent is worst off in territory (ties to the first in the game's order). */
export function heuristicMove(state: AmazonsState): number {
  return firstBest(amazons.legalMoves(state), (move) => -evaluateAmazons(amazons.apply(state, move)));
}

export const amazonsHeuristicAgent: AgentFactory = (game) => {
  requireAmazons(game, 'heuristic');
  return { choose: (state) => heuristicMove(state as AmazonsState) };
};

/** Alpha-beta on territory, `nodeBudget` states a move, children ordered by their one-ply value. */
export function amazonsAlphaBetaAgent(nodeBudget: number): AgentFactory {
  const search = alphaBetaAgent<AmazonsState, number>({
    nodeBudget,
    evaluate: evaluateAmazons,
    // Best first by the territory left after the move, and only the best WIDTH searched: a move list is ~1000 long.
    orderMoves: (state, moves) =>
      moves
        .map((move) => ({ move, value: -evaluateAmazons(amazons.apply(state, move)) }))
        .sort((a, b) => b.value - a.value)
        .slice(0, WIDTH)
        .map((entry) => entry.move),
    maxDepth: 2,
  });
  return (game, side, seed) => {
    requireAmazons(game, 'alphabeta');
    return search(game, side, seed);
  };
}
