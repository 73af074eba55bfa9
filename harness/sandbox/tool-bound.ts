/**
 * The grader's own tools (tsc, g++, the Python syntax check, the C++ host's and native tools' builds) bounded by the
 * CPU they use, not by the wall clock. On a machine shared by many graders a tool gets a small share of a core: a
 * 5 s type check took 55 s at load 40 and a wall-clock limit cut working runs. What a tool's input can make it do
 * (a template recursion, a constexpr loop, a pathological type) costs CPU, so CPU is what is bounded, read from
 * /proc for the tool's process tree (each process's own time plus what its reaped children used) or from its
 * cgroup, polled. A wide wall backstop (WALL_FACTOR × the CPU bound) ends a tool that waits without using CPU;
 * the scheduler says whether it was starved (runnable, waiting for a CPU: the machine's doing, a GraderError) or
 * stalled (asleep). The portable path (macOS, Windows) has no /proc: there the CPU bound is a wall bound.
 */
import { spawn, spawnSync, type ChildProcess, type SpawnSyncOptions, type SpawnSyncReturns } from 'node:child_process';
import { availableParallelism, loadavg } from 'node:os';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { GraderError } from '../referee/grader-error.js';
import { portable } from './portable.js';
import { processTree, signalGroups, signalPids, statFields } from './process-tree.js';

/** The backstop is this many times the CPU bound: a tool given a tenth of a core still finishes. */
export const WALL_FACTOR = 10;
const POLL_MS = 200;
/** Clock ticks in /proc/<pid>/stat (USER_HZ, 100 on Linux). */
const TICK_MS = 10;

/** Why a tool was stopped. */
export type ToolStopReason =
  /** it used its CPU bound: its input made it work that long (a student's template recursion is the student's) */
  | 'cpu'
  /** the wall backstop, while it waited for a CPU most of the time: the machine was too busy (the grader's error) */
  | 'starved'
  /** the wall backstop, while it slept without using CPU (blocked on a read, a pipe, a device) */
  | 'stalled'
  /** the portable path's wall bound (no /proc to read CPU from) */
  | 'wall';

export interface ToolStop {
  reason: ToolStopReason;
  cpuMs: number;
  wallMs: number;
  /** Time the tool's threads waited runnable for a CPU, as far as /proc saw it. */
  waitedMs: number;
}

export interface ToolBound {
  /** CPU time (ms) the tool and every process it starts may use; on the portable path, its wall time. */
  cpuMs: number;
  /** The wall backstop (ms): WALL_FACTOR × cpuMs unless given. */
  wallMs?: number;
}

/**
 * REFEREE_TOOL_CPU_S overrides every tool's CPU bound (seconds): an instructor whose students write heavy templates
 * raises it; the tests lower it to watch a bound act in seconds.
 */
export function toolCpuMs(defaultMs: number): number {
  const seconds = Number(process.env.REFEREE_TOOL_CPU_S);
  return Number.isFinite(seconds) && seconds > 0 ? Math.round(seconds * 1000) : defaultMs;
}

/** CPU (ms) of a process tree: each living process's utime+stime, plus cutime+cstime (its children already reaped). */
export function treeCpuMs(root: number): number {
  let ticks = 0;
  for (const pid of processTree(root)) {
    const fields = statFields(pid);
    if (fields) ticks += Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]);
  }
  return ticks * TICK_MS;
}

/**
 * Watches a running tool: kills it (through `kill`) at its CPU bound or its wall backstop, and says why. `groupCpuMs`
 * adds a cgroup's count where the tool has one (it also sees a process that left the tree).
 */
export class ToolWatch {
  private readonly started = performance.now();
  private readonly timer: NodeJS.Timeout;
  private readonly waitedByTask = new Map<string, number>();
  /** Wall time during which some thread of the tool was runnable (state R) when polled: wanting a CPU or on one. */
  private runnableMs = 0;
  private lastPoll = performance.now();
  private cpuMs = 0;
  private result: ToolStop | null = null;

  constructor(
    private readonly pid: number,
    private readonly bound: ToolBound,
    private readonly kill: () => void,
    private readonly groupCpuMs: () => number | null = () => null,
  ) {
    const wallMs = portable() ? bound.cpuMs : (bound.wallMs ?? bound.cpuMs * WALL_FACTOR);
    this.timer = setInterval(() => this.poll(wallMs), portable() ? Math.min(POLL_MS * 5, wallMs) : POLL_MS);
    this.timer.unref();
  }

  /** Why the tool was stopped, or null while it runs or when it ended by itself. */
  get stopped(): ToolStop | null {
    return this.result;
  }

  /** CPU used by the tool as last seen (ms). */
  get usedMs(): number {
    return this.cpuMs;
  }

  /** Stop watching (the tool ended): one last look at its CPU. */
  dispose(): void {
    clearInterval(this.timer);
  }

