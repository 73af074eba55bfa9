/**
 * Issue #35: start-up does only what the run needs. The validators the build compiled (dist/harness/schema/compiled)
 * are current and judge exactly as ajv compiling the schema at run time; the built-in assignments meet the schema
 * (reading their limits validates nothing); the Python interpreter's probe is kept under the binary's identity;
 * `referee check` and `referee play` load neither ajv's compiler nor the web server; and a check with an empty cache
 * passes in every sandbox mode, building the Landlock launcher and grader guard only where bubblewrap is not the layer.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, chownSync, copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { Ajv, type ValidateFunction } from 'ajv';
import { gameIds } from '../../harness/games/registry.js';
import { builtInAssignmentJson, defaultAssignment, resolveAssignment } from '../../grading/assignment.js';
import { PRECOMPILED_SCHEMAS } from '../../grading/precompiled-schemas.js';
import { grade } from '../../grading/grade.js';
import { schemaStamp, type SchemaSpec } from '../../harness/schema/validator.js';
import { failingContestant, smallAssignment } from '../grading/helpers.js';

const CLI = resolve('dist/cli/index.js');
const PYTHON_STARTER = resolve('student-template/python/src/AIPlayer.py');
const USER = 4242;
const root = process.getuid?.() === 0;
const hasBwrap = root && spawnSync('bwrap', ['--version']).status === 0;
const require = createRequire(import.meta.url);

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});
function scratch(prefix: string, uid = 0): string {
  const dir = mkdtempSync(join(tmpdir(), `referee-startup-${prefix}-`));
  chmodSync(dir, 0o755);
  if (uid !== 0) chownSync(dir, uid, uid);
  dirs.push(dir);
  return dir;
}

function runtimeValidator(spec: SchemaSpec): ValidateFunction {
  const ajv = new Ajv(spec.options);
  for (const keyword of spec.annotations ?? []) ajv.addKeyword({ keyword, schemaType: 'string' });
  return ajv.compile(spec.schema());
}

/** Values each schema must accept and refuse, judged by both validators. */
const SAMPLES: Record<string, unknown[]> = {
  'sandbox-answer': [
    { t: 'hello', seccomp: 'on' },
    { t: 'move', id: 3, value: 'D3' },
    { t: 'move', id: 0, value: 'D3' },
    { t: 'error', id: 1, message: 'x'.repeat(3000) },
    { t: 'loaded', id: 1, exports: ['AIPlayer'], entry: null, extra: 1 },
    { t: 'nonsense' },
    'a string',
  ],
  assignment: [
    ...gameIds().map((id) => builtInAssignmentJson(id)),
    { opponents: [{ name: 'random', points: 10 }], moveTimeoutMs: -1 },
    { opponents: [{ name: 'random', points: 10, scoring: { rule: 'sprt' } }], opponentz: [] },
    { opponents: [{ name: 'random', points: 10, scoring: { rule: 'nope' } }] },
    { opponents: 'random' },
  ],
  'grade-result': [{}, []], // and a real result (beforeAll)
  'game-progress': [
    { game: 'reversi', players: ['a', 'b'], seed: 1, initialState: 'x', moves: ['D3', null], ms: [1, 2] },
    { game: 'Reversi!', players: ['a'], seed: 1.5, initialState: 'x', moves: ['D3; rm'], ms: [-1] },
  ],
};

