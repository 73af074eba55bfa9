/**
 * The parent side of a sandboxed submission: a Player the referee plays like any other. One child process per
 * player, warm across moves and games (a new AIPlayer per game), respawned after a kill.
 *
 * The parent trusts nothing from the child: every line is validated, every answer must match the one request
 * outstanding, time is measured here from request to answer, CPU is read from the cgroup (or /proc), and the
 * child is frozen with SIGSTOP whenever it is not its turn (within FREEZE_GRACE_MS of its answer).
 */
import { deriveSeed } from '../games/common/seed.js';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { constants as osConstants } from 'node:os';
import type { Readable, Writable } from 'node:stream';
import { basename, dirname, join } from 'node:path';
import { getGame } from '../games/registry.js';
import type { CapturedOutput, GameStart, MoveRequest, Player, PlayerAnswer, PlayerScheduling } from '../referee/player.js';
import { parseAnswer } from './answer-schema.js';
import { PlayerCgroup } from './cgroup.js';
import { studentStack } from './student-stack.js';
import { hostBundlePath } from './host-bundle.js';
import { GraderError } from '../referee/grader-error.js';
import { CREDIT_STRETCH, creditLook, creditRuling } from '../referee/ask.js';
import { bwrapFix, detectLayers, forgetBwrapProbe, isHardened, isolationRecord, isolationRefusal, warnNotIsolatedOnce, type IsolationRecord, type Layers } from './layers.js';
import { cppHostAhead, cppHostPath } from './cpp-runtime.js';
import { launchPlan, type CppProgram, type PythonProgram } from './launch.js';
import { CXX_LINKAGE_MARK, explainLoadFailure, EXTERN_C_HINT } from './load-failure.js';
import { memoryWall, ResidentSampler, residentMb, WATCHDOG_INTERVAL_MS } from './memory-wall.js';
import { protectGrader } from './native-tools.js';
import { OutputCapture } from './output.js';
import { endPortableTree, processCpuMs, processGroup, processTree, SchedulingReader, signalGroups, signalPids } from './process-tree.js';
import { threadGroupCpu } from './taskstats.js';
import type { Answer, Request, ValueStandIn } from './protocol.js';
import { MAX_ANSWER_BYTES } from './protocol.js';
import { findPython, noPython, pythonRuntimeDir } from './python-runtime.js';
import { sandboxNode } from './node-runtime.js';
import { portable } from './portable.js';
import { stageProgram, stageShared, type StagedProgram } from './staging.js';

export interface SandboxOptions {
  /** Shown in records and reports. */
  name: string;
  /** The compiled submission (CommonJS bundle, see harness/submission/compile.ts); for Python, the entry .py file. */
  bundlePath: string;
  /**
   * Which host runs the submission (default 'node'); 'python' runs python/host.py under python3 -I; 'cpp' runs the
   * C++ host (cpp/host.cpp), which dlopens `bundlePath`, a compiled .so (compile-cpp.ts, or a course test AI).
   */
  runtime?: 'node' | 'python' | 'cpp';
  /**
   * The submission's root folder. The child never sees it: it gets a private staged copy of its program (the
   * bundle; for Python, `files`).
   */
  submissionRoot: string;
  /** Python: the submission's own .py files to stage (absolute, under submissionRoot); default every .py file there. */
  files?: string[];
  /** Game registry id. */
  game: string;
  /** Memory ceiling for the player's whole process, in MB (default 512). */
  memoryMb?: number;
  /** Let the player compute while the opponent thinks (default false: frozen between turns). */
  ponder?: boolean;
  /** Bare imports the assignment allows at run time (Node built-ins; default none). */
  allowImports?: string[];
  /** Most processes/threads the player's cgroup may hold (default 64: node needs ~10 threads). */
  pidsMax?: number;
  /** Time allowed for the sandbox itself to start (not the student's code), in ms (default 10 s). */
  startupTimeoutMs?: number;
  /**
   * Add the time the player waited, runnable, for a CPU to its deadlines (the interface check: its verdict must
   * not depend on the grader's load). In games the referee credits the waits itself (askCrediting).
   */
  creditCpuWaits?: boolean;
  /** Override the detected layers (tests exercise the fallbacks with this). */
  layers?: Layers;
}

type Expect = 'hello' | 'loaded' | 'ready' | 'move';
const ACCEPTS: Record<Expect, readonly Answer['t'][]> = {
  hello: ['hello'],
  loaded: ['loaded', 'error', 'memory'],
  ready: ['ready', 'error', 'memory'],
  move: ['move', 'tamper', 'error', 'memory'],
};

/** A child failure the referee sees as an answer (timeout, crash, memory, protocol). */
type Failure = Extract<PlayerAnswer, { kind: 'timeout' | 'crash' | 'memory' | 'protocol' }>;
type Outcome = { answer: Answer } | { failure: Failure };


interface Pending {
  id: number;
  expect: Expect;
  /** The deadline this request runs under, in ms (named in a deadline's message). */
  limitMs: number;
  timer: ReturnType<typeof setTimeout>;
  /** The second wake-up of a self-stopped host (thaw), cleared with the answer. */
  retry?: ReturnType<typeof setTimeout>;
  settle(outcome: Outcome): void;
}

