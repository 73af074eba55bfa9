/**
 * GameRecord: one refereed game as JSON, complete enough that `replayRecord` can re-check every move and a
 * report can redraw every position. Records are data, not logs: versioned, validated when loaded.
 */
import type { Side } from '../games/game.js';
import type { RefereeConfig } from './config.js';
import { RECORD_REQUIRED_FIELDS, resolveConfig } from './config.js';
import type { ValuePreview, ValueType } from './describe-value.js';
import type { CapturedOutput, PlayerIsolation } from './player.js';
import type { EndReason, LossVerdict } from './verdict.js';
import { END_REASONS, isEndReason, isLossVerdict } from './verdict.js';

export const RECORD_FORMAT = 'referee.game/1';

/** Why an answered value was not accepted as a move. */
export type IllegalReason =
  /** The value is not a string. */
  | 'not-a-string'
  /** The string is not the game's canonical notation (e.g. 'd3' for 'D3'). */
  | 'not-notation'
  /** Well-formed notation, but not a legal move here (occupied square, the opponent's move …). */
  | 'not-legal';

export const ILLEGAL_REASONS: readonly IllegalReason[] = ['not-a-string', 'not-notation', 'not-legal'];

export interface IllegalAttempt {
  /** What came back, described safely. */
  returned: ValuePreview;
  reason: IllegalReason;
  /**
   * Which rule the answer broke, in the game's own words ('D4 is taken', 'column 3 is full', 'E5 flips no disc'):
   * from the game's geometry, for a well-formed move that is not legal here.
   */
  why?: string;
  /** Wall time of this ask as the referee measured it, in ms. */
  wallMs: number;
  /** CPU time the player reported (informational; never trusted for limits). */
  cpuMs?: number;
  /** Of wallMs, the time the player waited runnable for a CPU, not counted (as TurnRecord.cpuWaitMs). */
  cpuWaitMs?: number;
  /**
   * Present when the board differed from the turn's start after this ask. Informational: game.py compares the
   * board once, after the whole turn, so only the turn's last ask decides (a board restored later is fine).
   */
  tamper?: string;
  /** Threads the submission left running after a timed-out func_timeout call during this ask (Python). */
  leftoverThreads?: number;
  output?: CapturedOutput;
}

export interface TurnRecord {
  /** 1-based position in the game; passes take a ply. */
  ply: number;
  side: Side;
  kind: 'move' | 'pass';
  /** The move in canonical notation (kind 'move' only). */
  move?: string;
  /** Illegal answers before the accepted one, in order (omitted when none). */
  illegal?: IllegalAttempt[];
  /** Wall time of the accepted ask (kind 'move' only). */
  wallMs?: number;
  cpuMs?: number;
  /**
   * Of wallMs, the time the player waited, runnable, for a CPU (the grader's machine was busy): not counted against
   * its limit, its time bank or its strikes. Present only where wallMs is over the ask's limit (the wait is why the
   * move was on time); absent for players the referee cannot read the scheduler of, or that keep time themselves.
   */
  cpuWaitMs?: number;
  /** Game-specific facts about the move, from game.moveDetails (e.g. Reversi's { flipped }). */
  details?: Record<string, number | string>;
  /** Present when the player changed its board and config.tamperLoses is false. */
  tamper?: string;
  /**
   * Time of the whole turn, every ask included, in ms (what config.turnTimeoutMs limits: the player's own time,
   * its credited CPU waits left out); present when the turn took more than one ask.
   */
  turnMs?: number;
  /** Threads the submission left running after a timed-out func_timeout call during the accepted ask (Python). */
  leftoverThreads?: number;
  output?: CapturedOutput;
  /** A Botzone bot's "debug" of this turn (at most 1 KB), kept as its judge keeps it in the log. */
  debug?: string;
  /** The limit of this ask in ms where it was not config.moveTimeoutMs (language multiplier, first-turn factor). */
  limitMs?: number;
  /** What is left of the side's time bank after this move (config.timeBankMs), when the move drew on it. */
  bankLeftMs?: number;
  /** The side's strike count after this move, when the move went over its limit and was played (config.strikeLimit). */
  strikes?: number;
}

/** How building a player at the start of the game went. */
export interface StartRecord {
  wallMs: number;
  /** Of wallMs, the time spent loading the submission (first game of its process), under config.loadTimeoutMs. */
  loadMs?: number;
  cpuMs?: number;
  output?: CapturedOutput;
  /**
   * Constructions started again because the grader's machine, not the player, used the time (it waited for a CPU
   * past the limit): not charged to the player.
   */
  stalls?: number;
  /**
   * Of wallMs, the time the player waited runnable for a CPU, not counted against constructTimeoutMs; present only
   * where wallMs is over that limit (the wait is why it did not lose).
   */
  cpuWaitMs?: number;
}

