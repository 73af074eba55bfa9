/**
 * Python submissions through the same entry points as TypeScript ones: resolve, compile (syntax check and hash),
 * the interface check with Python's words in its hints, and whole games through the referee.
 */
import { cpSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gameIds, getGame } from '../../harness/games/registry.js';
import { InProcessPlayer } from '../../harness/referee/in-process.js';
import { playGame } from '../../harness/referee/match.js';
import { checkSubmission, type CheckResult } from '../../harness/submission/check.js';
import { CompileError, compileSubmission, formatProblem } from '../../harness/submission/compile.js';
import { createSubmissionPlayer } from '../../harness/submission/player.js';
import { resolveSubmission } from '../../harness/submission/resolve.js';
import { referenceAgent } from '../../reference-ai/index.js';
import { isolateCache, scratch } from '../sandbox/support.js';
import { PYTHON_FIXTURES, PYTHON_HOSTILE } from './support.js';

beforeAll(() => {
  isolateCache();
});

const step = (result: CheckResult, id: string) => result.steps.find((s) => s.id === id);

describe('resolving and compiling Python submissions', () => {
  test('a folder with AIPlayer.py, a folder with main.py, a .py file', () => {
    expect(resolveSubmission(join(PYTHON_FIXTURES, 'mcts'))).toMatchObject({ language: 'Python', kind: 'directory' });
    const folder = scratch('main-py');
    writeFileSync(join(folder, 'main.py'), 'class AIPlayer: pass\n');
    expect(resolveSubmission(folder).entry).toBe(join(folder, 'main.py'));
    expect(resolveSubmission(join(PYTHON_HOSTILE, 'loop_c.py'))).toMatchObject({ language: 'Python', kind: 'file' });
  });

  test('a syntax error is located at compile time, in the entry or a module it imports', async () => {
    await expect(compileSubmission(resolveSubmission(join(PYTHON_HOSTILE, 'syntax_error.py')))).rejects.toMatchObject({
      problems: [{ file: 'syntax_error.py', line: 5, text: expect.stringMatching(/^SyntaxError/) }],
    });
    const folder = scratch('imports-broken');
    writeFileSync(join(folder, 'AIPlayer.py'), 'from helpers import pick\n\nclass AIPlayer:\n    pass\n');
    writeFileSync(join(folder, 'helpers.py'), 'def pick(:\n    pass\n');
    writeFileSync(join(folder, 'unused.py'), 'this is not python\n');
    const error = await compileSubmission(resolveSubmission(folder)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CompileError);
    expect((error as CompileError).problems.map((p) => `${p.file}:${p.line}`)).toEqual(['helpers.py:1']);
  });

  test("the hash covers the modules the entry imports, and only those", async () => {
    const folder = scratch('hash');
    cpSync(join(PYTHON_FIXTURES, 'mcts'), folder, { recursive: true });
    const hash = async () => (await compileSubmission(resolveSubmission(folder))).hash;
    const first = await hash();
    writeFileSync(join(folder, 'notes.py'), 'x = 1\n');
    expect(await hash()).toBe(first);
    writeFileSync(join(folder, 'tree.py'), '# changed\n', { flag: 'a' });
    expect(await hash()).not.toBe(first);
  });
});

