/**
 * One call to a player under the referee's own clock. The player's promise races a timer; the wall time is
 * measured here, never taken from the player. A player that throws, rejects or answers nonsense cannot crash
 * the harness: every outcome becomes a PlayerAnswer.
 */
import { closeSync, openSync, readSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { isGraderError } from './grader-error.js';
import type { Player, PlayerAnswer, PlayerScheduling } from './player.js';

export interface Asked {
  /** null when the referee's timer fired first. */
  answer: PlayerAnswer | null;
  /** Wall time from the call to its answer (or to the timer), in ms. */
  wallMs: number;
  /** What a player that keeps time itself printed before its own deadline stopped it (answer null). */
  output?: PlayerAnswer['output'];
}

const ANSWER_KINDS = new Set(['move', 'ready', 'error', 'tamper', 'timeout', 'crash', 'memory', 'protocol']);

function messageOf(error: unknown): string {
  try {
    return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  } catch {
    return 'an unprintable value was thrown';
  }
}

function stackOf(error: unknown): string | undefined {
  try {
    return error instanceof Error && typeof error.stack === 'string' ? error.stack : undefined;
  } catch {
    return undefined;
  }
}

/** The player's answer, or a failure answer when the call threw, rejected or resolved to something else. */
async function invoke(call: () => Promise<PlayerAnswer>): Promise<PlayerAnswer> {
  let answer: unknown;
  try {
    answer = await call();
  } catch (error) {
    // The grader's own failure (a sandbox that could not start) is never a verdict against the player.
    if (isGraderError(error)) throw error;
    return { kind: 'error', message: `player threw: ${messageOf(error)}`, stack: stackOf(error) };
  }
  if (typeof answer !== 'object' || answer === null || !ANSWER_KINDS.has((answer as PlayerAnswer).kind)) {
    return { kind: 'protocol', message: 'player answered with something that is not a PlayerAnswer' };
  }
  return answer as PlayerAnswer;
}

/**
 * How long past a self-timing player's own deadline the referee's timer waits for its word (a host that went quiet):
 * well beyond the grader's own wake-up on a loaded machine (p90 ~65 ms at load 8-13, ~90 ms at 40).
 */
export function backstopMs(limitMs: number): number {
  return Math.max(250, limitMs / 4);
}

/** Node's longest timer. */
const LONGEST_TIMER_MS = 2 ** 31 - 1;

/**
 * Call and wait at most `limitMs`. A timer firing yields answer null; the caller decides to abort.
 *
 * `keepsTime` (Player.keepsTime: the player was given limitMs as MoveRequest.deadlineMs and stops its code itself):
 * the wall time is the player's own figure (timedMs) when it gives a plausible one — never more than the referee's
 * own measure, which contains it — and a 'timeout' it reports with that figure is its deadline, returned as answer
 * null like the referee's own timer; that timer waits backstopMs longer, for a player that says nothing.
 */
export async function askWithin(call: () => Promise<PlayerAnswer>, limitMs: number, keepsTime = false): Promise<Asked> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const waitMs = keepsTime ? Math.min(LONGEST_TIMER_MS, limitMs + backstopMs(limitMs)) : limitMs;
  const deadline = new Promise<null>((resolve) => {
    timer = setTimeout(resolve, waitMs, null);
  });
  const started = performance.now();
  try {
    const answer = await Promise.race([invoke(call), deadline]);
    const wallMs = performance.now() - started;
    if (!keepsTime || answer === null) return { answer, wallMs };
    const timedMs = answer.timedMs;
    if (typeof timedMs !== 'number' || !Number.isFinite(timedMs) || timedMs < 0 || timedMs > wallMs + 0.01) return { answer, wallMs };
    if (answer.kind === 'timeout' && answer.loading !== true && answer.stall === undefined) return { answer: null, wallMs: timedMs, ...(answer.output ? { output: answer.output } : {}) };
    return { answer, wallMs: timedMs };
  } finally {
    clearTimeout(timer);
  }
}