describe('validators compiled at build time', () => {
  beforeAll(async () => {
    // A real GradeResult (a check that fails: no games to play), and the same with one field of the wrong type.
    const result = await grade({ assignment: smallAssignment(), assignmentSource: 'test', contestant: failingContestant('found: default export only') });
    SAMPLES['grade-result'].push(JSON.parse(JSON.stringify(result)), { ...JSON.parse(JSON.stringify(result)), score: 'full marks' });
  });

  test.each(PRECOMPILED_SCHEMAS.map((spec) => [spec.name, spec] as const))('%s: the built module is current and judges as ajv does', (name, spec) => {
    const built = require(resolve('dist/harness/schema/compiled', `${name}.cjs`)) as ValidateFunction & { stamp: string };
    // A schema edited since the build would be refused by the stamp (and compiled at run time instead).
    expect(built.stamp).toBe(schemaStamp(spec, spec.schema()));
    const fresh = runtimeValidator(spec);
    expect(SAMPLES[name]?.length).toBeGreaterThan(1);
    const verdicts = SAMPLES[name].map((sample) => {
      const ok = built(sample);
      expect(fresh(sample)).toBe(ok);
      // Same errors, down to the schema annotations the assignment's messages read (fixHint through parentSchema).
      expect(JSON.parse(JSON.stringify(built.errors ?? null))).toEqual(JSON.parse(JSON.stringify(fresh.errors ?? null)));
      return ok;
    });
    expect(verdicts).toContain(true);
    expect(verdicts).toContain(false);
  });

  test("every game's built-in assignment meets the schema (so reading its limits validates nothing)", () => {
    for (const id of gameIds()) expect(resolveAssignment(builtInAssignmentJson(id), 'test')).toEqual(defaultAssignment(id));
  });
});

/** Every CommonJS module a CLI run loaded (fastify, ajv and esbuild are CommonJS), listed at its exit. */
function modulesLoaded(args: string[], env: Record<string, string>): { modules: string[]; stdout: string; status: number | null } {
  const work = scratch('modules');
  const list = join(work, 'modules.json');
  const preload = join(work, 'list-modules.cjs');
  writeFileSync(preload, `process.on('exit', () => require('fs').writeFileSync(${JSON.stringify(list)}, JSON.stringify(Object.keys(require.cache))));\n`);
  const run = spawnSync(process.execPath, ['-r', preload, CLI, ...args], { env: { ...process.env, ...env }, encoding: 'utf8', timeout: 120_000 });
  return { modules: JSON.parse(readFileSync(list, 'utf8')) as string[], stdout: run.stdout, status: run.status };
}