describe('the interface check on Python submissions', () => {
  test.each(['random', 'greedy', 'mcts', 'func-timeout'])('%s passes, in Python words', async (name) => {
    const result = await checkSubmission(join(PYTHON_FIXTURES, name), { moveTimeoutMs: 5000 });
    expect(result.steps.filter((s) => s.status === 'fail')).toEqual([]);
    expect(result).toMatchObject({ ok: true, language: 'Python' });
    expect(step(result, 'moves')?.title).toMatch(/^get_move answers the opening/);
    expect(step(result, 'types')?.status).toBe('skip');
    expect(result.layers).toContain('python-audit-hook');
    expect(result.layers).not.toContain('node-permissions');
  });

  test.each(gameIds())('the host picks the board module by game id: %s', async (game) => {
    const result = await checkSubmission(join(PYTHON_FIXTURES, 'any-game'), { game, moveTimeoutMs: 5000 });
    expect(result.steps.filter((s) => s.status === 'fail')).toEqual([]);
  });

  test("get_move(self, b) plays, but the check warns that game.py's get_move(board=...) would fail it", async () => {
    const result = await checkSubmission(join(PYTHON_FIXTURES, 'parity', 'other_name.py'), { moveTimeoutMs: 5000 });
    expect(result.ok).toBe(true);
    expect(step(result, 'compile')).toMatchObject({
      status: 'warn',
      detail: 'other_name.py:6: on the platform this fails: game.py calls get_move(board=...) — name the parameter board (get_move(self, board))',
    });
    expect(step(result, 'moves')?.status).toBe('pass');
    // The platform's own forms draw no warning: board (and info) by name, a default parameter, **kwargs.
    for (const name of ['default_param.py', 'info_keyword.py', 'keeps_board.py']) {
      const clean = await compileSubmission(resolveSubmission(join(PYTHON_FIXTURES, 'parity', name)));
      expect(clean.warnings).toEqual([]);
    }
  });

  test('a syntax error fails the compile step with its place', async () => {
    const result = await checkSubmission(join(PYTHON_HOSTILE, 'syntax_error.py'));
    const compile = step(result, 'compile');
    // The place is listed once, under the step, as file:line:col.
    expect(compile).toMatchObject({ status: 'fail', detail: '1 error' });
    expect(compile?.problems).toHaveLength(1);
    expect(formatProblem(compile!.problems![0])).toMatch(/^syntax_error\.py:5:\d+: SyntaxError/);
  });

  test('a misnamed class gets the rename hint', async () => {
    const result = await checkSubmission(join(PYTHON_HOSTILE, 'missing_aiplayer.py'));
    expect(step(result, 'export')).toMatchObject({
      status: 'fail',
      title: 'defines class AIPlayer',
      detail: expect.stringContaining('AiPlayer'),
      hint: expect.stringMatching(/rename the class AiPlayer to AIPlayer/),
    });
  });

  test('an import of a module that is not installed names the module', async () => {
    const result = await checkSubmission(join(PYTHON_HOSTILE, 'import_error.py'));
    expect(step(result, 'export')).toMatchObject({
      status: 'fail',
      detail: expect.stringContaining("No module named 'tensorflow'"),
      hint: expect.stringMatching(/^'tensorflow' is not available/),
    });
  });

  test('mutating the board fails the tamper step with a Python hint', async () => {
    const result = await checkSubmission(join(PYTHON_HOSTILE, 'mutate_board.py'));
    expect(step(result, 'tamper')).toMatchObject({ status: 'fail', hint: expect.stringContaining('deepcopy(board)') });
  });

  test('returning None is illegal, described in Python terms', async () => {
    const folder = scratch('returns-none');
    writeFileSync(join(folder, 'AIPlayer.py'), 'class AIPlayer:\n    def __init__(self, color):\n        pass\n\n    def get_move(self, board):\n        return None\n');
    const result = await checkSubmission(folder, { illegalLimit: 1 });
    expect(step(result, 'moves')).toMatchObject({
      status: 'fail',
      detail: expect.stringContaining('returned None (NoneType), which is not a string'),
      hint: expect.stringContaining('get_legal_actions'),
    });
  });
});

test('a Python submission plays whole games through the referee', async () => {
  const reversi = getGame('reversi');
  for (const seed of [1, 2]) {
    const python = await createSubmissionPlayer(join(PYTHON_FIXTURES, 'greedy'));
    const random = new InProcessPlayer('random', referenceAgent('reversi', 'random'), getGame);
    const [black, white] = seed === 1 ? [python, random] : [random, python];
    try {
      const record = await playGame({ game: reversi, black, white, seed });
      expect(record.end.reason).toBe('score');
      expect(record.turns.length).toBeGreaterThan(20);
    } finally {
      await python.close();
    }
  }
});
