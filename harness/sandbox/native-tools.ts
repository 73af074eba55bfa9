/**
 * The sandbox's small C programs (harness/sandbox/native/), built with the machine's C compiler on first use
 * and cached under their content hash, like the host bundles: no native npm dependency, nothing downloaded.
 *   - landlock-launch: the Landlock (and seccomp) launcher a child starts through when bubblewrap is missing
 *     (confinement.ts says what it is given): node and C++ players, and the C++ compiler;
 *   - grader-guard.so: loaded into the grader itself to make it non-dumpable;
 *   - compile-shim.so: preloaded into the Landlock-confined compiler so a refused file reads as a missing one;
 *   - botzone-spawner: kept inside a Botzone bot's sandbox to start the bot afresh each turn (botzone-sandbox.ts);
 *   - taskstats.so: loaded into the grader to read a player's CPU waits summed over ended threads too (taskstats.ts);
 *     in a folder of its own, since every grader uses it.
 * Without a compiler (cc, gcc, clang, or g++ compiling C; $CC first) they are missing: the layers are recorded as
 * such, never fatal. They are built only when asked for (under bubblewrap only the taskstats reader), and
 * `referee doctor --build` builds them ahead, so a machine whose graders run without a compiler still has them.
 * The installation builds them too (prebuilt.ts): a cache that lacks a folder copies it from there first.
 */
import { createHash } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cacheDir, touchCacheEntry } from './cache-dir.js';
import { takePrebuilt } from './prebuilt.js';
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

/** One file of a cached native folder: its name, the compiler's words for it (given the source folder), its mode. */
interface NativeStep {
  out: string;
  args: (source: string) => string[];
  mode: number;
}

/** A cached native folder: its name's prefix, the sources its hash covers, its files, and what to call it in errors. */
interface NativeFolder {
  prefix: string;
  sources: readonly string[];
  steps: NativeStep[];
  what: string;
  /** Whether a copy of the installation's prebuilt folder runs here (given the copy's path). */
  works?: (dir: string) => boolean;
}

const TOOLS_FOLDER: NativeFolder = {
  prefix: 'native',
  sources: [SOURCES.launcher, SOURCES.guard, SOURCES.shim, SOURCES.spawner, SOURCES.seccompInstall],
  steps: [
    { out: 'landlock-launch', args: (source) => [join(source, SOURCES.launcher)], mode: 0o755 },
    { out: 'grader-guard.so', args: (source) => ['-shared', '-fPIC', join(source, SOURCES.guard)], mode: 0o644 },
    { out: 'compile-shim.so', args: (source) => ['-shared', '-fPIC', join(source, SOURCES.shim), '-ldl'], mode: 0o644 },
    { out: 'botzone-spawner', args: (source) => [join(source, SOURCES.spawner)], mode: 0o755 },
  ],
  what: 'the Landlock launcher and grader guard',
  // The launcher's probe starts (the C library it was linked against is here) and answers.
  works: (dir) => spawnToolSync(join(dir, 'landlock-launch'), ['--probe'], PROBE_BOUND, { stdio: 'ignore' }).status === 0,
};

const TASKSTATS_FOLDER: NativeFolder = {
  prefix: 'taskstats',
  sources: [SOURCES.taskstats],
  steps: [{ out: 'taskstats.so', args: (source) => ['-shared', '-fPIC', join(source, SOURCES.taskstats)], mode: 0o644 }],
  what: 'the taskstats reader',
};

/**
 * The folder `<prefix>-<hash of its sources>` in `into` (the cache unless given) with every step's file: in the
 * cache, copied from the installation's prebuilt folder when it has it and it runs here (prebuilt.ts); else built
 * with the C compiler if one is missing (under a temporary name, then renamed: a concurrent builder's folder is the
 * same by its name).
 */
