/**
 * Positions the interface check asks for moves, taken from the game itself so nothing here knows its rules:
 * seeded random games from game.initial, from which we pick the opening for each side, a position with a
 * single legal move, and late positions for each side.
 */
import type { AnyGame, Side } from '../games/game.js';
import { createRng } from '../referee/seed.js';

export interface Probe {
  label: string;
  state: unknown;
  side: Side;
}

const PLAYOUTS = 40;

/** Up to five probes: opening ×2 colours, single legal move, late position ×2 colours (fewer if a game lacks one). */
export function probePositions(game: AnyGame, seed = 1): Probe[] {
  const rng = createRng(seed);
  const initial = game.initial(seed);
  const probes: Probe[] = [];
  const add = (label: string, state: unknown): void => {
    probes.push({ label, state, side: game.toMove(state) });
  };
  let single: unknown = null;
  const late: [unknown, unknown] = [null, null];
  let reply: unknown = null;
  for (let playout = 0; playout < PLAYOUTS; playout++) {
    let state = initial;
    const moved: unknown[] = [];
    while (!game.isTerminal(state)) {
      const moves = game.legalMoves(state);
      if (moves.length === 0) {
        state = game.pass(state);
        continue;
      }
      moved.push(state);
      if (moves.length === 1 && single === null && moved.length > 1) single = state;
      state = game.apply(state, moves[rng.int(moves.length)]);
      if (reply === null && moved.length === 1 && game.toMove(state) !== game.toMove(initial)) reply = state;
    }
    // The last position each side had to decide in is this playout's late position for that side.
    for (let i = moved.length - 1; i >= 0; i--) {
      const side = game.toMove(moved[i]);
      if (late[side] === null) late[side] = moved[i];
    }
    if (single !== null && late[0] !== null && late[1] !== null && reply !== null) break;
  }
  add(`opening (${game.sideNames[game.toMove(initial)]})`, initial);
  if (reply !== null) add(`opening reply (${game.sideNames[game.toMove(reply)]})`, reply);
  if (single !== null) add(`single legal move (${game.sideNames[game.toMove(single)]})`, single);
  for (const state of late) if (state !== null) add(`late game (${game.sideNames[game.toMove(state)]})`, state);
  return probes;
}
