/**
 * The `referee` package as students and scripts import it. Students need only the types:
 *   import type { Board, MoveInfo } from 'board-referee';
 *   import { moveInfo } from 'board-referee';   // the ask's limits, inside getMove
 */
export { Board } from './games/reversi/index.js';
export type { Action, Color } from './games/reversi/index.js';
export type { MoveInfo } from './referee/player.js';
import type { MoveInfo } from './referee/player.js';

/**
 * The current ask's limits (time per ask and per turn, attempt, move number, the opponent's last move) while
 * getMove runs under the grader, which supplies this function to the sandboxed submission; getMove itself
 * receives only the board, as game.py calls it. Outside the grader (a student's own scripts) it returns null.
 */
export function moveInfo(): Readonly<MoveInfo> | null {
  return null;
}
export type { Game, AnyGame, Side, Outcome } from './games/game.js';
export { getGame, gameIds } from './games/registry.js';
// Every game's student Board under its own name, so a starter for any game types against the one package:
//   import type { Connect4Board as Board, MoveInfo } from 'board-referee';
export type { Board as ReversiBoard } from './games/reversi/index.js';
export type { Board as Connect4Board } from './games/connect4/index.js';
export type { Board as GomokuBoard } from './games/gomoku/index.js';
export type { Board as NoGoBoard } from './games/nogo/index.js';
export type { Board as AmazonsBoard } from './games/amazons/index.js';