/** The side that lost by force, and why. */
export interface ForfeitRecord {
  side: Side;
  verdict: LossVerdict;
  /** One line, capped. */
  message: string;
  /** 'start': building the player failed; 'move': the turn at ply turns.length + 1 failed. */
  phase: 'start' | 'move';
  /** Illegal answers given in the failing turn (all of them for verdict 'illegal'). */
  attempts: IllegalAttempt[];
  /** Wall time of the failing ask (the whole wait for a timeout). */
  wallMs: number;
  /** Of wallMs, the time the player waited runnable for a CPU, not counted against its limit (at least 1 ms). */
  cpuWaitMs?: number;
  /** Wall time of the whole failing turn, every ask included, in ms. */
  turnMs?: number;
  /**
   * Which rule decided the loss, in words (`referee play --explain`): e.g. "illegalMoveLimit: the 3rd illegal
   * answer in one turn loses; checked before the turn time and the board, as game.py does".
   */
  rule?: string;
  stack?: string;
  /** Where an exception was raised: the last frame of the traceback in the submission's own files (Python). */
  where?: ErrorSite;
  /** The signal that killed a crashed player ('SIGSEGV'), when one did. */
  signal?: string;
  output?: CapturedOutput;
}

/** A line of the submission's own code: the file as the student named it, the line and the function. */
export interface ErrorSite {
  file: string;
  line: number;
  function: string;
}

export interface GameEnd {
  /** null is a draw. */
  winner: Side | null;
  reason: EndReason;
  /** Forced losses only. */
  loser?: ForfeitRecord;
  /** reason 'quit' only: the side that answered 'Q' under config.quitEndsGame (the count decides the winner). */
  quitBy?: Side;
  /** reason 'resign' only: the side that resigned (the other one wins). */
  resignedBy?: Side;
  /** Per-side score for a 'score' end; null after a forced loss (the final state is recorded instead). */
  score: [number, number] | null;
  diff: number;
  /** game.encode of the last position. */
  finalState: string;
}

export interface GameRecord {
  format: typeof RECORD_FORMAT;
  /** Game registry id. */
  game: string;
  /** Player names, indexed by side. */
  players: [string, string];
  /** The isolation each side ran under (null for a trusted in-process player); absent in older records. */
  isolation?: [PlayerIsolation | null, PlayerIsolation | null];
  seed: number;
  config: RefereeConfig;
  /** game.encode(game.initial(seed)). */
  initialState: string;
  /** Building each player, indexed by side. */
  start: [StartRecord, StartRecord];
  turns: TurnRecord[];
  end: GameEnd;
  /**
   * Times this game was played again from its start before this record, because the grader's machine stalled a
   * move (a player waited for a CPU past CREDIT_STRETCH times its limit): never charged to a player.
   */
  replays?: number;
}

/** A record failed validation; `turn` is 0 for the header, the 1-based ply for a turn, turns.length + 1 for the end. */
export class RecordShapeError extends Error {
  constructor(
    readonly turn: number,
    message: string,
  ) {
    super(message);
    this.name = 'RecordShapeError';
  }
}

type Json = Record<string, unknown>;

const VALUE_TYPES: readonly ValueType[] = [
  'string',
  'number',
  'bigint',
  'boolean',
  'undefined',
  'null',
  'symbol',
  'function',
  'array',
  'object',
];

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const isTime = (value: unknown): boolean => typeof value === 'number' && Number.isFinite(value) && value >= 0;
const isSide = (value: unknown): value is Side => value === 0 || value === 1;

/** Field checks for one part of a record, failing with the part's turn number and path. */
class Checker {
  constructor(
    private readonly turn: number,
    private readonly path: string,
  ) {}

  fail(field: string, expected: string): never {
    throw new RecordShapeError(this.turn, `record ${this.path}${field ? `.${field}` : ''} must be ${expected}`);
  }

  object(value: unknown, field: string): Json {
    if (!isObject(value)) this.fail(field, 'an object');
    return value;
  }

  string(object: Json, field: string): string {
    if (typeof object[field] !== 'string') this.fail(field, 'a string');
    return object[field] as string;
  }

  time(object: Json, field: string, optional = false): void {
    const value = object[field];
    if (optional && value === undefined) return;
    if (!isTime(value)) this.fail(field, 'a non-negative number of ms');
  }

