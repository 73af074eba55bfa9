/**
 * How a game ends. 'score' is a normal end (the board decides); every other reason is a forced loss for the side
 * that caused it, named after what went wrong.
 */
import type { PlayerAnswer } from './player.js';

export const LOSS_VERDICTS = ['timeout', 'illegal', 'tamper', 'error', 'crash', 'memory', 'protocol'] as const;

export type LossVerdict = (typeof LOSS_VERDICTS)[number];
/**
 * 'score': the game ended on the board; 'quit': a player answered 'Q' under config.quitEndsGame (count decides);
 * 'resign': a person at `referee serve` resigned (the Gomoku course GUI's G key): the other side wins.
 */
export type EndReason = 'score' | 'quit' | 'resign' | LossVerdict;

export const END_REASONS: readonly EndReason[] = ['score', 'quit', 'resign', ...LOSS_VERDICTS];

/** One-line explanations for reports, phrased after "lost because it …". */
export const VERDICT_DESCRIPTIONS: Readonly<Record<LossVerdict, string>> = {
  timeout: 'did not answer within the time limit',
  illegal: 'gave too many illegal answers in one turn',
  tamper: 'changed the board it was given',
  error: 'threw an error',
  crash: 'crashed (its process died)',
  memory: 'exceeded its memory limit',
  protocol: "broke the player host's protocol",
};

export function isLossVerdict(value: unknown): value is LossVerdict {
  return typeof value === 'string' && (LOSS_VERDICTS as readonly string[]).includes(value);
}

export function isEndReason(value: unknown): value is EndReason {
  return value === 'score' || value === 'quit' || value === 'resign' || isLossVerdict(value);
}

/** The answers that end a game outright (everything but a value or readiness to check). */
export type FailureAnswer = Exclude<PlayerAnswer, { kind: 'move' } | { kind: 'ready' }>;

/** The loss verdict an answer carries, or null for the answers the referee goes on checking ('move', 'ready'). */
export function verdictOfAnswer(answer: PlayerAnswer): LossVerdict | null {
  return answer.kind === 'move' || answer.kind === 'ready' ? null : answer.kind;
}

const MESSAGE_CAP = 1000;

/** A message folded onto one line (JSON.parse quotes the offending input, newlines included). */
export function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, ' ');
}

export function capText(text: string, cap: number): string {
  return text.length <= cap ? text : `${text.slice(0, cap)}… (${text.length - cap} more characters)`;
}

/** A one-line, capped message describing a failure answer, for records and reports. */
export function describeFailure(answer: FailureAnswer, timeLimitMs: number): string {
  let message: string;
  switch (answer.kind) {
    case 'timeout':
      message = typeof answer.message === 'string' ? answer.message : `no answer within ${timeLimitMs} ms`;
      break;
    case 'tamper':
      message = 'changed the board it was given' + (answer.detail ? `: ${String(answer.detail)}` : '');
      break;
    case 'crash': {
      const how = [
        answer.exitCode !== undefined && answer.exitCode !== null ? `exit code ${answer.exitCode}` : '',
        answer.signal && !String(answer.message).includes(answer.signal) ? `signal ${answer.signal}` : '',
      ].filter(Boolean);
      message = how.length > 0 ? `${String(answer.message)} (${how.join(', ')})` : String(answer.message);
      break;
    }
    default:
      message = String(answer.message);
  }
  return capText(message.replace(/\s*\n\s*/g, ' ⏎ '), MESSAGE_CAP);
}
