/** The forked game pool on its own: one game per key however many ask, withdrawal per caller, order. */
import { afterAll, expect, test } from '@jest/globals';
import { resolveConfig } from '../../harness/referee/config.js';
import { ForkPool } from '../../grading/batch/pool.js';
import { harnessVersion } from '../../grading/package-root.js';
import { PoolAbortError, type GameJob, type GameProgress } from '../../grading/pool/job.js';
import { validProgress } from '../../grading/pool/progress.js';
import { workerScript } from './helpers.js';

const job = (key: string, seed: number): GameJob => ({
  key,
  harness: harnessVersion(),
  game: 'reversi',
  config: resolveConfig({ moveTimeoutMs: 1000 }),
  seed,
  players: [
    { kind: 'reference', name: 'random', ai: 'random', openingMoves: 0 },
    { kind: 'reference', name: 'greedy', ai: 'greedy', openingMoves: 0 },
  ],
  label: key,
});

const pool = new ForkPool(workerScript(), 1);
afterAll(() => pool.close());

test('a game asked for twice is played once; one caller withdrawing leaves the other served; lower orders start first', async () => {
  const started: string[] = [];
  const onStart = (key: string) => () => started.push(key);
  const first = pool.play(job('first', 1), { onStart: onStart('first') });
  const withdrawn = new AbortController();
  const late = pool.play(job('late', 2), { order: 5, onStart: onStart('late') });
  const mine = pool.play(job('shared', 3), { order: 1, signal: withdrawn.signal, onStart: onStart('shared') });
  const theirs = pool.play(job('shared', 3), { order: 1, onStart: onStart('shared') });
  withdrawn.abort();
  await expect(mine).rejects.toThrow(PoolAbortError);
  const [a, b, c] = await Promise.all([first, theirs, late]);
  expect([a.key, b.key, c.key]).toEqual(['first', 'shared', 'late']);
  expect(b.record.seed).toBe(3);
  expect(started).toEqual(['first', 'shared', 'late']);
});

test('a game in play reports its moves as it goes: each report the whole game so far, a prefix of the record', async () => {
  const searching: GameJob = {
    ...job('progress', 4),
    // Searching players take long enough a move that the game reports several times on its way.
    players: [
      { kind: 'reference', name: 'mcts-a', ai: 'mcts:4000', openingMoves: 0 },
      { kind: 'reference', name: 'mcts-b', ai: 'mcts:4000', openingMoves: 0 },
    ],
  };
  const reports: GameProgress[] = [];
  const played = await pool.play(searching, { onProgress: (progress) => reports.push(progress) });
  expect(reports.length).toBeGreaterThan(2);
  expect(reports[0].moves).toEqual([]);
  const moves = played.record.turns.map((turn) => (turn.kind === 'move' ? turn.move : null));
  for (const [index, report] of reports.entries()) {
    expect(report).toMatchObject({ game: 'reversi', players: ['mcts-a', 'mcts-b'], seed: 4, initialState: played.record.initialState });
    expect(report.moves).toEqual(moves.slice(0, report.moves.length));
    expect(report.ms).toHaveLength(report.moves.length);
    if (index > 0) expect(report.moves.length).toBeGreaterThan(reports[index - 1].moves.length);
    expect(validProgress(report)).not.toBeNull();
  }
  expect(reports[reports.length - 1].moves.length).toBeLessThanOrEqual(moves.length);
});
