/**
 * The starter as a student and GitHub get it, on this machine: `referee init` (the built CLI, as a subprocess)
 * packs Referee into vendor/ and writes a lockfile; then the workflow's own steps run in order — its `npm ci`
 * installs Referee from the tarball (its dependencies from the registry), its grade step runs `npm run grade` —
 * and `npm run check` passes. Every `run:` step of both workflows must be valid bash. GitHub-only steps (`uses:`)
 * are skipped. Slow (a real npm install per starter): `npm test` installs the TypeScript Connect Four starter;
 * `npm run test:long` (run by CI after it) adds the Python Reversi starter without a lockfile.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from '@jest/globals';
import { parse } from 'yaml';
import { packageRoot } from '../../grading/package-root.js';
import { runToEnd } from '../setup/children.js';
import { LONG } from '../setup/long.js';

const CLI = join(packageRoot(), 'dist', 'cli', 'index.js');
const COURSE_ASSIGNMENT = (game: string) => ({
  title: 'Course assignment',
  game,
  moveTimeoutMs: 500,
  interfaceCheck: { points: 10 },
  opponents: [{ name: 'random', games: 2, points: 90, seed: 3, scoring: { rule: 'linear', minWinRate: 0, fullWinRate: 1 } }],
});
const MAX = 100;
const hasBwrap = spawnSync('sh', ['-c', 'command -v bwrap'], { encoding: 'utf8' }).status === 0;

interface Step {
  name?: string;
  id?: string;
  uses?: string;
  run?: string;
  if?: string;
  env?: Record<string, string>;
}
interface Workflow {
  env?: Record<string, string>;
  jobs: Record<string, { steps: Step[] }>;
}

function readWorkflow(dir: string, file: string): Workflow {
  return parse(readFileSync(join(dir, '.github', 'workflows', file), 'utf8')) as Workflow;
}

/** The few expressions the workflows use: vars.X || 'default', and steps.<id>.outputs.<name>. */
function evaluate(text: string, context: { vars: Record<string, string>; outputs: Record<string, Record<string, string>> }): string {
  return text.replace(/\$\{\{\s*(.+?)\s*\}\}/g, (_whole, expression: string) => {
    const fallback = /^vars\.(\w+)\s*\|\|\s*'([^']*)'$/.exec(expression);
    if (fallback) return context.vars[fallback[1]] ?? fallback[2];
    const output = /^steps\.([\w-]+)\.outputs\.(\w+)$/.exec(expression);
    if (output) return context.outputs[output[1]]?.[output[2]] ?? '';
    throw new Error(`the test does not know the expression ${expression}`);
  });
}

/** `key=value` lines of a $GITHUB_OUTPUT file. */
function outputsOf(path: string): Record<string, string> {
  if (!existsSync(path)) return {};
  return Object.fromEntries(
    readFileSync(path, 'utf8')
      .split('\n')
      .filter((line) => line.includes('='))
      .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
  );
}

interface StepRun {
  name: string;
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Run the job's `run:` steps in `dir` as GitHub would (bash -e, the step and workflow env, GITHUB_* files). */
async function runSteps(dir: string, workflow: Workflow, vars: Record<string, string>, only?: (step: Step) => boolean): Promise<{ runs: StepRun[]; summary: string; outputs: Record<string, Record<string, string>> }> {
  const [job] = Object.values(workflow.jobs);
  const scratch = mkdtempSync(join(tmpdir(), 'referee-gh-'));
  const summaryPath = join(scratch, 'summary.md');
  writeFileSync(summaryPath, '');
  const context = { vars, outputs: {} as Record<string, Record<string, string>> };
  const runs: StepRun[] = [];
  let failed = false;
  for (const [index, step] of job.steps.entries()) {
    if (step.run === undefined || (only && !only(step))) continue;
    const always = step.if === 'always()';
    if (failed && !always) continue;
    if (step.if && !always) throw new Error(`the test does not know the condition ${step.if}`);
    if (!hasBwrap && /bubblewrap/.test(step.name ?? '')) continue;
    const outputPath = join(scratch, `output-${index}`);
    const env: NodeJS.ProcessEnv = { ...process.env, GITHUB_OUTPUT: outputPath, GITHUB_STEP_SUMMARY: summaryPath, CI: 'true' };
    delete env.NODE_OPTIONS;
    for (const [key, value] of Object.entries({ ...workflow.env, ...step.env })) env[key] = evaluate(String(value), context);
    // To the step's own end however loaded the machine (a failed or timed-out test stops it).
    const result = await runToEnd('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', evaluate(step.run, context)], env, dir);
    runs.push({ name: step.name ?? step.run.split('\n')[0], status: result.code, stdout: result.stdout, stderr: result.stderr });
    if (step.id) context.outputs[step.id] = outputsOf(outputPath);
    if (result.code !== 0) failed = true;
  }
  return { runs, summary: readFileSync(summaryPath, 'utf8'), outputs: context.outputs };
}

