/**
 * Issue #20: Python submissions written the way the course's students write them (tests/fixtures/python/real),
 * each checked under the platform's limits as `referee check` does without --config, asserting the platform's
 * behaviour (or the documented difference). A few run through the CLI as a subprocess, as a student runs them.
 */
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { platformCheckLimits } from '../../grading/check-limits.js';
import { checkSubmission, type CheckResult } from '../../harness/submission/check.js';
import { resolveSubmission } from '../../harness/submission/resolve.js';
import { detectLayers } from '../../harness/sandbox/layers.js';
import { isolateCache, scratch } from '../sandbox/support.js';

const REAL = resolve('tests/fixtures/python/real');
const CLI = resolve('dist/cli/index.js');
const run = promisify(execFile);

beforeAll(() => {
  isolateCache();
});

const check = (name: string, extra: Parameters<typeof checkSubmission>[1] = {}): Promise<CheckResult> =>
  checkSubmission(join(REAL, name), { ...platformCheckLimits('reversi'), typeCheck: false, ...extra });

const failures = (result: CheckResult) => result.steps.filter((step) => step.status === 'fail').map((step) => `${step.title}: ${step.detail}`);
const stepOf = (result: CheckResult, id: string) => result.steps.find((step) => step.id === id);

describe('real student programs pass the platform-limit check', () => {
  test.each([
    ['mcts-deepcopy', 'MCTS deep-copying the board and board._board every simulation, reading vars(board)'],
    ['notebook-main', 'main.py beside helpers, `from game import Game`, a whole local game at import, self.color set by the harness'],
    ['signals', 'signal.signal inside get_move raises ValueError (a non-main thread, as under func_timeout)'],
    ['numpy-eval', 'a numpy evaluation (BLAS and LAPACK through /etc/alternatives)'],
    ['player-py', 'player.py beside a helper module'],
  ])('%s: %s', async (name) => {
    const result = await check(name);
    expect(failures(result)).toEqual([]);
    // The only warning allowed is the pace one (an answer over the ladder's 500 ms): on a loaded machine any may be.
    const warned = result.steps.filter((step) => step.status === 'warn' && !(step.id === 'moves' && /over the built-in ladder's/.test(step.detail ?? '')));
    expect(warned.map((step) => `${step.id}: ${step.detail}`)).toEqual([]);
    expect(result).toMatchObject({ ok: true, language: 'Python' });
  });

  test('numpy also loads without bubblewrap (the audit hook alone)', async () => {
    const result = await check('numpy-eval', { layers: { ...detectLayers(), bwrap: null } });
    expect(failures(result)).toEqual([]);
  });

  test("AIplayer.py is taken with a warning, and its own colour 1/-1 is overwritten with 'X'/'O' as game.py does", async () => {
    const result = await check('color-ints');
    expect(failures(result)).toEqual([]);
    expect(stepOf(result, 'entry')).toMatchObject({ status: 'warn', detail: expect.stringContaining('took AIplayer.py as the entry') });
    // The fixture answers 'COLOUR 1' if it still holds its own value.
    expect(stepOf(result, 'moves')?.detail).toMatch(/opening \(Black\) → [A-H][1-8]/);
  });

  test('a lone class AIPlayer in agent.py is found (with a warning); --entry names it without one', async () => {
    const found = await check('lone-class');
    expect(failures(found)).toEqual([]);
    expect(stepOf(found, 'entry')).toMatchObject({ status: 'warn', detail: expect.stringContaining('agent.py, the one file that defines class AIPlayer') });
    const named = await check('lone-class', { entry: 'agent.py' });
    expect(stepOf(named, 'entry')).toMatchObject({ status: 'pass', detail: join(REAL, 'lone-class', 'agent.py') });
  });

  test('a 59 s time guard: answers over the ladder’s 500 ms pass the platform check with a warning naming it', async () => {
    const result = await check('timeguard');
    expect(failures(result)).toEqual([]);
    expect(result.ok).toBe(true);
    const moves = stepOf(result, 'moves');
    expect(moves?.status).toBe('warn');
    expect(moves?.detail).toMatch(/within the platform's 60 s, over the built-in ladder's 500 ms a move/);
    expect(moves?.hint).toMatch(/stop your search early/);
  });
});

test('referee grade without --config: a correct slow AI passes the check and is warned up front about the ladder', async () => {
  const out = scratch('grade-pace');
  const { stderr } = await run(process.execPath, [CLI, 'grade', join(REAL, 'timeguard'), '--check-only', '--out', out, '--json'], { env: { ...process.env, NODE_OPTIONS: '' } });
  expect(stderr).toMatch(/^warning: .*over the built-in ladder's 500 ms a move: games of the built-in ladder will be lost on time/m);
});

describe('entry names', () => {
  test('a Python folder without an entry: the message lists what it holds and the Python names first', () => {
    const dir = scratch('no-entry');
    writeFileSync(join(dir, 'helpers.py'), 'def f():\n    return 1\n');
    writeFileSync(join(dir, 'notes.txt'), 'x\n');
    expect(() => resolveSubmission(dir)).toThrow(/^no entry file in .* \(it holds helpers\.py, notes\.txt\): name the file with class AIPlayer AIPlayer\.py \(or main\.py, player\.py\), or pass --entry FILE/);
  });

  test('two files defining class AIPlayer: no guess, the message asks for --entry', () => {
    const dir = scratch('two-entries');
    writeFileSync(join(dir, 'a.py'), 'class AIPlayer:\n    pass\n');
    writeFileSync(join(dir, 'b.py'), 'class AIPlayer:\n    pass\n');
    expect(() => resolveSubmission(dir)).toThrow(/--entry FILE/);
    expect(resolveSubmission(dir, undefined, 'b.py').entry).toBe(join(dir, 'b.py'));
  });

  test('an --entry that is not in the folder is a one-line error naming the fix', () => {
    expect(() => resolveSubmission(join(REAL, 'player-py'), undefined, 'missing.py')).toThrow(/is not a file in .*: give a path relative to the folder, e\.g\. --entry AIPlayer\.py/);
  });

  test('referee check --entry, as a subprocess', async () => {
    const { stdout } = await run(process.execPath, [CLI, 'check', join(REAL, 'lone-class'), '--entry', 'agent.py', '--json'], { env: { ...process.env, NODE_OPTIONS: '' } });
    const result = JSON.parse(stdout) as CheckResult;
    expect({ ok: result.ok, entry: stepOf(result, 'entry')?.status }).toEqual({ ok: true, entry: 'pass' });
  });
});
