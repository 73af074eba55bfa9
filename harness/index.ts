/**
 * The `referee` package as students and scripts import it. Students need only the types:
 *   import type { Board, MoveInfo } from 'referee';
 */
export { Board } from './games/reversi/index.js';
export type { Action, Color } from './games/reversi/index.js';
export type { MoveInfo } from './referee/player.js';
export type { Game, AnyGame, Side, Outcome } from './games/game.js';
export { getGame, gameIds } from './games/registry.js';
