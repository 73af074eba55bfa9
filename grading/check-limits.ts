/**
 * The limits the interface check runs under. With an assignment, the assignment's own limits (`referee check
 * --config`, and the check at the start of `referee grade` / `batch`). `referee check` without one judges the
 * course platform's contract (game.py: 60 s a move, per game its own defaults): a correct AI that thinks for 59 s
 * passes, with a warning naming the built-in ladder's tighter limit (`pace`), and the CLI says it is waiting
 * after 5 s so an infinite loop is not a silent minute.
 */
import type { CheckOptions } from '../harness/submission/check.js';
import { DEFAULT_SUBMISSION_LIMITS, type SubmissionLimits } from '../harness/submission/resolve.js';
import { configForGame } from '../harness/referee/config.js';
import { getGame } from '../harness/games/registry.js';
import { defaultAssignment, type Assignment } from './assignment.js';

export function checkLimits(assignment: Assignment, source: string): CheckOptions {
  const rules = assignment.referee;
  return {
    game: assignment.game,
    moveTimeoutMs: rules.moveTimeoutMs,
    constructTimeoutMs: rules.constructTimeoutMs,
    illegalLimit: rules.illegalMoveLimit,
    ...(rules.loadTimeoutMs !== undefined ? { loadTimeoutMs: rules.loadTimeoutMs } : {}),
    // No memoryMb: the check takes the game's own where nothing names one, and a Botzone bot then gets Botzone's.
    limitsSource: source,
    limits: submissionLimits(assignment),
    ...(assignment.entry !== undefined ? { entry: assignment.entry } : {}),
    ...(assignment.protocol !== undefined ? { protocol: assignment.protocol } : {}),
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

/**
 * The platform's limits for a game (game.py's 60 s a move and to construct, 3 asks; a game's own defaults over
 * them), with the built-in assignment's move limit as the pace to warn about.
 */
export function platformCheckLimits(gameId: string): CheckOptions {
  const rules = configForGame(getGame(gameId));
  const ladder = defaultAssignment(gameId).referee;
  return {
    game: gameId,
    moveTimeoutMs: rules.moveTimeoutMs,
    constructTimeoutMs: rules.constructTimeoutMs,
    illegalLimit: rules.illegalMoveLimit,
    ...(rules.loadTimeoutMs !== undefined ? { loadTimeoutMs: rules.loadTimeoutMs } : {}),
    // No memoryMb: the check takes the game's own where nothing names one, and a Botzone bot then gets Botzone's.
    limitsSource: "the platform's limits; `referee grade` without --config plays the built-in ladder at " + `${ladder.moveTimeoutMs} ms a move`,
    limits: { ...DEFAULT_SUBMISSION_LIMITS },
    ...(ladder.moveTimeoutMs < rules.moveTimeoutMs ? { pace: { moveTimeoutMs: ladder.moveTimeoutMs, source: 'the built-in ladder' } } : {}),
  };
}