describe('a quick command loads only what it uses', () => {
  test('referee check of the Python starter: no ajv compiler, no web server; the interpreter probe is kept', () => {
    const cache = scratch('cache');
    const { modules, stdout, status } = modulesLoaded(['check', PYTHON_STARTER], { REFEREE_CACHE_DIR: cache });
    expect(stdout).toMatch(/PASS/);
    expect(status).toBe(0);
    expect(modules.filter((path) => /node_modules\/(fastify|@fastify|yauzl)\//.test(path))).toEqual([]);
    expect(modules.filter((path) => /node_modules\/ajv\/dist\/(core|compile\/index|standalone)/.test(path))).toEqual([]);
    expect(modules.some((path) => path.endsWith('schema/compiled/sandbox-answer.cjs'))).toBe(true);
    expect(readdirSync(cache).filter((name) => name.startsWith('python-probe-'))).toHaveLength(1);
    // The host's modules were compiled once into the cached host folder (a player start then reads .pyc files).
    const host = readdirSync(cache).find((name) => /^python-[0-9a-f]+$/.test(name))!;
    const compiled = readdirSync(join(cache, host, '__pycache__'));
    expect(compiled.some((name) => name.startsWith('.compiled-'))).toBe(true);
    expect(compiled).toEqual(expect.arrayContaining([expect.stringMatching(/^guard\..*\.pyc$/), expect.stringMatching(/^conventions\..*\.pyc$/)]));
  });

  test('referee play between reference AIs loads no web server', () => {
    const { modules, status } = modulesLoaded(['play', '--black', 'random', '--white', 'greedy', '--games', '1'], { REFEREE_CACHE_DIR: scratch('cache') });
    expect(status).toBe(0);
    expect(modules.filter((path) => /node_modules\/(fastify|@fastify|ajv)\//.test(path))).toEqual([]);
  });
});

describe('the Python probe is kept under the binary it resolves to', () => {
  /** findPython() in a fresh process, as `referee` would call it. */
  const found = (python: string, cache: string) =>
    JSON.parse(
      spawnSync(process.execPath, ['--input-type=module', '-e', `import { findPython } from ${JSON.stringify(resolve('dist/harness/sandbox/python-runtime.js'))}; console.log(JSON.stringify(findPython()))`], {
        env: { ...process.env, REFEREE_PYTHON: python, REFEREE_CACHE_DIR: cache },
        encoding: 'utf8',
      }).stdout,
    ) as { path: string; version: string };

  test('a kept answer is reused, a changed binary is asked again, a wrapper script is asked every time', () => {
    const work = scratch('probe');
    const cache = scratch('probe-cache');
    const system = found('/usr/bin/python3', cache).path;
    const python = join(work, 'python3');
    copyFileSync(system, python);
    chmodSync(python, 0o755);
    const first = found(python, cache);
    expect(first.path).toBe(python);
    const kept = readdirSync(cache).filter((name) => name.startsWith('python-probe-')).map((name) => join(cache, name));
    expect(kept.length).toBeGreaterThanOrEqual(1);
    // Mark what was kept: the next process reads it instead of starting the interpreter.
    const mine = kept.find((file) => readFileSync(file, 'utf8').includes(python))!;
    writeFileSync(mine, JSON.stringify({ ...JSON.parse(readFileSync(mine, 'utf8')), version: '3.99.0' }));
    expect(found(python, cache).version).toBe('3.99.0');
    // The binary replaced (its mtime moves): asked again, the true version.
    utimesSync(python, new Date(), new Date(Date.now() - 60_000));
    expect(found(python, cache).version).toBe(first.version);
    // A symlink to the binary is kept too (its own key); a wrapper script never is.
    const link = join(work, 'python-link');
    symlinkSync(python, link);
    expect(found(link, cache).path).toBe(python);
    const wrapper = join(work, 'python-wrapper');
    writeFileSync(wrapper, `#!/bin/sh\nexec ${python} "$@"\n`, { mode: 0o755 });
    const before = readdirSync(cache).length;
    expect(found(wrapper, cache).path).toBe(python);
    expect(readdirSync(cache).length).toBe(before);
  });
});

interface Mode {
  name: string;
  uid: number;
  env: Record<string, string>;
  /** The Landlock launcher and grader guard land in the fresh cache (only where bubblewrap is not the layer). */
  native: boolean;
}
const NO_BWRAP = { REFEREE_SANDBOX_NO_BWRAP: '1' };
const MODES: Mode[] = [
  ...(hasBwrap ? [{ name: 'bubblewrap', uid: 0, env: {}, native: false }] : []),
  ...(root
    ? [
        { name: 'no bubblewrap, root', uid: 0, env: NO_BWRAP, native: true },
        { name: 'no bubblewrap, non-root', uid: USER, env: NO_BWRAP, native: true },
        { name: 'Landlock refused, non-root', uid: USER, env: { ...NO_BWRAP, REFEREE_SANDBOX_NO_LANDLOCK: '1' }, native: true },
        // No C compiler and nothing built ahead: the guard is missing (recorded), Python confines itself (ctypes).
        { name: 'no C compiler, non-root', uid: USER, env: { ...NO_BWRAP, PATH: '/nonexistent', REFEREE_CXX: '/nonexistent/g++', REFEREE_NO_PREBUILT: '1' }, native: false },
        // No C compiler, the tools built at install (`npm run build`, as root): copied into the non-root grader's cache.
        { name: 'no C compiler, non-root, tools built at install', uid: USER, env: { ...NO_BWRAP, PATH: '/nonexistent', REFEREE_CXX: '/nonexistent/g++' }, native: true },
      ]
    : []),
];

describe('a check with an empty cache, in every sandbox mode', () => {
  test.each(MODES.map((mode) => [mode.name, mode] as const))('%s', (_name, mode) => {
    const cache = scratch('fresh', mode.uid);
    const user = mode.uid === 0 ? [] : ['/usr/bin/setpriv', `--reuid=${mode.uid}`, `--regid=${mode.uid}`, '--clear-groups'];
    const command = [...user, process.execPath, CLI, 'check', PYTHON_STARTER];
    const run = spawnSync(command[0], command.slice(1), {
      cwd: cache,
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: cache, ...mode.env, REFEREE_CACHE_DIR: cache },
      encoding: 'utf8',
      timeout: 120_000,
    });
    expect(`${run.stdout}${run.stderr}`).toMatch(/PASS/);
    expect(run.status).toBe(0);
    const entries = readdirSync(cache);
    expect(entries.some((name) => name.startsWith('native-'))).toBe(mode.native);
    expect(entries.filter((name) => name.startsWith('python-probe-'))).toHaveLength(1);
  });
});

describe("bubblewrap's probe is kept, and forgotten when bubblewrap fails to start a player", () => {
  (hasBwrap ? test : test.skip)('a kept answer spares the probe; a player that cannot start drops it; the next check probes live and falls back', () => {
    const folder = scratch('bwrap');
    const cache = scratch('bwrap-cache');
    const env = { ...process.env, PATH: `${folder}:${process.env.PATH ?? '/usr/bin:/bin'}`, REFEREE_CACHE_DIR: cache };
    const bwrap = join(folder, 'bwrap');
    const layersIn = (live: boolean) =>
      JSON.parse(
        spawnSync(process.execPath, ['--input-type=module', '-e', `import { detectLayers, keptBwrapProbeFile } from ${JSON.stringify(resolve('dist/harness/sandbox/layers.js'))}; const l = detectLayers({ live: ${live} }); console.log(JSON.stringify({ bwrap: l.bwrap, problem: l.bwrapProblem, file: keptBwrapProbeFile() }))`], { env, encoding: 'utf8' }).stdout,
      ) as { bwrap: string | null; problem: string | null; file: string | null };
    const kept = () => readdirSync(cache).filter((name) => name.startsWith('bwrap-probe-'));

    // A real bubblewrap: probed once, kept.
    copyFileSync('/usr/bin/bwrap', bwrap);
    chmodSync(bwrap, 0o755);
    expect(layersIn(false)).toMatchObject({ bwrap, problem: null });
    expect(kept()).toHaveLength(1);
    // A binary that cannot start a sandbox (an ELF that exits 1): a new identity, probed live, the failure not kept.
    rmSync(bwrap);
    copyFileSync('/bin/false', bwrap);
    chmodSync(bwrap, 0o755);
    const broken = layersIn(false);
    expect(broken.problem).toMatch(/cannot start a sandbox here/);
    expect(kept()).toHaveLength(1);
    // A stale "it starts" planted under its key is believed (no probe ran) — but not by doctor's live probe.
    writeFileSync(broken.file!, JSON.stringify({ starts: true }));
    expect(layersIn(false)).toMatchObject({ bwrap, problem: null });
    expect(layersIn(true).problem).toMatch(/cannot start a sandbox here/);

    // A check trusting it: a grader error (never the student's) that drops the kept answer; the next check falls back.
    const check = () => spawnSync(process.execPath, [CLI, 'check', PYTHON_STARTER], { env, encoding: 'utf8', timeout: 120_000 });
    const stale = check();
    expect(`${stale.stdout}${stale.stderr}`).toMatch(/the sandbox did not start/);
    expect(stale.status).toBe(3);
    expect(existsSync(broken.file!)).toBe(false);
    const next = check();
    expect(`${next.stdout}${next.stderr}`).toMatch(/cannot start a sandbox here/);
    expect(next.stdout).toMatch(/PASS/);
    expect(next.status).toBe(0);
    expect(existsSync(broken.file!)).toBe(false);
  });
});
