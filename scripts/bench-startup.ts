/**
 * `npm run bench -- startup` (issue #35): `referee check` of each starter as a fresh process, beside its anchor in the
 * same run, interleaved (anchor, check, anchor, check …) so a load swing hits both:
 *   - Python: the platform's own interface test without a sandbox — a fresh python3 imports the student's AIPlayer,
 *     constructs it for both colours and asks each for a move on the start board through func_timeout, on board.py as
 *     written (PlainBoard);
 *   - TypeScript: the starter's own `tsc --noEmit` (`npm run typecheck` in a student's project);
 *   - C++: a bare `g++ -std=c++17 -O2 -c` of the starter.
 * Warm: the cache filled by an unmeasured first check. Cold: each check with an empty cache (REFEREE_CACHE_DIR), for
 * C++ the compile included, and the C++ host and native tools copied from what the installation built
 * (prebuilt.ts); a second C++ cold row ignores that (REFEREE_NO_PREBUILT=1) and builds them beside the compile. Every row prints medians of wall time and of CPU time (each
 * run's whole process tree, see cpuacctBase), the ratio anchor ÷ check (above 1: the check is the faster), and the
 * load average before and after. Prints figures; asserts nothing.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { cppHeadersDir, findCompiler } from '../harness/sandbox/cpp-runtime.js';
import { prebuiltDir } from '../harness/sandbox/prebuilt.js';
import { findPython, pythonRuntimeDir } from '../harness/sandbox/python-runtime.js';

const ROOT = resolve(fileURLToPath(new URL('.', import.meta.url)), '../..');
const CLI = join(ROOT, 'dist/cli/index.js');

/** The platform's interface test, unsandboxed: argv[1] the host folder (board.py, func_timeout), argv[2] the student's folder. */
const PLATFORM_INTERFACE_TEST = `
import sys
sys.path.insert(0, sys.argv[1])
sys.path.insert(0, sys.argv[2])
from board_reversi import PlainBoard as Board
from func_timeout import func_timeout
from AIPlayer import AIPlayer
for color in ('X', 'O'):
    board = Board()
    if color == 'O':
        board._move('D3', 'X')
    player = AIPlayer(color)
    move = func_timeout(60, player.get_move, kwargs={'board': board})
    assert move in list(board.get_legal_actions(color)), move
print('ok')
`;

/**
 * Where each run's CPU is counted: a cpuacct group of its own (v1) under this process's, when one can be made. It
 * counts the whole tree, processes a check leaves running included (the type-check snapshot a cold TS check builds
 * after it answers), in ns; the run is over for the count when its group is empty. Else /proc's waited-for children
 * times (10 ms ticks), which miss such processes.
 */
function cpuacctBase(): string | null {
  try {
    const line = readFileSync('/proc/self/cgroup', 'utf8').split('\n').find((entry) => entry.split(':')[1]?.split(',').includes('cpuacct'));
    if (!line) return null;
    const dir = join('/sys/fs/cgroup/cpuacct', line.split(':')[2], `referee-bench-${process.pid}`);
    mkdirSync(dir);
    return dir;
  } catch {
    return null;
  }
}
let groups: string | null | undefined;
let groupCount = 0;

/** Remove a run's group and any left inside it (groups of players it did not remove). */
function removeGroup(dir: string): void {
  for (const entry of readdirSync(dir, { withFileTypes: true })) if (entry.isDirectory()) removeGroup(join(dir, entry.name));
  try {
    rmdirSync(dir);
  } catch {
    // still busy: left for the machine's own cleanup
  }
}

/** CPU ms of this process's waited-for children (cutime + cstime, 10 ms ticks), NaN off Linux. */
function childrenCpuMs(): number {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[13]) + Number(fields[14])) * 10;
  } catch {
    return NaN;
  }
}

interface Sample {
  wallMs: number;
  cpuMs: number;
  ok: boolean;
  /** The last lines it printed, when it failed. */
  said?: string;
}

