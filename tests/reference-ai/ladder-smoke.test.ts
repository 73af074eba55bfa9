import { reversi } from '../../harness/games/reversi/index.js';
import { playCalibrationSeries } from '../../reference-ai/calibration.js';
import { randomOpening, withOpening } from '../../reference-ai/opening.js';
import { referenceAgent } from '../../reference-ai/index.js';
import { moveInfo } from './helpers.js';
import { sized } from '../setup/long.js';

describe('seeded random openings', () => {
  it('plays the same line for both colours of a pair, then hands over to the agent', () => {
    const line = randomOpening(reversi, reversi.initial(), 5, 4);
    expect(line.size).toBe(4);
    const greedy = referenceAgent('reversi', 'greedy');
    const withLine = withOpening(greedy, 4, () => 5);
    let state = reversi.initial();
    for (let ply = 0; ply < 4; ply++) {
      const booked = line.get(reversi.encode(state));
      expect(withLine(reversi, state.side, 99).choose(state, moveInfo(1 + (ply >> 1)))).toBe(booked);
      state = reversi.apply(state, booked as number);
    }
    expect(line.has(reversi.encode(state))).toBe(false);
    expect(withLine(reversi, state.side, 99).choose(state, moveInfo(3))).toBe(greedy(reversi, state.side, 99).choose(state, moveInfo(3)));
  });

  it('pairs games 2k and 2k+1 on one opening and varies it across pairs', async () => {
    const series = await playCalibrationSeries({ gameId: 'reversi', a: 'greedy', b: 'weighted', games: 6, seed: 3, openingPlies: 4 });
    const openings = series.records.map((r) => r.turns.slice(0, 4).map((t) => t.move ?? t.kind).join(' '));
    expect(openings[0]).toBe(openings[1]);
    expect(openings[2]).toBe(openings[3]);
    expect(new Set([openings[0], openings[2], openings[4]]).size).toBe(3);
  });
});

describe('ladder order (smoke test, a few games)', () => {
  const score = async (a: string, b: string, games: number) =>
    (await playCalibrationSeries({ gameId: 'reversi', a, b, games, seed: 1, openingPlies: 4 })).scoreRate;

  it('weighted beats random', async () => {
    expect(await score('weighted', 'random', 20)).toBeGreaterThan(0.5);
  });

  it('mobility beats weighted', async () => {
    expect(await score('mobility', 'weighted', 20)).toBeGreaterThan(0.5);
  });

  it('alphabeta beats mobility', async () => {
    expect(await score('alphabeta', 'mobility', sized(4, 10))).toBeGreaterThan(0.5);
  });
});
