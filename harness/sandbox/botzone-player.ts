/**
 * A Botzone bot as a Player: the bot is a whole program (C++ executable, Python or JavaScript script, Java classes
 * run as `java Main` with the JVM's memory ceilings from java-runtime.ts) that speaks
 * Botzone's protocol on stdin/stdout, run behind the same OS layers as every player (bubblewrap with the no-fork
 * seccomp filter; else the Landlock launcher with the same filter; the cgroup; the unprivileged uid).
 *
 * Botzone's two life cycles, both served:
 *   - restart per turn (the default): each turn a fresh process gets the whole history — one JSON line
 *     {"requests","responses","data","globaldata","time_limit","memory_limit"} or the simple interaction's lines
 *     (turn number n, the 2n-1 alternating request/response lines, data, globaldata) — and stdin is closed, so a
 *     bot that reads until EOF (nlohmann json::parse(cin)) gets its end; its output is read when it exits;
 *   - keep running: a bot whose source prints >>>BOTZONE_REQUEST_KEEP_RUNNING<<< gets stdin kept open; after its
 *     output it prints the marker, is frozen (SIGSTOP, as Botzone's judge does) and next turn gets only the new
 *     request (JSON: the request object on one line; simple: its line).
 * Both run through the spawner kept inside the bot's sandbox (native/botzone-spawner.c), which keeps each turn's
 * deadline and clock there: a restarted bot's clock covers its process start (Botzone counts it; the first turn is
 * doubled); a kept bot is started in load() (each game's) and stopped before its first request, so its first turn
 * is its own thinking, not the sandbox's start.
 * data and globaldata (100 KB each) are carried from turn to turn, globaldata from game to game; debug (1 KB) goes
 * into the game record. The bot's answer becomes a move through the game's Botzone codec (Game.botzone).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import type { Writable } from 'node:stream';
import { basename, dirname } from 'node:path';
import { botzoneHistory, type BotzoneCodec } from '../games/common/botzone.js';
import type { Side } from '../games/game.js';
import { botzoneGameIds, getGame } from '../games/registry.js';
import { graderWaitedMs } from '../referee/ask.js';
import { GraderError } from '../referee/grader-error.js';
import type { GameStart, MoveRequest, Player, PlayerAnswer } from '../referee/player.js';
import { PlayerCgroup } from './cgroup.js';
import { detectLayers, fallbackWarning, forgetBwrapProbe, isHardened, isolationRecord, isolationRefusal, type IsolationRecord, type Layers } from './layers.js';
import { realtimePrefix, refuseRealtime, SpawnerSession, signalName, type SpawnedEnd } from './botzone-spawner.js';
import { launchPlan, type WholeProgram } from './launch.js';
import { nativeTools, protectGrader } from './native-tools.js';
import { seccompProgram } from './seccomp.js';
import { OutputCapture } from './output.js';
import { processGroup, processTree, signalGroups, signalPids } from './process-tree.js';
import { findJava, JAVA_MAIN_CLASS, JAVA_OUT_OF_MEMORY, JAVA_UTF8_FLAGS, javaMemoryFlags, noJava } from './java-runtime.js';
import { findPython, noPython } from './python-runtime.js';
import { stageProgram, stageShared, type StagedProgram } from './staging.js';

export const KEEP_RUNNING_MARKER = '>>>BOTZONE_REQUEST_KEEP_RUNNING<<<';
/** Botzone's caps: data and globaldata 100 KB each (debug's 1 KB is the referee's, see match.ts). */
export const DATA_CAP_BYTES = 100 * 1024;
/** Most a bot may print in one turn before it is stopped (a response is a few bytes; data is at most 200 KB). */
const STDOUT_CAP_BYTES = 1024 * 1024;
/** Botzone's memory limit. */
const BOTZONE_MEMORY_MB = 256;
/** What a bot's pass ({"x": -1, "y": -1}) answers when it is asked for a move: not a move, so illegal there. */
const PASS_VALUE = 'pass (-1, -1)';

/** The languages a Botzone bot may be in (each with its runtime in programFor). */
export type BotzoneLanguage = 'C++' | 'Python' | 'JavaScript' | 'Java';

/** A submission's language as a Botzone bot's (TypeScript and anything else run on node). */
export function botzoneLanguage(language: string | undefined): BotzoneLanguage {
  return language === 'Python' || language === 'C++' || language === 'Java' ? language : 'JavaScript';
}

export interface BotzoneOptions {
  /** Shown in records and reports. */
  name: string;
  /** The compiled bot: the executable (C++), the entry .py / .js file, or Main.class in its class folder (Java). */
  bundlePath: string;
  /** The submission's folder (Python and JavaScript bots are staged from it). */
  submissionRoot: string;
  /** Python: the bot's own files to stage (absolute, under submissionRoot); Java: its class files; default the entry alone. */
  files?: string[];
  language: BotzoneLanguage;
  interaction: 'json' | 'simple';
  /** The bot prints the keep-running marker: keep its stdin open (see the header). */
  keepRunning: boolean;
  /** Game registry id (its Game.botzone codec is used). */
  game: string;
  /** Memory ceiling in MB (default Botzone's 256). */
  memoryMb?: number;
  /** Most processes/threads (default 64). */
  pidsMax?: number;
  layers?: Layers;
}

/** One running bot process. */
interface Bot {
  process: ChildProcess;
  stdin: Writable;
  cgroup: PlayerCgroup | null;
  groups: Set<number>;
  /** Fixed pids to stop when seccomp proves the bot can start no other process; else null. */
  fixedPids: number[] | null;
  killed: boolean;
  frozen: boolean;
  /** stdin was closed after the input (a restart-per-turn bot). */
  closedInput: boolean;
  stdout: Buffer[];
  stdoutBytes: number;
  exited: Promise<void>;
  /** The turn waiting for this process's output. */
  waiting: ((outcome: TurnOutcome) => void) | null;
  /** The running turn's clock (see turn()): when its input went, the grader's own waits when the bot was last seen
   * without its answer, and its deadline's timer. */
  clock: { started: number; waitMark: number; deadline: ReturnType<typeof setTimeout> | null } | null;
}