/** One command as a subprocess: its wall and CPU time (see cpuacctBase), and whether it exited 0. */
function timed(command: string[], env: NodeJS.ProcessEnv = process.env, cwd = ROOT): Sample {
  groups ??= cpuacctBase();
  const group = groups ? join(groups, `run-${groupCount++}`) : null;
  if (group) mkdirSync(group);
  const argv = group ? ['/bin/sh', '-c', 'echo $$ > "$0/cgroup.procs" && exec "$@"', group, ...command] : command;
  const cpu = childrenCpuMs();
  const started = performance.now();
  const run = spawnSync(argv[0], argv.slice(1), { env, cwd, stdio: ['ignore', 'pipe', 'pipe'], timeout: 300_000 });
  const wallMs = performance.now() - started;
  const said = run.status === 0 ? undefined : `exit ${run.status ?? run.signal}: ${run.stdout}${run.stderr}${run.error ? run.error.message : ''}`.trim().split('\n').slice(-4).join(' / ');
  let cpuMs = childrenCpuMs() - cpu;
  if (group) {
    // What the run left running finishes before the count (and before the next run, which it would slow).
    const pause = new Int32Array(new SharedArrayBuffer(4));
    for (const waitUntil = Date.now() + 300_000; readFileSync(join(group, 'cgroup.procs'), 'utf8').trim() !== '' && Date.now() < waitUntil; ) Atomics.wait(pause, 0, 0, 50);
    cpuMs = Number(readFileSync(join(group, 'cpuacct.usage'), 'utf8')) / 1e6;
    removeGroup(group);
  }
  return { wallMs, cpuMs, ok: run.status === 0, said };
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length % 2 ? sorted[(sorted.length - 1) / 2] : (sorted[sorted.length / 2 - 1] + sorted[sorted.length / 2]) / 2;
};
const seconds = (ms: number): string => (ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(0)} ms`);
const load = (): string => loadavg()[0].toFixed(1);

/** What a row measured (medians, ms), for the quiet run's verdicts. */
interface RowFigures {
  checkWallMs: number;
  checkCpuMs: number;
  anchorWallMs: number;
  /** The 1-minute load average before and after the row. */
  loads: [number, number];
  failed: number;
}

/**
 * `rounds` pairs, interleaved: the anchor, then the check (`fresh` gives each check its own cache folder, for the
 * cold rows). Prints one line: medians, ratios, load before → after, and the goal beside the check's figure.
 */
function row(label: string, rounds: number, anchor: { name: string; run: () => Sample }, check: () => Sample, goal: string): RowFigures {
  const loadBefore = loadavg()[0];
  const before = load();
  const anchors: Sample[] = [];
  const checks: Sample[] = [];
  for (let round = 0; round < rounds; round++) {
    anchors.push(anchor.run());
    checks.push(check());
  }
  const [aWall, cWall] = [median(anchors.map((s) => s.wallMs)), median(checks.map((s) => s.wallMs))];
  const [aCpu, cCpu] = [median(anchors.map((s) => s.cpuMs)), median(checks.map((s) => s.cpuMs))];
  const failures = [...anchors, ...checks].filter((s) => !s.ok);
  const failed = failures.length;
  console.log(
    `  ${label.padEnd(22)} check ${seconds(cWall).padStart(8)} wall, ${seconds(cCpu).padStart(7)} CPU | ${anchor.name} ${seconds(aWall).padStart(8)} wall, ` +
      `${seconds(aCpu).padStart(7)} CPU | anchor ÷ check: ${(aWall / cWall).toFixed(2)}x wall, ${(aCpu / cCpu).toFixed(2)}x CPU | ` +
      `median of ${rounds}, load ${before} → ${load()} | goal ${goal}${failed ? ` | ${failed} runs FAILED: ${failures[0].said}` : ''}`,
  );
  return { checkWallMs: cWall, checkCpuMs: cCpu, anchorWallMs: aWall, loads: [loadBefore, loadavg()[0]], failed };
}

/** The starters as `referee init` writes them, with what their anchors need beside them. */
function starters(work: string): { python: string; ts: string; tsProject: string; cpp: string } {
  const python = join(work, 'python');
  mkdirSync(python);
  writeFileSync(join(python, 'AIPlayer.py'), readFileSync(join(ROOT, 'student-template/python/src/AIPlayer.py')));
  // The TS starter in a student's project: board-referee (this package) and typescript in its node_modules.
  const tsProject = join(work, 'ts');
  mkdirSync(join(tsProject, 'src'), { recursive: true });
  mkdirSync(join(tsProject, 'node_modules'));
  writeFileSync(join(tsProject, 'src/AIPlayer.ts'), readFileSync(join(ROOT, 'student-template/src/AIPlayer.ts')));
  writeFileSync(join(tsProject, 'tsconfig.json'), readFileSync(join(ROOT, 'student-template/tsconfig.json')));
  writeFileSync(join(tsProject, 'package.json'), readFileSync(join(ROOT, 'student-template/package.json')));
  symlinkSync(ROOT, join(tsProject, 'node_modules/board-referee'));
  symlinkSync(join(ROOT, 'node_modules/typescript'), join(tsProject, 'node_modules/typescript'));
  const cpp = join(work, 'cpp');
  mkdirSync(cpp);
  const fill = { GAME: 'reversi', TITLE: 'Reversi' } as Record<string, string>;
  writeFileSync(join(cpp, 'AIPlayer.cpp'), readFileSync(join(ROOT, 'student-template/cpp/AIPlayer.cpp'), 'utf8').replace(/__([A-Z]+)__/g, (whole, key: string) => fill[key] ?? whole));
  return { python: join(python, 'AIPlayer.py'), ts: join(tsProject, 'src/AIPlayer.ts'), tsProject, cpp: join(cpp, 'AIPlayer.cpp') };
}

/** The goals of issue #35 (warm, idle machine), by row. */
const GOALS = { python: 500, ts: 1000, cpp: 1000, cppColdOverCompile: 1500 };

export function benchStartup(rounds = 5, coldRounds = 3): Map<string, RowFigures> {
  const figures = new Map<string, RowFigures>();
  console.log(`## Start-up: referee check of each starter, a fresh process, beside its anchor (interleaved; load ${loadavg().map((n) => n.toFixed(1)).join(' ')})`);
  groups = cpuacctBase();
  console.log(
    `  CPU: ${groups ? "each run's whole process tree (its own cpuacct group, what it leaves running included)" : "waited-for children (/proc, 10 ms ticks; no cpuacct group could be made)"}` +
      (process.env.NODE_EXTRA_CA_CERTS ? '; NODE_EXTRA_CA_CERTS is set: every node start (anchors and checks alike) parses it' : ''),
  );
  const work = mkdtempSync(join(tmpdir(), 'referee-bench-startup-'));
  const warmCache = join(work, 'cache');
  let coldCount = 0;
  const checkWith = (cache: string | null, file: string, env: Record<string, string> = {}) => (): Sample =>
    timed([process.execPath, CLI, 'check', file], { ...process.env, ...env, REFEREE_CACHE_DIR: cache ?? join(work, `cold-${coldCount++}`) });
  try {
    const files = starters(work);
    const warm = (file: string) => {
      const first = checkWith(warmCache, file)();
      if (!first.ok) console.log(`  (the first check of ${file} FAILED: ${first.said})`);
    };
    row('CLI start-up alone', rounds, { name: 'node -e 0', run: () => timed([process.execPath, '-e', '0']) }, () => timed([process.execPath, CLI, 'check', '--help']), '—');
    if (process.env.NODE_EXTRA_CA_CERTS) {
      // What this machine's NODE_EXTRA_CA_CERTS costs every node start (Node 20 parses it at start; 22 and 24 when TLS is first used).
      const withoutCa = { ...process.env };
      delete withoutCa.NODE_EXTRA_CA_CERTS;
      row('node start, CA file', rounds, { name: 'node -e 0 without it', run: () => timed([process.execPath, '-e', '0'], withoutCa) }, () => timed([process.execPath, '-e', '0']), '— (the machine\'s NODE_EXTRA_CA_CERTS)');
    }

    const python = findPython();
    if (python) {
      const interfaceTest = { name: "platform's interface test", run: () => timed([python.path, '-B', '-c', PLATFORM_INTERFACE_TEST, pythonRuntimeDir(), join(work, 'python')]) };
      warm(files.python);
      figures.set('python', row('Python starter, warm', rounds, interfaceTest, checkWith(warmCache, files.python), '≤ 0.5 s'));
      row('Python starter, cold', coldRounds, interfaceTest, checkWith(null, files.python), '—');
    } else console.log('  Python: no python3 >= 3.8: skipped');

    const tsc = { name: 'tsc --noEmit', run: () => timed([process.execPath, join(ROOT, 'node_modules/typescript/bin/tsc'), '--noEmit', '-p', files.tsProject], process.env, files.tsProject) };
    warm(files.ts);
    figures.set('ts', row('TS starter, warm', rounds, tsc, checkWith(warmCache, files.ts), '≤ 1 s'));
    row('TS starter, cold', coldRounds, tsc, checkWith(null, files.ts), '—');

    const compiler = findCompiler();
    if (compiler) {
      const gpp = { name: 'g++ -O2 -c', run: () => timed([compiler.path, '-std=c++17', '-O2', '-c', files.cpp, '-o', join(work, 'AIPlayer.o'), '-I', cppHeadersDir()]) };
      warm(files.cpp);
      figures.set('cpp', row('C++ starter, warm', rounds, gpp, checkWith(warmCache, files.cpp), '≤ 1 s'));
      figures.set('cpp-cold', row('C++ starter, cold', coldRounds, gpp, checkWith(null, files.cpp), '≤ 1.5 s + the compile (check − anchor)'));
      // The same where nothing was built at install (pnpm or npm 12 without the allowScripts entry, --ignore-scripts):
      // the host (g++) and the taskstats reader (cc) are compiled beside the student's code.
      const installed = prebuiltDir();
      if (installed && existsSync(installed)) {
        figures.set('cpp-cold-unbuilt', row('C++ cold, no prebuilt', coldRounds, gpp, checkWith(null, files.cpp, { REFEREE_NO_PREBUILT: '1' }), '— (REFEREE_NO_PREBUILT=1)'));
      } else console.log(`  (nothing built at install in ${installed ?? 'this installation'}: the cold row above built the host and tools itself)`);
    } else console.log('  C++: no g++: skipped');
    console.log(`  (python ${python ? execFileSync(python.path, ['--version'], { encoding: 'utf8' }).trim() : 'none'}; the check runs in the sandbox, the anchors bare)`);
  } finally {
    rmSync(work, { recursive: true, force: true });
    if (groups) removeGroup(groups);
  }
  return figures;
}

