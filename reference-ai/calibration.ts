/**
 * A calibration series between two reference AIs of a game: colour-balanced, with games 2k and 2k+1 starting
 * from the same seeded random opening (seeded from game 2k's seed), so deterministic agents still meet many
 * positions. What scripts/ladder.ts measures and the ladder smoke test checks.
 */
import { getGame } from '../harness/games/registry.js';
import { InProcessPlayer } from '../harness/referee/in-process.js';
import { deriveSeed } from '../harness/referee/seed.js';
import { playSeries, type SeriesResult } from '../harness/referee/series.js';
import { referenceAgent } from './index.js';
import { withOpening } from './opening.js';

export interface CalibrationOptions {
  gameId: string;
  /** Reference AI names; `a` plays the first side in even games. */
  a: string;
  b: string;
  games: number;
  seed: number;
  /** Random plies before the agents take over (0: none). */
  openingPlies: number;
}

export async function playCalibrationSeries(options: CalibrationOptions): Promise<SeriesResult> {
  const { gameId, games, seed, openingPlies } = options;
  const game = getGame(gameId);
  const openingSeeds = new Map<number, number>();
  for (let i = 0; i < games; i++) openingSeeds.set(deriveSeed(seed, i), deriveSeed(deriveSeed(seed, i - (i % 2)), 0));
  const openingOf = (gameSeed: number): number | null => openingSeeds.get(gameSeed) ?? null;
  const player = (name: string): InProcessPlayer =>
    new InProcessPlayer(name, withOpening(referenceAgent(gameId, name), openingPlies, openingOf), getGame);
  const a = player(options.a);
  const b = player(options.b);
  try {
    return await playSeries({ game, a, b, games, seed });
  } finally {
    await Promise.all([a.close(), b.close()]);
  }
}