/** Housekeeping calls (abort, endGame): bounded and never throwing, so a broken player cannot hang the referee. */
export async function settleWithin(call: () => Promise<void>, limitMs: number): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, limitMs);
  });
  try {
    await Promise.race([
      (async () => {
        try {
          await call();
        } catch {
          // The game's result stands whatever the player does while being shut down.
        }
      })(),
      deadline,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Abort a player whose deadline passed, bounded like settleWithin: the cause it found, when it names one the
 * referee should record instead of a plain timeout (a sandboxed player that had reached its memory limit, or was
 * still loading), else null.
 */
export async function abortWithin(player: Player, reason: string, limitMs: number): Promise<PlayerAnswer | null> {
  let found: PlayerAnswer | null = null;
  await settleWithin(async () => {
    const answer = await player.abort(reason);
    if (answer && typeof answer === 'object' && ((answer.kind === 'memory' && typeof answer.message === 'string') || (answer.kind === 'timeout' && answer.loading === true))) found = answer;
  }, limitMs);
  return found;
}

/** A credited wait ends at this many times the limit in wall time; past it the grader stalled. */
export const CREDIT_STRETCH = 10;
/** How soon a player held by the machine at its deadline (see creditRuling) is looked at again, at least. */
export const HELD_RECHECK_MS = 25;

/** The grader's main thread's schedstat, kept open (one pread a look); null where there is none (not Linux). */
let graderSchedstat: number | null | undefined;
const graderBuffer = Buffer.alloc(128);

/**
 * How long the grader's own main thread (its event loop) has waited, runnable, for a CPU, in ms; 0 where unknown. A
 * busy grader is late to send a request, wake the player and read its answer, and that lateness is in the wall time
 * of an ask just as the player's own waits are.
 */
export function graderWaitedMs(): number {
  if (graderSchedstat === undefined) {
    try {
      graderSchedstat = openSync(`/proc/self/task/${process.pid}/schedstat`, 'r');
    } catch {
      graderSchedstat = null;
    }
  }
  if (graderSchedstat === null) return 0;
  try {
    return Number(graderBuffer.toString('latin1', 0, readSync(graderSchedstat, graderBuffer, 0, graderBuffer.length, 0)).split(' ')[1]) / 1e6 || 0;
  } catch {
    closeSync(graderSchedstat);
    graderSchedstat = null;
    return 0;
  }
}

/**
 * One look for the crediting rule: the player's scheduling (`probe`), its waits counted with the grader's own (both
 * delay an answer and neither is the player's time); null where the player's cannot be read.
 */
export function creditLook(probe: (withState: boolean) => PlayerScheduling | null, withState: boolean): PlayerScheduling | null {
  const seen = probe(withState);
  return seen === null ? null : { ...seen, waitedMs: seen.waitedMs + graderWaitedMs() };
}

/**
 * The one crediting rule (construction, moves, the interface check's exchange): of `wallMs` since `first`, the time
 * the player (and the grader, see creditLook) waited, runnable, for a CPU. Summed over threads, waits can exceed the
 * wall time (a player's own threads queue for each other's CPU: 64 spinning threads "wait" 63 times the wall time),
 * and the grader's waits may overlap the player's: the credit never makes the player's own time (wall less credit)
 * less than the CPU time it used, so no credit ever buys a player more than its limit of CPU.
 */
export function creditedWaitMs(first: PlayerScheduling, now: PlayerScheduling, wallMs: number): number {
  return Math.max(0, Math.min(now.waitedMs - first.waitedMs, wallMs - (now.ranMs - first.ranMs)));
}

/** What a look at a credited deadline decides: late, stalled (the grader's machine used the time), or look again. */
export type CreditRuling = { waitedMs: number } & ({ next: 'late' | 'stalled' } | { next: 'again'; inMs: number });

/**
 * At a deadline of `limitMs` of the player's own time, `wallMs` after the ask began (`first` the scheduler's word then,
 * `previous` the last look's): late when its own time (wall less creditedWaitMs) is within a small margin of the
 * limit; else look again when what is left would be up, unless that passes CREDIT_STRETCH times the limit in wall
 * time (stalled). The kernel counts a wait only once the thread gets the CPU: a player runnable (or stopped by the
 * grader's freeze, after a lost race with its wake-up), short of its limit in time run and hardly run since the last
 * look is held by the machine right now, and is looked at again shortly rather than judged on time it did not have.
 */
export function creditRuling(limitMs: number, first: PlayerScheduling, previous: { wallMs: number; ranMs: number }, now: PlayerScheduling, wallMs: number): CreditRuling {
  const waitedMs = creditedWaitMs(first, now, wallMs);
  const margin = Math.max(5, limitMs / 50);
  let left = limitMs - (wallMs - waitedMs);
  const held = now.runnable && now.ranMs - first.ranMs < limitMs && now.ranMs - previous.ranMs < 0.5 * (wallMs - previous.wallMs);
  if (left <= margin && held) left = Math.max(2 * margin, HELD_RECHECK_MS);
  if (left <= margin) return { waitedMs, next: 'late' };
  if (wallMs + left > CREDIT_STRETCH * limitMs) return { waitedMs, next: 'stalled' };
  return { waitedMs, next: 'again', inMs: left };
}

export interface CreditedAsk extends Asked {
  /** Of wallMs, the time the player spent waiting, runnable, for a CPU (0 where it cannot be measured). */
  waitedMs: number;
  /**
   * The player had not had its time when the wait ended: the grader's machine, not the player, used it (its CPU
   * waits stretched the deadline past CREDIT_STRETCH times the limit, or the player's own host said so).
   */
  stalled: boolean;
}

/**
 * Like askWithin, but the time the player waited for a CPU does not count (creditRuling): the deadline moves out by
 * that wait (up to CREDIT_STRETCH times the limit), so the player gets `limitMs` of its own time however busy the
 * machine is. The referee asks this way for construction and for moves of every player whose scheduling it can read
 * (sandboxed players), except one that keeps time itself; `probe` returning null falls back to the wall clock. An
 * answer within `creditFromMs` of wall time (default limitMs: the caller's rulings start there) is not looked at
 * again: no credit could change a ruling (waitedMs 0), and a move costs one read of the scheduler, not two.
 */
export async function askCrediting(call: () => Promise<PlayerAnswer>, limitMs: number, probe: (withState: boolean) => PlayerScheduling | null, creditFromMs = limitMs): Promise<CreditedAsk> {
  const started = performance.now();
  const first = creditLook(probe, false);
  const answering = invoke(call);
  let timer: ReturnType<typeof setTimeout> | undefined;
  let deadline = limitMs;
  let previous = { wallMs: 0, ranMs: first?.ranMs ?? 0 };
  try {
    for (;;) {
      const wait = Math.max(0, deadline - (performance.now() - started));
      const answer = await Promise.race([answering, new Promise<null>((resolve) => (timer = setTimeout(resolve, wait, null)))]);
      clearTimeout(timer);
      const wallMs = performance.now() - started;
      if (answer !== null && wallMs <= creditFromMs) return { answer, wallMs, waitedMs: 0, stalled: answer.kind === 'timeout' && typeof answer.stall === 'string' };
      const now = first === null ? null : creditLook(probe, answer === null);
      if (first === null || now === null) return { answer, wallMs, waitedMs: 0, stalled: answer?.kind === 'timeout' && typeof answer.stall === 'string' };
      if (answer !== null) return { answer, wallMs, waitedMs: creditedWaitMs(first, now, wallMs), stalled: answer.kind === 'timeout' && typeof answer.stall === 'string' };
      const ruling = creditRuling(limitMs, first, previous, now, wallMs);
      if (ruling.next !== 'again') return { answer: null, wallMs, waitedMs: ruling.waitedMs, stalled: ruling.next === 'stalled' };
      previous = { wallMs, ranMs: now.ranMs };
      deadline = wallMs + ruling.inMs;
    }
  } finally {
    clearTimeout(timer);
  }
}
