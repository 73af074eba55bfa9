/**
 * NoGo's own playout for the MCTS reference AI must be the generic playout exactly: the same winner and the same
 * random draws from any mid-game state, hence the same MCTS moves for a seed (the ladder and every recorded
 * game stay as they were).
 */
import { getGame } from '../../harness/games/registry.js';
import type { NoGoState } from '../../harness/games/nogo/index.js';
import { createRng } from '../../harness/referee/seed.js';
import { mctsSearch, playout } from '../../reference-ai/generic/mcts.js';
import { nogoPlayout } from '../../reference-ai/nogo/index.js';

const nogo = getGame('nogo');

/** A seeded random position `plies` moves into a game (fewer if the game ends first). */
function position(seed: number, plies: number): NoGoState {
  const rng = createRng(seed);
  let state = nogo.initial(seed) as NoGoState;
  for (let i = 0; i < plies && !nogo.isTerminal(state); i++) {
    const moves = nogo.legalMoves(state);
    state = nogo.apply(state, moves[rng.int(moves.length)]) as NoGoState;
  }
  return state;
}

test('the NoGo playout gives the generic playout’s winner and draws from 300 positions', () => {
  let compared = 0;
  for (let seed = 1; seed <= 300; seed++) {
    const state = position(seed, 1 + (seed % 40));
    if (nogo.isTerminal(state)) continue;
    const generic = createRng(seed * 7);
    const own = createRng(seed * 7);
    expect(nogoPlayout(state, own)).toBe(playout(nogo, state, generic));
    expect(own.int(1 << 30)).toBe(generic.int(1 << 30)); // the same number of draws
    compared++;
  }
  expect(compared).toBeGreaterThan(250);
});

test('the first move is left to the generic playout (its rules belong to the Game)', () => {
  expect(nogoPlayout(nogo.initial(1), createRng(1))).toBeUndefined();
});

test('MCTS plays the same moves with and without it', () => {
  for (const seed of [3, 11, 29]) {
    const state = position(seed, 6 + seed);
    const generic = mctsSearch(nogo, state, { playouts: 300 }, createRng(seed));
    const own = mctsSearch(nogo, state, { playouts: 300, playout: nogoPlayout }, createRng(seed));
    expect(own).toEqual(generic);
  }
});
