/**
 * Seeded random openings for calibration matches. Most reference AIs are deterministic, so two of them would
 * replay the same two games a hundred times; starting each pair of games (one per colour) from its own random
 * opening line makes a series sample many positions while keeping it reproducible and colour-fair.
 */
import type { AnyGame } from '../harness/games/game.js';
import type { AgentFactory } from '../harness/referee/agent.js';
import { createRng } from '../harness/referee/seed.js';

/** The positions of a random line of `plies` moves from `start` (encoded) → the move the line plays there. */
export function randomOpening(game: AnyGame, start: unknown, seed: number, plies: number): Map<string, unknown> {
  const rng = createRng(seed);
  const line = new Map<string, unknown>();
  let state = start;
  for (let ply = 0; ply < plies && !game.isTerminal(state); ply++) {
    const moves = game.legalMoves(state);
    if (moves.length === 0) {
      state = game.pass(state);
      continue;
    }
    const move = moves[rng.int(moves.length)];
    line.set(game.encode(state), move);
    state = game.apply(state, move);
  }
  return line;
}

/**
 * `factory`, but playing the opening line first. `openingSeedOf` maps a game's seed to its opening seed
 * (equal for the two colours of a pair), or null to play without an opening.
 */
export function withOpening(factory: AgentFactory, plies: number, openingSeedOf: (gameSeed: number) => number | null): AgentFactory {
  return (game, side, seed, initialState) => {
    const agent = factory(game, side, seed, initialState);
    const openingSeed = openingSeedOf(seed);
    if (openingSeed === null || plies <= 0) return agent;
    // The game's own start (its rule switches included), so the book's positions are the ones played.
    const line = randomOpening(game, initialState ?? game.initial(seed), openingSeed, plies);
    return {
      choose(state, info) {
        const booked = line.get(game.encode(state));
        return booked === undefined ? agent.choose(state, info) : booked;
      },
    };
  };
}
