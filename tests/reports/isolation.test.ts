/**
 * What a reader is told about the sandbox: report.html and the class index.html show "hardened" or, in red,
 * "not isolated", and a grader error as "not graded: grader error" with its reason (never a score). The grade
 * itself keeps the grader error out of the student's points and lets every exporter read `status`.
 */
import { grade } from '../../grading/grade.js';
import { validateGradeResult, type GradeResult } from '../../grading/grade-result.js';
import { summarizeGrade } from '../../grading/batch/summary.js';
import { GraderError } from '../../harness/referee/grader-error.js';
import { renderClassIndex } from '../../reports/class/render.js';
import { renderReport } from '../../reports/render.js';
import { referenceContestant } from '../../grading/contestant.js';
import { smallAssignment } from '../grading/helpers.js';

const NOT_HARDENED = { hardened: false, layers: ['process', 'node-permissions'], problem: 'bwrap is installed but cannot start a sandbox here: use --privileged' };
const HARDENED = { hardened: true, layers: ['process', 'bubblewrap', 'seccomp'] };

let graded: GradeResult;
beforeAll(async () => {
  graded = await grade({ assignment: smallAssignment(), assignmentSource: 'test', contestant: referenceContestant('reversi', 'random') });
});

test('report.html: a hardened badge, or the red "not isolated" line with the reason', () => {
  expect(renderReport({ ...graded, isolation: HARDENED })).toMatch(/id="isolation"><span class="badge ok">hardened<\/span>/);
  const open = renderReport({ ...graded, isolation: NOT_HARDENED });
  expect(open).toMatch(/id="isolation" class="not-isolated"><span class="badge bad">not isolated<\/span> results guard against accidents, not attacks/);
  expect(open).toContain('use --privileged');
});

test('a grader error during the check is status grader-error with the reason, no points, no score shown', async () => {
  const inner = referenceContestant('reversi', 'random');
  const failing = { ...inner, check: async () => Promise.reject(new GraderError('the sandbox did not start (bwrap: Operation not permitted)')) };
  const result = validateGradeResult(
    JSON.parse(JSON.stringify(await grade({ assignment: smallAssignment(), assignmentSource: 'test', contestant: failing }))),
  );
  expect(result.status).toBe('grader-error');
  expect(result.graderError).toMatch(/sandbox did not start/);
  expect(result.score).toBe(0);
  expect(result.games).toEqual([]);
  const html = renderReport(result);
  expect(html).toContain('Not graded: grader error.');
  expect(html).not.toContain('id="score"');
  const summary = summarizeGrade('alice', result, null);
  expect(summary.status).toBe('error');
  const bob = summarizeGrade('bob', { ...graded, isolation: HARDENED }, null);
  const index = renderClassIndex({ title: 'Class', students: [summary, bob] });
  expect(index).toContain('not graded: grader error');
  // The leaderboard: alice after every graded student, no rank and no points; the class figures leave her out.
  const rows = index.slice(index.indexOf('<tbody>'), index.indexOf('</tbody>')).split('<tr').slice(1);
  expect(rows[0]).toMatch(/<td data-value="1">1<\/td><td class="text">bob/);
  expect(rows[1]).toMatch(/<td data-value=""><\/td><td class="text">alice/);
  expect(rows[1]).toContain('<td data-value="-1">not graded</td>');
  expect(rows[1]).not.toMatch(/\d+ \/ \d+/);
  expect(index).toContain(`mean ${bob.score} / ${bob.maxScore} · median ${bob.score} (of the 1 graded; 1 not graded)`);
  const histogram = [...index.matchAll(/<title>\d+–\d+%: (\d+)<\/title>/g)].reduce((sum, match) => sum + Number(match[1]), 0);
  expect(histogram).toBe(1);
});

test('index.html: "hardened" when every graded student ran in bubblewrap, else the red count', () => {
  const hardened = renderClassIndex({ title: 'Class', students: [summarizeGrade('a', { ...graded, isolation: HARDENED }, null)] });
  expect(hardened).toMatch(/<span class="badge hardened">hardened<\/span>/);
  const mixed = renderClassIndex({
    title: 'Class',
    students: [summarizeGrade('a', { ...graded, isolation: HARDENED }, null), summarizeGrade('b', { ...graded, isolation: NOT_HARDENED }, null)],
  });
  expect(mixed).toMatch(/<span class="badge not-isolated">not isolated<\/span> 1 submission ran without bubblewrap/);
});
