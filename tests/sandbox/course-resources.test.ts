/**
 * Issue #29: the course platforms' resource model, through the CLI as a user runs it, in one place for every
 * sandbox mode a course meets (bubblewrap; no bubblewrap as root; no bubblewrap as a non-root grader, uid 4242;
 * that one with Landlock refused; the rows of tests/setup/sandbox-modes.ts). One cache folder is shared by every run, so each submission is compiled once.
 *
 *  - a Strategy.cpp with an 8 GB static pool touched lazily (a clock() UCT) loads and plays in every mode, and the
 *    record says which wall holds memory (the cgroup as root, the grader's watchdog without one);
 *  - one that really touches 1.5 GB loses by `memory` with the figure, in the check and the games alike, under both
 *    walls;
 *  - a slow static initialiser loads under the course's limits (its load has its own allowance), and past a short
 *    load allowance the check and the games both name the slow load;
 *  - Python: a main.py that plays demo games at import loads; past a short allowance the hint names the __main__
 *    guard; a get_move whose own func_timeout fires is an illegal answer, asked again (game.py); a notebook main.py
 *    yields to players.py, which defines AIPlayer; a getPoint without extern "C" gets the C++ hint.
 */
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { GRADER_UID, graderCommand, isRoot, modeEnv, SANDBOX_MODES, sandboxModes, type ModeId } from '../setup/sandbox-modes.js';

const CLI = resolve('dist/cli/index.js');
const USER = GRADER_UID;
const root = isRoot;

type Mode = Extract<ModeId, 'bwrap' | 'no-bwrap-root' | 'no-bwrap-user' | 'landlock-refused-user'>;
const MODES = sandboxModes('bwrap', 'no-bwrap-root', 'no-bwrap-user', 'landlock-refused-user').map((mode) => mode.id as Mode);

let work: string;
let cache: string;

beforeAll(() => {
  // Owned by the non-root grader: its runs write the cache too (root's runs can use what it wrote).
  work = mkdtempSync(join(tmpdir(), 'referee-resources-'));
  cache = join(work, 'cache');
  mkdirSync(cache);
  cpSync(resolve('tests/fixtures/cpp'), join(work, 'cpp'), { recursive: true });
  cpSync(resolve('tests/fixtures/python/course'), join(work, 'python'), { recursive: true });
  chmodSync(work, 0o755);
  if (root) {
    const run = spawnSync('chown', ['-R', `${USER}:${USER}`, work], { encoding: 'utf8' });
    if (run.status !== 0) throw new Error(`chown failed: ${run.stderr}`);
  }
});

