/**
 * One game with the course platform's game.py semantics, through the Game and Player interfaces only:
 * Black moves first; a side without a legal move passes without being asked; the game ends when neither side
 * can move; each turn the player is asked up to illegalMoveLimit times, each ask under its own full time limit;
 * a failure loses at once with diff forcedLossDiff.
 */
import { other, type Game, type Side } from '../games/game.js';
import { abortWithin, askCrediting, askWithin, CREDIT_STRETCH, settleWithin, type Asked } from './ask.js';
import { BUSY_FIX, GraderError, StalledGame, isStalledGame } from './grader-error.js';
import { configForGame, DEFAULT_REFEREE_CONFIG, timeFactor, type RefereeConfig } from './config.js';
import { describeValue } from './describe-value.js';
import { findLegalMove } from './legal-move.js';
import type { CapturedOutput, GameStart, MoveInfo, MoveRequest, PlayedMove, Player, PlayerAnswer } from './player.js';
import {
  isErrorSite,
  RECORD_FORMAT,
  type ErrorSite,
  type ForfeitRecord,
  type GameEnd,
  type GameRecord,
  type IllegalAttempt,
  type IllegalReason,
  type StartRecord,
  type TurnRecord,
} from './record.js';
import { capText, describeFailure, type FailureAnswer } from './verdict.js';

export interface PlayGameOptions<S, M> {
  game: Game<S, M>;
  black: Player;
  white: Player;
  seed: number;
  /** Defaults fill in what is missing (see resolveConfig). */
  config?: Partial<RefereeConfig>;
  /** Called after each turn with the state it led to (live viewers, progress). */
  onTurn?: (turn: TurnRecord, state: S) => void;
  /**
   * Awaited before a side is asked for a turn, before its clock starts (serve's AI vs AI pacing: pause, step, speed),
   * so a paced game is timed exactly as a graded one. `moveNumber` is the side's own turn count, from 1.
   */
  beforeTurn?: (side: Side, moveNumber: number) => Promise<void> | void;
  /**
   * Where each side's clocks stand when this run starts (serve replays a game's history — after undo, or a
   * server restart — and the history's own time, bank and strikes carry on). Clamped to the config's limits.
   */
  clocks?: PlayerClocks;
}

/** Per side: time used, time bank left, strikes so far. */
export interface PlayerClocks {
  timeUsedMs: [number, number];
  bankLeftMs: [number | null, number | null];
  strikes: [number, number];
}

const clamp = (value: unknown, low: number, high: number, otherwise: number): number => (typeof value === 'number' && Number.isFinite(value) ? Math.min(high, Math.max(low, value)) : otherwise);

const STACK_CAP = 4000;
/** Botzone keeps at most 1 KB of a bot's debug per turn in its log. */
const DEBUG_CAP = 1024;

/** A failed attempt's output with its Botzone debug line (an illegal answer keeps both for the report). */
function withDebug(output: CapturedOutput | undefined, debug: string | undefined): CapturedOutput {
  const text = `${output?.text ?? ''}${debug !== undefined ? `[debug] ${debug}\n` : ''}`;
  return { text, droppedBytes: output?.droppedBytes ?? 0 };
}

/** How the side stood under the time policies when it ran out, for the loss's message ('' without policies). */
function policyNote(config: RefereeConfig, bankLeftMs: number, strikes: number): string {
  const notes: string[] = [];
  if (config.timeBankMs) notes.push(`time bank ${Math.round(bankLeftMs)} of ${config.timeBankMs} ms left`);
  if (config.strikeLimit !== undefined) notes.push(`${strikes} of ${config.strikeLimit} strikes used`);
  return notes.join(', ');
}

/**
 * Constructions the grader's machine stalled before the game is a grader error instead (never a student's loss); and
 * times a game is played in all when a move stalls (playGameUnstalled).
 */
export const STALL_ATTEMPTS = 3;

/** The load allowance of a config written before loadTimeoutMs existed. */
const DEFAULT_LOAD_MS = DEFAULT_REFEREE_CONFIG.loadTimeoutMs as number;

const roundMs = (ms: number): number => Math.round(ms * 1000) / 1000;

function cleanCpu(cpuMs: unknown): number | undefined {
  return typeof cpuMs === 'number' && Number.isFinite(cpuMs) && cpuMs >= 0 ? roundMs(cpuMs) : undefined;
}

