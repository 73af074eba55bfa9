/**
 * Every output-folder problem of grade, batch and tournament is one line with its exit code (2 usage, 1 a full
 * disk), never a stack, and nothing already computed is lost: through the built CLI, on a real read-only mount and
 * a real full disk (a small tmpfs; mounting needs root, as the suite runs in CI — skipped with a note otherwise).
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const CLI = resolve('dist/cli/index.js');
const WEAK = readFileSync(resolve('tests/fixtures/students/weak/AIPlayer.ts'), 'utf8');
const ASSIGNMENT = (games: number) => ({
  title: 'out-dir',
  moveTimeoutMs: 2000,
  constructTimeoutMs: 5000,
  interfaceCheck: { points: 10 },
  opponents: [{ name: 'random', games, points: 20, seed: 7, scoring: { rule: 'linear', minWinRate: 0, fullWinRate: 1 } }],
});

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The CLI as a subprocess, without blocking jest (a grade takes seconds at load). */
function referee(args: string[], options: { cwd: string; uid?: number; env?: Record<string, string> }): Promise<Run> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd: options.cwd, uid: options.uid, gid: options.uid, env: { ...process.env, HOME: options.cwd, ...options.env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => void (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => void (stderr += chunk.toString()));
    child.on('close', (code) => done({ code, stdout, stderr }));
  });
}

/** Every line of stderr is ours: no stack frame, no "internal error". */
const noStack = (run: Run): void => {
  expect(run.stderr).not.toMatch(/^\s+at |internal error/m);
};

let dir: string;
let mounts: string[] = [];
let mountRefused: string | null = null;

/** A tmpfs of `size` at a fresh folder under `dir`, or null (with the reason kept) where mounting is not allowed. */
function tmpfs(name: string, size: string, readOnly = false): string | null {
  const at = join(dir, name);
  mkdirSync(at);
  const mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', `size=${size}${readOnly ? ',ro' : ''}`, 'tmpfs', at], { encoding: 'utf8' });
  if (mounted.status !== 0) {
    mountRefused = (mounted.stderr || mounted.error?.message || 'mount failed').trim();
    return null;
  }
  mounts.push(at);
  return at;
}

beforeAll(() => {
  if (!existsSync(CLI)) throw new Error('dist/cli/index.js is missing: run `npm run build` (npm test does it first)');
  dir = mkdtempSync(join(tmpdir(), 'referee-outdir-'));
  chmodSync(dir, 0o755);
  writeFileSync(join(dir, 'AIPlayer.ts'), WEAK);
  mkdirSync(join(dir, 'class', 'ann'), { recursive: true });
  writeFileSync(join(dir, 'class', 'ann', 'AIPlayer.ts'), WEAK);
  writeFileSync(join(dir, 'tiny.json'), JSON.stringify(ASSIGNMENT(2)));
  writeFileSync(join(dir, 'many.json'), JSON.stringify(ASSIGNMENT(12)));
  writeFileSync(join(dir, 'a-file'), 'not a folder');
  mkdirSync(join(dir, 'locked'));
  chmodSync(join(dir, 'locked'), 0o555);
});

afterAll(() => {
  for (const at of mounts) spawnSync('umount', [at]);
  mounts = [];
  rmSync(dir, { recursive: true, force: true });
});

const COMMANDS: Record<string, string[]> = {
  grade: ['grade', 'AIPlayer.ts', '--config', 'tiny.json'],
  batch: ['batch', 'class', '--config', 'tiny.json'],
  tournament: ['tournament', 'class', 'random', '--games-per-pair', '2'],
};