type TurnOutcome =
  /** wallMs: the run's time on the spawner's clock (restart per turn through the spawner only). */
  | { kind: 'output'; text: string; exited: boolean; code: number | null; signal: NodeJS.Signals | null; oom?: boolean; cpuMs?: number; wallMs?: number }
  | { kind: 'failure'; answer: PlayerAnswer };

/** One restart-per-turn run of the bot through the spawner. */
interface SpawnedRun {
  stdout: Buffer[];
  stdoutBytes: number;
  waiting: ((outcome: TurnOutcome) => void) | null;
}

type Parsed = { response: unknown; debug?: unknown; data?: unknown; globaldata?: unknown } | { problem: string };

/** A JSON value or string as Botzone's simple interaction writes it on a line. */
function asLine(value: unknown): string {
  if (value === undefined || value === null) return '';
  return (typeof value === 'string' ? value : JSON.stringify(value)).replace(/\r?\n/g, ' ');
}

function byteLength(value: unknown): number {
  return Buffer.byteLength(typeof value === 'string' ? value : JSON.stringify(value) ?? '');
}

export class BotzonePlayer implements Player {
  readonly name: string;
  readonly language: string;
  private readonly layers: Layers;
  private readonly memoryMb: number;
  private readonly output = new OutputCapture();
  private readonly living = new Set<Promise<void>>();
  private staged: StagedProgram | null = null;
  private bot: Bot | null = null;
  private codec: BotzoneCodec | null = null;
  private side: Side = 0;
  /** Requests the live keep-running bot has been given in this game. */
  private fed = 0;
  private data: unknown = '';
  /** Kept across games, as Botzone keeps it. */
  private globaldata: unknown = '';
  private cpuBaseline = 0;
  private notes: string[] = [];
  /** Through the spawner: its sandbox (kept across turns and games) and the turn it runs. */
  private sandbox: { session: SpawnerSession; cgroup: PlayerCgroup | null; closed: Promise<void> } | null = null;
  private run: SpawnedRun | null = null;
  /**
   * A kept-running bot in the spawner's sandbox: 'fresh' started and stopped, no request yet; 'live' it has answered
   * this game's turns and waits, stopped, for the next; null: none (the next turn starts one).
   */
  private kept: 'fresh' | 'live' | null = null;
  /** load() brought the kept bot up to the game's history: the next startGame keeps it. */
  private caughtUp = false;
  /** The spawner's memory group's limit hits when the running turn began (see memoryAtDeadline). */
  private hitsBefore = 0;
  /**
   * No spawner here (no C compiler to build it, or switched off): the player keeps each turn's time itself in the
   * grader (turn()), so that an answer the grader noticed late, busy, is not ruled late.
   */
  private withoutSpawner = false;

  constructor(private readonly options: BotzoneOptions) {
    this.name = options.name;
    this.language = options.language;
    this.memoryMb = options.memoryMb ?? BOTZONE_MEMORY_MB;
    this.layers = options.layers ?? detectLayers();
  }

  /** Whether restart-per-turn runs go through the spawner kept in the bot's sandbox (false: a sandbox a turn). */
  get spawned(): boolean {
    return this.sandbox !== null;
  }

  /**
   * Whether the spawner times a turn's end less its own waits for a CPU (so a bot that ended before its deadline is
   * not ruled late because a busy grader woke the spawner late); null without a spawner.
   */
  get spawnerTimesOwnWaits(): boolean | null {
    return this.sandbox ? this.sandbox.session.timesOwnWaits : null;
  }

  /**
   * Through the spawner the bot's deadline is kept inside its sandbox and each turn timed there: a restarted bot by
   * the kernel's timer armed before exec, a kept one by the spawner's timerfd and the marker's arrival. Without the
   * spawner the player times each turn in the grader (turn()) by the same rule, its own timer at the deadline.
   */
  get keepsTime(): boolean {
    return this.sandbox !== null ? this.sandbox.session.alive : this.withoutSpawner;
  }

  /** A bot has no in-process layer: the OS layers and the seccomp filter are all there is (as for the C++ host). */
  get isolation(): IsolationRecord {
    return isolationRecord(this.layers, 'cpp', null);
  }

  /**
   * The bot's sandbox (the spawner's) is started here, once per player, so its start is timed against the load
   * allowance: on a loaded machine a sandbox start can take longer than a short construction limit, and it is the
   * grader's work, not the bot's (Botzone counts only a restarted bot's own process start, in its first turn). A kept
   * bot's process is started here too, and stopped until its first request (Botzone starts it, then feeds it).
   */
  async load(start?: GameStart): Promise<PlayerAnswer> {
    const sandbox = await this.openSandbox();
    if (sandbox && this.options.keepRunning) {
      if (this.kept !== 'fresh') await this.startKept(sandbox.session);
      if (start?.history?.length && this.kept === 'fresh') await this.catchUp(sandbox.session, start);
    }
    return { kind: 'ready' };
  }

  /**
   * A game that goes on from turns played before this bot joined (serve after an undo, a Load or a restore): the
   * fresh kept bot is fed the game from its start, as Botzone feeds a new game — its first request, then one request
   * a turn — and each of its answers must be the move the game has there. A bot that keeps its own board (reading
   * only its first request) is then where the game is. Against the load allowance, not a turn's clock. If it answers
   * otherwise (or fails), it is ended and its first turn gets the whole history instead (Botzone's restart).
   */
  private async catchUp(session: SpawnerSession, start: GameStart): Promise<void> {
    const game = getGame(start.game);
    const codec = game.botzone;
    if (!codec || (this.options.interaction === 'simple' && !codec.simpleInteraction)) return;
    this.codec = codec;
    this.side = start.side;
    this.fed = 0;
    this.data = '';
    const turns = (start.history ?? []).map((turn) => ({ side: turn.side, move: turn.kind === 'pass' ? null : (turn.move ?? null) }));
    const { requests, responses } = botzoneHistory(codec, this.side, turns);
    const line = (value: unknown): string => `${this.options.interaction === 'json' ? JSON.stringify(value) : codec.toLine(value)}\n`;
    const limitSeconds = Math.max(1, Math.round(start.timeLimitMs / 1000));
    // Half the load allowance shared out over the turns: a bot that stalls here gets the whole history instead, and
    // the load is not lost for it.
    const perTurnMs = Math.max(100, Math.floor((start.loadTimeLimitMs ?? start.timeLimitMs) / (2 * (responses.length + 1))));
    for (let i = 0; i < responses.length; i++) {
      const input = i === 0 ? this.wholeInput(codec, requests.slice(0, 1), [], limitSeconds) : line(requests[i]);
      const outcome = await this.spawnedTurn(session, input, perTurnMs, true);
      const answer = outcome.kind === 'failure' ? outcome.answer : this.answerOf(codec, outcome);
      const decoded = codec.decode(responses[i]);
      const expected = 'invalid' in decoded ? undefined : (decoded.move ?? PASS_VALUE);
      if (answer.kind !== 'move' || answer.value !== expected) {
        this.notes.push(`brought up to the game's ${responses.length} turns from the start, the bot answered ${answer.kind === 'move' ? String(answer.value) : answer.kind} where the game has ${String(expected)} at its turn ${i + 1}: it is restarted with the whole history instead`);
        this.kill();
        this.fed = 0;
        return;
      }
      this.fed = i + 1;
    }
    this.caughtUp = true;
  }

