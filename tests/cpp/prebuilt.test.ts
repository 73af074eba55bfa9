/**
 * Issue #35: the C++ host and the sandbox's native tools are built at install (`npm run build`, the package's
 * postinstall: harness/sandbox/prebuilt.ts), so a grader with an empty cache copies them instead of compiling them.
 * Through the CLI as a subprocess, in every sandbox mode, with a g++ that answers its version probe and builds
 * nothing (every call logged): the course's two .so test AIs play a game from an empty cache, so the host can only
 * have come from the installation. The control ignores the installation (REFEREE_NO_PREBUILT=1): the same run then
 * asks that g++ to build the host and is a grader error. And the C++ starter's check from an empty cache, as a
 * student meets it right after `npm install`, with the real g++.
 */
import { chownSync, copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { runToEnd } from '../setup/children.js';
import { canRun, graderCommand, modeEnv, ownedBy, sandboxModes, type SandboxMode } from '../setup/sandbox-modes.js';
import { buildTestAi } from './support.js';

const CLI = resolve('dist/cli/index.js');
const dirs: string[] = [];
let players: string;

beforeAll(() => {
  players = ownedBy(mkdtempSync(join(tmpdir(), 'referee-prebuilt-ais-')), 0);
  dirs.push(players);
  copyFileSync(buildTestAi('testai-random', '10.so'), join(players, '10.so'));
  copyFileSync(buildTestAi('testai-greedy', '50.so'), join(players, '50.so'));
});

afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** A folder of the grader's own with an empty cache and a g++ that logs each call and builds nothing. */
function graderFolder(mode: SandboxMode): { work: string; cache: string; gxx: string; log: string } {
  const work = ownedBy(mkdtempSync(join(tmpdir(), `referee-prebuilt-${mode.id}-`)), mode.uid);
  dirs.push(work);
  const cache = ownedBy(mkdtempSync(join(work, 'cache-')), mode.uid);
  const log = join(work, 'g++.log');
  writeFileSync(log, '');
  chownSync(log, mode.uid, mode.uid);
  const gxx = join(work, 'g++');
  writeFileSync(gxx, `#!/bin/sh\necho "$*" >> ${log}\n[ "$1" = -dumpfullversion ] && exec /usr/bin/g++ "$@"\necho "this g++ builds nothing" >&2\nexit 1\n`, { mode: 0o755 });
  return { work, cache, gxx, log };
}

async function playSoGame(mode: SandboxMode, extra: Record<string, string> = {}) {
  const folder = graderFolder(mode);
  const command = graderCommand(mode, [CLI, 'play', '--game', 'connect4-nogo', '--black', join(players, '10.so'), '--white', join(players, '50.so'), '--games', '1', '--json']);
  const run = await runToEnd(command[0], command.slice(1), modeEnv(mode, { HOME: folder.work, REFEREE_CACHE_DIR: folder.cache, REFEREE_CXX: folder.gxx, ...extra }));
  const calls = readFileSync(folder.log, 'utf8').split('\n').filter(Boolean);
  return { ...run, calls, cached: readdirSync(folder.cache) };
}

const MODES = sandboxModes('bwrap', 'no-bwrap-root', 'no-bwrap-user', 'landlock-refused-user', 'no-compiler-user');

describe.each(MODES.map((mode) => [mode.label, mode] as const))('an empty cache takes what the installation built: %s', (_label, mode) => {
  (canRun(mode) ? test : test.skip)('two .so players play a game; g++ is asked its version only', async () => {
    const run = await playSoGame(mode);
    expect({ code: run.code, stderr: run.code === 0 ? '' : run.stderr.slice(-2000) }).toEqual({ code: 0, stderr: '' });
    const series = JSON.parse(run.stdout) as { names: string[]; records: { end: { reason: string }; isolation: { hardened: boolean }[] }[] };
    expect(series.names).toEqual(['10.so', '50.so']);
    expect(series.records).toHaveLength(1);
    expect(series.records[0].isolation.map((isolation) => isolation.hardened)).toEqual([mode.hardened, mode.hardened]);
    expect(run.calls.filter((call) => call !== '-dumpfullversion')).toEqual([]);
    expect(run.cached.some((name) => /^cpp-host-[0-9a-f]+$/.test(name))).toBe(true);
    // The Landlock launcher and grader guard too where bubblewrap is not the layer (no C compiler on PATH in the last mode).
    expect(run.cached.some((name) => name.startsWith('native-'))).toBe(mode.id !== 'bwrap');
  }, 300_000);
});

const control = MODES.find(canRun);
(control ? test : test.skip)('control: with the installation ignored, the same run asks g++ to build the host and is a grader error', async () => {
  const run = await playSoGame(control!, { REFEREE_NO_PREBUILT: '1' });
  expect(run.code).toBe(3);
  expect(run.calls.some((call) => /-o \S*cpp-host-[0-9a-f]+\.\d+\.(ahead\.)?tmp/.test(call))).toBe(true);
  expect(run.stderr).toMatch(/grader error.*g\+\+ building the C\+\+ host failed/);
}, 300_000);

(canRun(MODES[0]) ? test : test.skip)("the C++ starter's check from an empty cache, with the real g++: passes, the host taken from the installation", async () => {
  const mode = MODES[0];
  const work = ownedBy(mkdtempSync(join(tmpdir(), 'referee-prebuilt-starter-')), mode.uid);
  dirs.push(work);
  const starter = readFileSync(resolve('student-template/cpp/AIPlayer.cpp'), 'utf8').replace(/__GAME__/g, 'reversi').replace(/__TITLE__/g, 'Reversi');
  writeFileSync(join(work, 'AIPlayer.cpp'), starter);
  const cache = join(work, 'cache');
  const run = await runToEnd(process.execPath, [CLI, 'check', join(work, 'AIPlayer.cpp')], modeEnv(mode, { HOME: work, REFEREE_CACHE_DIR: cache }));
  expect(`${run.stdout}${run.stderr}`).toMatch(/PASS/);
  expect(run.code).toBe(0);
  const host = readdirSync(cache).find((name) => /^cpp-host-[0-9a-f]+$/.test(name));
  expect(host).toBeDefined();
  expect(existsSync(resolve('prebuilt', host!))).toBe(true);
}, 300_000);
