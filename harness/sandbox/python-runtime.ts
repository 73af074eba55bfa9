/**
 * Python submissions: finding the interpreter and the host's files. The interpreter is chosen deliberately, not
 * whatever `python3` a shell would find first (here that is a pyenv shim, a script that needs the user's home):
 * $REFEREE_PYTHON (when set it is the only candidate: a wrong path is an error, not a silent fallback), else the system's /usr/bin/python3 (a stable path that the sandbox binds read-only with /usr),
 * else /usr/local/bin/python3, else `python3` on PATH resolved to the real binary it runs. Python >= 3.8. On Windows
 * (the portable path) there is no python3 binary: python.exe, python3.exe, then the py launcher (`py -3`), each asked
 * for its own sys.executable, which is what runs.
 *
 * The host script and func_timeout (harness/sandbox/python/) and every game's board module (harness/games/<game>/
 * board.py, staged as board_<game id>.py) are copied into the cache under their content hash, like the node host
 * bundle: one world-readable folder to bind into the sandbox.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, realpathSync, writeFileSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cacheFolder } from './cache-dir.js';
import { keptProbe } from './probe-cache.js';
import { gameFile, gamesWithBoard } from './game-files.js';
import { PROBE_BOUND, runToolSync, spawnToolSync, toolCpuMs } from './tool-bound.js';

export interface PythonInterpreter {
  /** The real interpreter binary (symlinks and shims resolved). */
  path: string;
  /** e.g. '3.11.2'. */
  version: string;
  /** Where it was found: 'REFEREE_PYTHON', '/usr/bin/python3', 'PATH' … */
  source: string;
  /** Folders the sandbox must bind read-only for it to run (empty when it lives under /usr, /lib or /bin). */
  binds: string[];
}

const MINIMUM: [number, number] = [3, 8];
const SYSTEM_DIRS = ['/usr/', '/lib/', '/lib64/', '/lib32/', '/bin/'];
const PROBE = 'import sys, json; print(json.dumps([sys.executable, list(sys.version_info[:3]), sys.base_prefix, sys.prefix]))';

let found: PythonInterpreter | null | undefined;
/** Why REFEREE_PYTHON was not used, when it is set and unusable. */
let chosenProblem: string | null = null;

function onPath(command: string): string | null {
  const name = process.platform === 'win32' ? `${command}.exe` : command;
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (dir && existsSync(join(dir, name))) return join(dir, name);
  }
  return null;
}