  async startGame(start: GameStart): Promise<PlayerAnswer> {
    const game = getGame(start.game);
    if (!game.botzone) {
      return { kind: 'error', message: `Botzone has no judge for ${game.title}: a Botzone bot plays ${botzoneGameIds().join(', ')}` };
    }
    if (this.options.interaction === 'simple' && !game.botzone.simpleInteraction) {
      return { kind: 'error', message: `Botzone's ${game.botzone.name} judge offers no simple interaction: read the JSON input ({"requests": [...], "responses": [...]}) instead` };
    }
    this.codec = game.botzone;
    this.side = start.side;
    if (this.caughtUp && this.kept === 'live') {
      this.caughtUp = false;
      return { kind: 'ready' };
    }
    this.caughtUp = false;
    this.kill();
    this.fed = 0;
    this.data = '';
    // A restarted bot starts on the first request (Botzone counts its start in the first turn's doubled limit); the
    // spawner's sandbox, which is the grader's and not the bot's, is started now, once per player, and a kept bot
    // (unless one is waiting, fresh, from load).
    const sandbox = await this.openSandbox();
    if (sandbox && this.options.keepRunning && this.kept !== 'fresh') await this.startKept(sandbox.session);
    return { kind: 'ready' };
  }

  async requestMove(request: MoveRequest): Promise<PlayerAnswer> {
    const codec = this.codec;
    if (!codec) return { kind: 'protocol', message: 'asked for a move before the game started' };
    const turns = (request.history ?? []).map((turn) => ({ side: turn.side, move: turn.kind === 'pass' ? null : (turn.move ?? null) }));
    const { requests, responses } = botzoneHistory(codec, this.side, turns);
    const limitSeconds = Math.max(1, Math.round(request.info.timeLimitMs / 1000));
    const live = this.bot;
    let outcome: TurnOutcome;
    const line = (value: unknown): string => `${this.options.interaction === 'json' ? JSON.stringify(value) : codec.toLine(value)}\n`;
    const sandbox = await this.openSandbox();
    if (sandbox && this.options.keepRunning) {
      outcome = await this.keptMove(sandbox.session, codec, requests, responses, request, line);
    } else if (live && !live.killed && !live.closedInput && this.fed > 0 && this.fed <= requests.length - 1) {
      // Kept running: only the new requests, one line each. The referee passes for a side without a move without
      // asking it; Botzone's judge asks, and a kept bot must answer that turn itself: it is fed those requests
      // first, and each answer must be the pass.
      for (let i = this.fed; i < requests.length - 1; i++) {
        const between = await this.turn(live, line(requests[i]), request.deadlineMs);
        if (between.kind === 'failure') return between.answer;
        const answer = this.answerOf(codec, between);
        if (answer.kind !== 'move') return answer;
        if (answer.value !== PASS_VALUE) {
          return { ...answer, value: `${String(answer.value)} (answered on a turn with no legal move, where Botzone wants the pass {"x": -1, "y": -1})` };
        }
        this.fed = i + 1;
      }
      outcome = await this.turn(live, line(requests[requests.length - 1]), request.deadlineMs);
    } else {
      this.kill();
      const input = this.wholeInput(codec, requests, responses, limitSeconds);
      // Without the spawner the turn's clock starts before the bot's whole sandbox is launched (as the referee's own
      // timer did): that launch's synchronous part can take hundreds of ms at load, and a clock started after it would
      // let the referee's backstop, counted from the ask, rule first.
      const asked = performance.now();
      outcome = sandbox ? await this.spawnedTurn(sandbox.session, input, request.deadlineMs ?? null, false) : await this.turn(this.spawnBot(), input, request.deadlineMs, asked);
    }
    this.fed = requests.length;
    if (outcome.kind === 'failure') return outcome.answer;
    const answer = this.answerOf(codec, outcome);
    return outcome.wallMs === undefined ? answer : { ...answer, timedMs: outcome.wallMs };
  }

  /** A turn's whole input, as a restarted bot (or a kept bot's first turn) gets it. */
  private wholeInput(codec: BotzoneCodec, requests: unknown[], responses: unknown[], limitSeconds: number): string {
    if (this.options.interaction === 'json') {
      return `${JSON.stringify({ requests, responses, data: this.data, globaldata: this.globaldata, time_limit: limitSeconds, memory_limit: this.memoryMb })}\n`;
    }
    return [String(requests.length), ...requests.flatMap((req, i) => (i < responses.length ? [codec.toLine(req), codec.toLine(responses[i])] : [codec.toLine(req)])), asLine(this.data), asLine(this.globaldata), ''].join('\n');
  }

