/**
 * The `referee` package as students and scripts import it. Students need only the types:
 *   import type { Board, MoveInfo } from 'referee';
 *   import { moveInfo } from 'referee';   // the ask's limits, inside getMove
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
