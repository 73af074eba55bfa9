/** Helpers shared by the Reversi agents: the side to move's view of a state, and a guard against other games. */
import type { AnyGame } from '../../harness/games/game.js';
import { reversi, type ReversiState } from '../../harness/games/reversi/index.js';
import { requireGame } from '../generic/pick.js';

/** The side to move's discs (ph, pl) and the opponent's (oh, ol), as high/low int32 halves. */
export interface Sides {
  ph: number;
  pl: number;
  oh: number;
  ol: number;
}

export function sidesOf(state: ReversiState): Sides {
  return state.side === 0
    ? { ph: state.bh, pl: state.bl, oh: state.wh, ol: state.wl }
    : { ph: state.wh, pl: state.wl, oh: state.bh, ol: state.bl };
}

/** Reversi agents read bitboards straight from the state, so they refuse any other game up front. */
export function requireReversi(game: AnyGame, agent: string): void {
  requireGame(game, agent, [reversi.id], 'Reversi');
}
