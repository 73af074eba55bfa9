/**
 * game.py's live board, for the child hosts: within a game the player receives the same Board object every turn,
 * and the moves of both sides are played on it between turns (game.py calls board._move on the one board it
 * hands to get_move). The tamper rule compares the board once per turn, after the last ask, with a snapshot
 * taken before the first.
 *
 * Everything used here is captured when the host starts, before any student code runs, so a submission that
 * patches Board.prototype._move only breaks its own board; a board that no longer matches the referee's state
 * (changed under tamperLoses false, or patched) is replaced by a fresh one built from the state.
 */
import type { AnyGame, Side } from '../../games/game.js';
import type { PlayedMove } from '../../referee/player.js';

export interface LiveBoards {
  /** The board for this turn: `board` with `played` applied when it then matches `state`, else a fresh board. */
  sync(board: unknown, state: string, played: readonly PlayedMove[] | undefined): unknown;
  fingerprint(board: unknown): string;
}

type MoveMethod = (this: unknown, action: string, color: string) => unknown;

export function liveBoards(game: AnyGame): LiveBoards {
  const create = game.studentBoard.create.bind(game.studentBoard);
  const fingerprint = game.studentBoard.fingerprint.bind(game.studentBoard);
  const decode = game.decode.bind(game);
  const symbols = game.symbols;
  const prototype = Object.getPrototypeOf(create(game.initial(0))) as { _move?: MoveMethod };
  const play = prototype._move;
  return {
    fingerprint,
    sync(board, state, played) {
      const truth = create(decode(state));
      if (board === null || board === undefined || typeof play !== 'function') return truth;
      try {
        for (const { side, move } of played ?? []) play.call(board, move, symbols[side as Side]);
        return fingerprint(board) === fingerprint(truth) ? board : truth;
      } catch {
        return truth;
      }
    },
  };
}
