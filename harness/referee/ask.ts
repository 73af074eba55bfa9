/**
 * One call to a player under the referee's own clock. The player's promise races a timer; the wall time is
 * measured here, never taken from the player. A player that throws, rejects or answers nonsense cannot crash
 * the harness: every outcome becomes a PlayerAnswer.
 */
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

/** A credited wait for construction ends at this many times the limit in wall time; past it the grader stalled. */
export const CREDIT_STRETCH = 10;

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
 * Like askWithin, but the time the player waited for a CPU does not count: the deadline moves out by that wait
 * (up to CREDIT_STRETCH times the limit), so the player gets `limitMs` of its own time however busy the machine
 * is. For building the AIPlayer only; moves keep the platform's wall-clock rule.
 */
export async function askCrediting(call: () => Promise<PlayerAnswer>, limitMs: number, probe: () => PlayerScheduling | null): Promise<CreditedAsk> {
  const started = performance.now();
  const first = probe();
  const answering = invoke(call);
  let timer: ReturnType<typeof setTimeout> | undefined;
  let deadline = limitMs;
  let previous = { wallMs: 0, ranMs: first?.ranMs ?? 0 };
  const margin = Math.max(5, limitMs / 50);
  try {
    for (;;) {
      const wait = Math.max(0, deadline - (performance.now() - started));
      const answer = await Promise.race([answering, new Promise<null>((resolve) => (timer = setTimeout(resolve, wait, null)))]);
      clearTimeout(timer);
      const wallMs = performance.now() - started;
      const now = first === null ? null : probe();
      // Summed over threads, waits can exceed the wall time (a constructor's own threads queue for each other's
      // CPU): the credit never makes the player's own time less than the CPU time it used.
      const waitedMs = first === null || now === null ? 0 : Math.max(0, Math.min(now.waitedMs - first.waitedMs, wallMs - (now.ranMs - first.ranMs)));
      if (answer !== null) return { answer, wallMs, waitedMs, stalled: answer.kind === 'timeout' && typeof answer.stall === 'string' };
      if (now === null) return { answer: null, wallMs, waitedMs, stalled: false };
      let left = limitMs - (wallMs - waitedMs);
      // The kernel counts a wait only once the thread gets the CPU: runnable yet hardly run since the last look
      // is a wait still going on, not the player's own time. Look again a little later.
      if (left <= margin && now.runnable && now.ranMs - previous.ranMs < 0.5 * (wallMs - previous.wallMs)) left = Math.max(margin * 2, limitMs / 4);
      if (left <= margin) return { answer: null, wallMs, waitedMs, stalled: false };
      if (wallMs + left > CREDIT_STRETCH * limitMs) return { answer: null, wallMs, waitedMs, stalled: true };
      previous = { wallMs, ranMs: now.ranMs };
      deadline = wallMs + left;
    }
  } finally {
    clearTimeout(timer);
  }
}
