import { describe, expect, test, beforeAll } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import { parse as parseResults } from 'test-results-parser';
import { packageRoot } from '../../grading/package-root.js';
import { classroomRefusal, toClassroom } from '../../grading/exporters/classroom.js';
import { gradesCsv } from '../../grading/exporters/csv.js';
import { gradescopeRefusal, toGradescope } from '../../grading/exporters/gradescope.js';
import { toJUnit } from '../../grading/exporters/junit.js';
import { toMarkdown } from '../../grading/exporters/markdown.js';
import { summarizeGrade } from '../../grading/batch/summary.js';
import { grade } from '../../grading/grade.js';
import type { GradeResult } from '../../grading/grade-result.js';
import { roundPoints } from '../../grading/scoring.js';
import { countingContestant, failingContestant, smallAssignment } from '../grading/helpers.js';

let passed: GradeResult;
let failed: GradeResult;
const HOSTILE = 'no <AIPlayer> & "quotes"\u0001\u0007 here';

beforeAll(async () => {
  passed = await grade({ assignment: smallAssignment(), assignmentSource: 'test', contestant: countingContestant('random') });
  failed = await grade({ assignment: smallAssignment(), assignmentSource: 'test', contestant: failingContestant(HOSTILE) });
});

const sortedKeys = (value: object): string[] => Object.keys(value).sort();

describe('Gradescope results.json', () => {
  test('has exactly the documented fields; tests add up to the score; visibility follows the rubric', () => {
    const results = toGradescope(passed);
    expect(sortedKeys(results)).toEqual(['execution_time', 'leaderboard', 'output', 'output_format', 'score', 'stdout_visibility', 'test_name_format', 'test_output_format', 'tests']);
    expect([results.output_format, results.test_output_format, results.test_name_format]).toEqual(['text', 'text', 'text']);
    expect(results.score).toBe(passed.score);
    expect(Number.isInteger(results.execution_time)).toBe(true);
    expect(results.tests).toHaveLength(3);
    for (const test of results.tests) {
      expect(sortedKeys(test)).toEqual(['max_score', 'name', 'number', 'output', 'score', 'status', 'visibility']);
      expect(['passed', 'failed']).toContain(test.status);
      expect(test.status === 'passed').toBe(test.score >= test.max_score);
    }
    expect(roundPoints(results.tests.reduce((sum, test) => sum + test.score, 0))).toBe(passed.score);
    expect(results.tests.map((test) => [test.name, test.visibility])).toEqual([['Interface check', 'visible'], ['vs random', 'visible'], ['vs greedy', 'hidden']]);
    expect(results.leaderboard.map((entry) => entry.name)).toEqual(['Score (visible items)', 'Win rate vs random']);
    for (const entry of results.leaderboard) expect(sortedKeys(entry)).toEqual(['name', 'value']);
  });

  test('a failed check: zero points, the checklist with its fix in the output, items not played', () => {
    const results = toGradescope(failed);
    expect(results.score).toBe(0);
    expect(results.tests[0]).toMatchObject({ status: 'failed', score: 0, max_score: 10 });
    expect(results.tests[0].output).toContain('✗ exports AIPlayer');
    expect(results.tests[0].output).toContain('fix: export a class named AIPlayer');
    expect(results.tests[1].output).toContain('Not played');
  });
});

test('Gradescope: the isolation notice is the instructor\'s (extra_data), never the always-visible output', () => {
  const copy = JSON.parse(JSON.stringify(passed)) as GradeResult;
  for (const item of copy.items) item.visibility = 'visible';
  copy.warnings = ['Not isolated: the sandbox ran without bubblewrap (no user namespaces), so these results guard against accidents, not attacks.', '2 games were lost because the AI ran out of time.'];
  const results = toGradescope(copy);
  expect(results.output).not.toContain('isolated');
  expect(results.output).toContain('Warning: 2 games were lost');
  expect(results.extra_data).toEqual({ isolation: copy.warnings[0] });
});

