/**
 * The done-when check: the weak, fair and strong sample students (tests/fixtures/students) get visibly different
 * and stable scores under the built-in assignment, graded through the real sandbox.
 */
import { describe, expect, test } from '@jest/globals';
import { defaultAssignment } from '../../grading/assignment.js';
import { submissionContestant } from '../../grading/contestant.js';
import { grade } from '../../grading/grade.js';
import type { GradeResult } from '../../grading/grade-result.js';
import { packageFile } from '../../grading/package-root.js';

const assignment = defaultAssignment();

async function gradeStudent(name: string): Promise<GradeResult> {
  const path = packageFile('tests', 'fixtures', 'students', name, 'AIPlayer.ts');
  return grade({ assignment, assignmentSource: 'built-in', contestant: await submissionContestant(path, assignment) });
}

describe('sample students under the built-in assignment', () => {
  test('weak < fair < strong, each step at least 15 points, with no forced losses', async () => {
    const [weak, fair, strong] = [await gradeStudent('weak'), await gradeStudent('fair'), await gradeStudent('strong')];
    for (const result of [weak, fair, strong]) {
      expect(result.interfaceCheck.passed).toBe(true);
      expect(result.games).toHaveLength(assignment.opponents.reduce((sum, item) => sum + item.games, 0));
      expect(result.items.every((item) => Object.values(item.verdicts).every((count) => count === 0))).toBe(true);
    }
    expect(fair.score - weak.score).toBeGreaterThanOrEqual(15);
    expect(strong.score - fair.score).toBeGreaterThanOrEqual(15);
  });

  test('grading the same code again gives the same games and score', async () => {
    const [once, again] = [await gradeStudent('weak'), await gradeStudent('weak')];
    expect(again.score).toBe(once.score);
    expect(again.games.map((entry) => entry.record.turns.map((turn) => turn.move))).toEqual(
      once.games.map((entry) => entry.record.turns.map((turn) => turn.move)),
    );
  });
});
