/**
 * An unusable cache folder (REFEREE_CACHE_DIR naming a file, a folder the grader cannot write, a HOME without one)
 * is the grading machine's setting, never a student's failure: every command that compiles or runs players says so
 * in one line with the fix and exit 2 before it starts, and writes no grade. The CLI as a subprocess; the non-root
 * cases run the grader as GRADER_UID through setpriv (a root grader can write any folder).
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { makeClass, tempDir, writeConfig } from '../batch/helpers.js';
import { runToEnd } from '../setup/children.js';
import { GRADER_UID, isRoot } from '../setup/sandbox-modes.js';

const CLI = resolve('dist/cli/index.js');
const STUDENT = resolve('tests/fixtures/students/fair/AIPlayer.ts');
const work = tempDir('cache-dir');
chmodSync(work, 0o755);
const config = writeConfig(work);
const classDir = makeClass({ ana: 'fair' });
const file = join(work, 'not-a-folder');
writeFileSync(file, 'a file where the cache should be\n');

/** Each command a user meets the cache through, with real arguments. */
const COMMANDS: [string, string[]][] = [
  ['check', ['check', STUDENT]],
  ['grade', ['grade', STUDENT, '--config', config, '--out', join(work, 'grade')]],
  ['batch', ['batch', classDir, '--config', config, '--out', join(work, 'batch')]],
  ['play', ['play', '--game', 'reversi', '--black', STUDENT, '--white', 'random']],
  ['serve', ['serve', '--port', '0', STUDENT]],
  ['tournament', ['tournament', STUDENT, 'random', '--out', join(work, 'tournament')]],
  ['ladder start', ['ladder', 'start', '--config', config, '--roster', join(work, 'roster.csv'), '--data', join(work, 'ladder'), '--port', '0']],
  ['worker', ['worker', '--queue', 'redis://127.0.0.1:1/0']],
];

async function run(args: string[], env: Record<string, string>, uid = 0): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const command = uid === 0 ? [process.execPath, CLI, ...args] : ['/usr/bin/setpriv', `--reuid=${uid}`, `--regid=${uid}`, '--clear-groups', process.execPath, CLI, ...args];
  const { code, stdout, stderr } = await runToEnd(command[0], command.slice(1), { ...process.env, FORCE_COLOR: '0', ...env }, work);
  return { code, stdout, stderr };
}

const FILE_LINE = `referee: REFEREE_CACHE_DIR=${file} is a file, not a folder: point REFEREE_CACHE_DIR at a folder this user can write (it is made if missing), or unset it to use ~/.cache/referee`;

test('REFEREE_CACHE_DIR naming a file: check, grade, batch, play, serve, tournament, ladder start and worker say one line with the fix, exit 2, grade nobody', async () => {
  writeFileSync(join(work, 'roster.csv'), 'student\nana\n');
  const runs = await Promise.all(COMMANDS.map(([, args]) => run(args, { REFEREE_CACHE_DIR: file })));
  const seen = Object.fromEntries(COMMANDS.map(([name], i) => [name, { code: runs[i].code, stdout: runs[i].stdout, stderr: runs[i].stderr.trimEnd().split('\n') }]));
  const expected = Object.fromEntries(COMMANDS.map(([name]) => [name, { code: 2, stdout: '', stderr: [FILE_LINE] }]));
  expect(seen).toEqual(expected);
  // Nothing was graded, so nothing can be charged: no grade, no journal, no ladder.
  for (const folder of ['grade', 'batch', 'tournament', 'ladder']) expect(existsSync(join(work, folder))).toBe(false);
  // A folder under the file, and a relative name (resolved, as the sandbox binds it), say the same.
  const under = await run(['check', STUDENT], { REFEREE_CACHE_DIR: join(file, 'cache') });
  expect({ code: under.code, stderr: under.stderr.trimEnd() }).toEqual({ code: 2, stderr: expect.stringMatching(/^referee: REFEREE_CACHE_DIR=.*not-a-folder\/cache is a file, not a folder \(or lies under one\): point REFEREE_CACHE_DIR at a folder/) });
}, 300_000);

