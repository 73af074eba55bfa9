/**
 * Same seed, same grade for C++: one C++ process plays a series of games, so a player's rand() state, and the
 * engines it seeds from time(0), clock() or std::random_device, must not depend on which games that process
 * happened to play before or when. The same C++ class graded with `batch --jobs 1`, `--jobs 2` and `--queue`
 * (a real redis-server, two `referee worker`s) gives identical grades.csv and identical moves in every game.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, expect, test } from '@jest/globals';
import { Cli, freePort, RedisServer, startWorker } from '../queue/helpers.js';
import { scratch } from '../sandbox/support.js';
import { seedCache } from '../setup/suite-cache.js';
import { CPP_FIXTURES } from './support.js';

const CLASS = join(CPP_FIXTURES, 'random-class');
// The suite's runtime (C++ host, launcher) to start from; the class's own .so files are built once, here.
const env = { REFEREE_CACHE_DIR: seedCache(scratch('cpp-repro-cache')) };
let redis: RedisServer | null = null;
const workers: Cli[] = [];

afterAll(async () => {
  await Promise.all(workers.map((worker) => worker.stop()));
  await redis?.stop();
}, 60_000);

async function batch(out: string, extra: string[]): Promise<void> {
  const cli = new Cli(['batch', CLASS, '--config', config, '--out', out, '--quiet', ...extra], env);
  const { code } = await cli.exited;
  expect({ code, stderr: cli.stderr }).toEqual({ code: 0, stderr: '' });
}

/** Every game's moves, per student (what randomness decides), without timings. */
function moves(out: string): Record<string, string[][]> {
  const result: Record<string, string[][]> = {};
  for (const student of readdirSync(join(out, 'students')).sort()) {
    const grade = JSON.parse(readFileSync(join(out, 'students', student, 'grade.json'), 'utf8')) as { games: { record?: { turns?: { move?: string }[] } }[] };
    result[student] = grade.games.map((game) => (game.record?.turns ?? []).map((turn) => String(turn.move)));
  }
  return result;
}

const work = scratch('cpp-repro');
const config = join(work, 'assignment.json');
// Linear scoring: every win counts, so a grade shows any game that went differently.
const linear = { rule: 'linear', minWinRate: 0, fullWinRate: 1 };
writeFileSync(
  config,
  JSON.stringify({ title: 'C4 randomness', game: 'connect4', moveTimeoutMs: 5000, opponents: [{ name: 'random', games: 4, points: 60, seed: 11, scoring: linear }, { name: 'heuristic', games: 2, points: 40, seed: 12, scoring: linear }] }),
);

test('a C++ class using rand(), srand(time(0)), mt19937(time(0)), mt19937(clock()) and random_device grades the same with --jobs 1, --jobs 2 and --queue', async () => {
  redis = new RedisServer(await freePort());
  await redis.start();
  workers.push(startWorker(redis.url, 'repro-a', env), startWorker(redis.url, 'repro-b', env));
  await Promise.all(workers.map((worker) => worker.waitFor(/waiting for games/)));

  const outs = { one: join(work, 'jobs1'), two: join(work, 'jobs2'), queue: join(work, 'queue') };
  await batch(outs.one, ['--jobs', '1']);
  await batch(outs.two, ['--jobs', '2']);
  await batch(outs.queue, ['--queue', redis.url, '--jobs', '4']);
  const csv = readFileSync(join(outs.one, 'grades.csv'), 'utf8');
  expect(csv.trim().split('\n')).toHaveLength(6);
  expect(readFileSync(join(outs.two, 'grades.csv'), 'utf8')).toBe(csv);
  expect(readFileSync(join(outs.queue, 'grades.csv'), 'utf8')).toBe(csv);
  const played = moves(outs.one);
  expect(Object.values(played).flat()).toHaveLength(5 * 6);
  expect(moves(outs.two)).toEqual(played);
  expect(moves(outs.queue)).toEqual(played);
  // Both workers played some of the class.
  expect(workers.every((worker) => /playing /.test(worker.stdout))).toBe(true);
}, 480_000);