describe('Gradescope visibility: nothing not shown yet leaks into visible text or the leaderboard', () => {
  const VALUES = ['visible', 'hidden', 'after_due_date', 'after_published'] as const;
  /** The grade with item 1 (vs greedy) at the given visibility, everything else visible. */
  const withVisibility = (visibility: (typeof VALUES)[number]): GradeResult => {
    const copy = JSON.parse(JSON.stringify(passed)) as GradeResult;
    for (const item of copy.items) item.visibility = 'visible';
    copy.interfaceCheck.visibility = 'visible';
    copy.items[1].visibility = visibility;
    copy.warnings = ['3 games were lost because the AI threw an error.'];
    return copy;
  };

  test.each(VALUES)('an item marked %s', (visibility) => {
    const result = withVisibility(visibility);
    const results = toGradescope(result);
    const hiddenItem = result.items[1];
    const visibleTotal = roundPoints(result.interfaceCheck.points + result.items[0].points);
    // The score Gradescope records is always the full grade (it hides the total itself while tests are hidden).
    expect(results.score).toBe(result.score);
    expect(results.tests[2]).toMatchObject({ name: hiddenItem.title, visibility, score: hiddenItem.points });
    const board = Object.fromEntries(results.leaderboard.map((entry) => [entry.name, entry.value]));
    if (visibility === 'visible') {
      expect(results.output).toContain(`${result.score} / ${result.maxScore} points`);
      expect(results.output).toContain('Warning: 3 games were lost');
      expect(board).toEqual({ Score: result.score, 'Win rate vs random': expect.any(Number), 'Win rate vs greedy': expect.any(Number) });
      return;
    }
    // Visible text: the visible items' points only, no total, no warning computed over the hidden item's games.
    expect(results.output).toContain(`${visibleTotal} / ${roundPoints(result.interfaceCheck.maxPoints + result.items[0].maxPoints)} points on the items shown now`);
    expect(results.output).not.toContain(`/ ${result.maxScore} points`);
    expect(results.output).not.toContain('Warning');
    expect(results.output).not.toContain(hiddenItem.title);
    expect(results.output).toMatch({ hidden: /never/, after_due_date: /after the due date/, after_published: /when grades are published/ }[visibility]);
    // The leaderboard is public at once: the visible points, and no column for the item.
    expect(board).toEqual({ 'Score (visible items)': visibleTotal, 'Win rate vs random': expect.any(Number) });
    for (const test of results.tests.filter((each) => each.visibility === 'visible')) expect(test.output).not.toContain(hiddenItem.title);
  });

  test('a hidden interface check leaves only the items in the visible text', () => {
    const result = withVisibility('visible');
    result.interfaceCheck.visibility = 'after_published';
    const results = toGradescope(result);
    const shown = roundPoints(result.items[0].points + result.items[1].points);
    expect(results.output).toContain(`${shown} / 60 points on the items shown now`.replace('/ 60', `/ ${roundPoints(result.items[0].maxPoints + result.items[1].maxPoints)}`));
    expect(results.leaderboard[0]).toEqual({ name: 'Score (visible items)', value: shown });
  });
});

/**
 * classroom-resources/autograding-grading-reporter@v1's two totals, as its source computes them: the points it
 * sends to Classroom (NotifyClassroom: runners with a max_score, the sum of their tests' scores) and the job log's
 * table (the v1 release's getTestScore: tests passed / tests × max_score).
 */
type Runner = ReturnType<typeof toClassroom>['referee'];
const reporterPoints = (runners: Runner[]): { total: number; max: number } =>
  runners.reduce((acc, runner) => (runner.max_score ? { total: acc.total + runner.tests.reduce((sum, test) => sum + test.score, 0), max: acc.max + runner.max_score } : acc), { total: 0, max: 0 });
const reporterTable = (runners: Runner[]): { total: number; max: number } =>
  runners.reduce((acc, runner) => ({ total: acc.total + (runner.tests.filter((test) => test.status === 'pass').length / runner.tests.length) * (runner.max_score || 0), max: acc.max + runner.max_score }), { total: 0, max: 0 });