/** The live child process and everything tied to its lifetime. */
interface Child {
  process: ChildProcess;
  requests: Writable;
  cgroup: PlayerCgroup | null;
  /**
   * Process groups to freeze, thaw and kill. bubblewrap's --new-session makes two, and its outer process
   * stops itself when its child stops, so both are thawed together.
   */
  groups: Set<number>;
  /** The node process (the deepest in the tree), whose CPU time is read when there is no cgroup. */
  node: number;
  /**
   * Every process of the player, when seccomp proves it can start no other (no fork or process clone): then
   * stopping these pids is equivalent to freezing the whole cgroup, at a fiftieth of the cost (`npm run bench --
   * freeze`). null: freeze the cgroup (or, without a freezer, the process groups).
   */
  fixedPids: number[] | null;
  exited: Promise<void>;
  killed: boolean;
  /** The private copy the child runs, removed when it is gone. */
  staged: StagedProgram;
  /** Without a memory cgroup: stops the sampler that holds the memory limit (memory-wall.ts); called at the kill. */
  stopWatchdog: (() => void) | null;
  /** The node process's schedstat, its files kept open (read every move); closed when the child is gone. */
  sched: SchedulingReader | null;
}

/** The scheduler's word on the child's node process (null before the sandbox said hello: node is bubblewrap's pid). */
function schedulingOf(child: Child, withState: boolean): PlayerScheduling | null {
  if (child.killed) return null;
  if (child.sched?.pid !== child.node) {
    child.sched?.close();
    child.sched = new SchedulingReader(child.node, threadGroupCpu);
  }
  return child.sched.read(withState);
}

/** How long an answered child may stay runnable before it is frozen (see scheduleFreeze). */
const FREEZE_GRACE_MS = 2;
/** When a self-stopped host is woken a second time, should the first SIGCONT have come before its stop (thaw). */
const SELF_STOP_RETRY_MS = 5;

/** Peak resident memory (VmHWM) of a process tree in MB, or null where /proc cannot tell. */
function peakMemoryMb(root: number): number | null {
  if (!root || portable()) return null;
  let kb = 0;
  let read = false;
  for (const pid of processTree(root)) {
    try {
      const match = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
      if (match) {
        kb = Math.max(kb, Number(match[1]));
        read = true;
      }
    } catch {
      // The process ended meanwhile.
    }
  }
  return read ? kb / 1024 : null;
}

const SIGNAL_MEANING: Partial<Record<NodeJS.Signals, string>> = {
  SIGSEGV: ' (segmentation fault: a bad pointer or an array index out of bounds)',
  SIGABRT: ' (abort: a failed assert, an uncaught exception or a corrupted heap)',
  SIGFPE: ' (arithmetic error: an integer division by zero)',
  SIGBUS: ' (bus error: a bad memory access)',
  SIGILL: ' (illegal instruction)',
};

const MEMORY_SIGNS = /heap out of memory|Reached heap limit|Allocation failed|Array buffer allocation failed|^MemoryError/m;
let warnedFallback = false;

/** The value a host answer carries, with stand-ins turned back into something close to what was returned. */
function returnedValue(answer: { value?: unknown; standIn?: ValueStandIn }): unknown {
  if (!answer.standIn) return answer.value;
  const { type, text } = answer.standIn;
  if (type === 'undefined') return undefined;
  if (type === 'number') return Number(text);
  if (type === 'bigint' && /^-?\d+n$/.test(text)) return BigInt(text.slice(0, -1));
  if (type === 'symbol') return Symbol(text.replace(/^Symbol\((.*)\)$/, '$1'));
  // Functions and objects JSON cannot carry: a frozen stand-in that is clearly not a move.
  return Object.freeze({ [`<${type}>`]: text });
}

export class SandboxPlayer implements Player {
  readonly name: string;
  private readonly layers: Layers;
  private child: Child | null = null;
  private pending: Pending | null = null;
  /** Set while the child is stopped between turns; the timer that will stop it after the grace period. */
  private frozen = false;
  private freezeTimer: ReturnType<typeof setTimeout> | null = null;
  /** A protocol violation seen while nothing was outstanding, reported on the next call. */
  private violation: string | null = null;
  private nextId = 1;
  private readonly output = new OutputCapture();
  private cpuBaseline = 0;
  private loaded: { exports: string[]; entry: string | null; getMoveParams?: number } | null = null;
  /** Every child not yet fully gone (killed ones take a moment to die), so close can wait for them all. */
  private readonly living = new Set<Promise<void>>();

  private readonly memoryMb: number;
  /** In the path of every staged copy this player runs, so its processes can be found by command line. */
  readonly processTag = `r${randomBytes(6).toString('hex')}`;
  /**
   * What the child installed on itself, from its hello: the seccomp filter ('on' or why it is missing) and, without
   * bubblewrap, Landlock ('abi7 net scope' or 'missing: why'); null until a child said hello.
   */
  private hostSeccomp: string | null = null;
  private hostLandlock: string | null = null;
  /** Whether the grader made itself non-dumpable ('on' or why not). */
  private graderGuard: string | null = null;

  constructor(private readonly options: SandboxOptions) {
    this.name = options.name;
    this.memoryMb = options.memoryMb ?? 512;
    this.layers = options.layers ?? detectLayers();
  }

  /** The submission's language, for per-language time multipliers (config.timeMultipliers). */
  get language(): string {
    const runtime = this.options.runtime ?? 'node';
    return runtime === 'python' ? 'Python' : runtime === 'cpp' ? 'C++' : 'TypeScript';
  }

