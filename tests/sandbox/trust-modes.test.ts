/**
 * Issue #28's sandbox attacks in every mode a course meets, from ONE table: a grader in its own process
 * (tests/fixtures/trust4/grader-driver.mjs, run as root or as uid 4242 through setpriv) compiles hostile C++ and plays
 * the runtime attacker (trust4/metadata/Strategy.cpp) one move. Attacks:
 *   - at compile time: a file named `@r.cpp` (a response file: -wrapper runs a command), `-specs=s.cpp`, a folder
 *     named `-B`, `#include`, `.incbin` and `#pragma GCC dependency` of a classmate's file by absolute path, and
 *     `__has_include` of a path that exists against one that does not (the compile must not tell them apart);
 *   - at run time: chmod, fchmodat, utimensat, utimes, setxattr and chown of a grader-owned file, a memfd bomb past
 *     the memory limit, signals to the grader and to every process (kill -1);
 *   - without a C compiler: the grader guard and launcher come from a cache built ahead (`referee doctor --build`).
 * Each row is a mode; the control rows switch one layer off and show the same attack then works, so the other rows'
 * "blocked" is the layer's doing. The runtime artefact is compiled once per grader user (its cache is shared by the
 * modes of that user).
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, chownSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { runToEnd } from '../setup/children.js';
import { seedCache } from '../setup/suite-cache.js';
import { canRun, GRADER_UID, graderCommand, isRoot, modeEnv, ownedBy, sandboxModes, SANDBOX_MODES, type SandboxMode } from '../setup/sandbox-modes.js';

const DIST = resolve('dist');
const DRIVER = resolve('tests/fixtures/trust4/grader-driver.mjs');
const JS_DRIVER = resolve('tests/fixtures/hardening/grader-driver.mjs');
const USER = GRADER_UID;
// The grader-owned target lives outside /tmp (the sandboxes have their own) and is made per run: two suites on one
// machine would otherwise reset each other's target between a row's attack and its check.
const TARGET_DIR = mkdtempSync('/var/tmp/referee-trust4-');
const TARGET = join(TARGET_DIR, 'target');
/** The runtime attacker with this run's target filled in (one copy, so it is compiled once per grader user). */
const RUNTIME = mkdtempSync(join(tmpdir(), 'referee-trust4-runtime-'));
cpSync(resolve('tests/fixtures/trust4/metadata'), RUNTIME, { recursive: true });
chmodSync(RUNTIME, 0o755);
writeFileSync(join(RUNTIME, 'Strategy.cpp'), readFileSync(join(RUNTIME, 'Strategy.cpp'), 'utf8').replaceAll('__TARGET__', TARGET), { mode: 0o644 });
const FIXED_TIME = 1_000_000_000; // 2001-09-09: any change to the target's times shows
const root = isRoot;

interface Outcome {
  uid: number;
  compiled: Record<string, string>;
  runtime: { kind: string; message: string | null; seen: Record<string, string> | null; isolation: { hardened: boolean; layers: string[]; problem?: string } } | null;
  runtimeBundle: string | null;
}

interface Mode {
  name: string;
  /** The row of tests/setup/sandbox-modes.ts this mode is (controls: that row with one more layer off). */
  base: SandboxMode;
  /** Switches on top of the row's (the controls'). */
  env: Record<string, string>;
  uid: number;
  /** Compile the hostile folders too (needs g++; the no-compiler mode runs the prebuilt artefact only). */
  compile: boolean;
  /** The layers hold every attack (true), or this row is a control / a documented unhardened mode. */
  hardened: boolean;
  /** Attacks that must get through in this row (a control), by name. */
  allowed?: string[];
}

