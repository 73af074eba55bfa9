/** `--config` / `--game` → the Assignment a grading command uses; config errors become one-line usage errors. */
import { AssignmentError, defaultAssignment, loadAssignment, type Assignment } from '../grading/assignment.js';
import { gameArg, UsageError } from './args.js';

export function assignmentArg(config: string | undefined, game: string | undefined): Assignment {
  if (config && game) {
    throw new UsageError('--game picks a built-in assignment; with --config, set "game" in the config file instead');
  }
  try {
    return config ? loadAssignment(config) : defaultAssignment(gameArg(game ?? 'reversi').id);
  } catch (error) {
    if (error instanceof AssignmentError) throw new UsageError(error.message);
    throw error;
  }
}