afterAll(() => {
  rmSync(work, { recursive: true, force: true });
});

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** `referee <args>` as a grader of `mode` would run it (its user, its switches), sharing the one cache. */
function referee(mode: Mode, args: string[]): Promise<Run> {
  const env = modeEnv(SANDBOX_MODES[mode], { HOME: work, REFEREE_CACHE_DIR: cache });
  const command = graderCommand(SANDBOX_MODES[mode], [CLI, ...args]);
  return new Promise((done) => {
    const child = spawn(command[0], command.slice(1), { cwd: work, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.once('close', (code) => done({ code, stdout, stderr }));
  });
}

interface Step {
  id: string;
  status: string;
  detail?: string;
  hint?: string;
}
interface Forfeit {
  side: number;
  verdict: string;
  message: string;
  rule?: string;
  phase: string;
  attempts: { returned: { text: string } }[];
}
interface Series {
  records: { end: { reason: string; loser?: Forfeit }; isolation: ({ memory?: string; hardened: boolean } | null)[] }[];
}

const cpp = (name: string): string => join(work, 'cpp', name);
const python = (name: string): string => join(work, 'python', name);

async function check(mode: Mode, path: string, ...flags: string[]): Promise<{ ok: boolean; steps: Step[] }> {
  const run = await referee(mode, ['check', path, '--json', ...flags]);
  if (!run.stdout.trim().startsWith('{')) throw new Error(`check printed no result (${run.code}): ${run.stderr.slice(-1500)}`);
  return JSON.parse(run.stdout) as { ok: boolean; steps: Step[] };
}

async function play(mode: Mode, args: string[]): Promise<Series> {
  const run = await referee(mode, ['play', '--games', '1', '--json', ...args]);
  if (!run.stdout.trim().startsWith('{')) throw new Error(`play printed no result (${run.code}): ${run.stderr.slice(-1500)}`);
  return JSON.parse(run.stdout) as Series;
}

const failed = (result: { steps: Step[] }): Step | undefined => result.steps.find((step) => step.status === 'fail');
// Every mode needs root: the non-root modes are a root test dropping the grader to uid 4242 (as hardening.test.ts).
const skipUnlessRoot = root ? test : test.skip;

describe.each(MODES)('%s', (mode) => {
  skipUnlessRoot('an 8 GB static pool touched lazily (a clock() UCT) loads and plays; the record names the memory wall', async () => {
    const series = await play(mode, ['--game', 'connect4-nogo', '--black', cpp('pool-8gb'), '--white', 'random']);
    const record = series.records[0];
    expect(record.end.loser?.message).toBeUndefined();
    expect(record.end.reason).toBe('score');
    const wall = record.isolation[0]?.memory ?? '';
    // Root writes cgroups here; a non-root grader has none, and the watchdog holds the limit instead.
    expect(wall).toMatch(mode.endsWith('-user') ? /^resident memory 1024 MB, held by the grader's watchdog .*address space 32 GB$/ : /^resident memory 1024 MB, held by the cgroup \(v[12]\); no address-space limit$/);
  }, 240_000);
});

describe.each(['bwrap', 'no-bwrap-user'] as const)('a pool that really touches 1.5 GB, %s', (mode) => {
  // A long move limit, so the limit is what stops it even on a loaded machine (a deadline before it is a timeout).
  skipUnlessRoot('loses by memory with the figure, in the check and in the game alike', async () => {
    const [checked, series] = await Promise.all([
      check(mode, cpp('pool-touch'), '--game', 'connect4-nogo', '--move-timeout', '30000'),
      play(mode, ['--game', 'connect4-nogo', '--black', cpp('pool-touch'), '--white', 'random', '--move-timeout', '30000']),
    ]);
    const step = failed(checked);
    const loser = series.records[0].end.loser;
    expect(step?.detail).toMatch(/memory: exceeded the 1024 MB memory limit|memory: used \d+ MB of resident memory, over its 1024 MB memory limit/);
    expect(loser?.verdict).toBe('memory');
    const figure = mode === 'bwrap' ? /its resident memory reached 10\d\d MB and the kernel's out-of-memory killer stopped it/ : /used (10[2-9]\d|1[1-9]\d\d) MB of resident memory, over its 1024 MB memory limit \(stopped by the grader's memory watchdog\)/;
    expect(step?.detail).toMatch(figure);
    expect(loser?.message).toMatch(figure);
  }, 240_000);
});

describe('the address-space backstop (non-root grader, no cgroup)', () => {
  // The control: the same pool at 64 GB is past the 32 GB backstop, so the loader refuses it, and the check names
  // that cause with its fix (this is what every mode did to the 8 GB pool before).
  skipUnlessRoot('a 64 GB pool is refused to map, and the check says why', async () => {
    const big = join(work, 'cpp', 'pool-64gb');
    cpSync(cpp('pool-8gb'), big, { recursive: true });
    const source = join(big, 'Strategy.cpp');
    writeFileSync(source, readFileSync(source, 'utf8').replace('#define POOL_NODES 100000000ULL', '#define POOL_NODES 800000000ULL'));
    spawnSync('chown', ['-R', `${USER}:${USER}`, big]);
    const checked = await check('no-bwrap-user', big, '--game', 'connect4-nogo');
    const step = failed(checked);
    expect(step?.detail).toMatch(/could not be loaded \(address-space refusal: .*\): .*failed to map segment from shared object/);
    expect(step?.hint).toMatch(/^make the static pools smaller/);
  }, 240_000);
});

describe('loading has its own allowance (bubblewrap)', () => {
  skipUnlessRoot('a slow static initialiser loads under the course limits; past a short allowance both say "slow load"', async () => {
    const [course, short, series] = await Promise.all([
      check('bwrap', cpp('slow-init'), '--game', 'connect4-nogo'),
      check('bwrap', cpp('slow-init'), '--game', 'connect4-nogo', '--load-timeout', '1000'),
      play('bwrap', ['--game', 'connect4-nogo', '--black', cpp('slow-init'), '--white', 'random', '--load-timeout', '1000']),
    ]);
    expect(failed(course)).toBeUndefined();
    const step = failed(short);
    expect(step?.id).toBe('construct');
    expect(step?.detail).toMatch(/timeout: loading the submission took over 1000 ms .*static initialisers/);
    expect(step?.hint).toMatch(/lazily \(in the first getPoint\)/);
    const loser = series.records[0].end.loser;
    expect(loser).toMatchObject({ verdict: 'timeout', phase: 'start' });
    expect(loser?.rule).toMatch(/^loadTimeoutMs: loading the submission .* must take at most 1000 ms/);
    expect(loser?.message).toMatch(/loading the submission took over 1000 ms/);
  }, 240_000);

  skipUnlessRoot('Python: a main.py that plays demo games at import loads and plays; past a short allowance the hint names the __main__ guard', async () => {
    const [loads, short, series] = await Promise.all([
      check('bwrap', python('demo-at-import'), '--move-timeout', '1500'),
      check('bwrap', python('demo-at-import'), '--load-timeout', '500'),
      play('bwrap', ['--black', python('demo-at-import'), '--white', 'random', '--move-timeout', '1500']),
    ]);
    expect(failed(loads)).toBeUndefined();
    expect(series.records[0].end.reason).toBe('score');
    const step = failed(short);
    expect(step?.detail).toMatch(/loading the submission took over 500 ms .*if __name__ == '__main__':/);
    expect(step?.hint).toMatch(/under if __name__ == '__main__':/);
  }, 240_000);
});

describe('Python and C++ conventions (bubblewrap)', () => {
  skipUnlessRoot("get_move's own func_timeout fires: None, an illegal answer asked again, as game.py; check and game agree", async () => {
    const [checked, series] = await Promise.all([
      check('bwrap', python('own-func-timeout'), '--move-timeout', '5000'),
      play('bwrap', ['--black', python('own-func-timeout'), '--white', 'random', '--move-timeout', '5000']),
    ]);
    const step = failed(checked);
    expect(step?.detail).toMatch(/returned None \(get_move raised FunctionTimedOut, which func_timeout in game.py turns into None\)/);
    expect(step?.hint).toMatch(/Catch FunctionTimedOut in get_move/);
    const loser = series.records[0].end.loser;
    expect(loser?.verdict).toBe('illegal');
    expect(loser?.attempts).toHaveLength(3);
    expect(loser?.attempts.every((attempt) => /FunctionTimedOut/.test(attempt.returned.text))).toBe(true);
  }, 240_000);

  skipUnlessRoot('a notebook main.py without AIPlayer yields to players.py; getPoint without extern "C" gets the C++ hint', async () => {
    const [players, linkage] = await Promise.all([
      check('bwrap', python('main-and-players'), '--move-timeout', '5000'),
      check('bwrap', cpp('no-extern-c'), '--game', 'connect4-nogo'),
    ]);
    expect(players.ok).toBe(true);
    expect(players.steps.find((step) => step.id === 'entry')?.detail).toMatch(/players\.py: took players\.py, the one file that defines class AIPlayer.*main\.py neither defines nor imports AIPlayer/);
    const step = failed(linkage);
    expect(step?.detail).toMatch(/getPoint \(C\+\+ name: not extern "C"\)/);
    expect(step?.hint).toMatch(/^declare getPoint and clearPoint extern "C"/);
  }, 240_000);
});

describe('grade without a writable cgroup (non-root grader)', () => {
  skipUnlessRoot('the 8 GB pool passes the check and plays its games; grade.json names the watchdog', async () => {
    const config = join(work, 'course.json');
    writeFileSync(config, JSON.stringify({ title: 'Connect Four course', game: 'connect4-nogo', opponents: [{ name: 'random', games: 2, points: 90 }] }));
    chownSync(config, USER, USER);
    const out = join(work, 'grade-out');
    const run = await referee('no-bwrap-user', ['grade', cpp('pool-8gb'), '--config', config, '--out', out, '--quiet']);
    expect(run.code).toBe(0);
    const grade = JSON.parse(readFileSync(join(out, 'grade.json'), 'utf8')) as {
      isolation: { memory?: string };
      interfaceCheck: { passed: boolean };
      items: { title: string; wins: number; losses: number; games: number }[];
      games: { record: { end: { reason: string } } }[];
    };
    expect(grade.games.map((game) => game.record.end.reason)).toEqual(['score', 'score']);
    expect(grade.isolation.memory).toMatch(/held by the grader's watchdog/);
  }, 240_000);
});