function expectValidBash(workflow: Workflow): void {
  for (const job of Object.values(workflow.jobs)) {
    for (const step of job.steps) {
      if (step.run === undefined) continue;
      const checked = spawnSync('bash', ['-n'], { input: step.run, encoding: 'utf8' });
      expect({ step: step.name, status: checked.status, stderr: checked.stderr }).toEqual({ step: step.name, status: 0, stderr: '' });
    }
  }
}

const STARTERS = [
  { label: 'TypeScript, Connect Four', args: ['--game', 'connect4'], entry: 'src/AIPlayer.ts', game: 'connect4', lockfile: true },
  // A course that commits no lockfile (`referee init --no-lockfile`, or deleted): the workflows install without one.
  // A second real npm install (~40 s): in the long run only.
  ...(LONG ? [{ label: 'Python, Reversi, no lockfile', args: ['--python'], entry: 'src/AIPlayer.py', game: 'reversi', lockfile: false }] : []),
];

/** The reporter's two totals (classroom-resources/autograding-grading-reporter@v1): Classroom's points and the log table's. */
type Runner = { max_score: number; tests: { score: number; status: string }[] };
const reporterTotals = (runners: Runner[]): { points: number; table: number; max: number } => ({
  points: runners.filter((runner) => runner.max_score).reduce((sum, runner) => sum + runner.tests.reduce((total, test) => total + test.score, 0), 0),
  table: runners.reduce((sum, runner) => sum + (runner.tests.filter((test) => test.status === 'pass').length / runner.tests.length) * (runner.max_score || 0), 0),
  max: runners.reduce((sum, runner) => sum + runner.max_score, 0),
});