const row = (base: SandboxMode, extra: Partial<Mode> = {}): Mode => ({ name: base.label, base, env: {}, uid: base.uid, compile: base.id !== 'no-compiler-user', hardened: base.hardened, ...extra });
const [BWRAP, NO_BWRAP_ROOT, NO_BWRAP_USER, LANDLOCK_REFUSED, BROKEN_BWRAP, NO_COMPILER] = sandboxModes('bwrap', 'no-bwrap-root', 'no-bwrap-user', 'landlock-refused-user', 'broken-bwrap', 'no-compiler-user');
const METADATA = ['chmod', 'fchmodat', 'utimensat', 'utimes', 'setxattr', 'chown', 'memfd'];
const MODES: Mode[] = [
  row(BWRAP),
  row(NO_BWRAP_ROOT),
  row(NO_BWRAP_USER),
  // bubblewrap installed but failing (Docker): the fallback layers confine the compile and the player as without it.
  row(BROKEN_BWRAP),
  // No C compiler on PATH at run time: the launcher and guard come from the cache `referee doctor --build` filled.
  row(NO_COMPILER),
  // Landlock refused: not hardened (the record says so); the seccomp filter still refuses metadata, memfd, signals.
  row(LANDLOCK_REFUSED),
  // Controls: seccomp off, so only Landlock stands (it does not govern metadata or memfd; it scopes signals, so the
  // grader is out of reach, though kill(-1, 0) still finds some process inside the sandbox's own domain) ...
  row(NO_BWRAP_USER, { name: 'control: seccomp off, non-root', env: { REFEREE_SANDBOX_NO_SECCOMP: '1' }, compile: false, hardened: false, allowed: [...METADATA, 'kill -1 (signal 0)'] }),
  // ... and with Landlock refused too, the grader's own processes can be signalled.
  row(LANDLOCK_REFUSED, { name: 'control: seccomp off, Landlock refused, non-root', env: { REFEREE_SANDBOX_NO_SECCOMP: '1' }, compile: false, hardened: false, allowed: [...METADATA, 'kill the grader (signal 0)', 'kill -1 (signal 0)'] }),
];

const dirs: string[] = [];
const caches = new Map<number, string>();
afterAll(() => {
  for (const dir of [...dirs, RUNTIME, TARGET_DIR]) rmSync(dir, { recursive: true, force: true });
});

const owned = ownedBy;

/** The grader user's cache, shared by its modes (the runtime artefact is compiled once per user). */
function cacheFor(uid: number): string {
  if (!caches.has(uid)) {
    const dir = owned(mkdtempSync(join(tmpdir(), `referee-trust4-cache-${uid}-`)), uid);
    dirs.push(dir);
    // A root grader starts from the suite's runtime (launcher, guard, C++ host); a non-root one builds its own.
    caches.set(uid, uid === 0 ? seedCache(dir) : dir);
  }
  return caches.get(uid)!;
}

/** The grader-owned target, reset: mode 0600, fixed times, no extended attribute. */
function resetTarget(uid: number): void {
  mkdirSync(TARGET_DIR, { recursive: true });
  chmodSync(TARGET_DIR, 0o755);
  rmSync(TARGET, { force: true });
  writeFileSync(TARGET, 'the queue key, say\n', { mode: 0o600 });
  chmodSync(TARGET, 0o600);
  utimesSync(TARGET, FIXED_TIME, FIXED_TIME);
  if (uid !== 0) chownSync(TARGET, uid, uid);
}

function targetState(): { mode: string; mtime: number; xattrs: string } {
  const stat = statSync(TARGET);
  const xattrs = spawnSync('python3', ['-c', 'import os,sys; print(os.listxattr(sys.argv[1]))', TARGET], { encoding: 'utf8' }).stdout.trim();
  return { mode: (stat.mode & 0o7777).toString(8), mtime: Math.round(stat.mtimeMs / 1000), xattrs };
}

/** Runs the grader to its own end however loaded the machine (a failed or timed-out test stops it). */
async function runAs(mode: SandboxMode, env: Record<string, string>, cwd: string, args: string[]): Promise<string> {
  const command = graderCommand(mode, args);
  const run = await runToEnd(command[0], command.slice(1), modeEnv(mode, { HOME: cwd, ...env }), cwd);
  const line = run.stdout.trim().split('\n').pop() ?? '';
  if (run.code !== 0 || !line.startsWith('{')) throw new Error(`the grader failed (${run.code ?? run.signal}): ${run.stderr.slice(-2000)}`);
  return line;
}

const bundles = new Map<number, string>();

