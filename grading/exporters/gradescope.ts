/**
 * Gradescope's results.json from a GradeResult: the interface check and each rubric item as one test (score,
 * max_score, status, output, visibility — our visibility values are Gradescope's), the total as `score`, and a
 * leaderboard.
 *
 * Visibility follows Gradescope's rules (gradescope-autograders.readthedocs.io/en/latest/specs/): a test marked
 * `hidden` is never shown to students, `after_due_date` after the (late) due date, `after_published` once grades
 * are published; while any test is not shown, Gradescope hides the student's total score itself. What Gradescope
 * does not hide is ours to keep clean: the top-level `output` (always shown) and the leaderboard (shown to the
 * whole class at once) carry only the visible tests' points and facts, never a total or a warning that includes
 * an item not shown yet. Sandbox internals (the "not isolated" notice) are for the instructor: they go to
 * `extra_data` (stored, never shown) and to the autograder's log, never to the always-visible `output`.
 * `output_format`, `test_output_format` and `test_name_format` are `text`: a student's name or output holding
 * `<img>` is shown as text, never rendered as HTML.
 *
 * A grade the grader could not make has no results.json at all: the spec needs a score or a test with one, and
 * any score would be recorded as the student's. `referee gradescope` then writes none and fails, which is
 * Gradescope's own "the autograder failed" path (the student is told to contact the instructor; nothing is
 * recorded), with the reason in the autograder's log.
 */
import type { GradeResult } from '../grade-result.js';
import type { Visibility } from '../assignment.js';
import { LOSS_VERDICTS } from '../../harness/referee/verdict.js';

export interface GradescopeTest {
  name: string;
  number: string;
  score: number;
  max_score: number;
  status: 'passed' | 'failed';
  output: string;
  visibility: Visibility;
}

export interface GradescopeLeaderboardEntry {
  name: string;
  value: number | string;
  order?: 'asc' | 'desc';
}

export type GradescopeFormat = 'text' | 'html' | 'simple_format' | 'md' | 'ansi';

export interface GradescopeResults {
  score: number;
  /** Seconds. */
  execution_time: number;
  output: string;
  output_format: GradescopeFormat;
  test_output_format: GradescopeFormat;
  test_name_format: GradescopeFormat;
  stdout_visibility: 'hidden' | 'visible';
  tests: GradescopeTest[];
  leaderboard: GradescopeLeaderboardEntry[];
  /** Stored by Gradescope, never shown to students: what the instructor needs to judge the run. */
  extra_data?: { isolation?: string; graderCommand?: string };
}

/** Warnings about the grading machine, not the submission: the instructor's, never the always-visible output. */
const isMachineWarning = (warning: string): boolean => warning.startsWith('Not isolated:');

const pct = (rate: number): string => `${(100 * rate).toFixed(1)}%`;

function checkOutput(result: GradeResult): string {
  const marks = { pass: '✓', fail: '✗', warn: '!', skip: '–' } as const;
  return result.interfaceCheck.items
    .map((item) => {
      const lines = [`${marks[item.status]} ${item.title}`];
      if (item.detail && item.status !== 'pass') lines.push(...item.detail.split('\n').map((line) => `    ${line}`));
      if (item.stack && item.status !== 'pass') lines.push(...item.stack.split('\n').slice(0, 12).map((line) => `    | ${line}`));
      if (item.output?.length && item.status !== 'pass') lines.push('    last output before it:', ...item.output.map((line) => `    > ${line}`));
      if (item.fix && (item.status === 'fail' || item.status === 'warn')) lines.push(`    fix: ${item.fix}`);
      return lines.join('\n');
    })
    .join('\n');
}

function itemOutput(item: GradeResult['items'][number]): string {
  if (item.status === 'skipped') return 'Not played: the interface check failed.';
  const losses = LOSS_VERDICTS.filter((verdict) => item.verdicts[verdict] > 0).map((verdict) => `${verdict} × ${item.verdicts[verdict]}`);
  return [
    `${item.wins}-${item.draws}-${item.losses} (W-D-L) in ${item.played} of ${item.games} games: win rate ${pct(item.winRate)} ` +
      `(95% interval ${pct(item.wilson.low)} – ${pct(item.wilson.high)}), draws counting half.`,
    `Scoring: ${item.rule}.`,
    ...(losses.length > 0 ? [`Games lost by rule: ${losses.join(', ')}.`] : []),
  ].join('\n');
}

