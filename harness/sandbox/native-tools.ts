/**
 * The sandbox's small C programs (harness/sandbox/native/), built with the machine's C compiler on first use
 * and cached under their content hash, like the host bundles: no native npm dependency, nothing downloaded.
 *   - landlock-launch: the Landlock (and seccomp) launcher a child starts through when bubblewrap is missing
 *     (confinement.ts says what it is given): node and C++ players, and the C++ compiler;
 *   - grader-guard.so: loaded into the grader itself to make it non-dumpable;
 *   - compile-shim.so: preloaded into the Landlock-confined compiler so a refused file reads as a missing one;
 *   - botzone-spawner: kept inside a Botzone bot's sandbox to start the bot afresh each turn (botzone-sandbox.ts);
 *   - taskstats.so: loaded into the grader to read a player's CPU waits summed over ended threads too (taskstats.ts).
 * Without a compiler (cc, gcc, clang, or g++ compiling C; $CC first) they are missing: the layers are recorded as
 * such, never fatal. They are built only when asked for (bubblewrap needs none of them but the guard), and
 * `referee doctor --build` builds them ahead, so a machine whose graders run without a compiler still has them.
 */
import { createHash } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cacheDir, touchCacheEntry } from './cache-dir.js';
import { PROBE_BOUND, runToolSync, spawnToolSync, toolCpuMs } from './tool-bound.js';

const SOURCES = { launcher: 'landlock-launch.c', guard: 'grader-guard.c', shim: 'compile-shim.c', spawner: 'botzone-spawner.c', taskstats: 'taskstats.c', seccompInstall: 'seccomp-install.h' } as const;

export interface NativeTools {
  /** The Landlock launcher, or null. */
  launcher: string | null;
  /** The grader-guard shared object, or null. */
  guard: string | null;
  /** The compiler's preload (EACCES reads as ENOENT), or null. */
  compileShim: string | null;
  /** The Botzone spawner, or null (bots then start a whole sandbox each turn). */
  spawner: string | null;
  /** The taskstats reader (a Node-API module), or null. */
  taskstats: string | null;
  /** Why they are missing (no compiler, a failed build), or null. */
  problem: string | null;
}

/** harness/sandbox/native next to this module: beside it under ts-jest, in the package's harness/ when compiled. */
function sourceDir(): string | null {
  for (const relative of ['./native/', '../../../harness/sandbox/native/']) {
    const dir = fileURLToPath(new URL(relative, import.meta.url));
    if (existsSync(join(dir, SOURCES.launcher))) return dir;
  }
  return null;
}

/** The C compiler and the words that make it compile C (g++ needs `-x c`: a machine with only g++ still builds them). */
function findCompiler(): string[] | null {
  const candidates = [process.env.CC, 'cc', 'gcc', 'clang'].filter((name): name is string => Boolean(name)).map((name) => [name]);
  candidates.push([process.env.REFEREE_CXX || 'g++', '-x', 'c']);
  for (const words of candidates) {
    const run = spawnToolSync(words[0], ['--version'], PROBE_BOUND, { stdio: 'ignore' });
    if (!run.error && run.status === 0) return words; // else not this one
  }
  return null;
}

let built: NativeTools | null = null;

/** Build (once per cache) and return the tools; cheap after the first call of a process. */
export function nativeTools(): NativeTools {
  if (built && (!built.launcher || existsSync(built.launcher))) return built;
  try {
    built = build();
  } catch (error) {
    // An unwritable cache, a vanished source: the layers are missing, the grader goes on.
    built = { launcher: null, guard: null, compileShim: null, spawner: null, taskstats: null, problem: `the Landlock launcher could not be prepared: ${(error as Error).message.slice(0, 200)}` };
  }
  return built;
}

function build(): NativeTools {
  const none = (problem: string): NativeTools => ({ launcher: null, guard: null, compileShim: null, spawner: null, taskstats: null, problem });
  if (process.platform !== 'linux') return none(`not available on ${process.platform}`);
  const source = sourceDir();
  if (!source) return none('harness/sandbox/native is missing from this installation');
  const texts = Object.values(SOURCES).map((name) => readFileSync(join(source, name), 'utf8'));
  const hash = createHash('sha256').update(`${process.arch}\0${texts.join('\0')}`).digest('hex').slice(0, 16);
  const dir = join(cacheDir(), `native-${hash}`);
  const launcher = join(dir, 'landlock-launch');
  const guard = join(dir, 'grader-guard.so');
  const compileShim = join(dir, 'compile-shim.so');
  const spawner = join(dir, 'botzone-spawner');
  const taskstats = join(dir, 'taskstats.so');
  if (!existsSync(launcher) || !existsSync(guard) || !existsSync(compileShim) || !existsSync(spawner) || !existsSync(taskstats)) {
    const found = findCompiler();
    if (!found) return none('no C compiler (cc, gcc or clang) to build the Landlock launcher and grader guard: apt-get install gcc, or run `referee doctor --build` once where one is');
    const [compiler, ...language] = found;
    const temporary = `${dir}.${process.pid}.tmp`;
    rmSync(temporary, { recursive: true, force: true });
    mkdirSync(temporary, { mode: 0o755 });
    try {
      // Bounded by CPU, not wall time (tool-bound.ts): each is a small C file, well under a second of CPU.
      const cc = (args: string[]): void => runToolSync(compiler, [...language, ...args], { cpuMs: toolCpuMs(60_000) }, `${compiler} building the sandbox's native tools`);
      cc(['-O2', '-o', join(temporary, 'landlock-launch'), join(source, SOURCES.launcher)]);
      cc(['-O2', '-shared', '-fPIC', '-o', join(temporary, 'grader-guard.so'), join(source, SOURCES.guard)]);
      cc(['-O2', '-shared', '-fPIC', '-o', join(temporary, 'compile-shim.so'), join(source, SOURCES.shim), '-ldl']);
      cc(['-O2', '-o', join(temporary, 'botzone-spawner'), join(source, SOURCES.spawner)]);
      cc(['-O2', '-shared', '-fPIC', '-o', join(temporary, 'taskstats.so'), join(source, SOURCES.taskstats)]);
      chmodSync(join(temporary, 'landlock-launch'), 0o755);
      chmodSync(join(temporary, 'botzone-spawner'), 0o755);
      chmodSync(join(temporary, 'grader-guard.so'), 0o644);
      chmodSync(join(temporary, 'compile-shim.so'), 0o644);
      chmodSync(join(temporary, 'taskstats.so'), 0o644);
      renameSync(temporary, dir);
    } catch (error) {
      rmSync(temporary, { recursive: true, force: true });
      if (!existsSync(launcher)) {
        const said = String((error as { stderr?: Buffer }).stderr ?? (error as Error).message).trim().split('\n')[0];
        return none(`${compiler} could not build the Landlock launcher: ${said.slice(0, 200)}`);
      }
      // Another process built the same folder first: same content by its name.
    }
  }
  touchCacheEntry(dir);
  return { launcher, guard, compileShim, spawner, taskstats, problem: null };
}

let guarded: string | null = null;

/**
 * Make this (the grader's) process non-dumpable, once: a same-user child can then neither ptrace it nor open its
 * /proc/<pid>/mem. 'on', or why not.
 */
export function protectGrader(): string {
  if (guarded) return guarded;
  const { guard, problem } = nativeTools();
  if (!guard) return (guarded = `missing: ${problem}`);
  try {
    process.dlopen({ exports: {} } as NodeJS.Module, guard);
    guarded = 'on';
  } catch (error) {
    guarded = `missing: ${(error as Error).message.slice(0, 200)}`;
  }
  return guarded;
}