/**
 * `npm run bench -- startup --quiet-check [--quiet-load 0.3] [--quiet-wait 30]`: the wall-time goals judged on a
 * quiet machine. Waits (up to --quiet-wait minutes) for the 1-minute load average to fall to --quiet-load or below,
 * runs the start-up rows with 9 warm rounds, then says per goal met / not met by the wall median — and "not judged"
 * for a row whose load rose past 1 while it ran (someone else's work was in the figure).
 */
export async function benchStartupQuiet(maxLoad = 0.3, waitMinutes = 30): Promise<void> {
  const until = Date.now() + waitMinutes * 60_000;
  let said = 0;
  while (loadavg()[0] > maxLoad && Date.now() < until) {
    if (Date.now() - said >= 60_000) {
      console.log(`  waiting for a quiet machine: load ${load()} > ${maxLoad} (until ${new Date(until).toISOString().slice(11, 16)} UTC)`);
      said = Date.now();
    }
    await new Promise((done) => setTimeout(done, 5_000));
  }
  const quiet = loadavg()[0] <= maxLoad;
  console.log(quiet ? `  quiet: load ${load()} ≤ ${maxLoad}` : `  NOT QUIET after ${waitMinutes} min (load ${load()}): the wall verdicts below are not judged`);
  const figures = benchStartup(9, 3);
  console.log('## Verdicts (wall medians, warm; a row is judged only if its load stayed ≤ 1)');
  const verdict = (label: string, wallMs: number | undefined, goalMs: number, figure?: RowFigures): void => {
    if (!figure || wallMs === undefined) return void console.log(`  ${label}: not measured`);
    const judged = quiet && figure.loads[1] <= 1 && figure.failed === 0;
    const met = wallMs <= goalMs;
    console.log(`  ${label}: ${seconds(wallMs)} wall (goal ≤ ${seconds(goalMs)}; ${seconds(figure.checkCpuMs)} CPU) — ${judged ? (met ? 'MET' : 'NOT MET') : `not judged (load ${figure.loads.map((n) => n.toFixed(1)).join(' → ')}${figure.failed ? `, ${figure.failed} failed runs` : ''})`}`);
  };
  verdict('Python starter, warm', figures.get('python')?.checkWallMs, GOALS.python, figures.get('python'));
  verdict('TS starter, warm', figures.get('ts')?.checkWallMs, GOALS.ts, figures.get('ts'));
  verdict('C++ starter, warm', figures.get('cpp')?.checkWallMs, GOALS.cpp, figures.get('cpp'));
  const cold = figures.get('cpp-cold');
  verdict('C++ starter, cold, less the bare compile', cold ? cold.checkWallMs - cold.anchorWallMs : undefined, GOALS.cppColdOverCompile, cold);
  const unbuilt = figures.get('cpp-cold-unbuilt');
  if (unbuilt) verdict('  the same, nothing built at install', unbuilt.checkWallMs - unbuilt.anchorWallMs, GOALS.cppColdOverCompile, unbuilt);
}