  private poll(wallMs: number): void {
    if (this.result) return;
    const elapsed = performance.now() - this.started;
    if (portable()) {
      if (elapsed >= wallMs) this.stop({ reason: 'wall', cpuMs: 0, wallMs: elapsed, waitedMs: 0 });
      return;
    }
    this.cpuMs = Math.max(this.cpuMs, treeCpuMs(this.pid), this.groupCpuMs() ?? 0);
    this.noteWaits();
    // schedstat adds a wait only once the thread gets the CPU: a thread starved right now shows none yet, so the
    // polls that found it runnable count too (less the time it ran).
    const waitedMs = Math.max([...this.waitedByTask.values()].reduce((sum, ms) => sum + ms, 0), this.runnableMs - this.cpuMs);
    if (this.cpuMs >= this.bound.cpuMs) this.stop({ reason: 'cpu', cpuMs: this.cpuMs, wallMs: elapsed, waitedMs });
    else if (elapsed >= wallMs) {
      // Below its CPU bound after WALL_FACTOR times as long: it waited. For a CPU, or asleep?
      const starved = waitedMs >= (elapsed - this.cpuMs) / 2;
      this.stop({ reason: starved ? 'starved' : 'stalled', cpuMs: this.cpuMs, wallMs: elapsed, waitedMs });
    }
  }

  /** Each thread's time waited runnable (schedstat), kept per thread so a process that ended still counts. */
  private noteWaits(): void {
    const now = performance.now();
    let runnable = false;
    for (const pid of processTree(this.pid)) {
      let tasks: string[];
      try {
        tasks = readdirSync(`/proc/${pid}/task`);
      } catch {
        continue;
      }
      for (const task of tasks) {
        try {
          const waitedNs = Number(readFileSync(`/proc/${pid}/task/${task}/schedstat`, 'utf8').split(' ')[1]) || 0;
          this.waitedByTask.set(`${pid}/${task}`, waitedNs / 1e6);
          if (statFields(pid, task)?.[0] === 'R') runnable = true;
        } catch {
          // ended while we looked
        }
      }
    }
    if (runnable) this.runnableMs += now - this.lastPoll;
    this.lastPoll = now;
  }

  private stop(stop: ToolStop): void {
    this.result = stop;
    clearInterval(this.timer);
    this.kill();
  }
}

const seconds = (ms: number): string => `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`;

/** The one line for a stop: what the tool did, and what to do about it. `what`: "g++ compiling the submission". */
export function describeStop(stop: ToolStop, what: string, bound: ToolBound): string {
  switch (stop.reason) {
    case 'cpu':
      return `${what} used its ${seconds(bound.cpuMs)} of CPU and was stopped`;
    case 'wall':
      return `${what} took over ${seconds(bound.cpuMs)} and was stopped`;
    case 'stalled':
      return `${what} was stopped after ${seconds(stop.wallMs)} without progress (${seconds(stop.cpuMs)} of CPU used, asleep the rest)`;
    case 'starved':
      return `${what} was stopped after ${seconds(stop.wallMs)}: it waited for a CPU ${seconds(stop.waitedMs)} and ran ${seconds(stop.cpuMs)} (load ${loadavg()[0].toFixed(0)} on ${availableParallelism()} cores). The machine is too busy: run fewer --jobs (or fewer graders at once)`;
  }
}

/** The GraderError for a tool starved by the machine: never the student's failure. */
export function starvedError(stop: ToolStop, what: string, bound: ToolBound): GraderError {
  return new GraderError(describeStop(stop, what, bound));
}

export interface ToolRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** Set when the bound or the backstop stopped the tool. */
  stop: ToolStop | null;
  /** The spawn failed (no such program). */
  error: Error | null;
}

export interface ToolOptions {
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  /** Bytes kept of stdout and of stderr each (beyond: dropped). */
  maxBuffer?: number;
  /**
   * Called with stdout as it grows; return true once the tool has said all that is needed: the run settles then,
   * and the tool is left to finish by itself, unwatched and unreferenced (the type check's snapshot build).
   */
  enough?: (stdout: string) => boolean;
  /** A process group of its own (POSIX; killed as a group at the bound). Default: the grader's, so Ctrl-C reaches it. */
  detached?: boolean;
}

/**
 * Run a tool to its end under a CPU bound (see the file's comment), collecting what it prints. Its process group
 * and everything it started are killed at the bound. Never rejects: `error` says when it could not start.
 */
