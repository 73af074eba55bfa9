/** Whether a value a player returned names a legal move: the one check the referee and replay share. */
import type { Game } from '../games/game.js';
import type { IllegalReason } from './record.js';

/** Index in `legal` of the move `value` names, or why it names none. */
export function findLegalMove<S, M>(game: Game<S, M>, legal: readonly M[], value: unknown): number | IllegalReason {
  if (typeof value !== 'string') return 'not-a-string';
  let parsed: M | null;
  try {
    parsed = game.parseMove(value);
    // Strictness is the platform's: it compares strings, so only canonical notation names a move.
    if (parsed === null || game.formatMove(parsed) !== value) return 'not-notation';
  } catch {
    return 'not-notation';
  }
  const index = legal.indexOf(parsed);
  if (index >= 0) return index;
  // Moves that are objects compare by notation, the only identity the platform knows.
  const byNotation = typeof parsed === 'object' ? legal.findIndex((move) => game.formatMove(move) === value) : -1;
  return byNotation >= 0 ? byNotation : 'not-legal';
}
