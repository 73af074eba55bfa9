/**
 * The one set of limits the interface check runs under, whoever runs it: `referee check`, `npm run check` and the
 * check at the start of `referee grade` / `batch`. With an assignment, the assignment's own limits; without one,
 * the game's built-in assignment (what `referee grade --game <id>` plays under: e.g. 500 ms a move for Reversi,
 * 3 s for the Connect Four course variant) rather than the platform's 60 s, so an infinite loop is found in a
 * second, not a minute.
 */
import type { CheckOptions } from '../harness/submission/check.js';
import { DEFAULT_SUBMISSION_LIMITS, type SubmissionLimits } from '../harness/submission/resolve.js';
import { defaultAssignment, type Assignment } from './assignment.js';

export function checkLimits(assignment: Assignment, source: string): CheckOptions {
  const rules = assignment.referee;
  return {
    game: assignment.game,
    moveTimeoutMs: rules.moveTimeoutMs,
    constructTimeoutMs: rules.constructTimeoutMs,
    illegalLimit: rules.illegalMoveLimit,
    limitsSource: source,
    limits: submissionLimits(assignment),
  };
}

/** The assignment's size caps for a submission (maxSubmissionMb, maxFiles), defaults filled in. */
export function submissionLimits(assignment: Assignment): SubmissionLimits {
  return {
    maxBytes: assignment.maxSubmissionMb !== undefined ? Math.round(assignment.maxSubmissionMb * 1024 * 1024) : DEFAULT_SUBMISSION_LIMITS.maxBytes,
    maxFiles: assignment.maxFiles ?? DEFAULT_SUBMISSION_LIMITS.maxFiles,
  };
}

/** The built-in assignment's limits for a game: what a check uses when no assignment is given. */
export function defaultCheckLimits(gameId: string): CheckOptions {
  return checkLimits(defaultAssignment(gameId), `the built-in ${gameId} assignment`);
}
