/** A real grade of a reference AI, and the same grade with hostile student-controlled text planted everywhere. */
import { grade } from '../../grading/grade.js';
import type { GradeResult } from '../../grading/grade-result.js';
import { countingContestant } from '../grading/helpers.js';
import { smallAssignment } from '../grading/helpers.js';

export const HOSTILE =
  '</script><script>window.__pwned = 1</script><img src=x onerror="window.__pwned = 2"><!-- \u2028 {{this}} &amp; ]]>';

export async function referenceGrade(): Promise<GradeResult> {
  return grade({ assignment: smallAssignment(), assignmentSource: 'test', contestant: countingContestant('greedy') });
}

/** Plant HOSTILE in output, an illegal answer, the checklist, the submission's name and a warning. */
export function hostile(result: GradeResult): GradeResult {
  const copy = JSON.parse(JSON.stringify(result)) as GradeResult;
  copy.submission = { ...copy.submission, name: HOSTILE, path: `${HOSTILE}.ts` };
  copy.interfaceCheck.items.push({ id: 'moves', title: 'getMove returns a legal move', status: 'warn', detail: HOSTILE, fix: 'return a string' });
  copy.interfaceCheck.output = HOSTILE;
  copy.warnings.push(HOSTILE);
  const entry = copy.games[0];
  const turn = entry.record.turns.find((candidate) => candidate.side === entry.studentSide && candidate.kind === 'move');
  if (!turn) throw new Error('no student move in game 0');
  turn.output = { text: HOSTILE, droppedBytes: 0 };
  turn.illegal = [{ returned: { type: 'string', text: HOSTILE }, reason: 'not-notation', wallMs: 1 }];
  return copy;
}