/** The player already capped its output; this only keeps the record JSON-safe and drops empty captures. */
function cleanOutput(output: CapturedOutput | undefined): CapturedOutput | undefined {
  if (output === undefined || output === null || typeof output !== 'object') return undefined;
  const text = typeof output.text === 'string' ? output.text : '';
  const droppedBytes = typeof output.droppedBytes === 'number' && output.droppedBytes > 0 ? output.droppedBytes : 0;
  return text === '' && droppedBytes === 0 ? undefined : { text, droppedBytes };
}

const REASON_WORDS: Record<IllegalReason, string> = {
  'not-a-string': 'not a string',
  'not-notation': 'not move notation',
  'not-legal': 'not a legal move',
};

function illegalMessage(attempts: readonly IllegalAttempt[]): string {
  // The same answer repeated is listed once, with how many times it came ('"D4" (D4 is taken) 3 times').
  const listed = new Map<string, number>();
  for (const { returned, reason, why } of attempts) {
    const shown = returned.type === 'string' ? JSON.stringify(returned.text) : returned.text;
    const text = `${shown} (${why ?? REASON_WORDS[reason]})`;
    listed.set(text, (listed.get(text) ?? 0) + 1);
  }
  const count = attempts.length === 1 ? 'an illegal answer' : `${attempts.length} illegal answers in one turn`;
  const answers = [...listed].map(([text, times]) => (times === 1 ? text : `${text} ${times} times`));
  return capText(`${count}: ${answers.join(', ')}`, 1000);
}

interface Failure {
  verdict: ForfeitRecord['verdict'];
  message: string;
  stack?: string;
  where?: ErrorSite;
  signal?: string;
  output?: CapturedOutput;
}

function failureOf(answer: PlayerAnswer, limitMs: number, asked: 'startGame' | 'requestMove'): Failure {
  if (answer.kind === 'move' || answer.kind === 'ready') {
    const message = `answered '${answer.kind}' to ${asked}`;
    return { verdict: 'protocol', message, output: cleanOutput(answer.output) };
  }
  const failure: Failure = {
    verdict: answer.kind,
    message: describeFailure(answer as FailureAnswer, limitMs),
    output: cleanOutput(answer.output),
  };
  if ((answer.kind === 'error' || answer.kind === 'crash') && typeof answer.stack === 'string') failure.stack = capText(answer.stack, STACK_CAP);
  if (answer.kind === 'crash' && typeof answer.signal === 'string' && /^SIG[A-Z0-9]{1,12}$/.test(answer.signal)) failure.signal = answer.signal;
  if (answer.kind === 'error' && isErrorSite(answer.where)) failure.where = { file: capText(answer.where.file, 300), line: answer.where.line, function: capText(answer.where.function, 200) };
  return failure;
}

/** A timer that fired, or an answer that arrived after the limit anyway (a synchronous in-process agent). */
/** The wait for a trusted player: Node's longest timer, i.e. no limit in practice. */
const UNTIMED_MS = 2 ** 31 - 1;

/** The wait the referee allows a player: the rule's limit, or none for a trusted reference AI. */
const waitFor = (player: Player, limitMs: number): number => (player.trusted === true ? UNTIMED_MS : limitMs);

/**
 * An ask as the rules see it: `wallMs` is the player's own time (the wall time less `waitedMs`, the CPU waits the
 * referee credited; all of it where nothing was credited).
 */
interface OwnAsk extends Asked {
  waitedMs?: number;
}

/** ", of its own time (1840 ms in all, 1390 ms of them waiting for a CPU, not counted)" where a wait was credited. */
function creditNote(asked: OwnAsk): string {
  const waited = asked.waitedMs ?? 0;
  return waited >= 1 ? ` of its own time (${Math.round(asked.wallMs + waited)} ms in all, ${Math.round(waited)} ms of them waiting for a CPU, not counted)` : '';
}

function lateness(asked: OwnAsk, limitMs: number): Failure | null {
  if (limitMs === UNTIMED_MS) return null;
  if (asked.answer === null) return { verdict: 'timeout', message: `no answer within ${limitMs} ms${creditNote(asked)}` };
  if (asked.wallMs > limitMs) {
    const message = `answered after ${Math.round(asked.wallMs)} ms${creditNote(asked)}, over the ${limitMs} ms limit`;
    return { verdict: 'timeout', message };
  }
  return null;
}

