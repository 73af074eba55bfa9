/**
 * An unusable cache folder (REFEREE_CACHE_DIR naming a file, a folder the grader cannot write, a HOME without one)
 * is the grading machine's setting, never a student's failure: every command that compiles or runs players says so
 * in one line with the fix and exit 2 before it starts, and writes no grade. The CLI as a subprocess; the non-root
 * cases run the grader as GRADER_UID through setpriv (a root grader can write any folder).
 */
import { chmodSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
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
