/**
 * The portable code path (harness/sandbox/portable.ts), forced on Linux with REFEREE_PORTABLE=1 as Windows and
 * macOS take it: every student command (init, check, grade and its report, play, serve) runs as a subprocess with
 * a preload that records any shell started and any /proc read (tests/fixtures/portable/forbid-linux.cjs), says once
 * what is not isolated, and gives the same verdicts and games as the Linux path. The control shows the preload
 * does see the Linux path's shell and /proc reads.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { expect, test } from '@jest/globals';
import { tempDir } from '../batch/helpers.js';
import { runToEnd } from '../setup/children.js';

const CLI = resolve('dist/cli/index.js');
const HOOK = resolve('tests/fixtures/portable/forbid-linux.cjs');
const TS = resolve('student-template/src/AIPlayer.ts');
const PY = resolve('tests/fixtures/python/random/AIPlayer.py');
const work = tempDir('portable');

function environment(portable: boolean, log: string): NodeJS.ProcessEnv {
  writeFileSync(log, '');
  return { ...process.env, NODE_OPTIONS: `--require ${HOOK}`, REFEREE_TEST_FORBID_LOG: log, ...(portable ? { REFEREE_PORTABLE: '1' } : {}) };
}

async function referee(args: string[], portable = true) {
  const log = join(work, `forbid-${args[0]}-${Math.random().toString(16).slice(2)}.log`);
  const run = await runToEnd(process.execPath, [CLI, ...args], environment(portable, log));
  const warnings = run.stderr.split('\n').filter((line) => line.startsWith('WARNING: REFEREE_PORTABLE=1'));
  return { status: run.code, stdout: run.stdout, stderr: run.stderr, warnings, forbidden: readFileSync(log, 'utf8').split('\n').filter(Boolean) };
}

test('control: on the Linux path the preload sees the shell that starts players and the /proc reads', async () => {
  const run = await referee(['check', TS], false);
  expect(run.status).toBe(0);
  expect(run.forbidden.some((line) => /sh$/.test(line))).toBe(true);
  expect(run.forbidden.some((line) => line.includes('/proc'))).toBe(true);
});

test.each([
  ['TypeScript', TS],
  ['Python', PY],
])('check (%s): PASS with no shell and no /proc, one warning naming what is not isolated', async (_language, path) => {
  const run = await referee(['check', path]);
  expect({ status: run.status, forbidden: run.forbidden, warnings: run.warnings.length }).toEqual({ status: 0, forbidden: [], warnings: 1 });
  expect(run.stdout).toMatch(/sandbox: process, node-permissions|sandbox: process, python-audit-hook|^PASS/m);
  expect(run.warnings[0]).toMatch(/no bubblewrap, Landlock, seccomp, cgroups, rlimits or namespaces/);
});

test('grade writes grade.json and report.html; the game is the one the Linux path plays', async () => {
  const games = async (portable: boolean) => {
    const out = join(work, `grade-${portable}`);
    const run = await referee(['grade', TS, '--only', '0:0', '--out', out, '--quiet'], portable);
    expect(run.status).toBe(0);
    if (portable) expect(run.forbidden).toEqual([]);
    expect(existsSync(join(out, 'report.html'))).toBe(true);
    const grade = JSON.parse(readFileSync(join(out, 'grade.json'), 'utf8')) as { games: { record: { turns: { move?: string }[] } }[] };
    return grade.games.map((game) => game.record.turns.map((turn) => turn.move ?? '-'));
  };
  expect(await games(true)).toEqual(await games(false));
});

test('play: a series against a reference AI', async () => {
  const run = await referee(['play', '--black', TS, '--white', 'random', '--games', '2', '--json']);
  expect({ status: run.status, forbidden: run.forbidden }).toEqual({ status: 0, forbidden: [] });
  expect((JSON.parse(run.stdout) as { records: unknown[] }).records).toHaveLength(2);
});

test.each([
  ['TypeScript', [], 'AIPlayer.ts'],
  ['Python', ['--python'], 'AIPlayer.py'],
])('init writes the %s starter, with the laptops workflow (Windows and macOS runners)', async (language, flags, entry) => {
  const dir = join(work, `starter-${language}`);
  const run = await referee(['init', dir, ...flags, '--referee', 'file:vendor/none.tgz', '--no-lockfile']);
  expect({ status: run.status, forbidden: run.forbidden }).toEqual({ status: 0, forbidden: [] });
  expect(existsSync(join(dir, 'src', entry))).toBe(true);
  expect(readFileSync(join(dir, '.github', 'workflows', 'laptops.yml'), 'utf8')).toMatch(/os: \[ubuntu-latest, windows-latest, macos-latest\]/);
});

test('serve answers its page', async () => {
  const log = join(work, 'forbid-serve.log');
  const child = spawn(process.execPath, [CLI, 'serve', TS, '--port', '0'], { env: environment(true, log), stdio: ['ignore', 'pipe', 'pipe'] });
  try {
    const url = await new Promise<string>((found, failed) => {
      let said = '';
      child.stdout.on('data', (chunk: Buffer) => {
        said += chunk.toString('utf8');
        const match = /https?:\/\/[^\s]+/.exec(said);
        if (match) found(match[0]);
      });
      child.once('exit', (code) => failed(new Error(`serve exited (${code}): ${said}`)));
    });
    const page = await fetch(url);
    expect(page.status).toBe(200);
    expect(readFileSync(log, 'utf8')).toBe('');
  } finally {
    child.kill('SIGTERM');
  }
});
