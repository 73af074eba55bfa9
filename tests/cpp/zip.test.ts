/**
 * A C++ submission handed in as a zip, as students zip it (one top folder around Strategy.cpp and its siblings):
 * `referee check` and `referee grade` as subprocesses with the real g++, and a zip with a `../` entry refused in one
 * line before anything is extracted or compiled.
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { beforeAll, expect, test } from '@jest/globals';
import { makeZip } from '../batch/zip-writer.js';
import { Cli } from '../queue/helpers.js';
import { scratch } from '../sandbox/support.js';
import { seedCache } from '../setup/suite-cache.js';
import { CPP_FIXTURES } from './support.js';

const env: Record<string, string> = {};
let work: string;

/** Zip `files` (name in the zip → bytes), hostile names included (the test writer takes any name). */
function writeZip(path: string, files: Record<string, Buffer | string>): void {
  writeFileSync(path, makeZip(Object.entries(files).map(([name, content]) => ({ name, content, deflate: true }))));
}

/** A fixture folder's files under `top/` (the folder students right-click and zip). */
function fixtureFiles(name: string, top: string): Record<string, Buffer> {
  const root = join(CPP_FIXTURES, name);
  const files: Record<string, Buffer> = {};
  for (const file of readdirSync(root, { recursive: true }) as string[]) {
    if (statSync(join(root, file)).isFile()) files[`${top}/${relative(root, join(root, file))}`] = readFileSync(join(root, file));
  }
  return files;
}

async function referee(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const cli = new Cli(args, env);
  const { code } = await cli.exited;
  return { code, stdout: cli.stdout, stderr: cli.stderr };
}

beforeAll(() => {
  env.REFEREE_CACHE_DIR = seedCache(scratch('cpp-zip-cache'));
  work = scratch('cpp-zip');
  // Strategy.cpp with its headers and extra .cpp files, and macOS's junk folder that Finder adds to every zip.
  writeZip(join(work, 'uct-wall.zip'), { ...fixtureFiles('uct-wall', 'uct-wall'), '__MACOSX/uct-wall/._Strategy.cpp': 'junk' });
  writeZip(join(work, 'evil.zip'), { ...fixtureFiles('judge-greedy', 'mine'), '../evil.cpp': 'int evil;\n' });
  // g++ would read the argument @r.cpp as "the options in r.cpp": -wrapper runs the student's command (issue #28).
  const wrapper = `-wrapper /bin/sh,-c,touch\\ ${join(work, 'pwned-by-zip')};exec\\ "$0"\\ "$@"\n`;
  writeZip(join(work, 'options.zip'), { ...fixtureFiles('judge-greedy', 'mine'), 'mine/@r.cpp': 'int z;\n', 'mine/r.cpp': wrapper });
});

test('check and grade: a zipped file named as a g++ option (@r.cpp) is refused in one line naming the fix, nothing compiled', async () => {
  for (const command of ['check', 'grade']) {
    const run = await referee([command, join(work, 'options.zip'), '--game', 'connect4-nogo', ...(command === 'grade' ? ['--out', join(work, 'options-out')] : [])]);
    expect(run.code).not.toBe(0);
    const said = `${run.stdout}${run.stderr}`;
    expect(said).toMatch(/@r\.cpp: g\+\+ would read a name starting with @ as a file of compiler options; rename it/);
    expect(said).not.toMatch(/✓ compiles/);
  }
  expect(readdirSync(work).filter((name) => name.startsWith('pwned'))).toEqual([]);
}, 120_000);

test('check: a zipped Strategy.cpp folder with sibling sources passes, as the folder does', async () => {
  const run = await referee(['check', join(work, 'uct-wall.zip'), '--game', 'connect4-nogo']);
  expect(run.stdout).toMatch(/✓ compiles/);
  expect(run.stdout).toMatch(/✓ exports getPoint and clearPoint \(or an AIPlayer\): uses getPoint/);
  expect(run.code).toBe(0);
}, 120_000);

test('grade: a zipped C++ submission plays its games; the report names the zip', async () => {
  const config = join(work, 'one-item.json');
  writeFileSync(config, JSON.stringify({ title: 'zip', game: 'connect4-nogo', opponents: [{ name: 'random', games: 2, points: 100 }] }));
  const out = join(work, 'grade-out');
  const zip = join(work, 'uct-wall.zip');
  const run = await referee(['grade', zip, '--config', config, '--out', out, '--quiet']);
  expect(run.code).toBe(0);
  const grade = JSON.parse(readFileSync(join(out, 'grade.json'), 'utf8')) as {
    submission: { name: string; language: string };
    items: { wins: number; losses: number; draws: number }[];
  };
  expect(grade.submission).toMatchObject({ name: zip, language: 'C++' });
  expect(grade.items[0].wins + grade.items[0].losses + grade.items[0].draws).toBe(2);
}, 180_000);

test('check and grade: a zip with a ../ entry is refused in one line, nothing compiled', async () => {
  for (const command of ['check', 'grade']) {
    const run = await referee([command, join(work, 'evil.zip'), '--game', 'connect4-nogo']);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(/evil\.zip: the entry "\.\.\/evil\.cpp" climbs out of its folder with \.\. .*: refused; zip the submission again without it$/),
    ]);
  }
}, 60_000);

test('play: a zipped C++ submission plays as its folder would', async () => {
  const run = await referee(['play', '--game', 'connect4-nogo', '--black', join(work, 'uct-wall.zip'), '--white', 'random', '--games', '1', '--json']);
  expect(run.code).toBe(0);
  const series = JSON.parse(run.stdout) as { names: string[]; records: unknown[] };
  expect(series.names).toEqual(['uct-wall', 'random']);
  expect(series.records).toHaveLength(1);
}, 120_000);
