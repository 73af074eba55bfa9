/**
 * What a player's answer means on a position, for the interface check: a legal move, or the verdict the
 * referee would give (the referee applies the same reading of answers in a real game).
 */
import type { AnyGame } from '../games/game.js';
import { describeValue } from '../referee/describe-value.js';
import type { PlayerAnswer } from '../referee/player.js';
import type { IllegalReason } from '../referee/record.js';
import type { LossVerdict } from '../referee/verdict.js';

export type Judged =
  | { verdict: 'ok'; move: string }
  | { verdict: 'illegal'; reason: IllegalReason; returned: string }
  | { verdict: Exclude<LossVerdict, 'illegal'>; message: string };

const REASON_TEXT: Record<IllegalReason, string> = {
  'not-a-string': 'is not a string',
  'not-notation': "is not a move in the game's notation",
  'not-legal': 'is not a legal move here',
};

export function describeJudged(judged: Judged): string {
  if (judged.verdict === 'ok') return `played ${judged.move}`;
  if (judged.verdict === 'illegal') return `returned ${judged.returned}, which ${REASON_TEXT[judged.reason]}`;
  return `${judged.verdict}: ${judged.message}`;
}

/**
 * How a returned value reads in a message. A value the host could not carry arrives as a frozen stand-in
 * `{ '<type>': text }` (see SandboxPlayer): shown as the text the child printed, e.g. None (NoneType).
 */
function returnedText(value: unknown): string {
  if (typeof value === 'object' && value !== null && Object.isFrozen(value)) {
    const entries = Object.entries(value);
    const tag = entries.length === 1 ? /^<(.+)>$/.exec(entries[0][0]) : null;
    if (tag && typeof entries[0][1] === 'string') return `${entries[0][1]} (${tag[1]})`;
  }
  const preview = describeValue(value);
  return preview.type === 'string' ? JSON.stringify(preview.text) : preview.text;
}

export function judgeAnswer(game: AnyGame, state: unknown, answer: PlayerAnswer, timeLimitMs: number): Judged {
  switch (answer.kind) {
    case 'move': {
      const value = answer.value;
      const returned = returnedText(value);
      if (typeof value !== 'string') return { verdict: 'illegal', reason: 'not-a-string', returned };
      const move = game.parseMove(value);
      if (move === null) return { verdict: 'illegal', reason: 'not-notation', returned };
      const legal = game.legalMoves(state).some((candidate: unknown) => game.formatMove(candidate) === game.formatMove(move));
      return legal ? { verdict: 'ok', move: value } : { verdict: 'illegal', reason: 'not-legal', returned };
    }
    case 'ready':
      return { verdict: 'protocol', message: 'answered a move request as if it were a new game' };
    case 'timeout':
      return { verdict: 'timeout', message: `no answer within ${timeLimitMs} ms` };
    case 'tamper':
      return { verdict: 'tamper', message: answer.detail ?? 'changed the board it was given' };
    case 'crash': {
      const how = answer.signal ? `signal ${answer.signal}` : answer.exitCode != null ? `exit code ${answer.exitCode}` : '';
      return { verdict: 'crash', message: how ? `${answer.message} (${how})` : answer.message };
    }
    default:
      return { verdict: answer.kind, message: answer.message };
  }
}
