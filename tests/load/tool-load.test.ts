/**
 * The grader's own tools are bounded by the CPU they use, not by the wall clock (harness/sandbox/tool-bound.ts).
 * CPU hogs are pinned to CPU 0 while a case needs them (three: what runs there gets at most a quarter of it).
 *  - `referee check` pinned beside them, every tool's bound lowered to 4 s of CPU (REFEREE_TOOL_CPU_S): plain tsc
 *    (~1.7 s of CPU, ~7 s of wall time there) type-checks a TS submission and g++ (~0.9 s of CPU) compiles a C++
 *    MCTS, both to the end — a wall-clock bound of those 4 s would cut them;
 *  - a C++ submission whose template recursion never ends is stopped by g++'s CPU bound and charged to it (exit 1,
 *    one line saying what to look for), not a grader error;
 *  - the helper: CPU counts every process the tool starts; a tool asleep past the backstop is 'stalled'; a tool
 *    starved by the machine is 'starved', and a starved g++ in the compile sandbox is a GraderError naming the fix.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@jest/globals';
import { packageFile } from '../../grading/package-root.js';
import { GraderError } from '../../harness/referee/grader-error.js';
import { runSandboxedBuild } from '../../harness/sandbox/cpp-build.js';
import { cppHeadersDir } from '../../harness/sandbox/cpp-runtime.js';
import { stageProgram, stageShared } from '../../harness/sandbox/staging.js';
import { runTool, runToolSync } from '../../harness/sandbox/tool-bound.js';
import { runToEnd, type ChildRun } from '../setup/children.js';
import { warmCache } from '../setup/suite-cache.js';

const CLI = packageFile('dist', 'cli', 'index.js');
const SPIN = (ms: number): string => `const t = process.cpuUsage(); while ((process.cpuUsage(t).user + process.cpuUsage(t).system) / 1000 < ${ms});`;

/** `count` CPU hogs pinned to CPU 0 while `body` runs (only then: each costs the suite a core-second a second). */
async function withHogs<T>(count: number, body: () => Promise<T>): Promise<T> {
  const hogs: ChildProcess[] = [];
  for (let i = 0; i < count; i++) hogs.push(spawn('taskset', ['-c', '0', process.execPath, '-e', 'for(;;){}'], { stdio: 'ignore' }));
  try {
    return await body();
  } finally {
    for (const hog of hogs) hog.kill('SIGKILL');
  }
}

/** `referee check` pinned to CPU 0 beside the hogs, in a cache of its own (seeded: the C++ host is not rebuilt). */
function checkOnCpu0(path: string, env: NodeJS.ProcessEnv, ...args: string[]): Promise<ChildRun> {
  return runToEnd('taskset', ['-c', '0', process.execPath, CLI, 'check', path, ...args], { ...process.env, REFEREE_CACHE_DIR: warmCache('tool-load'), ...env });
}

const failed = (run: ChildRun): string[] => run.stdout.split('\n').filter((line) => line.includes('✗'));

test('beside three CPU hogs, tsc type-checks and g++ compiles a real submission to the end under a 4 s CPU bound', () =>
  withHogs(3, async () => {
    // Plain tsc, not the snapshot: the larger of the two type checks.
    const typed = await checkOnCpu0(packageFile('tests', 'fixtures', 'students', 'typed-alphabeta', 'AIPlayer.ts'), { REFEREE_TOOL_CPU_S: '4', REFEREE_TYPECHECK_SNAPSHOT: '0' });
    expect({ code: typed.code, failed: failed(typed), stderr: typed.stderr }).toEqual({ code: 0, failed: [], stderr: '' });
    expect(typed.stdout).toMatch(/! type checks: the type check found errors/);
    expect(typed.stdout).toMatch(/AIPlayer\.ts:18:7: TS2322: Type 'string \| 4' is not assignable to type 'number'/);

    const built = await checkOnCpu0(packageFile('tests', 'fixtures', 'cpp', 'aiplayer-mcts', 'AIPlayer.cpp'), { REFEREE_TOOL_CPU_S: '4' }, '--game', 'reversi');
    expect({ code: built.code, failed: failed(built), stderr: built.stderr }).toEqual({ code: 0, failed: [], stderr: '' });
    expect(built.stdout).toMatch(/✓ compiles/);
  }));

