/**
 * A grader failure is never a student's failure, through the real CLI (dist/cli/index.js as a subprocess):
 *   - bubblewrap installed but unable to start (a stub exiting 1 with Docker's message): the probe notices, the
 *     grade falls back and a correct AI gets its real score, recorded as "not isolated" with the reason;
 *   - a sandbox that passes the probe and then fails to start (or REFEREE_REQUIRE_ISOLATION=1 with a broken one):
 *     exit 3, grade.json status 'grader-error', report.html and index.html say "not graded: grader error",
 *     and `referee gradescope` writes a results.json that says the autograder failed, with no score; the batch's
 *     grades.csv leaves the row's points blank and every `referee export` format says "not graded", never a 0.
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { makeClass, tempDir, writeConfig } from '../batch/helpers.js';
import { runToEnd, type ChildRun } from '../setup/children.js';

const CLI = resolve('dist/cli/index.js');
const STUDENT = resolve('tests/fixtures/students/fair/AIPlayer.ts');
const DOCKER = 'bwrap: No permissions to creating new namespace, likely because the kernel does not allow non-privileged user namespaces.';

function stub(kind: 'broken' | 'flaky'): string {
  const dir = tempDir(`bwrap-${kind}`);
  chmodSync(dir, 0o755); // the sandbox starts bubblewrap as an unprivileged user when the grader is root
  // flaky: answers the start-up probe (its last word is "exit 0"), fails every real start.
  const pass = kind === 'flaky' ? 'for last; do :; done\n[ "$last" = "exit 0" ] && exit 0\n' : '';
  writeFileSync(join(dir, 'bwrap'), `#!/bin/sh\n${pass}echo "${DOCKER}" >&2\nexit 1\n`);
  chmodSync(join(dir, 'bwrap'), 0o755);
  return dir;
}

const environment = (env: Record<string, string>, stubDir?: string): NodeJS.ProcessEnv => ({ ...process.env, REFEREE_CACHE_DIR: tempDir('cache'), ...(stubDir ? { PATH: `${stubDir}:${process.env.PATH}` } : {}), ...env });


/**
 * Any command (a grade, check or batch from an empty cache builds its tools first): run to its end however long a loaded machine
 * takes. A 120 s spawnSync timeout killed two working grades at load 40 (exit null) and blocked jest's own timeout.
 */
function graded(args: string[], env: Record<string, string> = {}, stubDir?: string): Promise<ChildRun> {
  return runToEnd(process.execPath, [CLI, ...args], environment(env, stubDir));
}

const work = tempDir('grader-error');
const config = writeConfig(work);

test('broken bubblewrap, Landlock standing in: graded, hardened by Landlock and seccomp, the broken bubblewrap named with its fix', async () => {
  const out = join(work, 'broken-landlock');
  const run = await graded(['grade', STUDENT, '--config', config, '--out', out, '--json'], {}, stub('broken'));
  expect(run.stderr).toContain('cannot start a sandbox here');
  expect(run.stderr).toContain('Landlock and seccomp stand in for it');
  expect(run.code).toBe(0);
  const grade = JSON.parse(readFileSync(join(out, 'grade.json'), 'utf8'));
  expect(grade.status).toBe('graded');
  expect(grade.score).toBeGreaterThan(0);
  const sides = grade.games[0].record.isolation.filter((side: unknown) => side !== null);
  expect(sides.every((side: { hardened: boolean; layers: string[] }) => side.hardened && side.layers.includes('landlock'))).toBe(true);
});

test('broken bubblewrap and Landlock refused: the fallback grades a correct AI for real, marked not isolated with the fix', async () => {
  const out = join(work, 'broken');
  const run = await graded(['grade', STUDENT, '--config', config, '--out', out, '--json'], { REFEREE_SANDBOX_NO_LANDLOCK: '1' }, stub('broken'));
  expect(run.stderr).toContain('cannot start a sandbox here');
  expect(run.code).toBe(0);
  const grade = JSON.parse(readFileSync(join(out, 'grade.json'), 'utf8'));
  expect(grade.status).toBe('graded');
  expect(grade.interfaceCheck.passed).toBe(true);
  expect(grade.score).toBeGreaterThan(0);
  expect(grade.isolation.hardened).toBe(false);
  expect(grade.isolation.problem).toMatch(/--privileged/);
  expect(grade.games[0].record.isolation.some((side: { hardened: boolean } | null) => side?.hardened === false)).toBe(true);
  const report = readFileSync(join(out, 'report.html'), 'utf8');
  expect(report).toContain('not isolated');
  expect(report).toContain('results guard against accidents, not attacks');
});

test('a sandbox that cannot start is exit 3 and a grader-error grade, never a 0', async () => {
  const out = join(work, 'flaky');
  const run = await graded(['grade', STUDENT, '--config', config, '--out', out], {}, stub('flaky'));
  expect(run.code).toBe(3);
  expect(run.stderr).toMatch(/not graded: grader error: the sandbox did not start/);
  const grade = JSON.parse(readFileSync(join(out, 'grade.json'), 'utf8'));
  expect(grade.status).toBe('grader-error');
  expect(grade.graderError).toMatch(/sandbox did not start/);
  expect(readFileSync(join(out, 'report.html'), 'utf8')).toContain('Not graded: grader error.');
  // The summary charges nothing to the student: no ✗ and no FAILED 0/10 for a check the grader could not run.
  expect(run.stdout).toMatch(/Interface check\s+not finished: the grader failed, not the submission/);
  expect(run.stdout).not.toMatch(/✗|FAILED/);
});