  /**
   * A kept bot's turn through the spawner: the new requests only while it lives (with the pass turns the referee
   * did not ask, each answered by the pass), else a fresh bot and the whole input. Each turn is stopped at its
   * deadline inside the sandbox and timed there, from the spawner's receipt of the request to the marker.
   */
  private async keptMove(session: SpawnerSession, codec: BotzoneCodec, requests: unknown[], responses: unknown[], request: MoveRequest, line: (value: unknown) => string): Promise<TurnOutcome> {
    const deadline = request.deadlineMs ?? null;
    if (this.kept === 'live' && this.fed > 0 && this.fed <= requests.length - 1) {
      for (let i = this.fed; i < requests.length - 1; i++) {
        const between = await this.spawnedTurn(session, line(requests[i]), deadline, true);
        if (between.kind === 'failure') return between;
        const answer = this.answerOf(codec, between);
        if (answer.kind !== 'move') return { kind: 'failure', answer };
        if (answer.value !== PASS_VALUE) {
          return { kind: 'failure', answer: { ...answer, value: `${String(answer.value)} (answered on a turn with no legal move, where Botzone wants the pass {"x": -1, "y": -1})` } };
        }
        this.fed = i + 1;
      }
      return this.spawnedTurn(session, line(requests[requests.length - 1]), deadline, true);
    }
    if (this.kept !== 'fresh') {
      const started = await this.startKept(session);
      if (started) return { kind: 'failure', answer: { kind: 'crash', message: `the bot could not start: ${started}`, output: this.output.take() } };
    }
    const limitSeconds = Math.max(1, Math.round(request.info.timeLimitMs / 1000));
    return this.spawnedTurn(session, this.wholeInput(codec, requests, responses, limitSeconds), deadline, true);
  }

  /** Start a kept bot, stopped until its first request (any earlier one is killed); its failure said, else null. */
  private async startKept(session: SpawnerSession): Promise<string | null> {
    this.kept = null;
    const end = await session.startKept();
    // What it used before the stop (its exec) is not its first turn's.
    this.cpuBaseline = this.sandbox?.cgroup?.cpuMs() ?? this.cpuBaseline;
    if (end.kind === 'started') {
      this.kept = 'fresh';
      return null;
    }
    if (end.kind === 'not-started') return end.message;
    if (end.kind === 'sandbox-ended') this.dropSandbox();
    return "the bot's sandbox ended as it started";
  }

  async abort(): Promise<void> {
    const memory = this.run ? this.memoryAtDeadline(null) : this.bot ? this.memoryAtDeadline(null, this.bot.cgroup) : null;
    this.settle({ kind: 'failure', answer: memory ?? { kind: 'timeout', output: this.output.take() } });
    this.kill();
  }

  /**
   * A deadline stopped the bot while its memory group had reached its limit in this turn: the kernel was reclaiming
   * or about to kill it (at load that can outlast the turn), so the cause is the memory limit, named as such; null
   * when the limit was not reached.
   */
  private memoryAtDeadline(timedMs: number | null, group?: PlayerCgroup | null): PlayerAnswer | null {
    const cgroup = group === undefined ? this.sandbox?.cgroup : group;
    if (!cgroup || cgroup.limitHits() <= this.hitsBefore) return null;
    const peakMb = cgroup.peakMb();
    const peak = peakMb === null ? '' : ` (peak ${Math.round(peakMb)} MB)`;
    // The group's counters go on from here: the next turn starts in a fresh sandbox.
    if (group === undefined) this.dropSandbox();
    return { kind: 'memory', message: `reached its ${this.memoryMb} MB memory limit${peak} and was still running at its deadline: a memory blow-up, not a slow search`, ...(timedMs !== null ? { timedMs } : {}), output: this.output.take() };
  }

  async endGame(): Promise<void> {
    // Botzone ends a bot with its game (the next game's load() starts the next one): gone before this resolves, so
    // the next bot never shares the memory group with this one's dying.
    await this.kill();
  }

  async close(): Promise<void> {
    this.settle({ kind: 'failure', answer: { kind: 'crash', message: 'the player was closed while it was thinking' } });
    this.kill();
    const sandbox = this.sandbox;
    this.sandbox = null;
    sandbox?.session.close();
    await Promise.all(this.living);
    this.staged?.remove();
    this.staged = null;
  }

  /** The bot's output as an answer: the response through the game's codec; data and globaldata kept. */
  private answerOf(codec: BotzoneCodec, outcome: Extract<TurnOutcome, { kind: 'output' }>): PlayerAnswer {
    const cpuMs = outcome.cpuMs !== undefined || outcome.exited ? outcome.cpuMs : this.cpuSinceLast();
    const notes = this.notes.splice(0);
    const take = (): PlayerAnswer['output'] => {
      const captured = this.output.take();
      if (notes.length === 0) return captured;
      const text = `${captured?.text ?? ''}${notes.map((note) => `[referee] ${note}\n`).join('')}`;
      return { text, droppedBytes: captured?.droppedBytes ?? 0 };
    };
    if (outcome.exited && (outcome.code !== 0 || outcome.signal !== null) && outcome.text.trim() === '') {
      return this.exitFailure(outcome, take());
    }
    const parsed = this.parse(codec, outcome.text);
    if ('problem' in parsed) {
      if (outcome.exited && (outcome.code !== 0 || outcome.signal !== null)) return this.exitFailure(outcome, take());
      notes.push(parsed.problem);
      return { kind: 'move', value: outcome.text.trim().slice(0, 200), cpuMs, output: take() };
    }
    if (parsed.data !== undefined) {
      if (byteLength(parsed.data) > DATA_CAP_BYTES) notes.push(`data is over Botzone's 100 KB cap: dropped`);
      else this.data = parsed.data;
    }
    if (parsed.globaldata !== undefined) {
      if (byteLength(parsed.globaldata) > DATA_CAP_BYTES) notes.push(`globaldata is over Botzone's 100 KB cap: dropped`);
      else this.globaldata = parsed.globaldata;
    }
    const debug = parsed.debug === undefined || parsed.debug === null || parsed.debug === '' ? undefined : typeof parsed.debug === 'string' ? parsed.debug : JSON.stringify(parsed.debug);
    const decoded = codec.decode(parsed.response);
    let value: unknown;
    if ('invalid' in decoded) {
      notes.push(`invalid action: ${decoded.invalid}`);
      value = JSON.stringify(parsed.response) ?? String(parsed.response);
    } else value = decoded.move ?? PASS_VALUE;
    const answer: PlayerAnswer = { kind: 'move', value, cpuMs, output: take() };
    if (debug !== undefined) answer.debug = debug;
    return answer;
  }