  /** The isolation this player runs under (recorded in every GameRecord and GradeResult). */
  get isolation(): IsolationRecord {
    const runtime = this.options.runtime ?? 'node';
    // What the child said it installed (a layer the kernel refused is reported missing, never silently skipped);
    // with bubblewrap, its filter is bubblewrap's and the Python host's extra one does not decide anything.
    const reported = this.layers.bwrap ? null : { ...(this.hostSeccomp !== null ? { seccomp: this.hostSeccomp } : {}), ...(this.hostLandlock !== null ? { landlock: this.hostLandlock } : {}) };
    const record = { ...isolationRecord(this.layers, runtime, reported), memory: memoryWall(this.layers, this.memoryMb).description };
    // The grader's own guard (non-dumpable) is no layer of the child's, but where it is missing the record says so.
    if (this.graderGuard && this.graderGuard !== 'on') return { ...record, problem: [record.problem, `grader guard: ${this.graderGuard}`].filter(Boolean).join('; ') };
    return record;
  }

  /** The layers with the launcher staged where an unprivileged child can run it (the cache may be root's 0700 home). */
  private stagedLayers(): Layers {
    const landlock = this.layers.landlock;
    if (this.layers.bwrap || !landlock?.launcher || (this.options.runtime ?? 'node') === 'python') return this.layers;
    return { ...this.layers, landlock: { ...landlock, launcher: join(stageShared(dirname(landlock.launcher)), basename(landlock.launcher)) } };
  }

  /** What the submission exported, once it has been loaded (for the interface check's hints). */
  get exports(): { exports: string[]; entry: string | null; getMoveParams?: number } | null {
    return this.loaded;
  }

  /** What the scheduler says of the player's process (null without a process or schedstat): see Player. */
  scheduling(withState = true): PlayerScheduling | null {
    return this.child ? schedulingOf(this.child, withState) : null;
  }

  /** The process the submission runs in (for diagnostics and tests that load the machine around it). */
  get pid(): number | null {
    return this.child?.node ?? null;
  }

  async startGame(start: GameStart): Promise<PlayerAnswer> {
    const reported = this.takeViolation();
    if (reported) return reported;
    let printed: CapturedOutput | undefined;
    if (!this.child) {
      // Loading has its own allowance (config.loadTimeoutMs): a caller that did not call load() first gets it here.
      const loaded = await this.spawnAndLoad(start.loadTimeLimitMs ?? start.timeLimitMs);
      if (loaded.kind !== 'ready') return loaded;
      printed = loaded.output;
    }
    // The player's own randomness, per game and side, from the game's seed: same seed, same games.
    const randomSeed = start.seedRandom ? playerRandomSeed(start.seed, start.side) : undefined;
    const ready = await this.ask({ t: 'start', id: 0, side: start.side, ...(randomSeed === undefined ? {} : { randomSeed }) }, 'ready', start.timeLimitMs);
    // What loading printed (a demo game at import) comes before what construction printed.
    if (!printed?.text) return ready;
    const output = ready.output ? { text: printed.text + ready.output.text, droppedBytes: printed.droppedBytes + ready.output.droppedBytes } : printed;
    return { ...ready, output };
  }

  /** Start the child and load the submission unless that is done: the referee times this apart from construction. */
  async load(start: GameStart): Promise<PlayerAnswer> {
    const reported = this.takeViolation();
    if (reported) return reported;
    if (this.child) return { kind: 'ready' };
    return this.spawnAndLoad(start.loadTimeLimitMs ?? start.timeLimitMs);
  }

  async requestMove(request: MoveRequest): Promise<PlayerAnswer> {
    const reported = this.takeViolation();
    if (reported) return reported;
    if (!this.child) {
      return { kind: 'crash', message: "the player's process is not running (it was stopped after an earlier failure)" };
    }
    const message: Request = { t: 'move', id: 0, state: request.state, info: request.info };
    if (request.played !== undefined) message.played = request.played;
    // Timed by the referee on the player's own time (its CPU waits credited): this process's timer only backstops.
    const credited = request.ownTimeLimitMs;
    const refereeCredits = typeof credited === 'number' && Number.isFinite(credited) && credited > 0 ? credited : null;
    return this.ask(message, 'move', request.info.timeLimitMs, refereeCredits);
  }

  /**
   * The referee's deadline passed first: stop the child and say what the deadline found (a player that reached its
   * memory limit is a memory failure, not a slow one), so the games and the check name the same cause.
   */
  async abort(): Promise<PlayerAnswer | void> {
    const child = this.child;
    const pending = this.pending;
    if (!child || !pending) {
      this.kill();
      this.settlePending({ failure: { kind: 'timeout', output: this.output.take() } });
      return;
    }
    const failure = this.deadlineFailure(child, pending.expect, pending.limitMs);
    this.settlePending({ failure });
    return failure;
  }

  /**
   * Why a deadline passed, read before the kill: the memory limit only when memory really reached it (the cgroup
   * counted a hit, or the runtime said it ran out); loading that took the time is a slow load; else a timeout.
   */
  private deadlineFailure(child: Child, expect: Expect, limitMs: number | null): Failure {
    const reached = child.cgroup?.limitReached() ?? false;
    const peakMb = child.cgroup?.peakMb() ?? peakMemoryMb(child.node);
    this.kill();
    const output = this.output.take();
    if (reached || MEMORY_SIGNS.test(this.output.stderrTail())) {
      const peak = peakMb === null ? '' : ` (peak ${Math.round(peakMb)} MB)`;
      const when = limitMs === null ? 'at the deadline' : `when the ${limitMs} ms were up`;
      return { kind: 'memory', message: `reached its ${this.memoryMb} MB memory limit${peak} and was still running ${when}: a memory blow-up, not a slow search`, output };
    }
    if (expect === 'loaded') return { kind: 'timeout', loading: true, message: this.slowLoadMessage(limitMs), output };
    return { kind: 'timeout', output };
  }