function forfeit(
  side: Side,
  phase: ForfeitRecord['phase'],
  failure: Failure,
  attempts: IllegalAttempt[],
  wallMs: number,
  turnMs: number | undefined,
  rule: string,
  cpuWaitMs = 0,
): ForfeitRecord {
  const { verdict, message } = failure;
  const record: ForfeitRecord = { side, verdict, message, phase, attempts, wallMs: roundMs(wallMs) };
  if (cpuWaitMs >= 1) record.cpuWaitMs = roundMs(cpuWaitMs);
  if (turnMs !== undefined && attempts.length > 0) record.turnMs = roundMs(turnMs);
  record.rule = rule;
  if (failure.stack !== undefined) record.stack = failure.stack;
  if (failure.where !== undefined) record.where = failure.where;
  if (failure.signal !== undefined) record.signal = failure.signal;
  if (failure.output !== undefined) record.output = failure.output;
  return record;
}

function turnTimeFailure(turnMs: number, limitMs: number, ranOut: boolean): Failure {
  const what = ranOut
    ? `no answer before the ${limitMs} ms turn limit ran out`
    : `the turn took ${Math.round(turnMs)} ms over its asks, over the ${limitMs} ms turn limit`;
  return { verdict: 'timeout', message: `${what} (game.py times the whole turn, retries included)` };
}

const cleanCount = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isSafeInteger(value) && value > 0 ? value : undefined;

/** game.py's human-quit answer. */
const QUIT = 'Q';

/** The count that decides a quit game, or null for a game whose position has no count (then 'Q' is illegal). */
function quitScore<S, M>(game: Game<S, M>, state: S): ReturnType<Game<S, M>['outcome']> | null {
  try {
    return game.outcome(state);
  } catch {
    return null;
  }
}

function quitEnd<S, M>(game: Game<S, M>, state: S, quitBy: Side): GameEnd {
  const { winner, score, diff } = quitScore(game, state)!;
  return { winner, reason: 'quit', quitBy, score: [score[0], score[1]], diff, finalState: game.encode(state) };
}

const ordinal = (n: number): string => `${n}${n % 10 === 1 && n !== 11 ? 'st' : n % 10 === 2 && n !== 12 ? 'nd' : n % 10 === 3 && n !== 13 ? 'rd' : 'th'}`;

/** Which rule decided a loss, in words, for records and `referee play --explain`. */
export const RULES = {
  moveTime: (c: RefereeConfig) => `moveTimeoutMs: each ask must be answered within ${c.moveTimeoutMs} ms (func_timeout in game.py)`,
  turnTime: (c: RefereeConfig) =>
    `turnTimeoutMs: the whole turn, every ask included, must take at most ${c.turnTimeoutMs} ms (game.py's es_time check); checked after the illegal-answer limit and before the board`,
  constructTime: (c: RefereeConfig) => `constructTimeoutMs: building the AIPlayer must take at most ${c.constructTimeoutMs} ms (loading not included)`,
  loadTime: (c: RefereeConfig) =>
    `loadTimeoutMs: loading the submission (imports, module-level code, static initialisers) must take at most ${c.loadTimeoutMs ?? DEFAULT_LOAD_MS} ms`,
  illegal: (c: RefereeConfig, boardChanged: boolean) =>
    `illegalMoveLimit: the ${ordinal(c.illegalMoveLimit)} illegal answer in one turn loses` +
    (boardChanged ? "; checked before the board, as game.py does, so the changed board does not decide" : ''),
  strikes: (c: RefereeConfig) =>
    `strikeLimit: a move over its limit is played and costs a strike; strike ${c.strikeLimit} loses` +
    (c.timeBankMs ? ` (after the ${c.timeBankMs} ms time bank is spent)` : ''),
  tamper:
    'tamperLoses: the board after the turn must equal the board before it (game.py compares board._board once, after the turn)',
  failure: (verdict: ForfeitRecord['verdict']) =>
    ({
      error: "an exception raised by the player loses at once (game.py does not catch it: the game stops there; only func_timeout's FunctionTimedOut becomes a None answer, asked again)",
      crash: "the player's process died: a crash loses at once",
      memory: 'memoryMb: the player exceeded its memory ceiling',
      protocol: "the player's host broke the protocol: that loses at once",
      timeout: 'moveTimeoutMs: the host reported the deadline',
      illegal: 'illegalMoveLimit',
      tamper: 'tamperLoses',
    })[verdict],
} as const;

