/**
 * GitHub Classroom's runner output (what the autograding-grading-reporter reads): version, status, max_score
 * and tests[] each with its own score, so the reporter's total (the sum of the tests' scores out of max_score)
 * is exactly the grade's score. The reporter takes it base64-encoded in an environment variable.
 */
import type { GradeResult } from '../grade-result.js';

export interface ClassroomTest {
  name: string;
  status: 'pass' | 'fail' | 'error';
  score: number;
  message: string;
  line_no: null;
  execution_time: string;
}

export interface ClassroomResult {
  version: 1;
  status: 'pass' | 'fail' | 'error';
  max_score: number;
  tests: ClassroomTest[];
}

const pct = (rate: number): string => `${(100 * rate).toFixed(1)}%`;

export function toClassroom(result: GradeResult): ClassroomResult {
  if (result.status === 'grader-error') {
    // Not graded: the runner's 'error' status and no points claimed, rather than a 0 that reads as the student's.
    const message = `not graded: grader error: ${result.graderError ?? 'unknown'} (a problem of the grading machine, not of the code)`;
    const test: ClassroomTest = { name: 'Autograder', status: 'error', score: 0, message, line_no: null, execution_time: `${result.timings.totalMs}ms` };
    return { version: 1, status: 'error', max_score: result.maxScore, tests: [test] };
  }
  const check = result.interfaceCheck;
  const failed = check.items.find((item) => item.status === 'fail');
  const tests: ClassroomTest[] = [
    {
      name: 'Interface check',
      status: check.passed ? 'pass' : 'fail',
      score: check.points,
      message: check.passed ? 'passed' : `${failed?.title ?? 'the check'} failed${failed?.fix ? `: ${failed.fix}` : ''}`,
      line_no: null,
      execution_time: `${check.wallMs}ms`,
    },
    ...result.items.map((item, index) => {
      const wallMs = result.games.filter((game) => game.item === index).reduce((sum, game) => sum + game.wallMs, 0);
      return {
        name: item.title,
        status: (item.points >= item.maxPoints ? 'pass' : 'fail') as ClassroomTest['status'],
        score: item.points,
        message:
          item.status === 'skipped'
            ? 'not played: the interface check failed'
            : `${item.points}/${item.maxPoints} points: ${item.wins}-${item.draws}-${item.losses} (W-D-L), win rate ${pct(item.winRate)}; ${item.rule}`,
        line_no: null,
        execution_time: `${wallMs}ms`,
      };
    }),
  ];
  return {
    version: 1,
    status: tests.every((test) => test.status === 'pass') ? 'pass' : 'fail',
    max_score: result.maxScore,
    tests,
  };
}
