/**
 * C++ players: the system g++ and the C++ host. The host (cpp/host.cpp) is the project's own trusted program: it
 * is compiled once with g++ outside the sandbox and cached under the hash of its source and the compiler's
 * version, like the node host bundle. The course SDK's headers (cpp/sdk) and each game's AIPlayer Board
 * (harness/games/<game>/board.h, staged as referee/<game>.h) are copied into the cache the same way, one
 * world-readable folder to bind into the sandboxed compiler.
 */
import { createHash } from 'node:crypto';
import { chmodSync, existsSync, readdirSync, readFileSync, renameSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cacheDir, cacheFolder, touchCacheEntry } from './cache-dir.js';
import { commonGameFile, gameFile, gamesWithBoard } from './game-files.js';
import { keptProbe } from './probe-cache.js';
import { PROBE_BOUND, runToolSync, spawnToolSync, toolCpuMs } from './tool-bound.js';

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

/**
 * The compiled C++ host, built once per cache (g++ -O2, outside the sandbox: it is the project's own code) and named
 * by its source's hash, so a host built ahead (`referee doctor --build`) serves a grader with no compiler at run
 * time (prebuilt .so players, queue workers).
 */
export function cppHostPath(): string {
  if (host && existsSync(host)) return host;
  const source = join(cppSourceDir(), 'host.cpp');
  const text = readFileSync(source);
  const hash = createHash('sha256').update('cpp-host/2\0').update(text).digest('hex').slice(0, 16);
  const path = join(cacheDir(), `cpp-host-${hash}`);
  const compiler = existsSync(path) ? null : findCompiler();
  if (!existsSync(path) && !compiler) throw new Error(NO_COMPILER);
  if (compiler && !existsSync(path)) {
    const temporary = `${path}.${process.pid}.tmp`;
    // The player's library binds time, clock and std::random_device's draw to the host's own (reproducible
    // randomness, see host.cpp): the executable exports exactly those.
    const exported = ['time', 'clock', '_ZNSt13random_device9_M_getvalEv'].map((name) => `-Wl,--export-dynamic-symbol=${name}`);
    // Bounded by CPU, not wall time (tool-bound.ts): ~6 s of CPU, which took minutes of wall time at load 40.
    runToolSync(compiler.path, ['-std=c++17', '-O2', ...exported, '-o', temporary, source, '-ldl'], { cpuMs: toolCpuMs(HOST_BUILD_CPU_MS) }, 'g++ building the C++ host');
    chmodSync(temporary, 0o755);
    renameSync(temporary, path);
  }
  touchCacheEntry(path);
  host = path;
  return path;
}