test("g++ looping on a student's template recursion beside three CPU hogs is stopped by its CPU bound and charged to the student", () =>
  withHogs(3, async () => {
    const run = await checkOnCpu0(packageFile('tests', 'fixtures', 'cpp', 'template-loop', 'AIPlayer.cpp'), { REFEREE_TOOL_CPU_S: '2' }, '--game', 'reversi');
    expect(run.code).toBe(1); // the student's fail (a grader error exits 3)
    expect(run.stdout).toMatch(/✗ compiles: 1 error\n\s+g\+\+ compiling the submission used its 2\.0 s of CPU and was stopped: look for a template or constexpr computation that never ends\n\s+fix: make the compile-time computation end/);
  }));

test('the bound counts CPU of the whole tree; asleep is stalled, starved is starved; RLIMIT_CPU bounds a synchronous build', async () => {
  // The CPU is used by a grandchild (sh → node): still counted, and the whole tree is stopped.
  const spinner = await runTool('/bin/sh', ['-c', `"${process.execPath}" -e "${SPIN(60_000)}"; echo survived`], { cpuMs: 300, wallMs: 600_000 });
  expect({ reason: spinner.stop?.reason, said: spinner.stdout }).toEqual({ reason: 'cpu', said: '' });
  expect(spinner.stop!.cpuMs).toBeGreaterThanOrEqual(300);

  const asleep = await runTool('sleep', ['60'], { cpuMs: 100, wallMs: 1000 });
  expect(asleep.stop?.reason).toBe('stalled');

  // nice 19 beside a hog on its CPU: a share of ~1/70 of it, so the backstop comes long before its CPU bound.
  const starved = await withHogs(1, () => runTool('taskset', ['-c', '0', 'nice', '-n', '19', process.execPath, '-e', SPIN(5000)], { cpuMs: 5000, wallMs: 3000 }));
  expect(starved.stop?.reason).toBe('starved');

  const tool = 'node spinning';
  expect(() => runToolSync(process.execPath, ['-e', SPIN(60_000)], { cpuMs: 1000, wallMs: 600_000 }, tool)).toThrow(`${tool} used its 1.0 s of CPU and was stopped`);
  expect(() => runToolSync(process.execPath, ['-e', SPIN(10)], { cpuMs: 1000, wallMs: 600_000 }, tool)).not.toThrow();
});

/**
 * Lower the scheduling priority of the sessions (autogroups) of every process whose command line names `marker`,
 * until `until` settles: the sandbox starts the compiler in a session of its own (bubblewrap a further one).
 */
async function starveSessionsOf(marker: string, until: Promise<unknown>): Promise<number> {
  let ended = false;
  void until.catch(() => undefined).finally(() => (ended = true));
  const done = new Set<string>();
  while (!ended) {
    for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name) && !done.has(name))) {
      try {
        if (!readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(marker)) continue;
        writeFileSync(`/proc/${pid}/autogroup`, '19'); // as root: the nice of that process's whole session
        done.add(pid);
      } catch {
        // gone, or not ours to read
      }
    }
    await new Promise((next) => setTimeout(next, 10));
  }
  return done.size;
}

test('a g++ starved by the machine in the compile sandbox is a GraderError that names the fix, not the student’s fail', async () => {
  const source = packageFile('tests', 'fixtures', 'cpp', 'aiplayer-mcts');
  // Staged as every build is, with the course headers; the compiler is started in a session of its own (autogroup).
  const staged = stageProgram(source, [join(source, 'AIPlayer.cpp')], join(source, 'AIPlayer.cpp'), 'starved');
  const out = join(staged.dir, '.out');
  mkdirSync(out);
  chmodSync(out, 0o777); // the compiler runs as nobody
  const headers = stageShared(cppHeadersDir());
  try {
    const build = withHogs(1, () => runSandboxedBuild({
      // On the hog's CPU at nice 19, in a session whose own priority is lowered as it starts: ~1/70 of that CPU.
      command: ['/usr/bin/taskset', '-c', '0', '/usr/bin/nice', '-n', '19', '/usr/bin/g++', '-std=c++17', '-O2', '-fsyntax-only', '-I', headers, './AIPlayer.cpp', '-DSTARVED_BUILD'],
      sourceDir: staged.dir,
      outDir: out,
      readOnly: [headers],
      cpuMs: 1000, // backstop 10 s, in which it gets ~0.15 s of CPU of the ~0.9 s it needs
      what: 'g++ compiling the submission',
      memoryMb: 1024,
    }));
    expect(await starveSessionsOf('-DSTARVED_BUILD', build)).toBeGreaterThan(0);
    await expect(build).rejects.toThrow(GraderError);
    await expect(build).rejects.toThrow(/g\+\+ compiling the submission was stopped after \d+ s: it waited for a CPU .* The machine is too busy: run fewer --jobs/);
  } finally {
    staged.remove();
  }
});
