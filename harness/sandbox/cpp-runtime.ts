/**
 * C++ players: the system g++ and the C++ host. The host (cpp/host.cpp) is the project's own trusted program: it
 * is compiled once with g++ outside the sandbox and cached under the hash of its source, like the node host bundle;
 * the installation builds it ahead (`npm run build`, the package's postinstall: prebuilt.ts), so a cache copies it
 * from there instead of compiling it. The course SDK's headers (cpp/sdk) and each game's AIPlayer Board
 * (harness/games/<game>/board.h, staged as referee/<game>.h) are copied into the cache the same way, one
 * world-readable folder to bind into the sandboxed compiler.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, existsSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cacheDir, cacheFolder, touchCacheEntry } from './cache-dir.js';
import { commonGameFile, gameFile, gamesWithBoard } from './game-files.js';
import { takePrebuilt } from './prebuilt.js';
import { keptProbe } from './probe-cache.js';
import { PROBE_BOUND, runToolSync, spawnToolSync, toolCpuMs, ToolWatch } from './tool-bound.js';

export interface Compiler {
  /** The g++ binary (under /usr, so the sandbox's read-only /usr bind holds it). */
  path: string;
  /** `g++ -dumpfullversion`, e.g. '12.2.0'; part of every build's cache key. */
  version: string;
}

let found: Compiler | null | undefined;

/** What `g++ -dumpfullversion` says, or null when it does not run. */
function compilerVersion(candidate: string): string | null {
  const run = spawnToolSync(candidate, ['-dumpfullversion'], PROBE_BOUND, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  const version = String(run.stdout ?? '').trim();
  return !run.error && run.status === 0 && /^\d+(\.\d+)*$/.test(version) ? version : null; // else not a working compiler
}

/** The system g++ (>= 7, for C++17), found once per process (its version kept in the cache); null when there is none. */
export function findCompiler(): Compiler | null {
  if (found !== undefined) return found;
  found = null;
  for (const candidate of [process.env.REFEREE_CXX, '/usr/bin/g++', '/usr/local/bin/g++']) {
    if (!candidate || !existsSync(candidate)) continue;
    const version = keptProbe('gxx', candidate, () => compilerVersion(candidate), (kept): kept is string => typeof kept === 'string' && /^\d+(\.\d+)*$/.test(kept));
    if (version !== null && Number(version.split('.')[0]) >= 7) {
      found = { path: candidate, version };
      break;
    }
  }
  return found;
}

export const NO_COMPILER =
  'C++ submissions need g++ >= 7 (C++17) and none was found: install it (Debian/Ubuntu: apt-get install g++) or set REFEREE_CXX to its path';

/** One line for `referee doctor`. */
export function describeCompiler(): string {
  const compiler = findCompiler();
  return compiler ? `${compiler.path} (g++ ${compiler.version}): C++17 -O2, compiled inside the sandbox; the C++ host` : NO_COMPILER;
}

/** harness/sandbox/cpp next to this module: beside it under ts-jest, in the package's harness/ when compiled. */
export function cppSourceDir(): string {
  for (const relativePath of ['./cpp/', '../../../harness/sandbox/cpp/']) {
    const dir = fileURLToPath(new URL(relativePath, import.meta.url));
    if (existsSync(join(dir, 'host.cpp'))) return dir;
  }
  throw new Error('the C++ host (harness/sandbox/cpp/host.cpp) is missing from this installation');
}

function filesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...filesUnder(path));
    else out.push(path);
  }
  return out;
}

let headers: string | null = null;

/**
 * The cached copy of the headers a C++ submission may include (sdk/: Point.h, Strategy.h, Judge.h, Judge.cpp;
 * referee/<folder>.h: each game's AIPlayer Board from its folder; referee/actions.h: their move list), named by their content hash.
 */
export function cppHeadersDir(): string {
  if (headers && existsSync(headers)) return headers;
  const source = cppSourceDir();
  const files: (string | [string, string])[] = existsSync(join(source, 'sdk')) ? filesUnder(join(source, 'sdk')) : [];
  const boards = new Map(gamesWithBoard('cpp').map((game) => [game.files.folder, gameFile(game, 'board.h')]));
  for (const [folder, path] of boards) files.push([`referee/${folder}.h`, path]);
  files.push(['referee/actions.h', commonGameFile('actions.h')]);
  const dir = cacheFolder('cpp', source, files);
  headers = dir;
  return dir;
}

let host: string | null = null;
/** The C++ host's build: its own code, ~6 s of CPU; a bound far above that only stops a compiler gone wrong. */
const HOST_BUILD_CPU_MS = 120_000;

let ahead: Promise<void> | null = null;
let aheadChild: ChildProcess | null = null;