  private exitFailure(outcome: Extract<TurnOutcome, { kind: 'output' }>, output: PlayerAnswer['output']): PlayerAnswer {
    if (outcome.oom) return { kind: 'memory', message: `exceeded the ${this.memoryMb} MB memory limit`, output };
    const stderr = this.output.stderrTail();
    // Without a cgroup the address-space limit stops it: the allocation failure is its own words.
    if (/std::bad_alloc|^MemoryError|heap out of memory|Cannot allocate memory/m.test(stderr) || JAVA_OUT_OF_MEMORY.test(stderr)) {
      return { kind: 'memory', message: `ran out of its ${this.memoryMb} MB memory limit`, output };
    }
    const tail = stderr.trim().split('\n').pop() ?? '';
    const how = outcome.signal ? `was killed by ${outcome.signal}` : `exited with code ${outcome.code}`;
    return { kind: 'crash', message: `the bot ${how} without an answer${tail ? `: ${tail.slice(0, 300)}` : ''}`, exitCode: outcome.code, signal: outcome.signal, output };
  }

  /** The bot's output in its interaction: the response and what it keeps. */
  private parse(codec: BotzoneCodec, text: string): Parsed {
    if (this.options.interaction === 'json') {
      const trimmed = text.trim();
      if (trimmed === '') return { problem: 'the bot printed nothing (Botzone wants one JSON line {"response": …})' };
      let value: unknown;
      try {
        value = JSON.parse(trimmed);
      } catch {
        try {
          value = JSON.parse(trimmed.split('\n')[0]);
        } catch {
          return { problem: `the output is not JSON: ${JSON.stringify(trimmed.slice(0, 80))} (Botzone wants one line {"response": …})` };
        }
      }
      if (typeof value !== 'object' || value === null || Array.isArray(value) || !('response' in value)) {
        return { problem: 'the output has no "response" field (Botzone wants {"response": …, "debug": …, "data": …})' };
      }
      const { response, debug, data, globaldata } = value as Record<string, unknown>;
      return { response, debug, data, globaldata };
    }
    const lines = text.replace(/\r/g, '').split('\n');
    while (lines.length > 0 && lines[0].trim() === '') lines.shift();
    if (lines.length === 0) return { problem: 'the bot printed nothing (the simple interaction wants the response on the first line)' };
    const response = codec.fromLine(lines[0]);
    if (response === undefined) return { problem: `the first line ${JSON.stringify(lines[0].slice(0, 80))} is not a response of this game` };
    const rest = lines.slice(1);
    while (rest.length > 0 && rest[rest.length - 1] === '') rest.pop();
    return {
      response,
      ...(rest.length > 0 ? { debug: rest[0] } : {}),
      ...(rest.length > 1 ? { data: rest[1] } : {}),
      ...(rest.length > 2 ? { globaldata: rest.slice(2).join('\n') } : {}),
    };
  }

  /**
   * Write a turn's input and wait for its output (the keep-running marker, or the process's exit). Without the
   * spawner the grader keeps the turn's time: from the input's write to the answer, less the time the grader's own
   * event loop waited, runnable, for a CPU since it last saw the bot without its answer (an answer sits in its pipe
   * while a busy grader waits to read it: that lateness is the grader's, as the spawner's is in the sandbox); at
   * `deadlineMs` a timer here kills the bot, ruled at the kill (or for memory, as through the spawner).
   */
  private turn(bot: Bot, input: string, deadlineMs?: number, startedAt = performance.now()): Promise<TurnOutcome> {
    return new Promise<TurnOutcome>((resolve) => {
      bot.waiting = resolve;
      bot.stdout = [];
      bot.stdoutBytes = 0;
      bot.cgroup?.resetPeak();
      this.hitsBefore = bot.cgroup?.limitHits() ?? 0;
      const clock: NonNullable<Bot['clock']> = { started: startedAt, waitMark: graderWaitedMs(), deadline: null };
      bot.clock = clock;
      if (deadlineMs !== undefined) {
        // Ruled after this loop turn's I/O (setImmediate): a timer that fires late, beside an answer already in the
        // pipe, must not beat it (node runs timers before it reads).
        clock.deadline = setTimeout(() => {
          setImmediate(() => {
            if (bot.clock !== clock || !bot.waiting) return;
            // Never under the limit: node's timers run on the loop's cached clock, a fraction of a ms behind.
            const timedMs = Math.max(deadlineMs, performance.now() - clock.started);
            const answer = this.memoryAtDeadline(timedMs, bot.cgroup) ?? { kind: 'timeout', timedMs, output: this.output.take() };
            this.settle({ kind: 'failure', answer });
            this.kill();
          });
        }, Math.max(0, deadlineMs - (performance.now() - startedAt)));
      }
      bot.stdin.write(input);
      if (!this.options.keepRunning && !bot.closedInput) {
        bot.closedInput = true;
        bot.stdin.end();
      }
      this.thaw(bot);
    });
  }

  private settle(outcome: TurnOutcome): void {
    const holder = this.run ?? this.bot;
    const waiting = holder?.waiting;
    if (!holder || !waiting) return;
    holder.waiting = null;
    if (holder === this.bot && this.bot.clock) {
      const clock = this.bot.clock;
      this.bot.clock = null;
      if (clock.deadline) clearTimeout(clock.deadline);
      // The answer's time on the grader's clock, less what the grader itself waited for a CPU since it last saw the bot
      // still thinking (see turn()).
      if (outcome.kind === 'output' && outcome.wallMs === undefined) {
        const noticed = performance.now() - clock.started;
        const late = graderWaitedMs() - clock.waitMark;
        outcome = { ...outcome, wallMs: Math.round((late > 0 && late < noticed ? noticed - late : noticed) * 1000) / 1000 };
      }
    }
    // stderr written just before the answer may sit in its pipe's callback of this same loop turn.
    setImmediate(() => waiting(outcome));
  }

