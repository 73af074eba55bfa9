/**
 * Reference AIs named with a budget: `mcts:2000` is the generic UCT search with 2000 playouts a move (any game),
 * beside the plain ladder names (`weighted`). A name is plain data, so a game job can carry it to any worker.
 */
import type { AgentFactory } from '../harness/referee/agent.js';
import { mctsAgent } from './generic/mcts.js';
import { referenceAgent, referenceNames } from './index.js';

/** The most playouts `mcts:N` accepts (10^6 a move is minutes per game already). */
export const MAX_PLAYOUTS = 1_000_000;

/** Whether `arg` names a reference AI of the game, with or without a budget (`weighted`, `mcts:2000`). */
export function isReferenceName(game: string, arg: string): boolean {
  const [name, budget] = arg.split(':');
  if (!referenceNames(game).includes(name)) return false;
  return budget === undefined || name === 'mcts';
}

/** The agent a name stands for; a bad budget throws a one-line error naming the fix. */
export function referenceAgentByName(game: string, arg: string): AgentFactory {
  const [name, budget, ...rest] = arg.split(':');
  if (budget === undefined) return referenceAgent(game, name);
  if (name !== 'mcts' || rest.length > 0) throw new Error(`${arg}: only mcts takes a budget (mcts:2000 = 2000 playouts a move)`);
  const playouts = Number(budget);
  if (!/^\d+$/.test(budget) || playouts < 1 || playouts > MAX_PLAYOUTS) {
    throw new Error(`${arg}: the playout budget must be a whole number from 1 to ${MAX_PLAYOUTS}, e.g. mcts:2000`);
  }
  return mctsAgent({ playouts });
}