export function runTool(command: string, args: string[], bound: ToolBound, options: ToolOptions = {}): Promise<ToolRun> {
  const maxBuffer = options.maxBuffer ?? 16 * 1024 * 1024;
  const child: ChildProcess = spawn(command, args, {
    cwd: options.cwd,
    env: options.env,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: options.detached === true && process.platform !== 'win32',
    windowsHide: true,
  });
  const kill = (): void => {
    const pids = child.pid ? processTree(child.pid) : [];
    if (child.pid && options.detached) signalGroups([child.pid], 'SIGKILL');
    signalPids(pids, 'SIGKILL');
    child.kill('SIGKILL');
  };
  const watch = child.pid ? new ToolWatch(child.pid, bound, kill) : null;
  let stdout = '';
  let stderr = '';
  return new Promise((settle) => {
    let settled = false;
    const finish = (run: Omit<ToolRun, 'stdout' | 'stderr' | 'stop'>): void => {
      if (settled) return;
      settled = true;
      watch?.dispose();
      settle({ ...run, stdout, stderr, stop: watch?.stopped ?? null });
    };
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      if (stdout.length < maxBuffer) stdout += chunk;
      if (options.enough?.(stdout)) {
        finish({ code: null, signal: null, error: null });
        child.stdout?.destroy();
        child.stderr?.destroy();
        child.unref();
      }
    });
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
      if (stderr.length < maxBuffer) stderr += chunk;
    });
    child.once('error', (error) => finish({ code: null, signal: null, error }));
    child.once('close', (code, signal) => finish({ code, signal, error: null }));
  });
}

/**
 * The same bound for a synchronous run (the grader's own builds, the start-up probes): RLIMIT_CPU through
 * `sh -c ulimit -t` (each process the tool starts inherits it) and a spawnSync timeout as the wall backstop. `stop`
 * says which ended it; `cpuMs` is what it used (this process's reaped children, read around the run).
 */
export function spawnToolSync(command: string, args: string[], bound: ToolBound, options: SpawnSyncOptions = {}): SpawnSyncReturns<Buffer | string> & { stop: 'cpu' | 'wall' | null; cpuMs: number; wallMs: number } {
  const wallMs = portable() ? bound.cpuMs : (bound.wallMs ?? bound.cpuMs * WALL_FACTOR);
  const limited = !portable() && existsSync('/bin/sh');
  const cpuSeconds = String(Math.max(1, Math.ceil(bound.cpuMs / 1000)));
  const [file, argv] = limited ? ['/bin/sh', ['-c', 'ulimit -t "$0" 2>/dev/null; exec "$@"', cpuSeconds, command, ...args]] : [command, args];
  const before = ownChildrenCpuMs();
  const run = spawnSync(file, argv, { stdio: ['ignore', 'ignore', 'pipe'], ...options, timeout: wallMs, killSignal: 'SIGKILL' });
  const cpuMs = ownChildrenCpuMs() - before;
  const timedOut = (run.error as NodeJS.ErrnoException | undefined)?.code === 'ETIMEDOUT';
  // RLIMIT_CPU: SIGXCPU, then SIGKILL at the hard limit, in whichever process went over (g++ reports its cc1plus).
  const overCpu = limited && !timedOut && run.status !== 0 && cpuMs >= bound.cpuMs - 1000;
  return { ...run, stop: timedOut ? 'wall' : overCpu ? 'cpu' : null, cpuMs, wallMs };
}

/**
 * spawnToolSync for the grader's own builds (the C++ host, the native tools), throwing as execFileSync does (status,
 * stderr on the error). They build the grader's own code, so any stop is the grader's: the message says which, and
 * names the fix when the machine was too busy. `what`: "g++ building the C++ host".
 */
export function runToolSync(command: string, args: string[], bound: ToolBound, what: string, options: SpawnSyncOptions = {}): void {
  const run = spawnToolSync(command, args, bound, options);
  if (run.error && !run.stop) throw run.error;
  let message: string;
  if (run.stop === 'wall') {
    const [load] = loadavg();
    const busy = !portable() && load > availableParallelism();
    message = `${what} was stopped after ${seconds(run.wallMs)}${portable() ? '' : ` having used ${seconds(run.cpuMs)} of CPU`}${busy ? ` (load ${load.toFixed(0)} on ${availableParallelism()} cores): the machine is too busy: run fewer --jobs, or build ahead with \`referee doctor --build\`` : ''}`;
  } else if (run.stop === 'cpu') message = `${what} used its ${seconds(bound.cpuMs)} of CPU and was stopped`;
  else if (run.status !== 0) {
    // A failure carries the tool's stderr (callers quote it); a stop is said by the message alone.
    throw Object.assign(new Error(`${what} failed (exit ${run.status ?? run.signal})`), { status: run.status, stderr: run.stderr });
  } else return;
  throw Object.assign(new Error(message), { status: run.status });
}

/** The start-up probes (an interpreter's version, bubblewrap once, the launcher's Landlock ABI): tens of ms of CPU each. */
export const PROBE_BOUND: ToolBound = { cpuMs: 10_000 };

/** CPU (ms) of this process's reaped children (cutime + cstime): what a spawnSync'd tool used, read around it. */
function ownChildrenCpuMs(): number {
  const fields = portable() ? null : statFields('self');
  return fields ? (Number(fields[13]) + Number(fields[14])) * TICK_MS : 0;
}