  async endGame(): Promise<void> {
    // Nothing to tell the child: the next startGame builds a fresh AIPlayer in the same (frozen) process.
  }

  async close(): Promise<void> {
    this.kill();
    this.settlePending({ failure: { kind: 'crash', message: 'the player was closed while it was thinking' } });
    await Promise.all(this.living);
  }

  private takeViolation(): PlayerAnswer | null {
    if (this.violation === null) return null;
    const message = this.violation;
    this.violation = null;
    return { kind: 'protocol', message, output: this.output.take() };
  }

  /**
   * Start the child, wait for its hello (the sandbox's own time), then load the submission (the student's).
   * Anything that fails before the student's code started is the grader's failure: a GraderError is thrown, never
   * an answer the referee could hold against the submission.
   */
  private async spawnAndLoad(limitMs: number): Promise<PlayerAnswer> {
    const refusal = isolationRefusal(this.layers);
    if (refusal) throw new GraderError(refusal);
    let hostPath: string;
    let python: PythonProgram | undefined;
    let cpp: CppProgram | undefined;
    let staged: StagedProgram;
    let cgroup: PlayerCgroup | null = null;
    let node: string | undefined;
    try {
      if (this.options.runtime === 'python') {
        const interpreter = findPython();
        if (!interpreter) throw new GraderError(noPython());
        python = { interpreter: interpreter.path, binds: interpreter.binds, symbols: getGame(this.options.game).symbols };
        hostPath = join(stageShared(pythonRuntimeDir()), 'host.py');
        const root = this.options.submissionRoot;
        staged = stageProgram(root, this.options.files ?? pythonFiles(root), this.options.bundlePath, this.processTag);
      } else if (this.options.runtime === 'cpp') {
        cpp = { symbols: getGame(this.options.game).symbols };
        await cppHostAhead(); // a host being built for this cache (a C++ check's compile started it)
        hostPath = stageShared(cppHostPath());
        staged = stageProgram(dirname(this.options.bundlePath), [this.options.bundlePath], this.options.bundlePath, this.processTag);
      } else {
        node = sandboxNode(this.layers);
        hostPath = stageShared(await hostBundlePath());
        staged = stageProgram(dirname(this.options.bundlePath), [this.options.bundlePath], this.options.bundlePath, this.processTag);
      }
      cgroup = this.layers.cgroup ? new PlayerCgroup(this.layers.cgroup, this.memoryMb, this.options.pidsMax ?? 64) : null;
    } catch (error) {
      if (error instanceof GraderError) throw error;
      throw new GraderError(`the sandbox could not be prepared: ${(error as Error).message}`);
    }
    if (!isHardened(this.layers, this.options.runtime ?? 'node') && !warnedFallback) {
      warnedFallback = true;
      warnNotIsolatedOnce(this.layers);
    } else if (this.layers.bwrapProblem && !warnedFallback) {
      // Still hardened, but the user should know why bubblewrap is not the layer doing it.
      warnedFallback = true;
      process.stderr.write(`note: ${this.layers.bwrapProblem}. Landlock and seccomp stand in for it (hardened).\n`);
    }
    const memoryMb = this.memoryMb;
    // The grader itself: a child of the same user must not ptrace it or read its memory (native-tools.ts). Inside
    // bubblewrap a child sees only its own pid namespace: nothing to build or load on that path.
    this.graderGuard = this.layers.bwrap ? null : protectGrader();
    const plan = launchPlan({
      layers: this.stagedLayers(),
      hostPath,
      config: { bundle: staged.entry, game: this.options.game, allow: this.options.allowImports ?? [], stopAfterAnswer: !this.options.ponder && !portable() },
      submissionRoot: staged.dir,
      memoryMb,
      joinFiles: cgroup ? cgroup.joinFiles() : [],
      node,
      python,
      cpp,
      mergeOutput: true,
    });
    const proc = spawn(plan.command, plan.args, {
      stdio: [plan.stdin ? 'pipe' : 'ignore', 'pipe', 'pipe', 'pipe', 'pipe'],
      detached: true,
      env: {},
      // Never the grader's folder: a child without bubblewrap would start there (and PWD is not passed either).
      cwd: staged.dir,
    });
    if (plan.stdin && proc.stdin) {
      proc.stdin.on('error', () => {
        // bubblewrap exited before reading its filter: its exit is reported by the close handler
      });
      proc.stdin.end(plan.stdin);
    }
    const child: Child = {
      process: proc,
      requests: proc.stdio[3] as Writable,
      cgroup,
      groups: new Set(proc.pid ? [proc.pid] : []),
      node: proc.pid ?? 0,
      fixedPids: null,
      killed: false,
      exited: Promise.resolve(),
      staged,
      stopWatchdog: null,
      sched: null,
    };
    this.child = child;
    this.cpuBaseline = 0;
    // stdout carries stderr too, in the order written (launch.ts mergeOutput), so the tail that explains a crash comes
    // from it; the stderr pipe still has whatever came before the merge (the shell's own) and, on the portable path
    // (no shell), the player's stderr.
    proc.stdout?.on('data', (chunk: Buffer) => this.output.add(chunk, true));
    proc.stderr?.on('data', (chunk: Buffer) => this.output.add(chunk, true));
    child.requests.on('error', () => {
      // EPIPE when the child is gone; its exit is reported by the close handler.
    });
    this.readAnswers(child, proc.stdio[4] as Readable);
    proc.once('error', (error) => this.childEnded(child, null, null, `the sandbox could not start: ${error.message}`));
    // Gone means the processes have exited (judged first, while the cgroup still says why) and the cgroups are removed.
    child.exited = new Promise((resolve) => {
      proc.once('close', (code, signal) => {
        child.sched?.close();
        this.childEnded(child, code, signal, null);
        void (cgroup?.destroy() ?? Promise.resolve()).then(() => {
          staged.remove();
          resolve();
        });
      });
    });
    const exited = child.exited;
    this.living.add(exited);
    void exited.then(() => this.living.delete(exited));

    const hello = await this.exchange(null, 'hello', this.options.startupTimeoutMs ?? 10_000);
    if ('failure' in hello) {
      // No student code has run yet (the host loads it only when asked): the sandbox itself failed.
      const tail = this.output.stderrTail().trim().split('\n').slice(-3).join(' ⏎ ');
      this.kill();
      // Silent until the deadline: a busy machine, not a broken bubblewrap (whose failures say why on stderr).
      const slow = hello.failure.kind === 'timeout' && !tail;
      const why = tail
        ? tail.slice(0, 500)
        : hello.failure.kind === 'protocol' || hello.failure.kind === 'crash'
          ? hello.failure.message
          : `no answer within ${this.options.startupTimeoutMs ?? 10_000} ms (the grader's machine is too busy: grade with fewer --jobs at once, then run again)`;
      const fix = this.layers.bwrap && !slow ? `; ${bwrapFix(tail)}` : '';
      // A kept "bubblewrap starts here" was wrong (or went stale): the next process probes it live and falls back.
      if (this.layers.bwrap && !slow) forgetBwrapProbe();
      throw new GraderError(`the sandbox did not start: ${why}${fix}`);
    }
    if (hello.answer.t === 'hello') {
      if (hello.answer.seccomp !== undefined) this.hostSeccomp = hello.answer.seccomp;
      if (hello.answer.landlock !== undefined) this.hostLandlock = hello.answer.landlock;
    }
    this.output.take(); // start-up noise is the harness's, not the student's
    const tree = processTree(proc.pid as number);
    for (const pid of tree) child.groups.add(processGroup(pid));
    child.node = tree[tree.length - 1];
    const seccompHolds = this.layers.seccomp && (this.layers.bwrap !== null || this.hostSeccomp === 'on');
    if (seccompHolds) child.fixedPids = tree;
    this.watchMemory(child);

    this.cpuSinceLast(); // from here on, CPU time is the student's
    const loaded = await this.ask({ t: 'load', id: 0 }, 'loaded', limitMs);
    if (loaded.kind === 'ready') return loaded;
    // Not loaded: start afresh next game, so the same clear error comes back instead of a confusing one.
    this.kill();
    return loaded;
  }