test('REFEREE_PYTHON naming no interpreter is one line that names it, a grader error, never a fallback or a compile failure', async () => {
  const submission = resolve('tests/fixtures/python/random/AIPlayer.py');
  const run = await graded(['check', submission], { REFEREE_PYTHON: '/nonexistent/python3' });
  expect(run.code).toBe(3);
  expect(run.stderr + run.stdout).toContain('REFEREE_PYTHON=/nonexistent/python3 does not exist: point it at a python3 >= 3.8, or unset it');
  expect(run.stdout).not.toMatch(/compile|syntax/i);
});

test('REFEREE_REQUIRE_ISOLATION=1 with a broken bubblewrap refuses: exit 3 with the fix', async () => {
  const out = join(work, 'required');
  const run = await graded(['grade', STUDENT, '--config', config, '--out', out], { REFEREE_REQUIRE_ISOLATION: '1', REFEREE_SANDBOX_NO_LANDLOCK: '1' }, stub('broken'));
  expect(run.code).toBe(3);
  expect(run.stderr).toMatch(/REFEREE_REQUIRE_ISOLATION=1 but the sandbox is not isolated.*--privileged/);
});

test('gradescope: no results.json (Gradescope\'s own "autograder failed", nothing recorded), exit 3 with the reason', async () => {
  const submission = join(work, 'gs-submission');
  mkdirSync(submission, { recursive: true });
  writeFileSync(join(submission, 'AIPlayer.ts'), readFileSync(STUDENT, 'utf8'));
  const results = join(work, 'gs-results', 'results.json');
  mkdirSync(join(work, 'gs-results'), { recursive: true });
  writeFileSync(results, '{"score": 99}'); // a stale one from an earlier run must not stand
  const run = await graded(['gradescope', '--submission', submission, '--results', results, '--config', config], {}, stub('flaky'));
  expect(run.code).toBe(3);
  expect(existsSync(results)).toBe(false);
  expect(run.stderr).toMatch(/grader error, not graded: .*no results.json written, so Gradescope records nothing/);
});

test('batch: the class index says "not graded: grader error" and the run exits 3', async () => {
  const classDir = makeClass({ alice: 'fair' });
  const out = join(work, 'batch');
  const run = await graded(['batch', classDir, '--config', config, '--out', out, '--jobs', '1'], {}, stub('flaky'));
  expect(run.code).toBe(3);
  expect(run.stderr).toMatch(/not graded because of a grader error/);
  const index = readFileSync(join(out, 'index.html'), 'utf8');
  expect(index).toContain('not graded: grader error');
  const csv = readFileSync(join(out, 'grades.csv'), 'utf8').trim().split('\n');
  expect(csv[0]).toBe('student,name,lms_id,late,language,total,max,Interface check,vs random,vs greedy,status,note');
  // Not graded: total and item cells blank (an LMS import would record a 0), max kept, status 'not graded', the reason.
  expect(csv[1]).toMatch(/^alice,alice,,,TypeScript,,60,,,,not graded,"?not graded: grader error: .*sandbox did not start/);

  // `referee export` of that grade in every format: nothing charged to the student.
  const gradeJson = join(out, 'students', 'alice', 'grade.json');
  const exported = async (format: string): Promise<string> => {
    const result = await graded(['export', gradeJson, '--format', format]);
    expect({ format, code: result.code, stderr: result.stderr }).toEqual({ format, code: 0, stderr: '' });
    return result.stdout;
  };
  expect((await exported('csv')).trim().split('\n')[1]).toMatch(/^alice,alice,,,TypeScript,,60,,,,not graded,"?not graded: grader error/);
  const junit = await exported('junit');
  expect(junit).toMatch(/<testsuite name="alice" tests="1" failures="0" errors="1" skipped="0"/);
  expect(junit).toMatch(/<error message="not graded: grader error: .*sandbox did not start/);
  expect(junit).not.toContain('<failure');
  expect(await exported('markdown')).toMatch(/^## .*: not graded \(grader error\)/);
  // Gradescope and Classroom would record any output as points: refused, exit 3, nothing on stdout (the CI step fails).
  for (const format of ['gradescope', 'classroom']) {
    const refused = await graded(['export', gradeJson, '--format', format]);
    expect({ code: refused.code, stdout: refused.stdout }).toEqual({ code: 3, stdout: '' });
    expect(refused.stderr).toMatch(/^referee: not graded \(grader error: .*sandbox did not start/);
  }
  expect(existsSync(join(out, 'students', 'alice', 'results.json'))).toBe(false);
  expect(existsSync(join(out, 'students', 'alice', 'classroom.json'))).toBe(false);
  // The batch's per-student JUnit is the same export.
  expect(readFileSync(join(out, 'students', 'alice', 'junit.xml'), 'utf8')).toContain('errors="1"');
});