describe('GitHub Classroom runner output', () => {
  test('the reporter\'s Classroom points and its log table both say the grade (graded, failed check, partial, full)', () => {
    const partial = JSON.parse(JSON.stringify(passed)) as GradeResult;
    partial.items[0].points = 7.5;
    partial.items[1].points = 0;
    partial.score = roundPoints(partial.interfaceCheck.points + 7.5);
    const full = JSON.parse(JSON.stringify(passed)) as GradeResult;
    for (const item of full.items) item.points = item.maxPoints;
    full.score = full.maxScore;
    for (const result of [passed, failed, partial, full]) {
      const { referee, refereemissed } = toClassroom(result);
      const runners = [referee, refereemissed];
      expect(reporterPoints(runners)).toEqual({ total: result.score, max: result.maxScore });
      const table = reporterTable(runners);
      expect({ total: roundPoints(table.total), max: table.max }).toEqual({ total: result.score, max: result.maxScore });
      for (const runner of runners) {
        expect(runner.version).toBe(1);
        expect(runner.tests.length).toBeGreaterThan(0);
        for (const test of runner.tests) {
          expect(sortedKeys(test)).toEqual(['execution_time', 'line_no', 'message', 'name', 'score', 'status']);
          // The reporter prints "- line <n>" unless line_no is 0.
          expect(test.line_no).toBe(0);
        }
      }
    }
    expect(toClassroom(full).refereemissed.status).toBe('pass');
    expect(toClassroom(partial).referee.tests.map((test) => test.name)).toEqual(['Interface check: 10 of 10 points', 'vs random: 7.5 of 20 points'.replace('20', String(partial.items[0].maxPoints))]);
  });
});

describe('a grade the grader could not make (status grader-error)', () => {
  test('Gradescope and Classroom refuse it (any output would be recorded as points)', () => {
    const notGraded: GradeResult = { ...passed, status: 'grader-error', graderError: 'the sandbox did not start' };
    expect(gradescopeRefusal(notGraded)).toMatch(/^not graded \(grader error: the sandbox did not start\): no results.json/);
    expect(() => toGradescope(notGraded)).toThrow(/not graded/);
    expect(classroomRefusal(notGraded)).toMatch(/^not graded \(grader error: the sandbox did not start\): no Classroom output/);
    expect(() => toClassroom(notGraded)).toThrow(/not graded/);
    expect(gradescopeRefusal(passed)).toBeNull();
    expect(classroomRefusal(passed)).toBeNull();
  });
});

/** Jenkins xUnit's own schema (tests/fixtures/junit/junit-10.xsd) through libxml2's xmllint: the plugin skips invalid files. */
const XSD = join(packageRoot(), 'tests', 'fixtures', 'junit', 'junit-10.xsd');
const hasXmllint = spawnSync('xmllint', ['--version']).status === 0;
function validate(xml: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'referee-junit-'));
  const file = join(dir, 'junit.xml');
  writeFileSync(file, xml);
  const run = spawnSync('xmllint', ['--noout', '--schema', XSD, file], { encoding: 'utf8' });
  return `${run.status} ${run.stderr.trim()}`;
}
/** test-results-parser (a JUnit parser CI dashboards use) reading the file as a consumer does. */
function consume(xml: string): ReturnType<typeof parseResults> {
  const dir = mkdtempSync(join(tmpdir(), 'referee-junit-'));
  const file = join(dir, 'junit.xml');
  writeFileSync(file, xml);
  return parseResults({ type: 'junit', files: [file] });
}

