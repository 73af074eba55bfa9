import { formatSeriesReport, playSeries } from '../../harness/referee/series.js';
import { replayRecord } from '../../harness/referee/replay.js';
import { inProcess, randomAgent } from './helpers/agents.js';
import { firstLegal, ScriptedPlayer, withoutTimes } from './helpers/fake-players.js';
import { makeTinyGame } from './helpers/tiny-game.js';

/** 'xxxo' with first-legal players: Black always wins 3–1. */
const fixed = makeTinyGame('xxxo');
const seeded = makeTinyGame();

describe('playSeries', () => {
  test('colours alternate: a is Black in even games and White in odd ones', async () => {
    const a = new ScriptedPlayer('A', firstLegal(fixed));
    const b = new ScriptedPlayer('B', firstLegal(fixed));
    const result = await playSeries({ game: fixed, a, b, games: 4, seed: 1 });
    expect(result.records.map((r) => r.players)).toEqual([
      ['A', 'B'],
      ['B', 'A'],
      ['A', 'B'],
      ['B', 'A'],
    ]);
    expect(a.starts.map((s) => s.side)).toEqual([0, 1, 0, 1]);
    expect(b.starts.map((s) => s.side)).toEqual([1, 0, 1, 0]);
    // Black always wins 3–1, so each player wins exactly its Black games.
    expect(result.tally[0]).toEqual({
      wins: 2,
      draws: 0,
      losses: 2,
      bySide: [
        { wins: 2, draws: 0, losses: 0 },
        { wins: 0, draws: 0, losses: 2 },
      ],
    });
    expect(result.sideWins).toEqual([4, 0]);
    expect(result.scoreRate).toBe(0.5);
    expect(result.averageDiff).toBe(0);
    expect(result.scoreEnds).toBe(4);
    expect(result.sideNames).toEqual(['Black', 'White']);
  });

  test('per-game seeds differ and derive from the series seed; the same seed gives identical records', async () => {
    const run = (seed: number) =>
      playSeries({
        game: seeded,
        a: inProcess('A', randomAgent, seeded),
        b: inProcess('B', randomAgent, seeded),
        games: 6,
        seed,
      });
    const [first, again, other] = await Promise.all([run(11), run(11), run(12)]);
    expect(withoutTimes(again)).toEqual(withoutTimes(first));
    const seeds = first.records.map((r) => r.seed);
    expect(new Set(seeds).size).toBe(6);
    expect(other.records.map((r) => r.initialState)).not.toEqual(first.records.map((r) => r.initialState));
    for (const record of [...first.records, ...other.records]) expect(replayRecord(record, seeded)).toMatchObject({ ok: true });
  });

  test('players using the seed choose differently under another seed on the same layout', async () => {
    const open = makeTinyGame('********');
    const run = (seed: number) =>
      playSeries({ game: open, a: inProcess('A', randomAgent, open), b: inProcess('B', randomAgent, open), games: 4, seed });
    const [one, two] = await Promise.all([run(1), run(2)]);
    const moves = (r: typeof one) => r.records.map((g) => g.turns.map((t) => t.move).join(''));
    expect(moves(one)).not.toEqual(moves(two));
    expect(moves(one)).toEqual(moves(await run(1)));
  });

  test('verdicts are counted by loser, and the report lists them', async () => {
    const a = new ScriptedPlayer('Alpha', firstLegal(fixed));
    // Beta crashes as Black and throws as White.
    const b = new ScriptedPlayer('Beta', (request) =>
      request.info.color === 'X' ? { kind: 'crash', message: 'segfault', exitCode: 139 } : { kind: 'error', message: 'boom' },
    );
    const result = await playSeries({ game: fixed, a, b, games: 4, seed: 5, config: { forcedLossDiff: 2 } });
    expect(result.verdicts.crash).toEqual([0, 2]);
    expect(result.verdicts.error).toEqual([0, 2]);
    expect(result.verdicts.timeout).toEqual([0, 0]);
    expect(result.scoreEnds).toBe(0);
    expect(result.tally[0]).toMatchObject({ wins: 4, draws: 0, losses: 0 });
    expect(result.tally[1]).toMatchObject({ wins: 0, draws: 0, losses: 4 });
    expect(result.scoreRate).toBe(1);
    expect(result.averageDiff).toBe(2);
    const report = formatSeriesReport(result);
    expect(report).toContain('Score of Alpha vs Beta: 4 - 0 - 0  [1.000] 4');
    expect(report).toContain('Alpha playing Black: 2 - 0 - 0  [1.000] 2');
    expect(report).toContain('Alpha playing White: 2 - 0 - 0  [1.000] 2');
    expect(report).toContain('Black vs White: 2 - 2 - 0  [0.500] 4');
    expect(report).toContain('crash Alpha 0 / Beta 2');
    expect(report).toContain('error Alpha 0 / Beta 2');
    expect(report).toContain('Ended by score: 0');
    expect(report).toContain('Seed: 5');
  });

  test('the report gives an Elo difference for a mixed result', async () => {
    const a = new ScriptedPlayer('A', firstLegal(fixed));
    // B throws in its first game as Black (game 1) only: A wins 3 of 4.
    let thrown = false;
    const b = new ScriptedPlayer('B', (request, call) => {
      if (thrown || request.info.color !== 'X') return firstLegal(fixed)(request, call);
      thrown = true;
      return { kind: 'error', message: 'boom' };
    });
    const result = await playSeries({ game: fixed, a, b, games: 4, seed: 5 });
    expect(result.scoreRate).toBe(0.75);
    expect(formatSeriesReport(result)).toContain('Elo difference: +190.8, DrawRatio: 0.0 %');
  });

  test('bad series arguments fail with a one-line fix', async () => {
    const a = new ScriptedPlayer('A', firstLegal(fixed));
    const b = new ScriptedPlayer('B', firstLegal(fixed));
    await expect(playSeries({ game: fixed, a, b, games: 0, seed: 1 })).rejects.toThrow(/games must be a positive integer/);
    await expect(playSeries({ game: fixed, a, b, games: 2, seed: 1.5 })).rejects.toThrow(/seed must be an integer/);
    await expect(playSeries({ game: fixed, a, b, games: 2, seed: 1, config: { moveTimeoutMs: 0 } })).rejects.toThrow(
      /moveTimeoutMs must be a positive integer/,
    );
  });
});