function buildFolder(folder: NativeFolder, into?: string): { dir: string } | { problem: string } {
  const { prefix, sources, steps, what } = folder;
  if (process.platform !== 'linux') return { problem: `not available on ${process.platform}` };
  const source = sourceDir();
  if (!source) return { problem: 'harness/sandbox/native is missing from this installation' };
  const texts = sources.map((name) => readFileSync(join(source, name), 'utf8'));
  const hash = createHash('sha256').update(`${process.arch}\0${texts.join('\0')}`).digest('hex').slice(0, 16);
  const dir = join(into ?? cacheDir(), `${prefix}-${hash}`);
  const missing = () => steps.some((step) => !existsSync(join(dir, step.out)));
  if (!into && missing()) takePrebuilt(basename(dir), dir, folder.works);
  if (missing()) {
    const found = findCompiler();
    if (!found) return { problem: `no C compiler (cc, gcc or clang) to build ${what}: apt-get install gcc, or run \`referee doctor --build\` once where one is` };
    const [compiler, ...language] = found;
    const temporary = `${dir}.${process.pid}.tmp`;
    rmSync(temporary, { recursive: true, force: true });
    mkdirSync(temporary, { mode: 0o755 });
    try {
      chmodSync(temporary, 0o755); // a prebuilt folder is read by other users too, whatever the installer's umask
      // Bounded by CPU, not wall time (tool-bound.ts): each is a small C file, well under a second of CPU.
      for (const step of steps) {
        runToolSync(compiler, [...language, '-O2', '-o', join(temporary, step.out), ...step.args(source)], { cpuMs: toolCpuMs(60_000) }, `${compiler} building ${what}`);
        chmodSync(join(temporary, step.out), step.mode);
      }
      renameSync(temporary, dir);
    } catch (error) {
      rmSync(temporary, { recursive: true, force: true });
      if (missing()) {
        const said = String((error as { stderr?: Buffer }).stderr ?? (error as Error).message).trim().split('\n')[0];
        return { problem: `${compiler} could not build ${what}: ${said.slice(0, 200)}` };
      }
      // Another process built the same folder first: same content by its name.
    }
  }
  if (!into) touchCacheEntry(dir);
  return { dir };
}

function build(): NativeTools {
  const none = (problem: string): NativeTools => ({ launcher: null, guard: null, compileShim: null, spawner: null, taskstats: null, problem });
  const folder = buildFolder(TOOLS_FOLDER);
  if ('problem' in folder) return none(folder.problem);
  const { path: taskstats } = taskstatsLibrary();
  return { launcher: join(folder.dir, 'landlock-launch'), guard: join(folder.dir, 'grader-guard.so'), compileShim: join(folder.dir, 'compile-shim.so'), spawner: join(folder.dir, 'botzone-spawner'), taskstats, problem: null };
}

let taskstatsBuilt: { path: string | null; problem: string | null } | null = null;

/**
 * The taskstats reader alone, in a folder of its own: every grader loads it (the CPU-wait credit), where the other
 * tools are built only for the layers that use them — so a check under bubblewrap compiles one small file, not five.
 */
export function taskstatsLibrary(): { path: string | null; problem: string | null } {
  if (taskstatsBuilt && (!taskstatsBuilt.path || existsSync(taskstatsBuilt.path))) return taskstatsBuilt;
  try {
    const folder = buildFolder(TASKSTATS_FOLDER);
    taskstatsBuilt = 'problem' in folder ? { path: null, problem: folder.problem } : { path: join(folder.dir, 'taskstats.so'), problem: null };
  } catch (error) {
    taskstatsBuilt = { path: null, problem: `the taskstats reader could not be prepared: ${(error as Error).message.slice(0, 200)}` };
  }
  return taskstatsBuilt;
}

/**
 * Build both native folders into `dir` (the installation's prebuilt folder, prebuilt.ts); returns the folders' names
 * (to keep) or why they could not be built. Throws nothing.
 */
export function buildNativeFoldersInto(dir: string): { built: string[]; problem: string | null } {
  const built: string[] = [];
  for (const folder of [TOOLS_FOLDER, TASKSTATS_FOLDER]) {
    try {
      const result = buildFolder(folder, dir);
      if ('problem' in result) return { built, problem: result.problem };
      built.push(basename(result.dir));
    } catch (error) {
      return { built, problem: (error as Error).message.slice(0, 200) };
    }
  }
  return { built, problem: null };
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