describe('JUnit XML', () => {
  const notGraded = (): GradeResult => ({ ...failed, status: 'grader-error', graderError: 'the sandbox did not start <bwrap>' });
  const parse = (xml: string) =>
    new XMLParser({ ignoreAttributes: false, isArray: (name) => ['testcase', 'property', 'failure', 'error', 'skipped'].includes(name) }).parse(xml) as {
      testsuite: {
        '@_tests': string;
        '@_failures': string;
        '@_errors': string;
        '@_skipped': string;
        '@_timestamp': string;
        properties: { property: { '@_name': string; '@_value': string }[] };
        testcase: { '@_name': string; '@_classname': string; 'system-out': string; failure?: { '@_message': string }[]; error?: { '@_message': string; '@_type': string; '#text': string }[]; skipped?: unknown[] }[];
      };
    };

  (hasXmllint ? test : test.skip)('valid against Jenkins xUnit junit-10.xsd: graded, a failed check with hostile text, a grader error', () => {
    expect(validate(toJUnit(passed, 'alice'))).toMatch(/^0 .*validates$/);
    expect(validate(toJUnit(failed, 'x<y & "z"'))).toMatch(/^0 .*validates$/);
    expect(validate(toJUnit(notGraded(), 'alice'))).toMatch(/^0 .*validates$/);
    // The schema does bite: properties inside a testcase (what the export wrote before) are refused.
    expect(validate(toJUnit(passed, 'alice').replace('<system-out>', '<properties/><system-out>'))).toMatch(/^3 .*properties.*not expected/s);
  });

  test('a JUnit parser counts what the grade says: passed, failed, skipped (not skipped as passed)', () => {
    const graded = consume(toJUnit(passed, 'alice'));
    const failedItems = passed.items.filter((item) => item.points < item.maxPoints).length;
    expect({ total: graded.total, failed: graded.failed, skipped: graded.skipped, errors: graded.errors }).toEqual({ total: 3, failed: failedItems, skipped: 0, errors: 0 });
    expect(graded.suites[0].cases.map((testCase) => (testCase.metadata as Record<string, string>).points)).toEqual([String(passed.interfaceCheck.points), ...passed.items.map((item) => String(item.points))]);
    const check = consume(toJUnit(failed, 'bob'));
    // tests="3" skipped="2": 1 counted test, which failed; the two items not played are skipped, not passed.
    expect({ total: check.total, passed: check.passed, failed: check.failed, skipped: check.skipped }).toEqual({ total: 1, passed: 0, failed: 1, skipped: 2 });
    expect(check.suites[0].cases.map((testCase) => testCase.status)).toEqual(['FAIL', 'SKIP', 'SKIP']);
    const error = consume(toJUnit(notGraded(), 'carol'));
    expect({ passed: error.passed, failed: error.failed, errors: error.errors }).toEqual({ passed: 0, failed: 0, errors: 1 });
  });

  test('one testcase per rubric item; points in system-out and the suite properties; failures for items short of full points', () => {
    const suite = parse(toJUnit(passed, 'alice')).testsuite;
    expect(suite.testcase.map((testCase) => testCase['@_name'])).toEqual(['Interface check', 'vs random', 'vs greedy']);
    const suiteProperties = Object.fromEntries(suite.properties.property.map((property) => [property['@_name'], property['@_value']]));
    expect(suiteProperties).toMatchObject({ score: String(passed.score), maxScore: String(passed.maxScore) });
    passed.items.forEach((item, index) => {
      const testCase = suite.testcase[index + 1];
      expect(testCase['system-out']).toBe(`[[PROPERTY|points=${item.points}]]\n[[PROPERTY|maxPoints=${item.maxPoints}]]`);
      expect(suiteProperties[`points: ${item.title}`]).toBe(`${item.points}/${item.maxPoints}`);
      expect(testCase.failure !== undefined).toBe(item.points < item.maxPoints);
    });
    expect(Number(suite['@_failures'])).toBe(suite.testcase.filter((testCase) => testCase.failure).length);
    // UTC with its zone: a timestamp without Z reads as local time.
    expect(suite['@_timestamp']).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  });

  test('class names read as package referee, class = the student (Jenkins splits at the last dot)', () => {
    const classOf = (name: string): string => parse(toJUnit(passed, name)).testsuite.testcase[0]['@_classname'];
    expect(classOf('alice')).toBe('referee.alice');
    expect(classOf('tests/fixtures/x/AIPlayer.ts')).toBe('referee.tests/fixtures/x/AIPlayer_ts');
    expect(classOf('alice.smith').split('.').pop()).toBe('alice_smith');
  });

  test('a failed check is a failure whose message names the fix; hostile text stays well-formed', () => {
    const xml = toJUnit(failed, 'x<y');
    const suite = parse(xml).testsuite;
    expect(suite.testcase[0].failure?.[0]['@_message']).toBe('exports AIPlayer failed: export a class named AIPlayer');
    expect(suite.testcase[1].skipped).toHaveLength(1);
    expect(suite['@_skipped']).toBe('2');
    expect(xml).not.toMatch(/[\u0001\u0007]/);
    expect(xml).toContain('no &lt;AIPlayer&gt; &amp;');
  });

  test('a grader error: one errored testcase naming it, errors counted, no failures, no points or score', () => {
    const xml = toJUnit(notGraded(), 'alice');
    const suite = parse(xml).testsuite;
    expect([suite['@_tests'], suite['@_failures'], suite['@_errors'], suite['@_skipped']]).toEqual(['1', '0', '1', '0']);
    expect(suite.testcase).toHaveLength(1);
    const [testCase] = suite.testcase;
    expect(testCase.failure).toBeUndefined();
    expect(testCase.error).toHaveLength(1);
    expect(testCase.error![0]['@_type']).toBe('grader-error');
    expect(testCase.error![0]['@_message']).toBe('not graded: grader error: the sandbox did not start <bwrap> (a problem of the grading machine, not of the code)');
    expect(testCase.error![0]['#text']).toMatch(/NOT graded: the sandbox did not start <bwrap>\nNo rubric item was scored/);
    expect(testCase['system-out']).toBe(`[[PROPERTY|maxPoints=${failed.maxScore}]]`);
    const suiteProperties = Object.fromEntries(suite.properties.property.map((property) => [property['@_name'], property['@_value']]));
    expect(suiteProperties).not.toHaveProperty('score');
    expect(suiteProperties).toMatchObject({ status: 'grader-error', graderError: 'the sandbox did not start <bwrap>' });
    expect(xml).not.toContain('<failure');
  });
});