  /** Keep a turn's output; past the cap the turn is a protocol loss and the bot is stopped (false). */
  private collect(holder: { stdout: Buffer[]; stdoutBytes: number }, chunk: Buffer): boolean {
    holder.stdout.push(chunk);
    holder.stdoutBytes += chunk.length;
    if (holder.stdoutBytes <= STDOUT_CAP_BYTES) return true;
    this.settle({ kind: 'failure', answer: { kind: 'protocol', message: `the bot printed over ${STDOUT_CAP_BYTES / 1024} KB in one turn (Botzone wants one response line)`, output: this.output.take() } });
    this.kill();
    return false;
  }

  private onStdout(bot: Bot, chunk: Buffer): void {
    if (this.bot !== bot) return;
    if (!this.collect(bot, chunk)) return;
    if (!bot.waiting) return;
    const text = Buffer.concat(bot.stdout).toString('utf8');
    const marker = text.indexOf(KEEP_RUNNING_MARKER);
    if (marker < 0) {
      // Read, and no answer in it: the answer comes after this look.
      if (bot.clock && this.options.keepRunning) bot.clock.waitMark = graderWaitedMs();
      return;
    }
    const before = text.slice(0, marker);
    if (bot.closedInput) {
      // It asked to keep running but its source did not say so (the marker was built at run time): its stdin is
      // closed, so the next turn restarts it with the whole history.
      this.notes.push('the bot printed the keep-running marker, which its source does not contain: it is restarted each turn');
      this.settle({ kind: 'output', text: before, exited: false, code: null, signal: null });
      this.kill();
      return;
    }
    this.settle({ kind: 'output', text: before, exited: false, code: null, signal: null });
    this.freeze(bot);
  }

  /**
   * Start `program` behind the sandbox's layers: the process (its stdin/stdout/stderr piped, its own process group),
   * and its cgroup. Anything that fails before the program runs is the grader's.
   */
  private launch(program: (staged: StagedProgram) => WholeProgram, realtime = false): { proc: ChildProcess; cgroup: PlayerCgroup | null } {
    const refusal = isolationRefusal(this.layers);
    if (refusal) throw new GraderError(refusal);
    if (!isHardened(this.layers, 'cpp')) {
      if (!warned) process.stderr.write(`${fallbackWarning(this.layers)}\n`);
      warned = true;
    }
    let cgroup: PlayerCgroup | null = null;
    let whole: WholeProgram;
    try {
      whole = program(this.stage());
      cgroup = this.layers.cgroup ? new PlayerCgroup(this.layers.cgroup, this.memoryMb, this.options.pidsMax ?? 64) : null;
    } catch (error) {
      if (error instanceof GraderError) throw error;
      throw new GraderError(`the sandbox could not be prepared: ${(error as Error).message}`);
    }
    protectGrader();
    const staged = this.staged!;
    const plan = launchPlan({
      layers: this.stagedLayers(),
      hostPath: whole.argv[0],
      config: { bundle: staged.entry, game: this.options.game, allow: [] },
      submissionRoot: staged.dir,
      memoryMb: this.memoryMb,
      joinFiles: cgroup ? cgroup.joinFiles() : [],
      program: whole,
    });
    // The spawner at real-time priority where the grader may grant it (see botzone-spawner.c: its deadlines).
    const prefix = realtime ? realtimePrefix() : [];
    const command = [...prefix, plan.command, ...plan.args];
    const proc = spawn(command[0], command.slice(1), {
      stdio: ['pipe', 'pipe', 'pipe', plan.stdin ? 'pipe' : 'ignore'],
      detached: true,
      env: {},
      cwd: staged.dir,
    });
    const filter = proc.stdio[3] as Writable | null;
    if (plan.stdin && filter) {
      filter.on('error', () => undefined);
      filter.end(plan.stdin);
    }
    return { proc, cgroup };
  }

  private spawnBot(): Bot {
    const { proc, cgroup } = this.launch((staged) => this.programFor(staged));
    const bot: Bot = {
      process: proc,
      stdin: proc.stdin as Writable,
      cgroup,
      groups: new Set(proc.pid ? [proc.pid] : []),
      fixedPids: null,
      killed: false,
      frozen: false,
      closedInput: false,
      stdout: [],
      stdoutBytes: 0,
      exited: Promise.resolve(),
      waiting: null,
      clock: null,
    };
    this.bot = bot;
    this.cpuBaseline = 0;
    bot.stdin.on('error', () => {
      // EPIPE: the bot exited without reading everything; its exit is what counts.
    });
    proc.stdout?.on('data', (chunk: Buffer) => this.onStdout(bot, chunk));
    proc.stderr?.on('data', (chunk: Buffer) => this.output.add(chunk, true));
    proc.once('error', (error) => {
      if (this.bot === bot) this.settle({ kind: 'failure', answer: { kind: 'crash', message: `the bot could not start: ${error.message}` } });
    });
    bot.exited = new Promise((resolve) => {
      proc.once('close', (code, signal) => {
        if (this.bot === bot && !bot.killed) {
          // bubblewrap and the unshare shell report a death by signal N as 128 + N.
          const bySignal = code !== null && code > 128 && code < 160 ? signalName(code - 128) : signal;
          // Read the cgroup now: it is removed below, before the answer is judged.
          const oom = cgroup?.oomKilled() ?? false;
          const cpuMs = this.cpuSinceLast();
          this.settle({ kind: 'output', text: Buffer.concat(bot.stdout).toString('utf8'), exited: true, code: bySignal ? null : code, signal: bySignal ?? null, oom, ...(cpuMs !== undefined ? { cpuMs } : {}) });
        }
        void (cgroup?.destroy() ?? Promise.resolve()).then(() => resolve());
      });
    });
    const exited = bot.exited;
    this.living.add(exited);
    void exited.then(() => this.living.delete(exited));
    return bot;
  }

  /**
   * The spawner's sandbox for a restart-per-turn bot, started once and kept across turns and games; null where the
   * spawner is missing (no C compiler to build it, not Linux) or switched off (REFEREE_BOTZONE_SPAWNER=0): each
   * turn then starts a whole sandbox.
   */
  private async openSandbox(): Promise<{ session: SpawnerSession } | null> {
    if (this.sandbox?.session.alive) return this.sandbox;
    this.sandbox = null;
    this.withoutSpawner = false;
    if (process.env.REFEREE_BOTZONE_SPAWNER === '0' || !this.layers.process.rlimits) return this.noSpawner();
    const built = nativeTools().spawner;
    if (!built) return this.noSpawner();
    if (realtimePrefix().length === 0) return this.startSandbox(built, false);
    try {
      return await this.startSandbox(built, true);
    } catch (error) {
      // A host where real-time priority is granted but the sandbox cannot start with it (a cgroup without real-time
      // runtime): without it from now on, the spawner at normal priority.
      if (!(error instanceof GraderError)) throw error;
      refuseRealtime();
      return this.startSandbox(built, false);
    }
  }