(isRoot ? test : test.skip)('a folder the grader cannot write, and a HOME with no cache of its own: one line naming the user and the fix, exit 2', async () => {
  const rootOnly = join(work, 'root-only');
  mkdirSync(rootOnly, { mode: 0o755 });
  const [check, batch, home] = await Promise.all([
    run(['check', STUDENT], { REFEREE_CACHE_DIR: rootOnly }, GRADER_UID),
    run(['batch', classDir, '--config', config, '--out', join(work, 'batch-user')], { REFEREE_CACHE_DIR: rootOnly }, GRADER_UID),
    // A service account's HOME (/nonexistent for nobody) and no REFEREE_CACHE_DIR.
    run(['check', STUDENT], { REFEREE_CACHE_DIR: '', HOME: '/nonexistent' }, GRADER_UID),
  ]);
  const line = `referee: REFEREE_CACHE_DIR=${rootOnly} cannot be written by this user (uid ${GRADER_UID}): point REFEREE_CACHE_DIR at a folder this user can write (it is made if missing), or unset it to use ~/.cache/referee`;
  expect({ code: check.code, stderr: check.stderr.trimEnd() }).toEqual({ code: 2, stderr: line });
  expect({ code: batch.code, stderr: batch.stderr.trimEnd() }).toEqual({ code: 2, stderr: line });
  expect(existsSync(join(work, 'batch-user'))).toBe(false);
  expect({ code: home.code, stderr: home.stderr.trimEnd() }).toEqual({
    code: 2,
    stderr: `referee: the cache folder /nonexistent/.cache/referee cannot be written by this user (uid ${GRADER_UID}): set REFEREE_CACHE_DIR to a folder this user can write (it is made if missing)`,
  });
}, 300_000);

/** A 2 MB tmpfs (root, where mounts are allowed: a container may refuse), or null. */
function tinyDisk(): string | null {
  if (!isRoot) return null;
  const dir = join(work, 'tiny');
  mkdirSync(dir, { recursive: true });
  return spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=2m', 'tmpfs', dir]).status === 0 ? dir : null;
}

test('a cache on a full disk: check says the line with the fix (exit 2); a grade and a batch it stops midway charge nobody', async () => {
  const disk = tinyDisk();
  if (!disk) {
    console.warn('cache-dir.test: cannot mount a tmpfs here (not root, or a container that refuses mounts): the full-disk case is skipped');
    return;
  }
  try {
    try {
      writeFileSync(join(disk, 'filler'), Buffer.alloc(4 * 1024 * 1024));
    } catch (error) {
      expect((error as NodeJS.ErrnoException).code).toBe('ENOSPC');
    }
    const python = resolve('tests/fixtures/python/greedy/AIPlayer.py');
    const pyClass = join(work, 'py-class');
    for (const student of ['ana', 'bo']) {
      mkdirSync(join(pyClass, student), { recursive: true });
      writeFileSync(join(pyClass, student, 'AIPlayer.py'), `${readFileSync(python, 'utf8')}\n# ${student}\n`);
    }
    const env = { REFEREE_CACHE_DIR: disk };
    const [check, grade, batch] = await Promise.all([
      run(['check', python], env),
      run(['grade', python, '--config', config, '--out', join(work, 'grade-full')], env),
      run(['batch', pyClass, '--config', config, '--out', join(work, 'batch-full'), '--quiet'], env),
    ]);
    const line = `REFEREE_CACHE_DIR=${disk} is on a full disk: free space there (\`referee cache clean\` empties the cache), or point REFEREE_CACHE_DIR at a folder this user can write (it is made if missing), or unset it to use ~/.cache/referee`;
    expect({ code: check.code, stderr: check.stderr.trimEnd() }).toEqual({ code: 2, stderr: `referee: ${line}` });
    // Midway (the disk filled after the start): a grader error, never a verdict; the batch leaves the points blank.
    expect(grade.code).toBe(3);
    const result = JSON.parse(readFileSync(join(work, 'grade-full', 'grade.json'), 'utf8')) as { status: string; graderError: string };
    expect(result).toMatchObject({ status: 'grader-error', graderError: line });
    expect(batch.code).toBe(3);
    const rows = readFileSync(join(work, 'batch-full', 'grades.csv'), 'utf8').trim().split('\n').slice(1);
    expect(rows).toHaveLength(2);
    for (const row of rows) expect(row).toMatch(/^(ana|bo),\1,,,Python,,\d+,(,)+not graded,"not graded: grader error: REFEREE_CACHE_DIR=.* is on a full disk/);
  } finally {
    spawnSync('umount', [disk]);
  }
}, 300_000);