function endOf<S, M>(game: Game<S, M>, state: S, loser: ForfeitRecord | undefined, config: RefereeConfig): GameEnd {
  const finalState = game.encode(state);
  if (loser) {
    const { side, verdict } = loser;
    return { winner: other(side), reason: verdict, loser, score: null, diff: config.forcedLossDiff, finalState };
  }
  const { winner, score, diff } = game.outcome(state);
  return { winner, reason: 'score', score: [score[0], score[1]], diff, finalState };
}

export async function playGame<S, M>(options: PlayGameOptions<S, M>): Promise<GameRecord> {
  const { game, seed, onTurn } = options;
  const config = configForGame(options.game, options.config);
  const players: readonly [Player, Player] = [options.black, options.white];
  if (players[0] === players[1]) {
    throw new Error('playGame: black and white are the same Player object; create one Player per side for self-play');
  }
  if (!Number.isSafeInteger(seed)) throw new RangeError(`playGame: seed must be an integer (got ${String(seed)})`);

  let state = game.initial(seed, config.gameRules);
  const initialState = game.encode(state);
  const turns: TurnRecord[] = [];
  const start: StartRecord[] = [];
  const timeUsedMs = [0, 0];
  const turnsAsked = [0, 0];
  /** Per side: what is left of the time bank, whether the side has drawn on it, and its strikes so far. */
  const bankLeftMs = [config.timeBankMs ?? 0, config.timeBankMs ?? 0];
  const bankUsed = [false, false];
  const strikes = [0, 0];
  for (const side of [0, 1] as const) {
    const clocks = options.clocks;
    if (!clocks) break;
    timeUsedMs[side] = clamp(clocks.timeUsedMs[side], 0, Number.MAX_SAFE_INTEGER, 0);
    const bank = clocks.bankLeftMs[side];
    if (bank !== null && config.timeBankMs) [bankLeftMs[side], bankUsed[side]] = [clamp(bank, 0, config.timeBankMs, config.timeBankMs), true];
    // Never at the losing strike: a history that reached it would have ended.
    if (config.strikeLimit !== undefined) strikes[side] = Math.floor(clamp(clocks.strikes[side], 0, config.strikeLimit - 1, 0));
  }
  let loser: ForfeitRecord | undefined;
  let quitBy: Side | undefined;

  /**
   * Load the player's submission if it has to be (Player.load: imports, static initialisers, once per process),
   * timed apart from construction against loadTimeoutMs; a failure there loses for that side. The time is kept in
   * the start record (loadMs).
   */
  const loadPlayer = async (side: Side, startInfo: GameStart, entry: StartRecord): Promise<ForfeitRecord | undefined> => {
    const player = players[side];
    if (!player.load) return undefined;
    const loadTimeoutMs = startInfo.loadTimeLimitMs as number;
    const limitMs = waitFor(player, loadTimeoutMs);
    const asked = await askWithin(() => player.load!(startInfo), limitMs);
    entry.loadMs = roundMs(asked.wallMs);
    const output = cleanOutput(asked.answer?.output);
    if (output) entry.output = output;
    let answer = asked.answer;
    if (answer === null) {
      const cause = await abortWithin(player, `loading took over ${limitMs} ms`, limitMs);
      answer = cause ?? { kind: 'timeout', loading: true, message: `loading the submission took over ${limitMs} ms (the load allowance, loadTimeoutMs)` };
    }
    if (answer.kind === 'ready') {
      return lateness(asked, limitMs) ? forfeit(side, 'start', { verdict: 'timeout', message: `loading the submission took ${Math.round(asked.wallMs)} ms, over the ${limitMs} ms load allowance` }, [], asked.wallMs, undefined, RULES.loadTime(config)) : undefined;
    }
    const failure = failureOf(answer, limitMs, 'startGame');
    const rule = answer.kind === 'timeout' ? RULES.loadTime(config) : RULES.failure(failure.verdict);
    return forfeit(side, 'start', failure, [], asked.wallMs, undefined, rule);
  };

  /** Build one player (after loading it, see loadPlayer); a failure there loses for that side. */
  const startPlayer = async (side: Side): Promise<ForfeitRecord | undefined> => {
    const player = players[side];
    const limitMs = waitFor(player, config.constructTimeoutMs);
    const startInfo: GameStart = {
      game: game.id,
      side,
      seed,
      initialState,
      seedRandom: config.seedPlayerRandom !== false,
      timeLimitMs: config.constructTimeoutMs,
      ...(player.load ? { loadTimeLimitMs: config.loadTimeoutMs ?? DEFAULT_LOAD_MS } : {}),
    };
    const entry: StartRecord = { wallMs: 0 };
    start[side] = entry;
    const unloaded = await loadPlayer(side, startInfo, entry);
    if (unloaded) {
      entry.wallMs = 0;
      return unloaded;
    }
    // The time it waited for a CPU is not counted (askCrediting): a busy grader is not a slow constructor. A
    // construction the machine kept from running at all is started again, and after STALL_ATTEMPTS a grader error.
    let asked = await askCrediting(() => player.startGame(startInfo), limitMs, (withState) => player.scheduling?.(withState) ?? null);
    for (let stalls = 1; asked.stalled; stalls++) {
      if (asked.answer === null) await abortWithin(player, 'the grader stalled construction', limitMs);
      entry.stalls = stalls;
      if (stalls >= STALL_ATTEMPTS) {
        throw new GraderError(
          `building ${player.name}'s AIPlayer could not be timed fairly: it waited ${Math.round(asked.waitedMs)} ms for a CPU in ${Math.round(asked.wallMs)} ms, ${STALL_ATTEMPTS} times (the grader's machine was busy): ${BUSY_FIX}`,
        );
      }
      const unloadedAgain = await loadPlayer(side, startInfo, entry);
      if (unloadedAgain) return unloadedAgain;
      asked = await askCrediting(() => player.startGame(startInfo), limitMs, (withState) => player.scheduling?.(withState) ?? null);
    }
    entry.wallMs = roundMs(asked.wallMs);
    // Kept only where the credit decided (over the limit by the wall clock): records of the same games stay equal.
    if (asked.wallMs > limitMs && asked.waitedMs >= 1) entry.cpuWaitMs = roundMs(asked.waitedMs);
    const output = cleanOutput(asked.answer?.output);
    if (output) entry.output = entry.output ? { text: entry.output.text + output.text, droppedBytes: entry.output.droppedBytes + output.droppedBytes } : output;
    if (asked.answer === null) {
      const cause = await abortWithin(player, `construction took over ${limitMs} ms`, limitMs);
      if (cause) {
        const failure = failureOf(cause, limitMs, 'startGame');
        return forfeit(side, 'start', failure, [], asked.wallMs, undefined, RULES.failure(failure.verdict));
      }
    }
    // Late by its own time: the wall time less what it waited for a CPU.
    const late = lateness({ answer: asked.answer, wallMs: asked.wallMs - asked.waitedMs, waitedMs: asked.waitedMs }, limitMs);
    if (late) return forfeit(side, 'start', late, [], asked.wallMs, undefined, RULES.constructTime(config), asked.waitedMs);
    const answer = asked.answer as PlayerAnswer;
    if (answer.kind !== 'ready') {
      const failure = failureOf(answer, limitMs, 'startGame');
      const rule = answer.kind === 'timeout' && answer.loading === true ? RULES.loadTime(config) : RULES.failure(failure.verdict);
      return forfeit(side, 'start', failure, [], asked.wallMs, undefined, rule);
    }
    const cpuMs = cleanCpu(answer.cpuMs);
    if (cpuMs !== undefined) entry.cpuMs = cpuMs;
    return undefined;
  };

  /** Per side: turns.length when that side's previous turn began (the moves since then update its live board). */
  const syncedAt: (number | undefined)[] = [undefined, undefined];

  /**
   * Ask the side to move until it answers a legal move (a turn record), loses (a forfeit) or quits (under
   * quitEndsGame). game.py's order decides a turn: the Nth illegal answer loses as 'illegal'; then the turn's
   * total time against turnTimeoutMs; then the board, compared once after the turn with how it was before it.
   */
  const playTurn = async (side: Side, legal: readonly M[]): Promise<TurnRecord | ForfeitRecord | 'quit'> => {
    const player = players[side];
    const timed = player.trusted !== true;
    const encoded = game.encode(state);
    const previous = turns[turns.length - 1];
    const opponentMoved = previous !== undefined && previous.side !== side && previous.kind === 'move';
    const lastMove = opponentMoved ? previous.move! : null;
    const moveNumber = ++turnsAsked[side];
    const since = syncedAt[side];
    const played: PlayedMove[] | undefined =
      since === undefined
        ? undefined
        : turns.slice(since).flatMap((turn) => (turn.kind === 'move' ? [{ side: turn.side, move: turn.move! }] : []));
    syncedAt[side] = turns.length;
    // This player's limits: the config's, times its language's multiplier and, on its first turn, the first-turn factor.
    const factor = timeFactor(config, player.language, moveNumber === 1);
    const moveLimitMs = factor === 1 ? config.moveTimeoutMs : Math.round(config.moveTimeoutMs * factor);
    const turnLimitMs = factor === 1 ? config.turnTimeoutMs : Math.round(config.turnTimeoutMs * factor);
    const illegal: IllegalAttempt[] = [];
    let turnMs = 0;
    /** Time drawn past the limits this turn (bank and strike grace), which extends the turn's own limit too. */
    let overMs = 0;
    let struck = false;
    await options.beforeTurn?.(side, moveNumber);
    for (let attempt = 1; ; attempt++) {
      const info: MoveInfo = {
        color: game.symbols[side],
        timeLimitMs: moveLimitMs,
        turnTimeLimitMs: turnLimitMs,
        turnTimeUsedMs: roundMs(turnMs),
        moveNumber,
        timeUsedMs: roundMs(timeUsedMs[side]),
        attempt,
        attemptsAllowed: config.illegalMoveLimit,
        lastMove,
      };
      // Past its limit an ask may still draw on the bank, then (unless this strike would lose) on a strike's grace.
      const bank = bankLeftMs[side];
      const strikeAllowed = config.strikeLimit !== undefined && !struck && strikes[side] + 1 < config.strikeLimit;
      const extraMs = bank + (strikeAllowed ? (config.strikeGraceMs ?? moveLimitMs) : 0);
      // The wait ends at the ask's own limit or when the turn's time is gone, whichever comes first.
      const turnLeftMs = Math.max(1, Math.ceil(turnLimitMs + overMs - turnMs));
      const turnBound = timed && turnLeftMs < moveLimitMs;
      const limitMs = timed ? Math.min(moveLimitMs, turnLeftMs) : UNTIMED_MS;
      const waitMs = timed ? Math.min(UNTIMED_MS, limitMs + extraMs) : UNTIMED_MS;
      const request: MoveRequest = attempt === 1 && played !== undefined ? { state: encoded, info, played } : { state: encoded, info };
      request.history = turns;
      // A player that keeps time itself stops its code at the deadline and rules the turn from its own clock.
      const keepsTime = timed && waitMs < UNTIMED_MS && player.keepsTime === true;
      if (keepsTime) request.deadlineMs = waitMs;
      // Any other player whose scheduling the referee can read is timed on its own time, as construction is: the
      // time it waited, runnable, for a CPU does not count (a busy grader is not a slow search), and neither the
      // bank nor a strike pays for it. A move the machine kept from running at all (askCrediting: stalled) is no
      // verdict: the game is played again (StalledGame).
      const credits = timed && !keepsTime && waitMs < UNTIMED_MS && typeof player.scheduling === 'function';
      let asked: OwnAsk;
      if (credits) {
        request.ownTimeLimitMs = waitMs;
        const credited = await askCrediting(() => player.requestMove(request), waitMs, (withState) => player.scheduling?.(withState) ?? null, limitMs);
        if (credited.stalled) {
          if (credited.answer === null) await abortWithin(player, 'the grader stalled the move', limitMs);
          throw new StalledGame(`${player.name}'s move ${moveNumber} waited ${Math.round(credited.waitedMs)} ms for a CPU in ${Math.round(credited.wallMs)} ms, past ${CREDIT_STRETCH} times its ${waitMs} ms`);
        }
        asked = { answer: credited.answer, wallMs: credited.wallMs - credited.waitedMs, waitedMs: credited.waitedMs };
      } else {
        asked = await askWithin(() => player.requestMove(request), waitMs, keepsTime);
      }
      const waitedMs = asked.waitedMs ?? 0;
      const allMs = asked.wallMs + waitedMs;
      timeUsedMs[side] += asked.wallMs;
      turnMs += asked.wallMs;
      if (asked.answer === null) {
        // The deadline may have found a player at its memory limit: then that is the cause, as the check says.
        const cause = await abortWithin(player, `no answer within ${waitMs} ms`, limitMs);
        if (cause) {
          const failure = failureOf(cause, limitMs, 'requestMove');
          return forfeit(side, 'move', failure, illegal, allMs, turnMs, RULES.failure(failure.verdict), waitedMs);
        }
      }
      // Over the limit (by its own time): the bank pays first, then a strike (the strikeLimit-th strike loses).
      let late = asked.answer === null ? lateness(asked, waitMs) : null;
      const stoppedOutput = cleanOutput(asked.output);
      if (late && stoppedOutput) late = { ...late, output: stoppedOutput };
      // A timer that fired spent whatever of the bank the wait included.
      if (late && timed) bankLeftMs[side] = Math.max(0, bankLeftMs[side] - Math.max(0, waitMs - limitMs - (strikeAllowed ? (config.strikeGraceMs ?? moveLimitMs) : 0)));
      if (timed && late === null && asked.wallMs > limitMs) {
        let over = asked.wallMs - limitMs;
        const drawn = Math.min(over, bankLeftMs[side]);
        bankLeftMs[side] -= drawn;
        over -= drawn;
        overMs += drawn;
        if (drawn > 0) bankUsed[side] = true;
        if (over > 0 && strikeAllowed) {
          strikes[side] += 1;
          struck = true;
          overMs += over;
        } else if (over > 0) late = lateness(asked, limitMs);
      }
      if (late) {
        // Under strikes, a move over the limit that may not be struck is the losing strike.
        const strikeLoss = config.strikeLimit !== undefined && !strikeAllowed && !struck;
        if (strikeLoss) strikes[side] += 1;
        const failure = turnBound ? turnTimeFailure(turnMs, turnLimitMs, true) : strikeLoss ? { ...late, message: `${late.message}: strike ${strikes[side]} of ${config.strikeLimit}, which loses` } : late;
        const rule = turnBound ? RULES.turnTime(config) : strikeLoss ? RULES.strikes(config) : RULES.moveTime(config);
        const policy = policyNote(config, bankLeftMs[side], strikes[side]);
        return forfeit(side, 'move', policy ? { ...failure, message: `${failure.message} (${policy})` } : failure, illegal, allMs, turnMs, rule, waitedMs);
      }

      const answer = asked.answer as PlayerAnswer;
      if (answer.kind !== 'move' && answer.kind !== 'tamper') {
        const failure = failureOf(answer, limitMs, 'requestMove');
        return forfeit(side, 'move', failure, illegal, allMs, turnMs, RULES.failure(failure.verdict), waitedMs);
      }
      const changed = answer.kind === 'tamper' ? describeFailure(answer, limitMs) : undefined;
      if (config.quitEndsGame && answer.value === QUIT && quitScore(game, state) !== null) return 'quit';

      const found = findLegalMove(game, legal, answer.value);
      const wallMs = roundMs(allMs);
      // The credited wait is kept only where it decided (over the limit by the wall clock), as for construction:
      // records of the same games stay equal.
      const cpuWaitMs = allMs > limitMs && waitedMs >= 1 ? roundMs(waitedMs) : undefined;
      const cpuMs = cleanCpu(answer.cpuMs);
      const output = cleanOutput(answer.output);
      const leftoverThreads = cleanCount(answer.leftoverThreads);
      const debug = answer.kind === 'move' && typeof answer.debug === 'string' && answer.debug !== '' ? capText(answer.debug, DEBUG_CAP) : undefined;
      if (typeof found !== 'number') {
        const attemptRecord: IllegalAttempt = { returned: describeValue(answer.value), reason: found, wallMs };
        // The rule it broke in the game's words (a well-formed move only: anything else is named by its reason).
        const why = found === 'not-legal' && typeof answer.value === 'string' ? game.geometry?.whyIllegal(state, answer.value) : null;
        if (why) attemptRecord.why = capText(why, 300);
        if (cpuMs !== undefined) attemptRecord.cpuMs = cpuMs;
        if (cpuWaitMs !== undefined) attemptRecord.cpuWaitMs = cpuWaitMs;
        if (changed !== undefined) attemptRecord.tamper = changed;
        if (leftoverThreads !== undefined) attemptRecord.leftoverThreads = leftoverThreads;
        if (output || debug) attemptRecord.output = withDebug(output, debug);
        illegal.push(attemptRecord);
        if (attempt >= config.illegalMoveLimit) {
          const failure: Failure = { verdict: 'illegal', message: illegalMessage(illegal) };
          return forfeit(side, 'move', failure, illegal, allMs, turnMs, RULES.illegal(config, changed !== undefined));
        }
        continue;
      }
      if (timed && turnMs > turnLimitMs + overMs) {
        const failure = turnTimeFailure(turnMs, turnLimitMs, false);
        return forfeit(side, 'move', { ...failure, output }, illegal, allMs, turnMs, RULES.turnTime(config));
      }
      if (struck && strikes[side] >= config.strikeLimit!) {
        const failure: Failure = { verdict: 'timeout', message: `answered after ${Math.round(asked.wallMs)} ms${creditNote(asked)}, over the ${limitMs} ms limit: strike ${strikes[side]} of ${config.strikeLimit}, which loses`, output };
        return forfeit(side, 'move', failure, illegal, allMs, turnMs, RULES.strikes(config), waitedMs);
      }
      if (changed !== undefined && config.tamperLoses) {
        const failure: Failure = { verdict: 'tamper', message: changed, output };
        return forfeit(side, 'move', failure, illegal, allMs, turnMs, RULES.tamper);
      }
      const move = legal[found];
      const turn: TurnRecord = { ply: turns.length + 1, side, kind: 'move', move: game.formatMove(move), wallMs };
      if (illegal.length > 0) {
        turn.illegal = illegal;
        turn.turnMs = roundMs(turnMs);
      }
      if (cpuMs !== undefined) turn.cpuMs = cpuMs;
      if (cpuWaitMs !== undefined) turn.cpuWaitMs = cpuWaitMs;
      if (game.moveDetails) turn.details = game.moveDetails(state, move);
      if (changed !== undefined) turn.tamper = changed;
      if (leftoverThreads !== undefined) turn.leftoverThreads = leftoverThreads;
      if (output) turn.output = output;
      if (debug !== undefined) turn.debug = debug;
      if (timed && moveLimitMs !== config.moveTimeoutMs) turn.limitMs = moveLimitMs;
      if (bankUsed[side]) turn.bankLeftMs = roundMs(bankLeftMs[side]);
      if (struck) turn.strikes = strikes[side];
      state = game.apply(state, move);
      return turn;
    }
  };

  try {
    // game.py builds Black's player, then White's; when both fail, Black's failure decides.
    const blackFailed = await startPlayer(0);
    const whiteFailed = await startPlayer(1);
    loser = blackFailed ?? whiteFailed;
    while (loser === undefined && !game.isTerminal(state)) {
      const side = game.toMove(state);
      const legal = game.legalMoves(state);
      let turn: TurnRecord;
      if (legal.length === 0) {
        turn = { ply: turns.length + 1, side, kind: 'pass' };
        state = game.pass(state);
      } else {
        const result = await playTurn(side, legal);
        if (result === 'quit') {
          quitBy = side;
          break;
        }
        if (!('ply' in result)) {
          loser = result;
          break;
        }
        turn = result;
      }
      turns.push(turn);
      onTurn?.(turn, state);
    }
  } finally {
    await Promise.all(players.map((player) => settleWithin(() => player.endGame(), config.moveTimeoutMs)));
  }

  return {
    format: RECORD_FORMAT,
    game: game.id,
    players: [players[0].name, players[1].name],
    ...(players.some((player) => player.isolation) ? { isolation: [players[0].isolation ?? null, players[1].isolation ?? null] } : {}),
    seed,
    config,
    initialState,
    start: [start[0], start[1]],
    turns,
    end: quitBy === undefined ? endOf(game, state, loser, config) : quitEnd(game, state, quitBy),
  };
}

/**
 * Play a game, and play it again from its start when the grader's machine stalled a move (StalledGame): the same seed
 * gives seeded players the same game, and no verdict was reached. A game stalled STALL_ATTEMPTS times is a
 * GraderError that names the fix. `play` runs once per attempt (a caller reporting turns as they come starts afresh);
 * a replayed game's record says how often it was replayed (`replays`).
 */
export async function playGameUnstalled(play: (attempt: number) => Promise<GameRecord>): Promise<GameRecord> {
  for (let stalls = 0; ; ) {
    try {
      const record = await play(stalls + 1);
      if (stalls > 0) record.replays = stalls;
      return record;
    } catch (error) {
      if (!isStalledGame(error)) throw error;
      stalls += 1;
      if (stalls >= STALL_ATTEMPTS) throw new GraderError(`a game could not be timed fairly ${STALL_ATTEMPTS} times (the last: ${error.detail}; the grader's machine was busy): ${BUSY_FIX}`);
    }
  }
}