describe('the starter installs and its workflows run', () => {
  test.each(STARTERS)('$label: init → npm ci → npm run check → the workflow grades, summarises and gates', async ({ args, entry, game, lockfile }) => {
    const dir = join(mkdtempSync(join(tmpdir(), 'referee-starter-')), 'my-ai');
    const created = execFileSync(process.execPath, [CLI, 'init', dir, ...args], { encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' } });
    expect(created).toMatch(/board-referee file:vendor\/board-referee-[\d.]+\.tgz/);
    const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { devDependencies: Record<string, string>; scripts: Record<string, string> };
    const tarball = manifest.devDependencies['board-referee'];
    expect(tarball).toMatch(/^file:vendor\/board-referee-[\d.]+\.tgz$/);
    expect(existsSync(join(dir, tarball.slice('file:'.length)))).toBe(true);
    expect(manifest.devDependencies.referee).toBeUndefined();
    expect(manifest.scripts.check).toBe(`referee check src --game ${game}`);
    expect(existsSync(join(dir, entry))).toBe(true);
    const lock = JSON.parse(readFileSync(join(dir, 'package-lock.json'), 'utf8')) as { packages: Record<string, { resolved?: string }> };
    expect(lock.packages['node_modules/board-referee'].resolved).toBe(tarball);

    // As the starter's README tells a course: the course's assignment next to package.json, `--config` in the
    // scripts (a small one here, so the test grades in seconds).
    writeFileSync(join(dir, 'assignment.json'), JSON.stringify(COURSE_ASSIGNMENT(game)));
    for (const script of ['check', 'grade']) manifest.scripts[script] = manifest.scripts[script].replace(`--game ${game}`, '--config assignment.json');
    writeFileSync(join(dir, 'package.json'), JSON.stringify(manifest, null, 2));

    const grade = readWorkflow(dir, 'grade.yml');
    const classroom = readWorkflow(dir, 'classroom.yml');
    expectValidBash(grade);
    expectValidBash(classroom);
    if (!lockfile) rmSync(join(dir, 'package-lock.json'));
    // Node 24 and the actions' current majors (which run on Node 24); least privilege; no npm cache (it needs a lockfile).
    for (const workflow of [grade, classroom]) {
      const steps = Object.values(workflow.jobs)[0].steps;
      const setupNode = steps.find((step) => step.uses?.startsWith('actions/setup-node'));
      expect(setupNode).toEqual({ uses: 'actions/setup-node@v7', with: { 'node-version': 24 } });
      expect(steps.filter((step) => step.uses?.startsWith('actions/')).map((step) => step.uses)).toEqual(
        expect.arrayContaining(['actions/checkout@v7', 'actions/setup-node@v7']),
      );
      expect(steps.map((step) => step.uses).filter((uses) => uses?.startsWith('actions/') && !/@v(6|7)$/.test(uses))).toEqual([]);
      expect((workflow as { permissions?: Record<string, string> }).permissions).toMatchObject({ contents: 'read' });
    }
    expect(Object.values(grade.jobs)[0].steps.some((step) => step.run?.includes('kernel.apparmor_restrict_unprivileged_userns=0'))).toBe(true);

    const { runs, summary, outputs } = await runSteps(dir, grade, { MIN_SCORE: '0' });
    for (const run of runs) expect({ step: run.name, status: run.status, stderr: run.status === 0 ? '' : run.stderr.slice(-2000) }).toEqual({ step: run.name, status: 0, stderr: '' });
    expect(runs.map((run) => run.name)).toEqual(expect.arrayContaining(['Install Referee', 'Grade', 'Summary', 'Minimum score']));
    expect(outputs.grade).toEqual({ exit_code: '0' });
    expect(existsSync(join(dir, 'node_modules', 'board-referee', 'dist', 'cli', 'index.js'))).toBe(true);
    expect(existsSync(join(dir, 'referee-report', 'report.html'))).toBe(true);
    // The job summary is a markdown table of items and points.
    expect(summary).toMatch(/\| item \| result \| points \|/);
    expect(summary).toMatch(/\| Interface check \| passed \| \d+ \/ \d+ \|/);
    expect(summary).toMatch(new RegExp(`\\| \\*\\*total\\*\\* \\| \\| \\*\\*[\\d.]+ / ${MAX} ?\\*\\* \\|`));

    const check = await runToEnd('npm', ['run', '--silent', 'check'], { ...process.env, NODE_OPTIONS: '' }, dir);
    expect({ status: check.code, stderr: check.stderr }).toMatchObject({ status: 0 });
    expect(check.stdout).toMatch(/limits: 500 ms a move, .* \(assignment\.json\)/);
    expect(check.stdout).toMatch(/PASS/);

    // MIN_SCORE above the score fails the gate step (and only it).
    const gate = await runSteps(dir, grade, { MIN_SCORE: String(MAX + 1) }, (step) => step.name === 'Minimum score' || step.id === 'grade');
    expect(gate.runs.map((run) => [run.name, run.status])).toEqual([['Grade', 0], ['Minimum score', 1]]);
    expect(gate.runs[1].stdout).toMatch(new RegExp(`below MIN_SCORE=${MAX + 1}`));

    // classroom.yml's own step: Referee's Classroom export as two runners, base64 for the grading reporter, whose
    // two totals (Classroom's points, the log table) both say the grade.
    const referee = await runSteps(dir, classroom, {}, (step) => step.id === 'referee');
    expect(referee.runs.map((run) => run.status)).toEqual([0]);
    const runners = ['referee', 'refereemissed'].map((name) => JSON.parse(Buffer.from(referee.outputs.referee[name], 'base64').toString('utf8')) as Runner & { version: number });
    for (const runner of runners) expect(runner.version).toBe(1);
    const { score } = JSON.parse(readFileSync(join(dir, 'referee-report', 'grade.json'), 'utf8')) as { score: number };
    const totals = reporterTotals(runners);
    expect({ points: Math.round(totals.points * 100) / 100, table: Math.round(totals.table * 100) / 100, max: totals.max }).toEqual({ points: score, table: score, max: MAX });
  }, 600_000);
});