describe('an --out that cannot be used is one line and exit 2, before any work', () => {
  test.each(Object.keys(COMMANDS))('%s: a file, a path through a file, a read-only mount, a folder the user may not write', async (command) => {
    const runs: [string, Run][] = [];
    for (const out of command === 'grade' ? ['a-file', 'a-file/inside'] : ['a-file']) runs.push([out, await referee([...COMMANDS[command], '--out', out], { cwd: dir })]);
    for (const [out, run] of runs) {
      expect(run.code).toBe(2);
      expect(run.stderr.trim()).toBe(`referee: --out ${out} is a file (or lies inside one), not a folder: choose a folder, or move the file away`);
    }
    const readOnly = existsSync(join(dir, 'ro')) ? join(dir, 'ro') : tmpfs('ro', '1m', true);
    if (readOnly) {
      const run = await referee([...COMMANDS[command], '--out', 'ro/out'], { cwd: dir });
      expect(run.code).toBe(2);
      expect(run.stderr.trim()).toBe('referee: --out ro/out is on a read-only file system (EROFS): choose a writable folder');
    } else {
      console.warn(`read-only mount not tested: ${mountRefused}`);
    }
    // Root writes through a 0555 folder; a lab account (uid 65534 here) may not.
    if (process.getuid?.() === 0) {
      // Its own cache folder: the suite's shared one is root's, and an unusable cache is said first (cli/index.ts).
      const cache = join(dir, `cache-65534-${command}`);
      mkdirSync(cache);
      chmodSync(cache, 0o777);
      const run = await referee([...COMMANDS[command], '--out', 'locked/out'], { cwd: dir, uid: 65534, env: { REFEREE_CACHE_DIR: cache } });
      noStack(run);
      expect(run.code).toBe(2);
      expect(run.stderr.trim()).toBe('referee: --out locked/out cannot be written (EACCES: permission denied): choose a folder you may write, or fix its permissions');
    }
  });
});

describe('a disk that fills up mid-run (a real 4 MB tmpfs, filled but for a few KB)', () => {
  let full: string | null = null;
  beforeAll(() => {
    full = tmpfs('full', '4m');
  });
  /** Leave about `free` bytes on the tmpfs. */
  const fill = (free: number): void => {
    const stats = spawnSync('df', ['-B1', '--output=avail', full!], { encoding: 'utf8' }).stdout.trim().split('\n')[1];
    writeFileSync(join(full!, 'filler'), Buffer.alloc(Math.max(0, Number(stats) - free)));
  };

  test('grade: exit 1 with one line; the games already finished are in games.jsonl, no temporary left; --resume after freeing space reuses them', async () => {
    if (!full) return console.warn(`full disk not tested: ${mountRefused}`);
    fill(40_000);
    const first = await referee(['grade', 'AIPlayer.ts', '--config', 'many.json', '--out', join(full, 'g'), '--quiet'], { cwd: dir });
    noStack(first);
    expect(first.code).toBe(1);
    expect(first.stderr.trim()).toMatch(/^referee: the disk holding .*\/g is full or failing \((ENOSPC|SQLITE_FULL)\): free some space, then run the same command with --resume; every game and grade finished so far is safe in the journal$/);
    const journaled = readFileSync(join(full, 'g', 'games.jsonl'), 'utf8').split('\n').filter((line) => line.endsWith('}'));
    expect(journaled.length).toBeGreaterThan(0);
    expect(readdirSync(join(full, 'g')).filter((name) => name.endsWith('.tmp'))).toEqual([]);
    rmSync(join(full, 'filler'));
    const resumed = await referee(['grade', 'AIPlayer.ts', '--config', 'many.json', '--out', join(full, 'g'), '--resume', '--json'], { cwd: dir });
    expect(resumed.code).toBe(0);
    const result = JSON.parse(readFileSync(join(full, 'g', 'grade.json'), 'utf8')) as { timings: { resumedGames: number }; items: { games: number }[] };
    expect(result.items[0].games).toBe(12);
    // Every game finished before the disk filled is taken from the journal, not played again.
    expect(result.timings.resumedGames).toBe(journaled.length);
  });

  test('tournament and batch: exit 1 with one line (and the resume line), never a stack', async () => {
    if (!full) return console.warn(`full disk not tested: ${mountRefused}`);
    for (const name of readdirSync(full)) rmSync(join(full, name), { recursive: true, force: true });
    fill(60_000);
    const tournament = await referee(['tournament', 'class', 'random', 'greedy', '--games-per-pair', '10', '--out', join(full, 't')], { cwd: dir });
    noStack(tournament);
    expect(tournament.code).toBe(1);
    expect(tournament.stderr).toMatch(/^referee: the disk holding .*\/t is full or failing/m);
    for (const name of readdirSync(full)) rmSync(join(full, name), { recursive: true, force: true });
    fill(30_000);
    const batch = await referee(['batch', 'class', '--config', 'many.json', '--out', join(full, 'b'), '--quiet'], { cwd: dir });
    noStack(batch);
    expect(batch.code).toBe(1);
    expect(batch.stderr.trim()).toMatch(/^referee: the disk holding .*\/b is full or failing .*--resume/);
  });
});
