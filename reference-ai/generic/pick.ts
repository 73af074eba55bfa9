/** Small pieces every per-game heuristic needs: a guard against the wrong game, and a tie-stable argmax. */
import type { AnyGame } from '../../harness/games/game.js';

/** Per-game agents read their game's own state layout, so they refuse any other game up front. */
export function requireGame(game: AnyGame, agent: string, ids: readonly string[], label = ids.join(' and ')): void {
  if (!ids.includes(game.id)) {
    throw new Error(`reference AI '${agent}' plays ${label} only, not '${game.id}'; pick a generic agent (random, alphabeta, mcts)`);
  }
}

/**
 * The move with the highest value; ties go to the earliest, so a heuristic keeps the game's own move order
 * (board.py's, for Reversi). `moves` must not be empty.
 */
export function firstBest<M>(moves: readonly M[], value: (move: M) => number): M {
  let best = moves[0];
  let bestValue = value(best);
  for (let i = 1; i < moves.length; i++) {
    const candidate = value(moves[i]);
    if (candidate > bestValue) {
      bestValue = candidate;
      best = moves[i];
    }
  }
  return best;
}