  /**
   * Send a request and turn the outcome into a PlayerAnswer. 'loaded' comes back as kind 'ready' when a class
   * to construct was found; the host's 'move' and 'tamper' carry the returned value.
   */
  private async ask(request: Request, expect: Expect, limitMs: number, refereeCredits: number | null = null): Promise<PlayerAnswer> {
    const outcome = await this.exchange(request, expect, limitMs, refereeCredits);
    if ('failure' in outcome) return outcome.failure;
    const output = this.output.take();
    const answer = outcome.answer;
    switch (answer.t) {
      case 'loaded':
        this.loaded = { exports: answer.exports, entry: answer.entry };
        if (answer.getMoveParams !== undefined) this.loaded.getMoveParams = answer.getMoveParams;
        if (answer.entry) return { kind: 'ready', output };
        return { kind: 'error', message: this.noPlayerMessage(answer.exports), output };
      case 'ready':
        return { kind: 'ready', cpuMs: this.cpuSinceLast(), output };
      case 'move': {
        const moved: PlayerAnswer = { kind: 'move', value: returnedValue(answer), cpuMs: this.cpuSinceLast(), output };
        if (answer.leftoverThreads !== undefined) moved.leftoverThreads = answer.leftoverThreads;
        return moved;
      }
      case 'tamper': {
        // The board differs from the turn's start after this ask; the referee decides once the turn is over.
        const cpuMs = this.cpuSinceLast();
        const changed: PlayerAnswer = { kind: 'tamper', value: returnedValue(answer), detail: answer.detail, cpuMs, output };
        if (answer.leftoverThreads !== undefined) changed.leftoverThreads = answer.leftoverThreads;
        return changed;
      }
      case 'error': {
        const stack = answer.stack && studentStack(answer.stack, this.child?.staged.dir ?? null);
        if (expect === 'loaded' && this.options.runtime === 'cpp') {
          // The loader's own words, with the cause they amount to in front (load-failure.ts).
          const failure = explainLoadFailure(answer.message);
          if (failure) return { kind: 'error', message: `the compiled player could not be loaded (${failure.cause}): ${answer.message.replace(/^the compiled player could not be loaded: /, '')}`, output };
        }
        if (answer.between) {
          // Thrown after an earlier answer, while no request was outstanding: the process is in a broken state.
          this.kill();
          return { kind: 'crash', message: `an error was raised between turns: ${answer.message}`, stack, output };
        }
        return { kind: 'error', message: answer.message, stack, ...(answer.where ? { where: answer.where } : {}), output };
      }
      case 'memory':
        this.kill();
        return { kind: 'memory', message: answer.message, output };
      default:
        return { kind: 'protocol', message: `unexpected '${answer.t}' message`, output };
    }
  }

