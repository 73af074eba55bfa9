/**
 * C++ through every command, as a user runs them: the CLI as a subprocess on the Connect Four course's board
 * (connect4-nogo), with course-style submissions (tests/fixtures/cpp) and compiled test AIs (.so) built the way the
 * course ships them. The queue runs on a real redis-server with a `referee worker` process.
 */
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { Cli, freePort, RedisServer } from '../queue/helpers.js';
import { scratch } from '../sandbox/support.js';
import { seedCache } from '../setup/suite-cache.js';
import { buildTestAi, CPP_FIXTURES } from './support.js';

const env: Record<string, string> = {};
let weak: string;
let strong: string;
let work: string;

beforeAll(() => {
  env.REFEREE_CACHE_DIR = seedCache(scratch('cpp-cli-cache'));
  work = scratch('cpp-cli');
  // The course's TestCases: numbered by strength, weakest first.
  weak = buildTestAi('testai-random', '10.so');
  strong = buildTestAi('testai-greedy', '50.so');
  cpSync(weak, join(work, '10.so'));
  cpSync(strong, join(work, '50.so'));
});

async function referee(args: string[], extraEnv: Record<string, string> = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const cli = new Cli(args, { ...env, ...extraEnv });
  const { code } = await cli.exited;
  return { code, stdout: cli.stdout, stderr: cli.stderr };
}

const fixture = (name: string): string => join(CPP_FIXTURES, name);

test('check: a Strategy.cpp with its own headers and extra .cpp files passes', async () => {
  const run = await referee(['check', fixture('uct-wall'), '--game', 'connect4-nogo']);
  expect(run.stdout).toMatch(/✓ compiles/);
  expect(run.stdout).toMatch(/✓ exports getPoint and clearPoint \(or an AIPlayer\): uses getPoint/);
  expect(run.code).toBe(0);
}, 120_000);

test('check: Windows-only code is named in one line with the fix', async () => {
  const run = await referee(['check', fixture('windows-only'), '--game', 'connect4-nogo']);
  expect(run.code).toBe(1);
  const lines = run.stdout.split('\n').filter((line) => line.includes('Windows-only'));
  expect(lines).toHaveLength(1);
  expect(lines[0]).toContain('Strategy.cpp:1 <conio.h>, Strategy.cpp:2 <windows.h>, Strategy.cpp:7 __int8, Strategy.cpp:9 __declspec');
  expect(lines[0]).not.toContain('atlstr.h>,'); // only commented out in the file
  expect(lines[0]).toMatch(/Fix: delete the <conio\.h>/);
}, 60_000);

test('check: compile errors once each, as file:line:col, in the sibling file too', async () => {
  const run = await referee(['check', fixture('compile-error'), '--game', 'connect4-nogo']);
  expect(run.code).toBe(1);
  const located = run.stdout.split('\n').map((line) => line.trim()).filter((line) => /^\w+\.cpp:\d+:\d+: /.test(line));
  expect(located).toEqual([
    "Helper.cpp:5:9: expected ‘,’ or ‘;’ before ‘for’",
    "Helper.cpp:5:25: ‘y’ was not declared in this scope",
    "Strategy.cpp:8:41: ‘undefinedThing’ was not declared in this scope",
  ]);
}, 60_000);

test('play: a clock()-budgeted MCTS against the course test AIs (--white X.so); wall and CPU recorded per move', async () => {
  const run = await referee(['play', '--game', 'connect4-nogo', '--black', fixture('mcts-clock'), '--white', join(work, '50.so'), '--games', '2', '--json']);
  expect(run.code).toBe(0);
  const series = JSON.parse(run.stdout) as { names: string[]; tally: { wins: number }[]; records: { isolation: { hardened: boolean }[]; turns: { kind: string; wallMs: number; cpuMs?: number }[] }[] };
  expect(series.names).toEqual(['mcts-clock', '50.so']);
  expect(series.tally[0].wins).toBe(2);
  for (const record of series.records) {
    expect(record.isolation.map((isolation) => isolation.hardened)).toEqual([true, true]);
    for (const turn of record.turns.filter((t) => t.kind === 'move')) {
      expect(turn.wallMs).toBeGreaterThan(0);
      expect(typeof turn.cpuMs).toBe('number');
    }
  }
}, 120_000);

