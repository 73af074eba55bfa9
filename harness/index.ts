/**
 * The `referee` package as students and scripts import it. Students need only the types:
 *   import type { Board, MoveInfo } from 'board-referee';
 */
export { Board } from './games/reversi/index.js';
export type { Action, Color } from './games/reversi/index.js';
export type { MoveInfo } from './referee/player.js';
export type { Game, AnyGame, Side, Outcome } from './games/game.js';
export { getGame, gameIds } from './games/registry.js';
// Every game's student Board under its own name, so a starter for any game types against the one package:
//   import type { Connect4Board as Board, MoveInfo } from 'board-referee';
export type { Board as ReversiBoard } from './games/reversi/index.js';
export type { Board as Connect4Board } from './games/connect4/index.js';
export type { Board as GomokuBoard } from './games/gomoku/index.js';
export type { Board as NoGoBoard } from './games/nogo/index.js';