/** Ask a candidate who it really is; null when it does not run or is too old. */
function probe(candidate: string, source: string, leading: string[] = []): PythonInterpreter | null {
  // The Microsoft Store's python.exe stub (WindowsApps) prints where to install Python and fails: not a candidate.
  const run = spawnToolSync(candidate, [...leading, '-I', '-c', PROBE], PROBE_BOUND, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  if (run.error || run.status !== 0) return null;
  const reply = String(run.stdout);
  const [executable, version, basePrefix, prefix] = JSON.parse(reply) as [string, number[], string, string];
  if (version[0] < MINIMUM[0] || (version[0] === MINIMUM[0] && version[1] < MINIMUM[1])) return null;
  const path = realpathSync(executable || candidate);
  const binds = [...new Set([dirname(path), basePrefix, prefix])].filter(
    (dir) => dir && !SYSTEM_DIRS.some((system) => `${dir}/`.startsWith(system)),
  );
  return { path, version: version.join('.'), source, binds };
}

/** probe(), kept in the cache (probe-cache.ts) when the candidate is the interpreter's binary or a symlink to it. */
function cachedProbe(candidate: string, source: string, leading: string[] = []): PythonInterpreter | null {
  const kept = keptProbe(
    'python',
    candidate,
    () => probe(candidate, source, leading),
    (value): value is PythonInterpreter => {
      const answer = value as Partial<PythonInterpreter> | null;
      return typeof answer?.path === 'string' && typeof answer.version === 'string' && Array.isArray(answer.binds) && answer.binds.every((bind) => typeof bind === 'string');
    },
    (answer, real) => answer.path === real,
  );
  return kept && { path: kept.path, version: kept.version, binds: kept.binds, source };
}

/** The interpreter Python submissions run with, found once per process; null when there is none (>= 3.8). */
export function findPython(): PythonInterpreter | null {
  if (found !== undefined) return found;
  const chosen = process.env.REFEREE_PYTHON;
  if (chosen) {
    // The user named an interpreter: use it or say why not (falling back would grade with another Python unseen).
    found = existsSync(chosen) ? cachedProbe(chosen, 'REFEREE_PYTHON') : null;
    if (!found) {
      chosenProblem = existsSync(chosen)
        ? `REFEREE_PYTHON=${chosen} is not a working python3 >= ${MINIMUM.join('.')}: point it at one, or unset it to use the system's python3`
        : `REFEREE_PYTHON=${chosen} does not exist: point it at a python3 >= ${MINIMUM.join('.')}, or unset it to use the system's python3`;
    }
    return found;
  }
  const candidates: [string | null, string, string[]][] =
    process.platform === 'win32'
      ? [
          [onPath('python'), 'PATH', []],
          [onPath('python3'), 'PATH', []],
          [onPath('py'), 'the py launcher', ['-3']],
        ]
      : [
          ['/usr/bin/python3', '/usr/bin/python3', []],
          ['/usr/local/bin/python3', '/usr/local/bin/python3', []],
          [onPath('python3'), 'PATH', []],
        ];
  found = null;
  for (const [candidate, source, leading] of candidates) {
    if (!candidate || !existsSync(candidate)) continue;
    found = cachedProbe(candidate, source, leading);
    if (found) break;
  }
  return found;
}

const NO_PYTHON =
  'Python submissions need python3 >= 3.8 and none was found: install it (Debian/Ubuntu: apt-get install python3-minimal; Windows and macOS: python.org) or set REFEREE_PYTHON to its path';

/** The one line saying why there is no interpreter (call after findPython() returned null). */
export function noPython(): string {
  return chosenProblem ?? NO_PYTHON;
}

/** One line for `referee doctor`. */
export function describePython(): string {
  const python = findPython();
  if (!python) return noPython();
  return `${python.path} (Python ${python.version}, from ${python.source}): host with audit hook, board modules, func_timeout`;
}

/** harness/sandbox/python next to this module: beside it under ts-jest, in the package's harness/ when compiled. */
function sourceDir(): string {
  for (const relative of ['./python/', '../../../harness/sandbox/python/']) {
    const dir = fileURLToPath(new URL(relative, import.meta.url));
    if (existsSync(join(dir, 'host.py'))) return dir;
  }
  throw new Error('the Python host (harness/sandbox/python/host.py) is missing from this installation');
}

let runtime: string | null = null;

/**
 * The cached copy of the Python host's folder (host.py, guard.py, func_timeout.py) with each game's board module as
 * board_<game id>.py (a variant gets its own copy of its folder's board.py: host.py needs no map of games).
 */
export function pythonRuntimeDir(): string {
  if (runtime && existsSync(runtime)) return runtime;
  const source = sourceDir();
  const files: (string | [string, string])[] = readdirSync(source).filter((name) => name.endsWith('.py')).sort().map((name) => join(source, name));
  for (const game of gamesWithBoard('python')) files.push([`board_${game.id}.py`, gameFile(game, 'board.py')]);
  const dir = cacheFolder('python', source, files);
  compileHost(dir);
  runtime = dir;
  return dir;
}

/** Compiles the folder's modules; checked-hash .pyc files, so Python hashes each source and never uses a stale one. */
const COMPILE_HOST =
  'import compileall, py_compile, sys\n' +
  'sys.exit(0 if compileall.compile_dir(sys.argv[1], maxlevels=0, quiet=2, invalidation_mode=py_compile.PycInvalidationMode.CHECKED_HASH) else 1)';

/**
 * The host's modules compiled once per interpreter into the cached folder's __pycache__ (staged with it): a player
 * start otherwise compiles its ~3,800 lines every time (~14 ms of CPU), since the sandbox never writes bytecode.
 * A failure costs only that time.
 */
function compileHost(dir: string): void {
  const python = findPython();
  if (!python) return;
  const marker = join(dir, '__pycache__', `.compiled-${createHash('sha256').update(`${python.path}\0${python.version}`).digest('hex').slice(0, 16)}`);
  if (existsSync(marker)) return;
  try {
    runToolSync(python.path, ['-I', '-c', COMPILE_HOST, dir], { cpuMs: toolCpuMs(60_000) }, 'python compiling the host', { stdio: 'ignore', env: {} });
    writeFileSync(marker, '');
  } catch {
    // not compiled: the host compiles its modules from source at each start, as without this
  }
}