  /** A load that took the time, in the runtime's own words (what runs at load, and how to keep it out). */
  private slowLoadMessage(limitMs: number | null): string {
    const took = `loading the submission took over ${limitMs === null ? 'its allowance' : `${limitMs} ms`} (the load allowance, loadTimeoutMs)`;
    switch (this.options.runtime) {
      case 'python':
        return `${took}: the module's top-level code runs when it is imported (a demo game or training there runs every time): put it under if __name__ == '__main__':`;
      case 'cpp':
        return `${took}: static initialisers (constructors of global objects, filling a static table) run when the library is loaded: do that work lazily, in the first getPoint`;
      default:
        return `${took}: top-level code runs when the module is loaded: move the work into the constructor or the first getMove`;
    }
  }

  private noPlayerMessage(exported: string[]): string {
    if (this.options.runtime === 'cpp') {
      if (exported.some((name) => name.endsWith(CXX_LINKAGE_MARK))) {
        return `the library defines ${exported.join(', ')}: the harness looks them up by their C names, so ${EXTERN_C_HINT}`;
      }
      return exported.length > 0
        ? `the library exports ${exported.join(', ')} but not both getPoint and clearPoint, nor an AIPlayer: declare them extern "C" as Strategy.h does`
        : 'the library exports neither getPoint/clearPoint (the Connect Four SDK: extern "C" in Strategy.h) nor an AIPlayer (AIPlayer.cpp)';
    }
    if (this.options.runtime === 'python') {
      return exported.length > 0
        ? `the submission defines no AIPlayer class (it defines ${exported.join(', ')}): name your class AIPlayer`
        : 'the submission defines no AIPlayer class: add class AIPlayer with __init__(self, color) and get_move(self, board)';
    }
    return exported.length > 0
      ? `the submission exports no AIPlayer class (it exports ${exported.join(', ')}): add export class AIPlayer`
      : 'the submission exports nothing: add export class AIPlayer { constructor(color) … getMove(board) … }';
  }

  /**
   * One request/answer round trip under the parent's own deadline. request null waits for the hello.
   * `refereeCredits`: the referee times this ask itself on the player's own time (askCrediting, which it does for
   * construction and for moves it sends with MoveRequest.ownTimeLimitMs): the most it waits in all, in ms; this
   * timer is then only the backstop at the longest wait that allows.
   */
  private exchange(request: Request | null, expect: Expect, limitMs: number, refereeCredits: number | null = null): Promise<Outcome> {
    const child = this.child;
    if (!child) return Promise.resolve({ failure: { kind: 'crash', message: "the player's process is not running" } });
    return new Promise<Outcome>((resolve) => {
      const id = request ? this.nextId++ : 0;
      const asked = performance.now();
      const probe = (withState: boolean): PlayerScheduling | null => schedulingOf(child, withState);
      const before = this.options.creditCpuWaits ? creditLook(probe, false) : null;
      let previous = { wallMs: 0, ranMs: before?.ranMs ?? 0 };
      let stall: string | undefined;
      const expire = (): void => {
        const pending = this.pending;
        if (pending?.id !== id || this.child !== child) return; // answered in the loop turn that read the pipe
        if (before) {
          // The limit counts the player's own time, by the referee's one rule (creditRuling): wall time it spent
          // waiting, runnable, for a CPU does not count, up to CREDIT_STRETCH times the limit in wall time.
          const now = creditLook(probe, true) ?? before;
          const wall = performance.now() - asked;
          const ruling = creditRuling(limitMs, before, previous, now, wall);
          if (ruling.next === 'again') {
            previous = { wallMs: wall, ranMs: now.ranMs };
            pending.timer = setTimeout(() => setImmediate(expire), ruling.inMs);
            return;
          }
          if (ruling.next === 'stalled') stall = `the player waited ${Math.round(ruling.waitedMs)} ms for a CPU in ${Math.round(wall)} ms (the grader's machine was busy)`;
        }
        const failure = this.deadlineFailure(child, expect, limitMs);
        this.settlePending({ failure: failure.kind === 'timeout' && stall ? { ...failure, stall } : failure });
      };
      // The verdict waits one loop turn: an answer already in the pipe (a grader's event loop that was late) wins.
      const backstopMs = before === null ? (expect === 'ready' ? limitMs : refereeCredits) : null;
      if (backstopMs !== null) stall = `${expect === 'ready' ? 'building the AIPlayer' : 'the move'} was kept waiting past ${CREDIT_STRETCH} times its ${Math.round(backstopMs)} ms (the grader's machine was busy)`;
      const timer = setTimeout(() => setImmediate(expire), backstopMs !== null ? CREDIT_STRETCH * backstopMs + 1000 : limitMs);
      this.pending = { id, expect, limitMs, timer, settle: resolve };
      if (request) {
        request.id = id;
        // Write first, then thaw: the child wakes once and finds its request waiting.
        child.requests.write(`${JSON.stringify(request)}\n`);
        this.thaw(child);
      }
    });
  }

