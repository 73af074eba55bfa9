/**
 * What a player's answer means on a position, for the interface check: a legal move, or the verdict the
 * referee would give (the referee applies the same reading of answers in a real game).
 */
import type { AnyGame } from '../games/game.js';
import { describeValue } from '../referee/describe-value.js';
import type { PlayerAnswer } from '../referee/player.js';
import { findLegalMove } from '../referee/legal-move.js';
import type { IllegalReason } from '../referee/record.js';
import { describeFailure, type LossVerdict } from '../referee/verdict.js';

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

/** The referee's own reading of an answer (findLegalMove, describeFailure), so the check and a game agree. */
export function judgeAnswer(game: AnyGame, state: unknown, answer: PlayerAnswer, timeLimitMs: number): Judged {
  if (answer.kind === 'move') {
    const legal = game.legalMoves(state);
    const found = findLegalMove(game, legal, answer.value);
    if (typeof found === 'number') return { verdict: 'ok', move: game.formatMove(legal[found]) };
    return { verdict: 'illegal', reason: found, returned: returnedText(answer.value) };
  }
  if (answer.kind === 'ready') return { verdict: 'protocol', message: 'answered a move request as if it were a new game' };
  return { verdict: answer.kind, message: describeFailure(answer, timeLimitMs) };
}
