/**
 * A failure of the grader, not of the student (defined here so the referee can let it through; thrown by the
 * sandbox): the sandbox could not start (bubblewrap, cgroups, spawn, the host
 * bundle) before any student code ran, or the user demanded isolation this machine cannot give. Thrown instead of
 * a player answer, so it can never become a verdict against the submission; grading turns it into a result with
 * status 'grader-error' and the CLI exits 3.
 */
export class GraderError extends Error {
  override name = 'GraderError';
}

export function isGraderError(error: unknown): error is GraderError {
  return error instanceof Error && error.name === 'GraderError';
}

/** What to do about a machine too busy to time a player fairly, in one place for every such message. */
export const BUSY_FIX = 'grade with fewer --jobs at once, then run again (--resume keeps the finished games)';

/**
 * A move the grader's machine kept from running (the player waited for a CPU past CREDIT_STRETCH times its limit):
 * a GraderError, never a verdict; the game is played again from its start (playGameUnstalled), and only a game stalled
 * every time becomes a grader error. `detail` says whose move and how long it waited.
 */
export class StalledGame extends GraderError {
  readonly stalled = true;

  constructor(readonly detail: string) {
    super(`a move could not be timed fairly: ${detail} (the grader's machine was busy): ${BUSY_FIX}`);
  }
}

export function isStalledGame(error: unknown): error is StalledGame {
  return isGraderError(error) && (error as Partial<StalledGame>).stalled === true && typeof (error as Partial<StalledGame>).detail === 'string';
}