describe('markdown for a grade the grader could not make (status grader-error)', () => {
  const notGraded = (): GradeResult => ({ ...failed, status: 'grader-error', graderError: 'the sandbox did not start <bwrap>' });

  test('markdown: says it was not graded and why, with no table of zeros and no total', () => {
    const text = toMarkdown(notGraded());
    expect(text).toMatch(/^## .*: not graded \(grader error\)\n/);
    expect(text).toContain('The autograder failed, so this submission was NOT graded:** the sandbox did not start <bwrap>');
    expect(text).not.toMatch(/\| \*\*total\*\*|0 \/ 60|Interface check/);
    // A graded grade keeps its table.
    expect(toMarkdown(passed)).toContain(`| **total** | | **${passed.score} / ${passed.maxScore}** |`);
  });
});

describe('grades.csv', () => {
  test('a header of rubric items, quoted where needed, formulas defused', () => {
    const csv = gradesCsv([summarizeGrade('=HYPERLINK("x")', passed, null), { ...summarizeGrade('bob, jr', failed, null) }]);
    const lines = csv.trim().split('\n');
    expect(lines[0]).toBe('student,name,lms_id,late,language,total,max,Interface check,vs random,vs greedy,status,note');
    expect(lines[1].startsWith(`"'=HYPERLINK(""x"")","'=HYPERLINK(""x"")",,,${passed.submission.language},${passed.score},60,10,`)).toBe(true);
    expect(lines[2]).toMatch(/^"bob, jr","bob, jr",,,[A-Za-z]*,0,60,0,0,0,interface check failed,/);
  });

  test('a row not graded (status "not graded") leaves total and item cells blank: an LMS import must not record a 0', () => {
    const graderError = summarizeGrade('carol', { ...passed, status: 'grader-error', graderError: 'the sandbox did not start' }, null);
    const lines = gradesCsv([summarizeGrade('alice', passed, null), graderError]).trim().split('\n');
    expect(lines[1]).toMatch(new RegExp(`^alice,alice,,,[A-Za-z ]*,${passed.score},60,10,`));
    expect(lines[2]).toMatch(/^carol,carol,,,[A-Za-z ]*,,60,,,,not graded,not graded: grader error: the sandbox did not start/);
  });
});
