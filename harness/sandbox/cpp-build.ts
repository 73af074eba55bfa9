/**
 * The sandboxed C++ compiler: g++ runs on a private staged copy of the sources behind the same layers as a player
 * (a cgroup with a memory ceiling and a process cap, the address-space and open-file rlimits; bubblewrap's
 * namespaces with no network and only /usr, /lib, /bin, the sources and the headers visible, or unshare's; dropped
 * to the unprivileged uid as root), with a CPU bound (tool-bound.ts: at load the compiler gets a small share of a
 * core, so a wall-clock limit cut working builds; a starved build is the grader's error). Compiling is running the student's code in a weak
 * sense (`#include "/abs/path"`, `.incbin`, a template bomb), so it gets the player's walls, not the grader's:
 *   - a seccomp filter of its own ('compile' in seccomp.ts): cc1plus, as and ld may still be started, but no
 *     socket, no reaching into other processes, no chmod/chown/utime/xattr, no memfd;
 *   - without bubblewrap, Landlock through the launcher (confinement.ts compileConfinement): it executes only the
 *     toolchain, reads the staged sources and the project's headers, writes only its output folder; and a preload
 *     (native/compile-shim.c) makes a refused file read as a missing one, so `__has_include`, `#include`, `.incbin`
 *     or `#pragma GCC dependency` of an outside path say "not found" whether it exists or not.
 * Where the launcher cannot be built (no C compiler) and bubblewrap is missing, only the rlimits, cgroup and (as
 * root) unshare and the unprivileged uid hold: `confinement` says so.
 */
import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, realpathSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { GraderError } from '../referee/grader-error.js';
import { PlayerCgroup } from './cgroup.js';
import { compileConfinement, launcherArgs } from './confinement.js';
import { bwrapBaseArgs, detectLayers, dropPrivileges, forgetBwrapProbe, type Layers } from './layers.js';
import { SHELL, unshareArgs } from './launch.js';
import { nativeTools } from './native-tools.js';
import { endPortableTree, processTree, signalGroups, signalPids } from './process-tree.js';
import { portable } from './portable.js';
import { seccompProgram } from './seccomp.js';
import { starvedError, ToolWatch, type ToolStop } from './tool-bound.js';
import { stageShared } from './staging.js';
import { SYSTEM_READ_DIRS } from './system-paths.js';

export interface SandboxedBuild {
  /** The compiler and its arguments (paths inside `sourceDir`, `outDir` and `readOnly`, which keep their paths). */
  command: string[];
  /** The staged sources (read-only inside); the compiler's working folder. */
  sourceDir: string;
  /** Where the output goes: the one writable folder (world-writable, the compiler may run as nobody). */
  outDir: string;
  /** Further folders the compiler reads (the SDK and AIPlayer headers). */
  readOnly: string[];
  /** CPU the compiler and what it starts may use (ms; tool-bound.ts); a wall bound on the portable path. */
  cpuMs: number;
  /** How a stop names the build ("g++ compiling the submission"). */
  what: string;
  memoryMb: number;
  layers?: Layers;
}

export interface BuildOutcome {
  result: 'ok' | 'failed' | 'timeout' | 'memory';
  /** Why a 'timeout' was stopped: its CPU bound, or the backstop while asleep (a starved build throws instead). */
  stop?: ToolStop;
  /** What confined the compiler: 'bubblewrap', 'landlock' (with seccomp and the preload), or 'none: why'. */
  confinement: string;
  /** What the compiler wrote on stderr (capped at 4 MB). */
  stderr: string;
  wallMs: number;
}

const STDERR_CAP = 4 * 1024 * 1024;
// Address space beyond the memory ceiling: cc1plus maps far more than it touches.
const ADDRESS_SPACE_HEADROOM_MB = 1024;
const PATH = '/usr/local/bin:/usr/bin:/bin';

function bwrapWords(bwrap: string, build: SandboxedBuild): string[] {
  const args = [bwrap, ...bwrapBaseArgs(), '--setenv', 'PATH', PATH, '--setenv', 'LANG', 'C.UTF-8'];
  args.push('--ro-bind', build.sourceDir, build.sourceDir);
  for (const dir of new Set(build.readOnly)) args.push('--ro-bind', dir, dir);
  args.push('--bind', build.outDir, build.outDir, '--chdir', build.sourceDir);
  return args;
}

/** The folders of the toolchain beyond the system ones (a REFEREE_CXX under /opt). */
function toolchainDirs(compiler: string): string[] {
  let real = compiler;
  try {
    real = realpathSync(compiler);
  } catch {
    // the spawn says so
  }
  return [real, compiler].filter((path) => !SYSTEM_READ_DIRS.some((dir) => path.startsWith(`${dir}/`))).map((path) => dirname(path));
}

interface Confined {
  words: string[];
  env: Record<string, string>;
  stdin: Buffer | null;
  confinement: string;
}