  private noSpawner(): null {
    this.withoutSpawner = true;
    return null;
  }

  private async startSandbox(built: string, realtime: boolean): Promise<{ session: SpawnerSession }> {
    // The bot's own filter, installed by the forked child on itself before exec: no process, signals to itself only.
    const botFilter = this.layers.seccomp ? ['--seccomp', seccompProgram('no-fork', process.arch, { selfSignalsOnly: true }).toString('hex')] : [];
    const spawner = `${stageShared(dirname(built))}/${basename(built)}`;
    const { proc, cgroup } = this.launch((staged) => {
      const bot = this.programFor(staged);
      return { argv: [spawner, ...botFilter, '--', ...bot.argv], binds: [spawner, ...bot.binds], seccomp: 'spawner', readsOwnWaits: true };
    }, realtime);
    const session = new SpawnerSession(proc);
    proc.stderr?.on('data', (chunk: Buffer) => this.output.add(chunk, true));
    proc.once('error', () => undefined);
    const closed = new Promise<void>((resolve) => {
      proc.once('close', () => {
        signalGroups(new Set(proc.pid ? [proc.pid] : []), 'SIGKILL');
        signalPids(cgroup?.pids() ?? [], 'SIGKILL');
        void (cgroup?.destroy() ?? Promise.resolve()).then(() => resolve());
      });
    });
    this.living.add(closed);
    void closed.then(() => this.living.delete(closed));
    const sandbox = { session, cgroup, closed };
    this.sandbox = sandbox;
    this.cpuBaseline = cgroup?.cpuMs() ?? 0;
    try {
      await session.ready;
    } catch {
      this.sandbox = null;
      await closed;
      const said = this.output.stderrTail().trim().split('\n').pop() ?? '';
      this.output.take();
      if (this.layers.bwrap) forgetBwrapProbe(); // the next process probes bubblewrap live (layers.ts)
      throw new GraderError(`the Botzone bot's sandbox could not start${said ? `: ${said.slice(0, 300)}` : ''}`);
    }
    // What the sandbox printed while starting is not the bot's.
    this.output.take();
    return sandbox;
  }

  /** One restart-per-turn run through the spawner: the input, then the bot's output when it ends (or its deadline). */
  private spawnedTurn(session: SpawnerSession, input: string, deadlineMs: number | null, kept: boolean): Promise<TurnOutcome> {
    return new Promise<TurnOutcome>((resolve) => {
      const run: SpawnedRun = { stdout: [], stdoutBytes: 0, waiting: resolve };
      this.run = run;
      this.sandbox?.cgroup?.resetPeak();
      this.hitsBefore = this.sandbox?.cgroup?.limitHits() ?? 0;
      if (kept) this.kept = 'live';
      const onStdout = (chunk: Buffer): void => this.onSpawnedStdout(session, run, chunk, kept);
      void (kept ? session.turn(input, deadlineMs, onStdout) : session.start(input, deadlineMs, onStdout)).then((end) => this.onSpawnedEnd(run, end));
    });
  }

  private onSpawnedStdout(session: SpawnerSession, run: SpawnedRun, chunk: Buffer, kept: boolean): void {
    if (this.run !== run || !run.waiting) return;
    if (!this.collect(run, chunk)) return;
    // A kept bot's marker ends its turn in the spawner (which stops the bot and says 'paused').
    if (kept) return;
    const text = Buffer.concat(run.stdout).toString('utf8');
    const marker = text.indexOf(KEEP_RUNNING_MARKER);
    if (marker < 0) return;
    // It asked to keep running but its source did not say so (the marker was built at run time): answered now, and
    // the next turn starts it afresh with the whole history.
    this.notes.push('the bot printed the keep-running marker, which its source does not contain: it is restarted each turn');
    this.settle({ kind: 'output', text: text.slice(0, marker), exited: false, code: null, signal: null });
    this.run = null;
    session.kill();
  }

  private onSpawnedEnd(run: SpawnedRun, end: SpawnedEnd): void {
    if (this.run !== run) return;
    const cgroup = this.sandbox?.cgroup ?? null;
    // The group outlives the run: a memory kill ends this sandbox, so the next run's group starts unmarked.
    const oom = cgroup?.oomKilled() ?? false;
    const text = Buffer.concat(run.stdout).toString('utf8');
    const total = cgroup?.cpuMs() ?? null;
    let cpuMs: number | undefined;
    if (total !== null) {
      cpuMs = Math.max(0, Math.round((total - this.cpuBaseline) * 1000) / 1000);
      this.cpuBaseline = total;
    } else if (end.kind === 'exit') cpuMs = Math.round(end.cpuMs * 1000) / 1000;
    if (oom || end.kind === 'sandbox-ended') this.dropSandbox();
    if (end.kind !== 'paused') this.kept = null;
    if (end.kind === 'paused') {
      // A kept bot's answer: what it printed before the marker; it is stopped, waiting for the next request.
      const marker = text.indexOf(KEEP_RUNNING_MARKER);
      this.settle({ kind: 'output', text: marker < 0 ? text : text.slice(0, marker), exited: false, code: null, signal: null, wallMs: end.wallMs, ...(cpuMs !== undefined ? { cpuMs } : {}) });
    } else if (end.kind === 'exit' && end.overLimit && !oom) {
      // Stopped at its deadline inside the sandbox: the ruling's time is the spawner's, not the grader's wake-up.
      this.settle({ kind: 'failure', answer: this.memoryAtDeadline(end.wallMs) ?? { kind: 'timeout', timedMs: end.wallMs, output: this.output.take() } });
    } else if (end.kind === 'exit') {
      this.settle({ kind: 'output', text, exited: true, code: end.code, signal: end.signal, oom, wallMs: end.wallMs, ...(cpuMs !== undefined ? { cpuMs } : {}) });
    } else if (end.kind === 'not-started' || end.kind === 'started') {
      const message = end.kind === 'started' ? 'the spawner answered a turn with a start' : end.message;
      this.settle({ kind: 'failure', answer: { kind: 'crash', message: `the bot could not start: ${message}`, output: this.output.take() } });
    } else {
      this.settle(oom ? { kind: 'output', text, exited: true, code: null, signal: 'SIGKILL', oom } : { kind: 'failure', answer: { kind: 'crash', message: "the bot's sandbox ended during its turn", output: this.output.take() } });
    }
    this.run = null;
  }