  private settlePending(outcome: Outcome): void {
    const pending = this.pending;
    if (!pending) return;
    this.pending = null;
    clearTimeout(pending.timer);
    if (pending.retry) clearTimeout(pending.retry);
    if ('answer' in outcome && this.child) this.scheduleFreeze(this.child);
    // Output written just before the answer may sit in the stdout pipe's callback of this same loop turn.
    setImmediate(() => pending.settle(outcome));
  }

  private readAnswers(child: Child, answers: Readable): void {
    let buffered = '';
    answers.setEncoding('utf8');
    answers.on('data', (chunk: string) => {
      if (this.child !== child) return;
      buffered += chunk;
      let newline = buffered.indexOf('\n');
      while (newline >= 0 && this.child === child) {
        this.onLine(buffered.slice(0, newline));
        buffered = buffered.slice(newline + 1);
        newline = buffered.indexOf('\n');
      }
      if (buffered.length > MAX_ANSWER_BYTES) this.onViolation(`the player host sent a line over ${MAX_ANSWER_BYTES} bytes`);
    });
    answers.on('error', () => {
      // the child died; the close handler reports it
    });
  }

  private onLine(line: string): void {
    const parsed = parseAnswer(line);
    if ('problem' in parsed) return this.onViolation(parsed.problem);
    const answer = parsed.answer;
    const pending = this.pending;
    const id = answer.t === 'hello' ? 0 : answer.id;
    if (!pending || pending.id !== id || !ACCEPTS[pending.expect].includes(answer.t)) {
      return this.onViolation(`the player host sent an unsolicited '${answer.t}' message`);
    }
    this.settlePending({ answer });
  }

  private onViolation(message: string): void {
    this.kill();
    if (this.pending) this.settlePending({ failure: { kind: 'protocol', message, output: this.output.take() } });
    else this.violation ??= message;
  }

  /** The child ended on its own (not by our kill): a crash, or the memory ceiling. */
  private childEnded(child: Child, code: number | null, signal: NodeJS.Signals | null, startError: string | null): void {
    if (this.child !== child || child.killed) return;
    this.child = null;
    const output = this.output.take();
    const tail = this.output.stderrTail();
    if (child.cgroup?.oomKilled() || MEMORY_SIGNS.test(tail)) {
      // The cgroup's peak is the limit itself: the figure that tells is what it was killed at.
      const peakMb = child.cgroup?.peakMb() ?? null;
      const how = child.cgroup?.oomKilled() ? `its resident memory reached ${peakMb === null ? 'it' : `${Math.round(peakMb)} MB`} and the kernel's out-of-memory killer stopped it` : 'the runtime ran out of memory';
      const failure: Failure = { kind: 'memory', message: `exceeded the ${this.memoryMb} MB memory limit: ${how}`, output };
      if (this.pending) this.settlePending({ failure });
      else this.violation ??= failure.message;
      return;
    }
    // bubblewrap (and the unshare fallback's shell) reports a child killed by signal N as exit code 128 + N;
    // the C++ host exits with 128 + N itself on a fatal signal N.
    if ((this.layers.bwrap || this.layers.unshare || this.options.runtime === 'cpp') && code !== null && code > 128) {
      signal = signalName(code - 128) ?? signal;
      code = null;
    }
    const lastLine = tail.trim().split('\n').pop() ?? '';
    let message = startError ?? `the player's process exited${lastLine ? `: ${lastLine.slice(0, 300)}` : ''}`;
    // Native code dies of signals: name it and what it usually means (the SDK's Compete counts it as a loss).
    if (!startError && signal && this.options.runtime === 'cpp') message = `the player's process was killed by ${signal}${SIGNAL_MEANING[signal] ?? ''}${lastLine ? `: ${lastLine.slice(0, 300)}` : ''}`;
    const failure: Failure = { kind: 'crash', message, exitCode: code, signal, output };
    if (this.pending) this.settlePending({ failure });
    else this.violation ??= message;
  }

  /** SIGKILL everything the child is made of; safe to call when there is nothing to kill. */
  /**
   * Stop the child once it has been idle for FREEZE_GRACE_MS. Freezing at once costs two signals per move (about
   * 100 µs, the round trip's largest part); with the grace, fast exchanges skip them, and a child can compute at
   * most FREEZE_GRACE_MS on the opponent's clock per turn before it is stopped.
   */
  private scheduleFreeze(child: Child): void {
    // No freeze on the portable path: Windows has no SIGSTOP (the opponent's clock is then not guarded).
    if (this.options.ponder || this.frozen || this.freezeTimer || portable()) return;
    if (child.fixedPids && !this.selfStops()) {
      // A few microseconds a move: stopped as soon as its answer is read, so the window in which it may compute
      // after answering is the grader's own reading latency, not that plus a timer's (which a loaded machine
      // stretched to 27 ms). A host that stops itself is left to do so (stopping it here first would only make it
      // stop itself again after the next SIGCONT); the timer below is then the backstop for one that does not.
      signalPids(child.fixedPids, 'SIGSTOP');
      this.frozen = true;
      return;
    }
    this.freezeTimer = setTimeout(() => {
      this.freezeTimer = null;
      if (this.child !== child || this.pending) return;
      // Its fixed pids when seccomp proves there are no others, else the whole cgroup (a helper that left the
      // process group is stopped too), else the process groups.
      if (child.fixedPids) signalPids(child.fixedPids, 'SIGSTOP');
      else if (!child.cgroup?.setFrozen(true)) signalGroups(child.groups, 'SIGSTOP');
      this.frozen = true;
    }, FREEZE_GRACE_MS);
    this.freezeTimer.unref();
  }