test('grade: a ladder of .so test AIs (weakest first) and one item per test AI, relative to the assignment file', async () => {
  const config = join(work, 'ladder.json');
  writeFileSync(
    config,
    JSON.stringify({
      title: 'Connect Four with a no-go cell: test AIs',
      game: 'connect4-nogo',
      opponents: [
        { name: '10.so', games: 2, points: 20 },
        { ladder: ['10.so', '50.so'], points: 80, scoring: { rule: 'sprt', elo0: 0, elo1: 400, maxGames: 6 } },
      ],
    }),
  );
  const out = join(work, 'grade-out');
  const run = await referee(['grade', fixture('judge-greedy'), '--config', config, '--out', out, '--quiet', '--json']);
  expect(run.code).toBe(0);
  const grade = JSON.parse(readFileSync(join(out, 'grade.json'), 'utf8')) as {
    submission: { language: string };
    items: { title: string; wins: number; losses: number }[];
    games: { record: { players: string[] } }[];
  };
  expect(grade.submission.language).toBe('C++');
  expect(grade.items.map((item) => item.title)).toEqual(['vs 10.so', 'ladder: 10.so → 50.so']);
  expect(grade.items[0].wins).toBe(2);
  expect(readFileSync(join(out, 'report.html'), 'utf8')).toContain('10.so');
}, 180_000);

test('batch and tournament accept C++ students (a Windows-only one fails its check, not the run)', async () => {
  const classDir = join(work, 'class');
  mkdirSync(classDir);
  cpSync(fixture('judge-greedy'), join(classDir, 'alice'), { recursive: true });
  cpSync(fixture('uct-wall'), join(classDir, 'bob'), { recursive: true });
  cpSync(fixture('windows-only'), join(classDir, 'carol'), { recursive: true });
  const config = join(work, 'batch.json');
  writeFileSync(config, JSON.stringify({ title: 'C4', game: 'connect4-nogo', opponents: [{ name: '10.so', games: 2, points: 10 }] }));
  const out = join(work, 'batch-out');
  const batch = await referee(['batch', classDir, '--config', config, '--out', out, '--quiet']);
  expect(batch.code).toBe(0);
  const csv = readFileSync(join(out, 'grades.csv'), 'utf8');
  expect(csv).toMatch(/alice[^\n]*,20(\.0+)?[,\n]/);
  expect(csv).toMatch(/carol[^\n]*,0(\.0+)?[,\n]/);

  const tout = join(work, 'tournament-out');
  const tournament = await referee(['tournament', join(classDir, 'alice'), join(classDir, 'bob'), join(work, '10.so'), '--game', 'connect4-nogo', '--openings', '0', '--out', tout]);
  expect(tournament.code).toBe(0);
  const result = JSON.parse(readFileSync(join(tout, 'tournament.json'), 'utf8')) as { participants: { id: string; language?: string }[] };
  expect(result.participants.map((p) => [p.id, p.language])).toEqual(
    expect.arrayContaining([
      ['alice', 'C++'],
      ['10.so', 'C++'],
    ]),
  );
}, 240_000);

let redis: RedisServer | null = null;
let worker: Cli | null = null;
afterAll(async () => {
  await worker?.stop();
  await redis?.stop();
}, 60_000);

test('queue: a C++ student against a .so test AI, played on a referee worker through a real redis-server', async () => {
  redis = new RedisServer(await freePort());
  await redis.start();
  worker = new Cli(['worker', '--queue', redis.url, '--concurrency', '1', '--name', 'cpp-worker'], { ...env, REFEREE_CACHE_DIR: seedCache(scratch('cpp-worker-cache')) });
  await worker.waitFor(/waiting for games/);
  const config = join(work, 'queue.json');
  writeFileSync(config, JSON.stringify({ title: 'C4 queue', game: 'connect4-nogo', opponents: [{ name: '50.so', games: 2, points: 10 }] }));
  const out = join(work, 'queue-out');
  const run = await referee(['grade', fixture('uct-wall'), '--config', config, '--out', out, '--quiet', '--queue', redis.url]);
  expect(run.code).toBe(0);
  const grade = JSON.parse(readFileSync(join(out, 'grade.json'), 'utf8')) as { score: number; games: { worker?: string }[] };
  expect(grade.score).toBe(20);
  expect(worker.stdout).toMatch(/uct-wall vs 50\.so/);
}, 240_000);
