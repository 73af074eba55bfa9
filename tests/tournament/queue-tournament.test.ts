/**
 * A tournament over the distributed queue: a real redis-server on a free port, `referee worker` as a subprocess,
 * `referee tournament --queue` as the coordinator. The jobs carry the paired opening and a budgeted reference AI
 * (mcts:40), which the worker's job schema must accept, and the ranking equals a local run's with the same seed.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import type { TournamentResult } from '../../grading/tournament/result.js';
import { tempDir } from '../batch/helpers.js';
import { Cli, freePort, makeQueueClass, RedisServer, startWorker } from '../queue/helpers.js';

let redis: RedisServer;
let worker: Cli;

beforeAll(async () => {
  redis = new RedisServer(await freePort());
  await redis.start();
  worker = startWorker(redis.url, 'tw');
  await worker.waitFor(/waiting for games/);
});

afterAll(async () => {
  await worker?.stop();
  await redis?.stop();
});

const ranking = (out: string): string[] =>
  (JSON.parse(readFileSync(join(out, 'tournament.json'), 'utf8')) as TournamentResult).ranking.map((row) => `${row.id} ${row.elo.toFixed(3)}`);

test('referee tournament --queue plays every game on the workers and ranks as a local run', async () => {
  const classDir = makeQueueClass(['qa', 'qb', 'qc']);
  const root = tempDir('tournament-queue');
  const args = ['tournament', classDir, 'random', 'mcts:40', '--seed', '3'];
  const queued = new Cli([...args, '--queue', redis.url, '--out', join(root, 'queued')]);
  const { code } = await queued.exited;
  expect(queued.stderr.replace(/warning: At least one player scored nothing.*\n/, '')).toBe('');
  expect(code).toBe(0);
  expect(queued.stdout).toMatch(/Games go to the queue at redis:\/\/(:\*\*\*@)?127\.0\.0\.1/);
  expect(queued.stdout).toContain('20 games (20 played, 0 from the journal)');
  expect(worker.stdout).toMatch(/played mcts:40 vs qa/);
  const local = new Cli([...args, '--jobs', '1', '--out', join(root, 'local')]);
  expect((await local.exited).code).toBe(0);
  expect(ranking(join(root, 'queued'))).toEqual(ranking(join(root, 'local')));
});