async function runMode(mode: Mode): Promise<Outcome & { work: string }> {
  const work = owned(mkdtempSync(join(tmpdir(), 'referee-trust4-work-')), mode.uid);
  dirs.push(work);
  // A classmate's file beside the grader's folder, readable by the grader's user (the compiler runs as it).
  const secretText = `SECRET_${process.pid}_${mode.uid}`;
  const secret = join(work, 'classmate.txt');
  writeFileSync(secret, `${secretText}\n`, { mode: 0o644 });
  if (mode.uid !== 0) chownSync(secret, mode.uid, mode.uid);
  resetTarget(mode.uid);
  // Without a compiler the artefact compiled in an earlier mode of this user is graded as the prebuilt .so it is.
  const runtime = mode.compile || !bundles.has(mode.uid) ? RUNTIME : bundles.get(mode.uid)!;
  const spec = { dist: DIST, work, secret, secretText, missing: join(work, 'no-such-file.txt'), runtime, compile: mode.compile };
  const outcome = JSON.parse(await runAs(mode.base, { ...mode.env, REFEREE_CACHE_DIR: cacheFor(mode.uid) }, work, [DRIVER, JSON.stringify(spec)])) as Outcome;
  expect(outcome.uid).toBe(mode.uid);
  if (outcome.runtimeBundle?.endsWith('.so') && runtime === RUNTIME) bundles.set(mode.uid, outcome.runtimeBundle);
  return { ...outcome, work };
}

const REFUSED_NAME = /SubmissionError: .*g\+\+ would read a name starting with [-@] as (a file of compiler options|a compiler option); rename it/;
const NOT_FOUND = /classmate\.txt: No such file or directory|file not found: .*classmate\.txt|cannot find source file/;

describe.each(MODES)('$name', (mode) => {
  const skip = !canRun(mode.base);
  (skip ? test.skip : test)('the compile and the player are confined as the row says; the record says what held', async () => {
    const outcome = await runMode(mode);
    const after = targetState();

    if (mode.compile) {
      const compiled = outcome.compiled;
      // Names g++ would read as options are refused before anything runs, in every mode (no layer needed).
      expect(compiled['response file']).toMatch(REFUSED_NAME);
      expect(compiled['specs file']).toMatch(REFUSED_NAME);
      expect(compiled['folder named as an option']).toMatch(REFUSED_NAME);
      expect(existsSync(join(outcome.work, 'pwned-by-compile'))).toBe(false);
      const leaks = Object.entries(compiled).filter(([, result]) => result.includes('SECRET_') || result.includes('with the secret inside'));
      if (mode.hardened) {
        expect(leaks).toEqual([]);
        expect(compiled['#include of an absolute path']).toMatch(NOT_FOUND);
        expect(compiled['.incbin of an absolute path']).toMatch(NOT_FOUND);
        expect(compiled['#pragma GCC dependency on an absolute path']).toMatch(NOT_FOUND);
        // Exists or not, the compile cannot tell: both compile.
        expect([compiled['__has_include of a path that exists'], compiled['__has_include of a path that does not']]).toEqual(['compiled', 'compiled']);
      } else {
        // Landlock refused (the control of the compile's confinement): the classmate's file is read, and its existence shows.
        expect(compiled['#include of an absolute path']).toContain('SECRET_');
        expect(compiled['.incbin of an absolute path']).toBe('compiled, with the secret inside');
        expect(compiled['__has_include of a path that exists']).toMatch(/EXISTS/);
      }
    }

    const runtime = outcome.runtime!;
    expect(runtime.kind).toBe('move');
    const seen = runtime.seen ?? {};
    expect(Object.keys(seen).length).toBeGreaterThan(0);
    const through = Object.entries(seen).filter(([, result]) => result.startsWith('ALLOWED')).map(([name]) => name);
    // The row's whole record on a mismatch: which attack got which answer.
    expect({ through: through.sort(), seen }).toEqual({ through: [...(mode.allowed ?? [])].sort(), seen });
    if (!mode.allowed) {
      // Nothing changed on the grader's file, checked from outside.
      expect(after).toEqual({ mode: '600', mtime: FIXED_TIME, xattrs: '[]' });
    } else {
      expect(after).not.toEqual({ mode: '600', mtime: FIXED_TIME, xattrs: '[]' });
      if (mode.allowed.includes('memfd')) expect(Number(/ALLOWED (\d+) MB/.exec(seen.memfd)?.[1])).toBeGreaterThan(256);
    }
    expect(runtime.isolation.hardened).toBe(mode.hardened);
    // Not hardened: the record lacks the layer that was off (and says why when the kernel, not a switch, refused it).
    if (!mode.hardened) expect(['landlock', 'seccomp'].every((layer) => runtime.isolation.layers.includes(layer))).toBe(false);
    if (mode.base.env.REFEREE_SANDBOX_NO_LANDLOCK) expect(runtime.isolation.problem).toMatch(/landlock: (missing|turned off)/);
  });
});