const WHEN: Record<Exclude<Visibility, 'visible'>, string> = {
  after_due_date: 'after the due date',
  after_published: 'when grades are published',
  hidden: 'never (graded, but hidden)',
};

function overallOutput(result: GradeResult, tests: GradescopeTest[]): string {
  const shown = tests.filter((test) => test.visibility === 'visible');
  if (shown.length === tests.length) {
    const shown = result.warnings.filter((warning) => !isMachineWarning(warning));
    return [`${result.assignment.title}: ${result.score} / ${result.maxScore} points.`, ...shown.map((warning) => `Warning: ${warning}`)].join('\n');
  }
  const points = (list: GradescopeTest[], key: 'score' | 'max_score'): number => Math.round(list.reduce((sum, test) => sum + test[key], 0) * 100) / 100;
  const later = [...new Set(tests.filter((test) => test.visibility !== 'visible').map((test) => WHEN[test.visibility as Exclude<Visibility, 'visible'>]))];
  // Warnings are computed over every game, hidden items' too: they stay out until everything is shown.
  return [
    `${result.assignment.title}: ${points(shown, 'score')} / ${points(shown, 'max_score')} points on the items shown now.`,
    `Other items are graded too and shown ${later.join(', ')}; the total appears with them.`,
  ].join('\n');
}

/** Why a grade has no results.json (a grader error), or null. */
export function gradescopeRefusal(result: GradeResult): string | null {
  if (result.status !== 'grader-error') return null;
  return `not graded (grader error: ${result.graderError ?? 'unknown'}): no results.json, since Gradescope would record any score as the student's; fix the grading machine and grade again`;
}

export function toGradescope(result: GradeResult): GradescopeResults {
  const refusal = gradescopeRefusal(result);
  if (refusal) throw new Error(refusal);
  const check = result.interfaceCheck;
  const tests: GradescopeTest[] = [
    {
      name: 'Interface check',
      number: '0',
      score: check.points,
      max_score: check.maxPoints,
      status: check.passed ? 'passed' : 'failed',
      output: checkOutput(result),
      visibility: check.visibility,
    },
    ...result.items.map((item, index) => ({
      name: item.title,
      number: String(index + 1),
      score: item.points,
      max_score: item.maxPoints,
      status: (item.points >= item.maxPoints ? 'passed' : 'failed') as GradescopeTest['status'],
      output: itemOutput(item),
      visibility: item.visibility,
    })),
  ];
  const allVisible = tests.every((test) => test.visibility === 'visible');
  const visiblePoints = Math.round(tests.filter((test) => test.visibility === 'visible').reduce((sum, test) => sum + test.score, 0) * 100) / 100;
  const machine = result.warnings.filter(isMachineWarning);
  return {
    score: result.score,
    execution_time: Math.round(result.timings.totalMs / 1000),
    output: overallOutput(result, tests),
    ...TEXT_FORMATS,
    stdout_visibility: 'hidden',
    tests,
    leaderboard: [
      // The leaderboard is public at once: only points of visible tests.
      { name: allVisible ? 'Score' : 'Score (visible items)', value: visiblePoints },
      ...result.items
        .filter((item) => item.visibility === 'visible' && item.status !== 'skipped')
        .map((item) => ({ name: `Win rate ${item.title}`, value: Math.round(item.winRate * 1000) / 10 })),
    ],
    ...(machine.length > 0 ? { extra_data: { isolation: machine.join('\n') } } : {}),
  };
}

const TEXT_FORMATS = { output_format: 'text', test_output_format: 'text', test_name_format: 'text' } as const;

/** A results.json for a run that could not grade at all: zero points and the reason, so Gradescope shows it. */
export function gradescopeError(message: string): GradescopeResults {
  return {
    score: 0,
    execution_time: 0,
    output: `The autograder could not grade this submission: ${message}`,
    ...TEXT_FORMATS,
    stdout_visibility: 'hidden',
    tests: [],
    leaderboard: [],
  };
}