  /** End the spawner's sandbox (the next turn starts a new one). */
  private dropSandbox(): void {
    const sandbox = this.sandbox;
    this.sandbox = null;
    if (!sandbox) return;
    sandbox.session.close();
    signalGroups(new Set(sandbox.session.process.pid ? [sandbox.session.process.pid] : []), 'SIGKILL');
  }

  /** The private staged copy of the bot, made once per player (read-only inside the sandbox). */
  private stage(): StagedProgram {
    if (this.staged) return this.staged;
    const entry = this.options.bundlePath;
    if (this.options.language === 'C++') {
      this.staged = stageProgram(dirname(entry), [entry], entry, 'bz');
      chmodSync(this.staged.entry, 0o755);
    } else if (this.options.language === 'Java') {
      // The class folder (Main.class and its inner classes) is the class path.
      this.staged = stageProgram(dirname(entry), this.options.files ?? [entry], entry, 'bz');
    } else {
      this.staged = stageProgram(this.options.submissionRoot, this.options.files ?? [entry], entry, 'bz');
    }
    return this.staged;
  }

  private programFor(staged: StagedProgram): WholeProgram {
    if (this.options.language === 'C++') return { argv: [staged.entry], binds: [] };
    if (this.options.language === 'Python') {
      const python = findPython();
      if (!python) throw new GraderError(noPython());
      // -E -s: no environment or user site (-I would also drop the script's folder from sys.path: its modules).
      return { argv: [python.path, '-E', '-s', '-B', staged.entry], binds: [python.path, ...python.binds] };
    }
    if (this.options.language === 'Java') {
      const java = findJava();
      if (!java) throw new GraderError(noJava());
      // Botzone's `java Main`, with the JVM's own ceilings from the memory limit (the bound where no cgroup is).
      return { argv: [java.java, ...javaMemoryFlags(this.memoryMb), ...JAVA_UTF8_FLAGS, '-cp', staged.dir, JAVA_MAIN_CLASS], binds: [java.home, ...java.binds] };
    }
    const node = process.execPath;
    const permission = this.layers.permissionFlag ? [this.layers.permissionFlag, `--allow-fs-read=${staged.dir}`] : [];
    return { argv: [node, `--max-old-space-size=${this.memoryMb}`, ...permission, staged.entry], binds: [node] };
  }

  /** The layers with the Landlock launcher staged where an unprivileged bot can run it. */
  private stagedLayers(): Layers {
    const landlock = this.layers.landlock;
    if (this.layers.bwrap || !landlock?.launcher) return this.layers;
    return { ...this.layers, landlock: { ...landlock, launcher: `${stageShared(dirname(landlock.launcher))}/${basename(landlock.launcher)}` } };
  }

  /** Stop a kept-running bot between turns, as Botzone's judge does. */
  private freeze(bot: Bot): void {
    if (bot.killed || bot.frozen) return;
    if (bot.fixedPids === null) {
      const tree = processTree(bot.process.pid ?? 0);
      for (const pid of tree) bot.groups.add(processGroup(pid));
      // With the no-fork filter in place the bot can start no process: its pids now are all it will ever have.
      if (this.layers.seccomp) bot.fixedPids = tree;
    }
    if (bot.fixedPids) signalPids(bot.fixedPids, 'SIGSTOP');
    else if (!bot.cgroup?.setFrozen(true)) signalGroups(bot.groups, 'SIGSTOP');
    bot.frozen = true;
  }

  private thaw(bot: Bot): void {
    if (!bot.frozen) return;
    if (bot.fixedPids) signalPids(bot.fixedPids, 'SIGCONT');
    else if (!bot.cgroup?.setFrozen(false)) signalGroups(bot.groups, 'SIGCONT');
    bot.frozen = false;
  }

  /** Ends the bot; resolves once it is gone (a kept bot reaped by the spawner, or the bot's sandbox ended). */
  private kill(): Promise<void> {
    const run = this.run;
    const dropped = this.kept === 'live' && !run ? this.sandbox?.session.dropKept() : undefined;
    if (this.kept === 'live' || run) this.kept = null;
    if (run) {
      this.run = null;
      this.sandbox?.session.kill();
      const waiting = run.waiting;
      run.waiting = null;
      if (waiting) setImmediate(() => waiting({ kind: 'failure', answer: { kind: 'timeout', output: this.output.take() } }));
    }
    const bot = this.bot;
    if (!bot) return dropped ?? Promise.resolve();
    this.bot = null;
    bot.killed = true;
    if (bot.clock?.deadline) clearTimeout(bot.clock.deadline);
    bot.clock = null;
    const pids = bot.cgroup?.pids() ?? [];
    signalGroups(bot.groups, 'SIGKILL');
    signalPids(pids, 'SIGKILL');
    bot.cgroup?.setFrozen(false);
    signalPids(processTree(bot.process.pid ?? 0).slice(1), 'SIGKILL');
    if (bot.frozen) signalPids(bot.fixedPids ?? [], 'SIGCONT');
    const waiting = bot.waiting;
    bot.waiting = null;
    if (waiting) setImmediate(() => waiting({ kind: 'failure', answer: { kind: 'timeout', output: this.output.take() } }));
    return Promise.all([dropped, bot.exited]).then(() => undefined);
  }

  private cpuSinceLast(): number | undefined {
    const total = this.bot?.cgroup?.cpuMs() ?? null;
    if (total === null) return undefined;
    const used = total - this.cpuBaseline;
    this.cpuBaseline = total;
    return Math.max(0, Math.round(used * 1000) / 1000);
  }
}

let warned = false;
