/**
 * JUnit XML from a GradeResult, for CI test reporters: one testsuite per grade, one testcase per rubric item
 * (the interface check first). An item short of full points is a failure whose message says why; an item not
 * played is skipped; points and max points are properties of each testcase and of the suite. A grade the grader
 * could not make (status 'grader-error') is one testcase with an <error> naming the grader error, and no failure:
 * CI reporters show errors apart from failures, and nothing here is charged to the student.
 */
import type { GradeResult } from '../grade-result.js';

/** Escape for XML text and attributes, dropping characters XML 1.0 cannot hold (student output may have them). */
export function xmlEscape(text: string): string {
  return text
    .replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;')
    .replace(/\n/g, '&#10;')
    .replace(/\r/g, '&#13;')
    .replace(/\t/g, '&#9;');
}

/** Element text keeps its line breaks. */
const text = (value: string): string => xmlEscape(value).replace(/&#10;/g, '\n');

const attributes = (values: Record<string, string | number>): string =>
  Object.entries(values)
    .map(([key, value]) => ` ${key}="${xmlEscape(String(value))}"`)
    .join('');

const properties = (values: Record<string, string | number>, indent: string): string =>
  `${indent}<properties>\n${Object.entries(values)
    .map(([name, value]) => `${indent}  <property${attributes({ name, value })}/>`)
    .join('\n')}\n${indent}</properties>`;

const pct = (rate: number): string => `${(100 * rate).toFixed(1)}%`;
const seconds = (ms: number): string => (ms / 1000).toFixed(3);

interface Case {
  name: string;
  points: number;
  maxPoints: number;
  ms: number;
  failure?: { message: string; body: string };
  error?: { message: string; body: string };
  skipped?: string;
}

const notGraded = (result: GradeResult): boolean => result.status === 'grader-error';

function casesOf(result: GradeResult): Case[] {
  if (notGraded(result)) {
    // Not graded: one errored case and no points, as Gradescope and Classroom say it (never failures worth 0).
    const reason = result.graderError ?? 'unknown';
    return [
      {
        name: 'Autograder',
        points: 0,
        maxPoints: result.maxScore,
        ms: result.timings.totalMs,
        error: {
          message: `not graded: grader error: ${reason} (a problem of the grading machine, not of the code)`,
          body:
            `The autograder failed, so this submission was NOT graded: ${reason}\n` +
            'No rubric item was scored. Fix the grading machine, then grade again (finished games are kept with --resume).',
        },
      },
    ];
  }
  const check = result.interfaceCheck;
  const failed = check.items.filter((item) => item.status === 'fail');
  const cases: Case[] = [
    {
      name: 'Interface check',
      points: check.points,
      maxPoints: check.maxPoints,
      ms: check.wallMs,
      ...(check.passed
        ? {}
        : {
            failure: {
              message: failed.map((item) => `${item.title} failed${item.fix ? `: ${item.fix}` : ''}`).join('; ') || 'the interface check failed',
              body: failed.map((item) => [item.title, item.detail, item.fix && `fix: ${item.fix}`].filter(Boolean).join('\n')).join('\n\n'),
            },
          }),
    },
  ];
  result.items.forEach((item, index) => {
    const ms = result.games.filter((game) => game.item === index).reduce((sum, game) => sum + game.wallMs, 0);
    const base = { name: item.title, points: item.points, maxPoints: item.maxPoints, ms };
    if (item.status === 'skipped') cases.push({ ...base, skipped: 'not played: the interface check failed' });
    else if (item.points < item.maxPoints) {
      cases.push({
        ...base,
        failure: {
          message: `${item.points}/${item.maxPoints} points: win rate ${pct(item.winRate)} (${item.wins}-${item.draws}-${item.losses} W-D-L); ${item.rule}`,
          body: `${item.played} of ${item.games} games played; 95% interval ${pct(item.wilson.low)} – ${pct(item.wilson.high)}`,
        },
      });
    } else cases.push(base);
  });
  return cases;
}

/** One <testsuite> element for one grade, named after `suiteName` (the student, in a batch). */
function junitSuite(result: GradeResult, suiteName: string, indent = '  '): string {
  const cases = casesOf(result);
  const classname = `referee.${suiteName.replace(/[^\w.-]+/g, '_')}`;
  const body = cases.map((testCase) => {
    // An errored case claims no points, not even 0.
    const points: Record<string, number> = testCase.error ? { maxPoints: testCase.maxPoints } : { points: testCase.points, maxPoints: testCase.maxPoints };
    const inner = [properties(points, `${indent}    `)];
    if (testCase.failure) {
      inner.push(`${indent}    <failure${attributes({ message: testCase.failure.message, type: 'score' })}>${text(testCase.failure.body)}</failure>`);
    }
    if (testCase.error) {
      inner.push(`${indent}    <error${attributes({ message: testCase.error.message, type: 'grader-error' })}>${text(testCase.error.body)}</error>`);
    }
    if (testCase.skipped) inner.push(`${indent}    <skipped${attributes({ message: testCase.skipped })}/>`);
    return `${indent}  <testcase${attributes({ name: testCase.name, classname, time: seconds(testCase.ms) })}>\n${inner.join('\n')}\n${indent}  </testcase>`;
  });
  const suite = attributes({
    name: suiteName,
    tests: cases.length,
    failures: cases.filter((testCase) => testCase.failure).length,
    errors: cases.filter((testCase) => testCase.error).length,
    skipped: cases.filter((testCase) => testCase.skipped).length,
    time: seconds(result.timings.totalMs),
    timestamp: result.timings.startedAt.replace(/\.\d+Z$/, ''),
  });
  return [
    `${indent}<testsuite${suite}>`,
    // A grader error has no score at all (a 0 would read as the student's).
    properties(
      notGraded(result)
        ? { status: 'grader-error', graderError: result.graderError ?? 'unknown', maxScore: result.maxScore, assignment: result.assignment.title, configHash: result.assignment.hash }
        : { score: result.score, maxScore: result.maxScore, assignment: result.assignment.title, configHash: result.assignment.hash },
      `${indent}  `,
    ),
    ...body,
    `${indent}</testsuite>`,
  ].join('\n');
}

export function toJUnit(result: GradeResult, suiteName = result.submission.name): string {
  const cases = casesOf(result);
  const totals = attributes({
    name: result.assignment.title,
    tests: cases.length,
    failures: cases.filter((testCase) => testCase.failure).length,
    errors: cases.filter((testCase) => testCase.error).length,
    time: seconds(result.timings.totalMs),
  });
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites${totals}>\n${junitSuite(result, suiteName)}\n</testsuites>\n`;
}