  /** An optional non-negative integer. */
  count(object: Json, path: string, field: string): void {
    const value = object[field];
    if (value !== undefined && !(Number.isSafeInteger(value) && (value as number) >= 0)) {
      this.fail(path, 'a non-negative integer');
    }
  }

  output(object: Json, field: string): void {
    const value = object[field];
    if (value === undefined) return;
    if (!isObject(value) || typeof value.text !== 'string' || !isTime(value.droppedBytes)) {
      this.fail(field, 'captured output { text, droppedBytes }');
    }
  }

  attempts(value: unknown, field: string): void {
    if (!Array.isArray(value)) this.fail(field, 'an array of illegal attempts');
    value.forEach((attempt, index) => {
      const at = `${field}[${index}]`;
      const item = this.object(attempt, at);
      const returned = this.object(item.returned, `${at}.returned`);
      if (!(VALUE_TYPES as readonly unknown[]).includes(returned.type)) {
        this.fail(`${at}.returned.type`, VALUE_TYPES.join(' | '));
      }
      if (typeof returned.text !== 'string') this.fail(`${at}.returned.text`, 'a string');
      if (returned.truncated !== undefined && returned.truncated !== true) {
        this.fail(`${at}.returned.truncated`, 'true or absent');
      }
      if (!(ILLEGAL_REASONS as readonly unknown[]).includes(item.reason)) {
        this.fail(`${at}.reason`, ILLEGAL_REASONS.join(' | '));
      }
      this.time(item, 'wallMs');
      this.time(item, 'cpuMs', true);
      this.time(item, 'cpuWaitMs', true);
      if (item.tamper !== undefined && typeof item.tamper !== 'string') this.fail(`${at}.tamper`, 'a string');
      if (item.why !== undefined && typeof item.why !== 'string') this.fail(`${at}.why`, 'a string');
      this.count(item, `${at}.leftoverThreads`, 'leftoverThreads');
      this.output(item, 'output');
    });
  }
}

function checkTurn(value: unknown, index: number): void {
  const check: Checker = new Checker(index + 1, `turns[${index}]`);
  const turn = check.object(value, '');
  if (turn.ply !== index + 1) check.fail('ply', `${index + 1} (turns are numbered 1, 2, 3 … in order)`);
  if (!isSide(turn.side)) check.fail('side', '0 or 1');
  if (turn.kind === 'pass') {
    for (const field of ['move', 'illegal', 'wallMs', 'cpuMs', 'cpuWaitMs', 'details', 'tamper', 'output']) {
      if (turn[field] !== undefined) check.fail(field, 'absent on a pass (the player is not asked)');
    }
    return;
  }
  if (turn.kind !== 'move') check.fail('kind', "'move' or 'pass'");
  check.string(turn, 'move');
  if (turn.illegal !== undefined) check.attempts(turn.illegal, 'illegal');
  check.time(turn, 'wallMs');
  check.time(turn, 'cpuMs', true);
  check.time(turn, 'cpuWaitMs', true);
  if (turn.details !== undefined) {
    const details = check.object(turn.details, 'details');
    for (const [key, detail] of Object.entries(details)) {
      if (typeof detail !== 'number' && typeof detail !== 'string') {
        check.fail(`details.${key}`, 'a number or a string');
      }
    }
  }
  if (turn.tamper !== undefined && typeof turn.tamper !== 'string') check.fail('tamper', 'a string');
  check.time(turn, 'turnMs', true);
  check.count(turn, 'leftoverThreads', 'leftoverThreads');
  check.output(turn, 'output');
  if (turn.debug !== undefined && typeof turn.debug !== 'string') check.fail('debug', 'a string');
  check.time(turn, 'limitMs', true);
  check.time(turn, 'bankLeftMs', true);
  check.count(turn, 'strikes', 'strikes');
}

