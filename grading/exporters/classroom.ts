/**
 * GitHub Classroom's runner output, read by classroom-resources/autograding-grading-reporter@v1. The reporter
 * totals a runner two ways: the points it reports to Classroom are the sum of the tests' `score`s, while the table
 * in the job log (in the v1 release) is (tests passed / tests) × `max_score`. One runner with the rubric items
 * makes the two disagree (a 10/100 grade logged as 25/100), so the grade is two runners on which both rules give
 * the same number: `referee` lists the items that earned points, every one passing, with `max_score` = the points
 * earned; `refereemissed` lists the points missed, every one failing at 0, with `max_score` = the points missed.
 * Table and Classroom then both read score / max. `line_no` is 0 (the reporter prints "line <n>" unless it is 0).
 * A grade the grader could not make has no Classroom output at all (any would be recorded as points): the export
 * refuses it and the workflow step fails.
 */
import type { GradeResult } from '../grade-result.js';
import { roundPoints } from '../scoring.js';

export interface ClassroomTest {
  name: string;
  status: 'pass' | 'fail' | 'error';
  score: number;
  message: string;
  line_no: 0;
  execution_time: string;
}

export interface ClassroomResult {
  version: 1;
  status: 'pass' | 'fail' | 'error';
  max_score: number;
  tests: ClassroomTest[];
}

/** The two runners, by the names the workflow gives the reporter (`runners: …,referee,refereemissed`). */
export interface ClassroomRunners {
  referee: ClassroomResult;
  refereemissed: ClassroomResult;
}

export const CLASSROOM_RUNNERS = ['referee', 'refereemissed'] as const;

const pct = (rate: number): string => `${(100 * rate).toFixed(1)}%`;

/** Why a grade has no Classroom output (a grader error), or null. */
export function classroomRefusal(result: GradeResult): string | null {
  if (result.status !== 'grader-error') return null;
  return `not graded (grader error: ${result.graderError ?? 'unknown'}): no Classroom output, since Classroom would record it as the student's points; fix the grading machine and grade again`;
}

interface Line {
  name: string;
  points: number;
  maxPoints: number;
  message: string;
  ms: number;
}

function linesOf(result: GradeResult): Line[] {
  const check = result.interfaceCheck;
  const failed = check.items.find((item) => item.status === 'fail');
  return [
    {
      name: 'Interface check',
      points: check.points,
      maxPoints: check.maxPoints,
      message: check.passed ? 'passed' : `${failed?.title ?? 'the check'} failed${failed?.fix ? `: ${failed.fix}` : ''}`,
      ms: check.wallMs,
    },
    ...result.items.map((item, index) => ({
      name: item.title,
      points: item.points,
      maxPoints: item.maxPoints,
      message:
        item.status === 'skipped'
          ? 'not played: the interface check failed'
          : `${item.points}/${item.maxPoints} points: ${item.wins}-${item.draws}-${item.losses} (W-D-L), win rate ${pct(item.winRate)}; ${item.rule}`,
      ms: result.games.filter((game) => game.item === index).reduce((sum, game) => sum + game.wallMs, 0),
    })),
  ];
}

export function toClassroom(result: GradeResult): ClassroomRunners {
  const refusal = classroomRefusal(result);
  if (refusal) throw new Error(refusal);
  const lines = linesOf(result);
  const earned = lines.filter((line) => line.points > 0);
  const missed = lines.filter((line) => line.points < line.maxPoints);
  const earnedPoints = roundPoints(earned.reduce((sum, line) => sum + line.points, 0));
  const missedPoints = roundPoints(result.maxScore - earnedPoints);
  const test = (line: Line, status: 'pass' | 'fail', score: number, prefix: string): ClassroomTest => ({
    name: `${line.name}: ${prefix}`,
    status,
    score,
    message: line.message,
    line_no: 0,
    execution_time: `${line.ms}ms`,
  });
  return {
    referee: {
      version: 1,
      // Nothing earned: max_score 0, which both rules read as 0 whatever the status.
      status: earned.length > 0 ? 'pass' : 'fail',
      max_score: earnedPoints,
      tests: earned.length > 0 ? earned.map((line) => test(line, 'pass', line.points, `${line.points} of ${line.maxPoints} points`)) : [{ name: 'No points earned', status: 'fail', score: 0, message: `0 / ${result.maxScore}`, line_no: 0, execution_time: '0ms' }],
    },
    refereemissed: {
      version: 1,
      status: missed.length > 0 ? 'fail' : 'pass',
      max_score: missedPoints,
      tests: missed.length > 0 ? missed.map((line) => test(line, 'fail', 0, `${roundPoints(line.maxPoints - line.points)} points missed`)) : [{ name: 'No points missed', status: 'pass', score: 0, message: `${result.score} / ${result.maxScore}`, line_no: 0, execution_time: '0ms' }],
    },
  };
}

/** `<runner>=<base64 JSON>` lines for $GITHUB_OUTPUT (the reporter reads `<RUNNER>_RESULTS` as base64 JSON). */
export function classroomStepOutputs(runners: ClassroomRunners): string {
  return CLASSROOM_RUNNERS.map((name) => `${name}=${Buffer.from(JSON.stringify(runners[name])).toString('base64')}\n`).join('');
}
