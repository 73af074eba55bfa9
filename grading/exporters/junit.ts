/**
 * JUnit XML from a GradeResult, for CI test reporters, valid against Jenkins xUnit's junit-10.xsd (the plugin
 * skips invalid files): the root is one <testsuite> per grade — the schema allows no `skipped` count on
 * <testsuites>, and parsers that read the root's counts then take skipped items as passed — with one testcase per
 * rubric item (the interface check first). An item short of full points is a failure whose message says why; an
 * item not played is skipped. The schema allows no <properties> in a testcase, so each case's points go in its
 * <system-out> as `[[PROPERTY|points=…]]` lines (the inline-property convention JUnit parsers read) and, with the
 * score, in the suite's <properties>. A grade the grader could not make (status 'grader-error') is one testcase
 * with an <error> naming the grader error, and no failure: CI reporters show errors apart from failures, and
 * nothing here is charged to the student. Written with xmlbuilder2, which escapes every text and attribute.
 */
import { create } from 'xmlbuilder2';
import type { GradeResult } from '../grade-result.js';

/** Characters XML 1.0 cannot hold at all (student output may have them): dropped, since no escape exists. */
export const xmlSafe = (text: string): string => text.replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '');

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

/**
 * Jenkins reads a classname as package.class, split at the last dot: `referee.<student>` with the student's own
 * dots made underscores, so `alice.smith` shows as class `alice_smith` in package `referee`, not as class `smith`.
 */
export const junitClassname = (suiteName: string): string => `referee.${xmlSafe(suiteName).replace(/\./g, '_').replace(/\s+/g, ' ').trim() || 'submission'}`;

/** ISO 8601 with the zone kept (a timestamp without `Z` reads as local time). */
const timestamp = (iso: string): string => iso.replace(/\.\d+Z$/, 'Z');

/** The JUnit XML document for one grade: a <testsuite> named after `suiteName` (the student, in a batch). */
export function toJUnit(result: GradeResult, suiteName = result.submission.name): string {
  const cases = casesOf(result);
  const classname = junitClassname(suiteName);
  const suite = create({ version: '1.0', encoding: 'UTF-8' }).ele('testsuite', {
    name: xmlSafe(suiteName),
    tests: String(cases.length),
    failures: String(cases.filter((testCase) => testCase.failure).length),
    errors: String(cases.filter((testCase) => testCase.error).length),
    skipped: String(cases.filter((testCase) => testCase.skipped).length),
    time: seconds(result.timings.totalMs),
    timestamp: timestamp(result.timings.startedAt),
  });
  // A grader error has no score at all (a 0 would read as the student's).
  const suiteProperties: Record<string, string | number> = notGraded(result)
    ? { status: 'grader-error', graderError: result.graderError ?? 'unknown', maxScore: result.maxScore, assignment: result.assignment.title, configHash: result.assignment.hash }
    : { score: result.score, maxScore: result.maxScore, assignment: result.assignment.title, configHash: result.assignment.hash };
  if (!notGraded(result)) for (const testCase of cases) suiteProperties[`points: ${testCase.name}`] = `${testCase.points}/${testCase.maxPoints}`;
  const properties = suite.ele('properties');
  for (const [name, value] of Object.entries(suiteProperties)) properties.ele('property', { name: xmlSafe(name), value: xmlSafe(String(value)) });
  for (const testCase of cases) {
    const element = suite.ele('testcase', { name: xmlSafe(testCase.name), classname, time: seconds(testCase.ms) });
    if (testCase.failure) element.ele('failure', { message: xmlSafe(testCase.failure.message), type: 'score' }).txt(xmlSafe(testCase.failure.body));
    if (testCase.error) element.ele('error', { message: xmlSafe(testCase.error.message), type: 'grader-error' }).txt(xmlSafe(testCase.error.body));
    if (testCase.skipped) element.ele('skipped', { message: xmlSafe(testCase.skipped) });
    // An errored case claims no points, not even 0.
    const points = testCase.error ? [`[[PROPERTY|maxPoints=${testCase.maxPoints}]]`] : [`[[PROPERTY|points=${testCase.points}]]`, `[[PROPERTY|maxPoints=${testCase.maxPoints}]]`];
    element.ele('system-out').txt(points.join('\n'));
  }
  return `${suite.end({ prettyPrint: true })}\n`;
}