function checkEnd(value: unknown, turn: number): void {
  const check: Checker = new Checker(turn, 'end');
  const end = check.object(value, '');
  if (end.winner !== null && !isSide(end.winner)) check.fail('winner', '0, 1 or null');
  if (!isEndReason(end.reason)) check.fail('reason', `one of ${END_REASONS.join(', ')}`);
  if (end.score !== null) {
    const score = end.score;
    const isNumber = (n: unknown): boolean => typeof n === 'number' && Number.isFinite(n);
    if (!Array.isArray(score) || score.length !== 2 || !score.every(isNumber)) {
      check.fail('score', 'null or [number, number]');
    }
  }
  if (!isTime(end.diff)) check.fail('diff', 'a non-negative number');
  check.string(end, 'finalState');
  if (end.quitBy !== undefined && !isSide(end.quitBy)) check.fail('quitBy', '0 or 1');
  if (end.resignedBy !== undefined && !isSide(end.resignedBy)) check.fail('resignedBy', '0 or 1');
  if (end.loser === undefined) return;
  const loser = check.object(end.loser, 'loser');
  if (!isSide(loser.side)) check.fail('loser.side', '0 or 1');
  if (!isLossVerdict(loser.verdict)) check.fail('loser.verdict', 'a loss verdict');
  if (typeof loser.message !== 'string') check.fail('loser.message', 'a string');
  if (loser.phase !== 'start' && loser.phase !== 'move') check.fail('loser.phase', "'start' or 'move'");
  check.attempts(loser.attempts, 'loser.attempts');
  check.time(loser, 'wallMs');
  check.time(loser, 'cpuWaitMs', true);
  check.time(loser, 'turnMs', true);
  if (loser.rule !== undefined && typeof loser.rule !== 'string') check.fail('loser.rule', 'a string');
  if (loser.stack !== undefined && typeof loser.stack !== 'string') check.fail('loser.stack', 'a string');
  if (loser.signal !== undefined && typeof loser.signal !== 'string') check.fail('loser.signal', 'a string');
  if (loser.where !== undefined && !isErrorSite(loser.where)) check.fail('loser.where', '{ file, line, function }');
  check.output(loser, 'output');
}

/**
 * Check that untrusted JSON has the shape of a GameRecord (types and numbering only; `replayRecord` checks the
 * moves). Throws a RecordShapeError with a one-line message naming the field.
 */
export function validateRecordShape(json: unknown): GameRecord {
  const header: Checker = new Checker(0, 'header');
  const record = header.object(json, '');
  if (record.format !== RECORD_FORMAT) {
    header.fail('format', `${JSON.stringify(RECORD_FORMAT)} (got ${JSON.stringify(record.format) ?? 'nothing'})`);
  }
  header.string(record, 'game');
  const players = record.players;
  if (!Array.isArray(players) || players.length !== 2 || !players.every((name) => typeof name === 'string')) {
    header.fail('players', 'two player names');
  }
  if (typeof record.seed !== 'number' || !Number.isSafeInteger(record.seed)) header.fail('seed', 'an integer');
  if (record.isolation !== undefined) {
    const sides = record.isolation;
    const valid = (side: unknown): boolean =>
      side === null ||
      (typeof side === 'object' &&
        typeof (side as Json).hardened === 'boolean' &&
        Array.isArray((side as Json).layers) &&
        ((side as Json).layers as unknown[]).every((name) => typeof name === 'string') &&
        ((side as Json).problem === undefined || typeof (side as Json).problem === 'string') &&
        ((side as Json).memory === undefined || typeof (side as Json).memory === 'string'));
    if (!Array.isArray(sides) || sides.length !== 2 || !sides.every(valid)) header.fail('isolation', 'two isolation records (or null)');
  }
  const config = header.object(record.config, 'config');
  for (const field of RECORD_REQUIRED_FIELDS) {
    if (config[field] === undefined) header.fail(`config.${field}`, 'present (records store the whole config)');
  }
  try {
    resolveConfig(config as Partial<RefereeConfig>);
  } catch (error) {
    if (error instanceof RecordShapeError) throw error;
    throw new RecordShapeError(0, `record header.config is invalid: ${(error as Error).message}`);
  }
  header.string(record, 'initialState');
  header.count(record, 'replays', 'replays');
  const start = record.start;
  if (!Array.isArray(start) || start.length !== 2) header.fail('start', 'two start records');
  start.forEach((item: unknown, side: number) => {
    const check: Checker = new Checker(0, `start[${side}]`);
    const entry = check.object(item, '');
    check.time(entry, 'wallMs');
    check.time(entry, 'loadMs', true);
    check.time(entry, 'cpuMs', true);
    check.time(entry, 'cpuWaitMs', true);
    check.count(entry, 'stalls', 'stalls');
    check.output(entry, 'output');
  });
  if (!Array.isArray(record.turns)) header.fail('turns', 'an array');
  record.turns.forEach(checkTurn);
  checkEnd(record.end, record.turns.length + 1);
  return record as unknown as GameRecord;
}

export function isErrorSite(value: unknown): value is ErrorSite {
  if (!isObject(value)) return false;
  return typeof value.file === 'string' && Number.isSafeInteger(value.line) && (value.line as number) > 0 && typeof value.function === 'string';
}