/** Where the host of this source goes in the cache (or in `dir`). */
function hostTarget(dir = cacheDir()): { path: string; source: string } {
  const source = join(cppSourceDir(), 'host.cpp');
  const hash = createHash('sha256').update('cpp-host/2\0').update(readFileSync(source)).digest('hex').slice(0, 16);
  return { path: join(dir, `cpp-host-${hash}`), source };
}

/** A host binary starts here: with no arguments it says its usage and exits 64 (a missing C++ library: 127). */
function hostStarts(path: string): boolean {
  return spawnToolSync(path, [], PROBE_BOUND, { stdio: 'ignore' }).status === 64;
}

/** The cache's host, copied from the installation's prebuilt folder if it is missing and the installation has it. */
function hostInCache(path: string): boolean {
  return existsSync(path) || takePrebuilt(basename(path), path, hostStarts);
}

/**
 * g++'s arguments for the host. The player's library binds time, clock and std::random_device's draw to the host's
 * own (reproducible randomness, see host.cpp): the executable exports exactly those.
 */
function hostBuildArgs(source: string, output: string): string[] {
  const exported = ['time', 'clock', '_ZNSt13random_device9_M_getvalEv'].map((name) => `-Wl,--export-dynamic-symbol=${name}`);
  return ['-std=c++17', '-O2', ...exported, '-o', output, source, '-ldl'];
}

/**
 * Build the host in the background if the cache has none, while the student's code compiles (issue #35: a cold C++
 * check built the host only after the student's compile; the two are independent g++ runs). Never fails: a build
 * that fails here is done again, and its error reported, by cppHostPath. A player's start awaits it first.
 */
export function buildCppHostAhead(): Promise<void> {
  ahead ??= new Promise<void>((settle) => {
    const { path, source } = hostTarget();
    const compiler = hostInCache(path) ? null : findCompiler();
    if (!compiler) return settle();
    const temporary = `${path}.${process.pid}.ahead.tmp`;
    // Its own process group, so stopCppHostAhead stops cc1plus and as too, not only the driver.
    const child = spawn(compiler.path, hostBuildArgs(source, temporary), { detached: true, stdio: 'ignore' });
    // The same CPU bound as cppHostPath's build (tool-bound.ts); a build stopped here is done again there.
    const watch = child.pid ? new ToolWatch(child.pid, { cpuMs: toolCpuMs(HOST_BUILD_CPU_MS) }, stopCppHostAhead) : null;
    const ended = (ok: boolean): void => {
      watch?.dispose();
      aheadChild = null;
      try {
        if (ok) {
          chmodSync(temporary, 0o755);
          renameSync(temporary, path);
        }
      } catch {
        // cppHostPath builds it
      }
      rmSync(temporary, { force: true });
      settle();
    };
    child.once('error', () => ended(false));
    child.once('exit', (code) => ended(code === 0));
    aheadChild = child;
  });
  return ahead;
}

/** Stop a build started by buildCppHostAhead (the student's compile failed: this process will start no player). */
export function stopCppHostAhead(): void {
  if (!aheadChild?.pid) return;
  try {
    process.kill(-aheadChild.pid, 'SIGKILL');
  } catch {
    // ended meanwhile
  }
}

/** Settles when a build started by buildCppHostAhead has ended (at once when none was started). */
export function cppHostAhead(): Promise<void> {
  return ahead ?? Promise.resolve();
}

/**
 * The compiled C++ host, built once per cache (g++ -O2, outside the sandbox: it is the project's own code) and named
 * by its source's hash, so a host built ahead (`referee doctor --build`) serves a grader with no compiler at run
 * time (prebuilt .so players, queue workers).
 */
export function cppHostPath(): string {
  if (host && existsSync(host)) return host;
  const { path } = hostTarget();
  if (!hostInCache(path)) buildHost(path);
  touchCacheEntry(path);
  host = path;
  return path;
}

/** Build the host as `path` with the system g++ (throws NO_COMPILER without one). */
function buildHost(path: string): void {
  const compiler = findCompiler();
  if (!compiler) throw new Error(NO_COMPILER);
  const temporary = `${path}.${process.pid}.tmp`;
  // Bounded by CPU, not wall time (tool-bound.ts): ~2 s of CPU, which took minutes of wall time at load 40.
  runToolSync(compiler.path, hostBuildArgs(hostTarget().source, temporary), { cpuMs: toolCpuMs(HOST_BUILD_CPU_MS) }, 'g++ building the C++ host');
  chmodSync(temporary, 0o755);
  renameSync(temporary, path);
}

/**
 * Build the host into `dir` (the installation's prebuilt folder, prebuilt.ts) unless it is there; its file name, or
 * why it could not be built. Throws nothing.
 */
export function buildCppHostInto(dir: string): { built: string | null; problem: string | null } {
  try {
    const { path } = hostTarget(dir);
    if (!existsSync(path)) buildHost(path);
    return { built: basename(path), problem: null };
  } catch (error) {
    return { built: null, problem: String((error as Error).message).split('\n')[0].slice(0, 200) };
  }
}
