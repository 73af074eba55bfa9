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
