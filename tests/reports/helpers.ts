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

/** Plant HOSTILE in output, an illegal answer and its reason, an exception's site, the checklist, the submission's name and a warning. */
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
  turn.illegal = [{ returned: { type: 'string', text: HOSTILE }, reason: 'not-legal', why: HOSTILE, wallMs: 1 }];
  // A second game lost by an exception whose file, function and message the submission chose (the diagnosis, the
  // game table and the viewer all show them).
  const lost = copy.games[1];
  lost.result = 'loss';
  lost.record.end = {
    ...lost.record.end,
    winner: (1 - lost.studentSide) as 0 | 1,
    reason: 'error',
    score: null,
    loser: { side: lost.studentSide, verdict: 'error', message: HOSTILE, phase: 'move', attempts: [], wallMs: 1, where: { file: HOSTILE, line: 7, function: HOSTILE } },
  };
  return copy;
}