describe('no C compiler at run time: the grader guard', () => {
  const spec = (work: string) => ({
    dist: DIST,
    template: resolve('tests/fixtures/hardening/escape.js'),
    work,
    runtime: 'node',
    bare: true,
    fill: { __NEIGHBOUR__: join(work, 'nope'), __TAG__: `trust4-${process.pid}`, __PORT__: '9', __UDP_PORT__: '9', __UNIX__: join(work, 'no.sock'), __ABSTRACT__: `trust4-${process.pid}` },
  });
  const run = async (cache: string, extra: Record<string, string> = {}) => {
    const work = owned(mkdtempSync(join(tmpdir(), 'referee-trust4-js-')), USER);
    dirs.push(work);
    // A PATH with the victim's `sleep` and no C compiler of any name.
    const bin = join(work, 'bin');
    mkdirSync(bin);
    symlinkSync('/bin/sleep', join(bin, 'sleep'));
    return JSON.parse(await runAs(SANDBOX_MODES['no-bwrap-user'], { PATH: bin, REFEREE_CACHE_DIR: cache, ...extra }, work, [JS_DRIVER, JSON.stringify(spec(work))])) as {
      seen: Record<string, string>;
      isolation: { hardened: boolean; problem?: string };
    };
  };

  (root ? test : test.skip)('built ahead by `referee doctor --build` or at install, it holds; with neither (the control) the record says the grader is open', async () => {
    const prebuilt = owned(mkdtempSync(join(tmpdir(), 'referee-trust4-prebuilt-')), USER);
    const fresh = owned(mkdtempSync(join(tmpdir(), 'referee-trust4-fresh-')), USER);
    const installed = owned(mkdtempSync(join(tmpdir(), 'referee-trust4-installed-')), USER);
    dirs.push(prebuilt, fresh, installed);
    const build = await runToEnd(
      '/usr/bin/setpriv',
      [`--reuid=${USER}`, `--regid=${USER}`, '--clear-groups', process.execPath, join(DIST, 'cli/index.js'), 'doctor', '--build', '--json'],
      { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: prebuilt, REFEREE_CACHE_DIR: prebuilt, REFEREE_SANDBOX_NO_BWRAP: '1' },
      prebuilt,
    );
    expect(build.stderr).toMatch(/built: .*landlock-launch/);
    const held = await run(prebuilt);
    expect(held.seen["open the grader's memory"]).toBe('blocked');
    expect(held.seen["read the grader's environment"]).toBe('blocked');
    expect(held.isolation.hardened).toBe(true);
    // An empty cache of a non-root grader, the tools copied from what `npm run build` (as root) built into the installation.
    const fromInstall = await run(installed);
    expect(fromInstall.seen["open the grader's memory"]).toBe('blocked');
    expect(fromInstall.seen["read the grader's environment"]).toBe('blocked');
    expect(fromInstall.isolation.hardened).toBe(true);
    expect(readdirSync(installed).some((name) => name.startsWith('native-'))).toBe(true);
    const open = await run(fresh, { REFEREE_NO_PREBUILT: '1' });
    expect(open.seen["read the grader's environment"]).toMatch(/^ALLOWED/);
    expect(open.isolation.hardened).toBe(false);
    expect(open.isolation.problem).toMatch(/grader guard: missing: no C compiler .*referee doctor --build/);
  });
});

// Outside any mode: what the refused names would do if g++ saw them as given (why the refusal exists).
(root ? test : test.skip)('control: g++ given `@r.cpp` as it is reads r.cpp as options and runs its -wrapper command', () => {
  const dir = mkdtempSync(join(tmpdir(), 'referee-trust4-gxx-'));
  dirs.push(dir);
  const pwned = join(dir, 'pwned');
  writeFileSync(join(dir, '@r.cpp'), 'int z;\n');
  writeFileSync(join(dir, 'r.cpp'), `-wrapper /bin/sh,-c,touch\\ ${pwned};exec\\ "$0"\\ "$@"\n`);
  writeFileSync(join(dir, 'x.cpp'), 'int x;\n');
  spawnSync('g++', ['-c', '@r.cpp', 'x.cpp'], { cwd: dir });
  expect(existsSync(pwned)).toBe(true);
  expect(readFileSync(join(dir, 'r.cpp'), 'utf8')).toContain('-wrapper');
});