/** The compiler's command behind bubblewrap, or the launcher (Landlock, seccomp, the preload), or bare. */
function confine(build: SandboxedBuild, layers: Layers): Confined {
  const filter = layers.seccomp ? seccompProgram('compile') : null;
  if (layers.bwrap) {
    const words = [...bwrapWords(layers.bwrap, build), ...(filter ? ['--seccomp', '0'] : []), ...build.command];
    return { words, env: {}, stdin: filter, confinement: 'bubblewrap' };
  }
  // Its temporary files go to its output folder: the only place it may write (the machine's /tmp is not).
  const tmp = join(build.outDir, 'tmp');
  mkdirSync(tmp, { recursive: true });
  chmodSync(tmp, 0o777); // the compiler may run as nobody
  const env: Record<string, string> = { TMPDIR: tmp };
  const built = layers.landlock?.launcher;
  if (!built) return { words: build.command, env, stdin: null, confinement: `none: ${layers.landlock?.problem ?? 'no Landlock launcher'}` };
  // Staged where the unprivileged compiler can run them (the cache may be root's 0700 home), as for players.
  const tools = stageShared(dirname(built));
  const launcher = join(tools, basename(built));
  const shim = nativeTools().compileShim;
  const compileShim = shim ? join(tools, basename(shim)) : null;
  const rules = compileConfinement([...toolchainDirs(build.command[0]), ...(compileShim ? [compileShim] : [])], [build.sourceDir, ...build.readOnly], build.outDir);
  if (compileShim) env.LD_PRELOAD = compileShim;
  const landlock = layers.landlock && layers.landlock.abi > 0 && !rules.refuse;
  return {
    words: [...launcherArgs(launcher, rules, filter ? filter.toString('hex') : null), ...build.command],
    env,
    stdin: null,
    confinement: landlock ? 'landlock' : `none: ${layers.landlock?.problem ?? 'Landlock refused'}${filter ? ' (seccomp on)' : ''}`,
  };
}

/** Run the compiler in the sandbox; a sandbox that cannot start is a GraderError, never the student's failure. */
export async function runSandboxedBuild(build: SandboxedBuild): Promise<BuildOutcome> {
  const layers = build.layers ?? detectLayers();
  let cgroup: PlayerCgroup | null = null;
  try {
    cgroup = layers.cgroup ? new PlayerCgroup(layers.cgroup, build.memoryMb, 64) : null;
  } catch (error) {
    throw new GraderError(`the compiler's sandbox could not be prepared: ${(error as Error).message}`);
  }
  const confined = confine(build, layers);
  const target = [...(!layers.bwrap && layers.unshare ? unshareArgs(layers.unshare) : []), ...dropPrivileges(layers.identity), ...confined.words];
  const addressSpaceKb = String((build.memoryMb + ADDRESS_SPACE_HEADROOM_MB) * 1024);
  const started = performance.now();
  // No shell on the portable path (portable.ts): the compiler itself, without rlimits.
  const [command, ...args] = layers.process.rlimits ? ['/bin/sh', '-c', SHELL, 'sh', ...(cgroup ? cgroup.joinFiles() : []), '--', addressSpaceKb, ...target] : target;
  const proc = spawn(command, args, {
    cwd: build.sourceDir,
    stdio: [confined.stdin ? 'pipe' : 'ignore', 'ignore', 'pipe'],
    // A group of its own to signal (POSIX). Windows has no groups (endPortableTree there); not detached, the compiler
    // and the programs it starts (cc1plus, as, ld) stay in libuv's kill-on-close job, so they end with the grader,
    // and open no console window each.
    detached: process.platform !== 'win32',
    windowsHide: true,
    env: { PATH, LANG: 'C.UTF-8', ...confined.env },
  });
  if (confined.stdin) {
    proc.stdin?.on('error', () => undefined); // bubblewrap gone before reading it: its stderr says why
    proc.stdin?.end(confined.stdin);
  }
  let stderr = '';
  proc.stderr?.setEncoding('utf8');
  proc.stderr?.on('data', (chunk: string) => {
    // bubblewrap's note that our --chdir replaces its base one is no diagnostic of the student's.
    if (stderr.length < STDERR_CAP) stderr += chunk.replace(/^bwrap: Only the last --chdir option will take effect\n/m, '');
  });
  const kill = (): void => {
    const pids = [...(cgroup?.pids() ?? []), ...processTree(proc.pid ?? 0)];
    signalGroups(proc.pid ? [proc.pid] : [], 'SIGKILL');
    signalPids(pids, 'SIGKILL');
    if (portable()) endPortableTree(proc);
  };
  const watch = proc.pid ? new ToolWatch(proc.pid, { cpuMs: build.cpuMs }, kill, () => cgroup?.cpuMs() ?? null) : null;
  const { code, error } = await new Promise<{ code: number | null; error: Error | null }>((resolve) => {
    proc.once('error', (spawnError) => resolve({ code: null, error: spawnError }));
    proc.once('close', (exitCode) => resolve({ code: exitCode, error: null }));
  });
  watch?.dispose();
  kill(); // nothing the compiler started outlives it
  const oom = cgroup?.oomKilled() ?? false;
  await cgroup?.destroy();
  const wallMs = Math.round(performance.now() - started);
  if (error) throw new GraderError(`the compiler's sandbox could not start: ${error.message}`);
  const { confinement } = confined;
  const stop = watch?.stopped;
  // The machine, not the sources, kept it from finishing: the grader's error, with the fix.
  if (stop?.reason === 'starved') throw starvedError(stop, build.what, { cpuMs: build.cpuMs });
  if (stop) return { result: 'timeout', stop, confinement, stderr, wallMs };
  if (oom || /virtual memory exhausted|out of memory allocating|Cannot allocate memory/i.test(stderr)) return { result: 'memory', confinement, stderr, wallMs };
  if (code === 0) return { result: 'ok', confinement, stderr, wallMs };
  // bubblewrap or setpriv failing says so before the compiler ran: the grader's problem.
  if (/^bwrap: |^setpriv: |^unshare: |^landlock-launch: /m.test(stderr) && !/\{|error/i.test(stderr)) {
    if (/^bwrap: /m.test(stderr)) forgetBwrapProbe(); // the next process probes bubblewrap live (layers.ts)
    throw new GraderError(`the compiler's sandbox did not start: ${stderr.trim().split('\n').pop()}`);
  }
  return { result: 'failed', confinement, stderr, wallMs };
}