  /** Whether the host stops itself after each answer (HostConfig.stopAfterAnswer: whenever it may not ponder). */
  private selfStops(): boolean {
    return !this.options.ponder && this.options.runtime !== 'cpp' && !portable();
  }

  /** Cancel a pending freeze, or wake a frozen child (after its request is written, so it wakes once). */
  private thaw(child: Child): void {
    if (this.freezeTimer) {
      clearTimeout(this.freezeTimer);
      this.freezeTimer = null;
    }
    if (this.frozen) {
      if (child.fixedPids) signalPids(child.fixedPids, 'SIGCONT');
      else if (!child.cgroup?.setFrozen(false)) signalGroups(child.groups, 'SIGCONT');
      this.frozen = false;
    }
    const pending = this.pending;
    if (this.selfStops() && child.node && pending) {
      // The host stopped itself right after its answer (stopAfterAnswer): wake it. Should that stop land after
      // this SIGCONT (the host preempted between its write and its kill while this grader answered at once), it
      // is woken again, at 5, 10, 20 … up to 320 ms intervals until it answers: a rare delay, never a hang.
      signalPids([child.node], 'SIGCONT');
      let delay = SELF_STOP_RETRY_MS;
      const again = (): void => {
        if (this.child !== child || this.pending !== pending) return;
        signalPids([child.node], 'SIGCONT');
        delay = Math.min(delay * 2, 320);
        pending.retry = setTimeout(again, delay);
        pending.retry.unref();
      };
      pending.retry = setTimeout(again, delay);
      pending.retry.unref();
    }
  }

  /**
   * Without a memory cgroup, hold the limit on resident memory here: sample the player's processes while it may run
   * and kill it past the limit, with the figure (memory-wall.ts says why not an address-space limit).
   */
  private watchMemory(child: Child): void {
    if (memoryWall(this.layers, this.memoryMb).kind !== 'watchdog') return;
    // Fixed pids (seccomp: no new processes) are sampled through kept-open files; otherwise the tree is walked.
    const sampler = child.fixedPids ? new ResidentSampler(child.fixedPids) : null;
    const stop = (): void => {
      clearInterval(timer);
      sampler?.close();
    };
    const timer = setInterval(() => {
      if (this.child !== child) {
        stop();
        return;
      }
      if (this.frozen) return;
      const usedMb = sampler ? sampler.sampleMb() : residentMb(processTree(child.process.pid ?? 0));
      if (usedMb === null || usedMb <= this.memoryMb) return;
      this.kill();
      const message = `used ${Math.round(usedMb)} MB of resident memory, over its ${this.memoryMb} MB memory limit (stopped by the grader's memory watchdog)`;
      if (this.pending) this.settlePending({ failure: { kind: 'memory', message, output: this.output.take() } });
      else this.violation ??= message;
    }, WATCHDOG_INTERVAL_MS);
    timer.unref();
    child.stopWatchdog = stop;
  }

  private kill(): void {
    if (this.freezeTimer) clearTimeout(this.freezeTimer);
    this.freezeTimer = null;
    this.frozen = false;
    const child = this.child;
    if (!child) return;
    this.child = null;
    child.killed = true;
    child.stopWatchdog?.();
    child.sched?.close();
    const pids = child.cgroup?.pids() ?? [];
    signalGroups(child.groups, 'SIGKILL');
    signalPids(pids, 'SIGKILL');
    // A frozen cgroup holds its killed tasks until thawed.
    child.cgroup?.setFrozen(false);
    // A stopped process still dies of SIGKILL; the descendants of a tree walk made before it was frozen too.
    signalPids(processTree(child.process.pid ?? 0).slice(1), 'SIGKILL');
    if (portable()) endPortableTree(child.process);
  }

  /** CPU time since the previous answer: the cgroup's counter, else the process tree's from /proc. */
  private cpuSinceLast(): number | undefined {
    const child = this.child;
    if (!child) return undefined;
    const total = child.cgroup?.cpuMs() ?? processCpuMs(child.node);
    if (total === null) return undefined;
    const used = total - this.cpuBaseline;
    this.cpuBaseline = total;
    return Math.max(0, Math.round(used * 1000) / 1000);
  }
}

/** Every .py file under root (a few levels, at most 500): what a Python player is staged with by default. */
function pythonFiles(root: string): string[] {
  const found: string[] = [];
  const walk = (dir: string, depth: number): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (found.length >= 500) return;
      const path = join(dir, entry.name);
      if (entry.isFile() && entry.name.endsWith('.py')) found.push(path);
      else if (entry.isDirectory() && depth < 4 && entry.name !== '__pycache__' && !entry.name.startsWith('.')) walk(path, depth + 1);
    }
  };
  walk(root, 0);
  return found;
}

function signalName(number: number): NodeJS.Signals | null {
  const entry = Object.entries(osConstants.signals).find(([, value]) => value === number);
  return entry ? (entry[0] as NodeJS.Signals) : null;
}

/** The seed of a player's own randomness in a game: the game's seed and the side, mixed (each side its own stream). */
export function playerRandomSeed(gameSeed: number, side: 0 | 1): number {
  return deriveSeed(gameSeed, 1000 + side);
}
