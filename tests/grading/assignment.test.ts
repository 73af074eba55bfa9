import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from '@jest/globals';
import {
  AssignmentError,
  assignmentHash,
  defaultAssignment,
  loadAssignment,
  resolveAssignment,
  type ConfigIssue,
} from '../../grading/assignment.js';

function issuesOf(json: unknown): ConfigIssue[] {
  try {
    resolveAssignment(json, 'test.json');
  } catch (error) {
    expect(error).toBeInstanceOf(AssignmentError);
    return (error as AssignmentError).issues;
  }
  throw new Error('expected the config to be rejected');
}

const opponent = (extra: Record<string, unknown> = {}): Record<string, unknown> => ({ name: 'random', games: 4, points: 10, ...extra });

describe('assignment config', () => {
  test('omitted fields take the course platform defaults', () => {
    const assignment = resolveAssignment({ opponents: [{ name: 'random', points: 10 }] });
    expect(assignment.game).toBe('reversi');
    expect(assignment.referee).toEqual({
      moveTimeoutMs: 60000,
      turnTimeoutMs: 60000,
      quitEndsGame: false,
      illegalMoveLimit: 3,
      constructTimeoutMs: 60000,
      loadTimeoutMs: 60000,
      memoryMb: 512,
      tamperLoses: true,
      forcedLossDiff: 0,
      seedPlayerRandom: true,
    });
    expect(assignment.interfaceCheck).toEqual({ points: 10, visibility: 'visible' });
    expect(assignment.opponents[0]).toEqual({
      name: 'random',
      title: 'vs random',
      games: 10,
      points: 10,
      scoring: { rule: 'threshold', winRate: 0.5 },
      seed: 1,
      openingMoves: 0,
      visibility: 'visible',
    });
  });

  test('the built-in assignment is a three-step ladder with a short move limit', () => {
    const assignment = defaultAssignment();
    expect(assignment.opponents.map((item) => item.name)).toHaveLength(3);
    expect(assignment.referee.moveTimeoutMs).toBeLessThanOrEqual(1000);
    expect(assignment.interfaceCheck.points + assignment.opponents.reduce((sum, item) => sum + item.points, 0)).toBe(100);
  });

  test('an odd number of games names its pointer and the fix', () => {
    const issues = issuesOf({ opponents: [opponent(), opponent(), opponent({ games: 3 })] });
    expect(issues).toEqual([{ pointer: '/opponents/2/games', message: expect.stringContaining('must be an even number ≥ 2') }]);
  });

  test('unknown keys are errors, with a suggestion for a misspelling', () => {
    const issues = issuesOf({ moveTimeoutMS: 1000, opponents: [opponent({ gmaes: 4 })] });
    expect(issues).toContainEqual({ pointer: '/moveTimeoutMS', message: expect.stringContaining('did you mean "moveTimeoutMs"') });
    expect(issues).toContainEqual({ pointer: '/opponents/0/gmaes', message: expect.stringContaining('did you mean "games"') });
  });

  test('missing required keys, bad types and bad enums each point at their value', () => {
    const issues = issuesOf({
      illegalMoveLimit: 0,
      tamperLoses: 'yes',
      opponents: [{ name: 'random' }, opponent({ visibility: 'public' })],
    });
    const pointers = issues.map((issue) => issue.pointer);
    expect(pointers).toEqual(expect.arrayContaining(['/illegalMoveLimit', '/tamperLoses', '/opponents/0/points', '/opponents/1/visibility']));
    expect(issues.find((issue) => issue.pointer === '/opponents/1/visibility')?.message).toContain('after_due_date');
  });

  test('scoring rules are checked by their own fields', () => {
    expect(issuesOf({ opponents: [opponent({ scoring: { rule: 'curve' } })] })).toEqual([
      { pointer: '/opponents/0/scoring/rule', message: 'must be "threshold", "linear" or "sprt"' },
    ]);
    expect(issuesOf({ opponents: [opponent({ scoring: { rule: 'threshold', winRate: 1.5 } })] })[0].pointer).toBe('/opponents/0/scoring/winRate');
    expect(issuesOf({ opponents: [opponent({ scoring: { rule: 'linear', minWinRate: 0.6, fullWinRate: 0.4 } })] })).toEqual([
      { pointer: '/opponents/0/scoring/fullWinRate', message: expect.stringContaining('greater than minWinRate') },
    ]);
  });

  test('unknown games and reference AIs are named with the known ones', () => {
    expect(issuesOf({ game: 'chess', opponents: [opponent()] })[0]).toEqual({ pointer: '/game', message: expect.stringContaining('reversi') });
    expect(issuesOf({ opponents: [opponent({ name: 'randon' })] })[0]).toEqual({
      pointer: '/opponents/0/name',
      message: expect.stringContaining('did you mean "random"'),
    });
  });

  test('the error message lists every issue as "pointer: fix" under the file name', () => {
    const dir = mkdtempSync(join(tmpdir(), 'referee-assignment-'));
    const path = join(dir, 'a.json');
    writeFileSync(path, JSON.stringify({ opponents: [opponent({ games: 0 })] }));
    expect(() => loadAssignment(path)).toThrow(`${path} is not a valid assignment:\n  /opponents/0/games: must be an even number ≥ 2`);
    writeFileSync(path, '{ "opponents": [ }');
    expect(() => loadAssignment(path)).toThrow(/ \/: is not valid JSON/);
  });

  test('the config hash ignores key order and changes with any value', () => {
    const a = resolveAssignment({ title: 'T', opponents: [opponent()] });
    const b = resolveAssignment({ opponents: [{ points: 10, games: 4, name: 'random' }], title: 'T' });
    const c = resolveAssignment({ title: 'T', opponents: [opponent({ seed: 2 })] });
    expect(assignmentHash(a)).toBe(assignmentHash(b));
    expect(assignmentHash(a)).not.toBe(assignmentHash(c));
  });
});

