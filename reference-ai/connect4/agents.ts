/**
 * Connect Four reference AIs (both variants): a one-ply heuristic and alpha-beta on the window evaluation.
 * Random and MCTS are the generic agents, which need nothing game-specific.
 */
import type { AnyGame } from '../../harness/games/game.js';
import { connect4, connect4Nogo, type Connect4State } from '../../harness/games/connect4/index.js';
import type { AgentFactory } from '../../harness/referee/agent.js';
import { alphaBetaAgent } from '../generic/alphabeta.js';
import { firstBest, requireGame } from '../generic/pick.js';
import { centreFirst, evaluateConnect4 } from './evaluate.js';

const IDS = [connect4.id, connect4Nogo.id];

function requireConnect4(game: AnyGame, agent: string): void {
  requireGame(game, agent, IDS);
}

/**
 * Wins at once if it can, else blocks the opponent's immediate win, else takes the move with the best window
 * evaluation after it; ties go to the more central column.
 */
// Both variants share one apply and one legal-move rule, so `connect4` serves connect4-nogo states too.
export function heuristicMove(state: Connect4State): number {
  const moves = centreFirst(state, connect4.legalMoves(state));
  const opponentView: Connect4State = { ...state, side: (state.side ^ 1) as 0 | 1 };
  let block = -1;
  for (const col of moves) {
    if (connect4.apply(state, col).winner !== null) return col;
    if (block < 0 && connect4.apply(opponentView, col).winner !== null) block = col;
  }
  if (block >= 0) return block;
  return firstBest(moves, (col) => -evaluateConnect4(connect4.apply(state, col)));
}

export const connect4HeuristicAgent: AgentFactory = (game) => {
  requireConnect4(game, 'heuristic');
  return { choose: (state) => heuristicMove(state as Connect4State) };
};

/** Alpha-beta with the window evaluation and centre-first ordering; `nodeBudget` states per move. */
export function connect4AlphaBetaAgent(nodeBudget: number): AgentFactory {
  const search = alphaBetaAgent<Connect4State, number>({
    nodeBudget,
    evaluate: evaluateConnect4,
    orderMoves: centreFirst,
    transposition: true,
  });
  return (game, side, seed) => {
    requireConnect4(game, 'alphabeta');
    return search(game, side, seed);
  };
}
