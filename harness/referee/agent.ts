/**
 * A trusted, in-process decision maker (the reference AIs). Agents see states through the Game interface only
 * and budget by nodes or playouts, never by wall time, so a seed fixes every game on any machine.
 */
import type { AnyGame, Side } from '../games/game.js';
import type { MoveInfo } from './player.js';

export interface Agent<S = unknown, M = unknown> {
  /** Pick a legal move for the side to move; called only when there is one. */
  choose(state: S, info: MoveInfo): M;
}

/**
 * Builds a fresh agent for one game (a new AIPlayer per game, as for submissions). `initialState` is the game's
 * decoded start position (it depends on the game's rule switches, e.g. NoGo's centre rule, as well as the seed).
 */
export type AgentFactory = (game: AnyGame, side: Side, seed: number, initialState?: unknown) => Agent;