describe("the game's own rule defaults", () => {
  test('a config that leaves the rules out gets the game defaults; explicit values win', () => {
    const base = { opponents: [{ name: 'random', games: 2, points: 10 }] };
    expect(resolveAssignment({ ...base, game: 'connect4-nogo' }).referee).toMatchObject({ moveTimeoutMs: 3000, illegalMoveLimit: 1 });
    expect(resolveAssignment({ ...base, game: 'reversi' }).referee).toMatchObject({ moveTimeoutMs: 60000, illegalMoveLimit: 3 });
    expect(resolveAssignment({ ...base, game: 'nogo', illegalMoveLimit: 3 }).referee.illegalMoveLimit).toBe(3);
    // game.py parity switches: the turn limit, 'Q', and the game's own rules.
    expect(resolveAssignment({ ...base, game: 'nogo' }).referee.gameRules).toEqual({ centerFirstMoveBanned: true });
    const platform = resolveAssignment({ ...base, game: 'nogo', turnTimeoutMs: 9000, quitEndsGame: true, gameRules: { centerFirstMoveBanned: false } });
    expect(platform.referee).toMatchObject({ turnTimeoutMs: 9000, quitEndsGame: true, gameRules: { centerFirstMoveBanned: false } });
    expect(() => resolveAssignment({ ...base, game: 'reversi', gameRules: { centerFirstMoveBanned: false } })).toThrow(
      /\/gameRules\/centerFirstMoveBanned.*not a rule of reversi/,
    );
    expect(() => resolveAssignment({ ...base, gameRules: { centerFirstMoveBanned: 1 } })).toThrow(/gameRules/);
  });

  test('every count is bounded: a typo of games or opponents is a one-line config error, not a grader that plans for an hour', () => {
    const item = { name: 'random', games: 2, points: 10 };
    expect(() => resolveAssignment({ opponents: [{ ...item, games: 2_000_000 }] })).toThrow(/\/opponents\/0\/games: must be an even number ≥ 2 and at most 10000/);
    expect(() => resolveAssignment({ opponents: Array.from({ length: 101 }, () => item) })).toThrow(/\/opponents: must be an array of 1 to 100 opponents/);
    expect(() => resolveAssignment({ illegalMoveLimit: 1e9, opponents: [item] })).toThrow(/\/illegalMoveLimit: must be a whole number from 1 to 100/);
    expect(() => resolveAssignment({ opponents: [{ ...item, points: 1e300 }] })).toThrow(/\/opponents\/0\/points: must be a number from 0 to 1000000/);
    // Each item within bounds, the class's plan not: 3 × 10000 games a student.
    expect(() => resolveAssignment({ opponents: [1, 2, 3].map((seed) => ({ ...item, games: 10_000, seed })) })).toThrow(/\/opponents: plan 30000 games a student, over 20000/);
  });

  test('a limit the referee cannot time is a pointer-precise config error', () => {
    const json = { moveTimeoutMs: 2 ** 40, opponents: [{ name: 'random', games: 2, points: 10 }] };
    expect(() => resolveAssignment(json)).toThrow(/\/moveTimeoutMs: must be a positive integer up to 2147483647/);
  });
});
