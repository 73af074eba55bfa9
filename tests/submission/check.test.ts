/** The interface check as a checklist, on good submissions and on the hostile fixtures it must catch. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { checkSubmission, type CheckResult, type StepId } from '../../harness/submission/check.js';
import { createSubmissionPlayer } from '../../harness/submission/player.js';
import { probePositions } from '../../harness/submission/probes.js';
import { HOSTILE, SUBMISSIONS, fixture, isolateCache, playOpening, reversi } from '../sandbox/support.js';
import type { SandboxPlayer } from '../../harness/sandbox/sandbox-player.js';

beforeAll(() => {
  isolateCache();
});

const FAST = { moveTimeoutMs: 2000, memoryMb: 256 };
const status = (result: CheckResult, id: StepId) => result.steps.find((step) => step.id === id)?.status;

test.each([
  ['a TypeScript folder with sibling imports', join(SUBMISSIONS, 'random-ts')],
  ['a JavaScript folder with package.json main and module.exports', join(SUBMISSIONS, 'dir-package')],
  ['a one-argument async default export', join(SUBMISSIONS, 'async-one-arg.mjs')],
])('passes %s', async (_, path) => {
  const result = await checkSubmission(path, FAST);
  expect(result.steps.filter((step) => step.status === 'fail')).toEqual([]);
  expect(result.ok).toBe(true);
  expect(status(result, 'moves')).toBe('pass');
  expect(status(result, 'export')).toBe('pass');
  expect(result.steps.map((step) => step.id)).toEqual(['entry', 'compile', 'types', 'export', 'construct', 'moves', 'tamper', 'later']);
});

test('a misnamed export fails at "exports AIPlayer" with the rename', async () => {
  const result = await checkSubmission(join(HOSTILE, 'misnamed-export.ts'), FAST);
  const step = result.steps.find((s) => s.id === 'export');
  expect(step?.status).toBe('fail');
  expect(step?.hint).toMatch(/rename the export AiPlayer to AIPlayer/);
  expect(result.ok).toBe(false);
});

test('a syntax error fails at "compiles" with file:line:col', async () => {
  const result = await checkSubmission(join(HOSTILE, 'syntax-error.ts'), FAST);
  const step = result.steps.find((s) => s.id === 'compile');
  expect(step?.status).toBe('fail');
  expect(step?.problems?.[0]).toMatchObject({ file: 'syntax-error.ts', line: 6, column: 1 });
  expect(status(result, 'export')).toBe('skip');
});

test('a type error is a warning: the submission still passes', async () => {
  const result = await checkSubmission(join(HOSTILE, 'type-error.ts'), FAST);
  expect(result.ok).toBe(true);
  const types = result.steps.find((s) => s.id === 'types');
  expect(types?.status).toBe('warn');
  expect(types?.problems?.[0]).toMatchObject({ file: 'type-error.ts', line: 7 });
});

test('a loop in getMove fails "legal move within the time limit" as a timeout', async () => {
  const result = await checkSubmission(join(HOSTILE, 'loop-getmove.js'), { ...FAST, moveTimeoutMs: 400 });
  const moves = result.steps.find((s) => s.id === 'moves');
  expect(moves?.status).toBe('fail');
  expect(moves?.detail).toMatch(/timeout: no answer within 400 ms/);
});

test('a loop in the constructor fails "constructs"', async () => {
  const result = await checkSubmission(join(HOSTILE, 'loop-constructor.js'), { ...FAST, moveTimeoutMs: 400 });
  expect(status(result, 'construct')).toBe('fail');
});

test('mutating the board fails "does not change the board"', async () => {
  const result = await checkSubmission(join(HOSTILE, 'mutate-board.js'), FAST);
  expect(status(result, 'moves')).toBe('pass');
  expect(status(result, 'tamper')).toBe('fail');
  expect(result.ok).toBe(false);
});

test('a board changed on ask 1 and restored before ask 2 passes (game.py compares once, after the turn)', async () => {
  const result = await checkSubmission(join('tests/fixtures/parity/restores-board.ts'), { ...FAST, typeCheck: false });
  expect(status(result, 'moves')).toBe('pass');
  expect(status(result, 'tamper')).toBe('pass');
  expect(result.ok).toBe(true);
});

const STARTER_IMPORT = /from '([^']+)'/.exec(readFileSync(join('student-template', 'src', 'AIPlayer.ts'), 'utf8'))![1];

test('a getMove(board, info) that expects MoveInfo as a second argument draws a warning naming moveInfo()', async () => {
  const result = await checkSubmission('tests/fixtures/parity/second-param.ts', { ...FAST, typeCheck: false });
  expect(result.steps.find((step) => step.id === 'export')).toMatchObject({
    status: 'warn',
    detail: expect.stringMatching(/getMove declares 2 parameters, but it is called getMove\(board\) with one argument/),
    // The import the starter itself uses (following a hint must not break the starter's `npm run typecheck`).
    hint: expect.stringContaining(`import { moveInfo } from '${STARTER_IMPORT}'`),
  });
  expect(result.ok).toBe(true);
  const defaults = await checkSubmission('tests/fixtures/parity/default-param.ts', { ...FAST, typeCheck: false });
  expect(status(defaults, 'export')).toBe('pass');
});

test('an error in getMove fails the probe with its message', async () => {
  const result = await checkSubmission(join(HOSTILE, 'throws.js'), FAST);
  expect(result.steps.find((s) => s.id === 'moves')?.detail).toMatch(/error: Error: student bug on purpose/);
});

test('an illegal answer fails the probe after illegalLimit asks, naming the value', async () => {
  const result = await checkSubmission(fixture('returns-value.js', { __VALUE__: "() => 'd3'" }), { ...FAST, illegalLimit: 2 });
  const moves = result.steps.find((s) => s.id === 'moves');
  expect(moves?.detail).toMatch(/returned "d3", which is not a move in the game's notation/);
  expect(moves?.hint).toMatch(/getLegalActions/);
});

test('a missing submission fails at "found the entry"', async () => {
  const result = await checkSubmission('/nope/AIPlayer.ts', FAST);
  expect(status(result, 'entry')).toBe('fail');
  expect(result.ok).toBe(false);
});

test('probe positions come from the game: both colours, a single legal move, late positions', () => {
  const probes = probePositions(reversi, 1);
  expect(new Set(probes.map((p) => p.side))).toEqual(new Set([0, 1]));
  expect(probes.some((p) => reversi.legalMoves(p.state).length === 1)).toBe(true);
  for (const probe of probes) {
    expect(reversi.isTerminal(probe.state)).toBe(false);
    expect(reversi.toMove(probe.state)).toBe(probe.side);
    expect(reversi.legalMoves(probe.state).length).toBeGreaterThan(0);
  }
  expect(probePositions(reversi, 1)).toEqual(probes);
});

test('createSubmissionPlayer gives a Player that plays from a path', async () => {
  const player = (await createSubmissionPlayer(join(SUBMISSIONS, 'random-ts'), { memoryMb: 256 })) as SandboxPlayer;
  try {
    expect(player.name).toBe('random-ts');
    const { answer } = await playOpening(player, 2000);
    expect(answer.kind).toBe('move');
  } finally {
    await player.close();
  }
  await expect(createSubmissionPlayer(join(HOSTILE, 'syntax-error.ts'))).rejects.toThrow(/syntax-error\.ts:6:1/);
});

describe('the gate is the contract; stacks and output reach the student', () => {
  test('an AI that fails only in later positions passes the gate with a warning: the stack in its own file, the output before it', async () => {
    const result = await checkSubmission(join(HOSTILE, 'throws-late.ts'), FAST);
    expect(result.ok).toBe(true);
    expect(status(result, 'moves')).toBe('pass');
    const later = result.steps.find((s) => s.id === 'later');
    expect(later?.status).toBe('warn');
    expect(later?.detail).toMatch(/error: Error: gave up at \d+ discs/);
    // Mapped through the bundle's source map to the student's file and line, without the host's frames.
    expect(later?.stack).toMatch(/at explode \(throws-late\.ts:16:9\)/);
    expect(later?.stack).toMatch(/at AIPlayer\.getMove \(throws-late\.ts:10:/);
    expect(later?.stack).not.toMatch(/host-[0-9a-f]+\.cjs|node:internal|\.cache/);
    expect(later?.output?.at(-1)).toMatch(/^discs on the board: \d+$/);
  });

  test('an error on the opening fails the gate with the stack', async () => {
    const result = await checkSubmission(join(HOSTILE, 'throws.js'), FAST);
    const moves = result.steps.find((s) => s.id === 'moves');
    expect(moves?.status).toBe('fail');
    expect(moves?.stack).toMatch(/at AIPlayer\.getMove \(throws\.js:4:11\)/);
    expect(status(result, 'later')).toBe('skip');
  });

  test('output printed before a timeout is kept with the failure', async () => {
    // 1.5 s, not 300 ms: on a busy machine (or Node 24's slower start) loading the file alone took 300 ms.
    const result = await checkSubmission(join(HOSTILE, 'print-then-loop.js'), { ...FAST, moveTimeoutMs: 1500 });
    const moves = result.steps.find((s) => s.id === 'moves');
    expect(moves?.detail).toMatch(/timeout/);
    expect(moves?.output).toEqual(['searching forever']);
  });

  test('a syntax error is listed once: no type errors repeating it', async () => {
    const result = await checkSubmission(join(HOSTILE, 'syntax-error.ts'), FAST);
    const compile = result.steps.find((s) => s.id === 'compile');
    expect(compile?.detail).toBe('1 error');
    expect(compile?.problems).toHaveLength(1);
    expect(result.steps.find((s) => s.id === 'types')).toMatchObject({ status: 'skip', detail: 'the code does not compile' });
  });

  test('the limits the check ran under are part of the result', async () => {
    const result = await checkSubmission(join(HOSTILE, 'throws.js'), { ...FAST, limitsSource: 'the built-in reversi assignment' });
    expect(result.limits).toEqual({ moveTimeoutMs: 2000, constructTimeoutMs: 2000, loadTimeoutMs: 60000, illegalLimit: 3, memoryMb: 256, source: 'the built-in reversi assignment' });
  });
});
