/**
 * SPRT as an assignment scoring rule and the ranked ladder item: config validation, decisions with their error
 * rates recorded in GradeResult, games beyond a decision not played, and a resumed grade going on from its journal.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from '@jest/globals';
import { AssignmentError, resolveAssignment } from '../../grading/assignment.js';
import { referenceContestant } from '../../grading/contestant.js';
import { grade } from '../../grading/grade.js';
import { validateGradeResult } from '../../grading/grade-result.js';
import { JOURNAL_FILE } from '../../grading/journal.js';
import { renderReport } from '../../reports/render.js';

const issues = (json: unknown): string[] => {
  try {
    resolveAssignment(json, 'test.json');
  } catch (error) {
    expect(error).toBeInstanceOf(AssignmentError);
    return (error as AssignmentError).issues.map((issue) => `${issue.pointer}: ${issue.message}`);
  }
  throw new Error('expected a config error');
};

const SPRT = { rule: 'sprt', elo0: 0, elo1: 150, alpha: 0.05, beta: 0.05, maxGames: 60 };

describe('sprt and ladder configs', () => {
  test('defaults: alpha, beta, maxGames and the fallback threshold halfway between elo0 and elo1', () => {
    const assignment = resolveAssignment({ opponents: [{ name: 'random', points: 10, scoring: { rule: 'sprt', elo0: 0, elo1: 100 } }] });
    expect(assignment.opponents[0].scoring).toEqual({ rule: 'sprt', elo0: 0, elo1: 100, alpha: 0.05, beta: 0.05, maxGames: 400, fallback: { rule: 'threshold', winRate: 0.5715 } });
    expect(assignment.opponents[0].games).toBe(400);
    const ladder = resolveAssignment({ opponents: [{ ladder: ['random', { name: 'greedy', points: 25 }, 'weighted'], points: 30, scoring: SPRT }] }).opponents[0];
    expect(ladder.ladder).toEqual([{ name: 'random', points: 10 }, { name: 'greedy', points: 25 }, { name: 'weighted', points: 30 }]);
    expect(ladder.title).toBe('ladder: random → greedy → weighted');
  });

  test('each mistake is one pointer-precise issue naming the fix', () => {
    expect(issues({ opponents: [{ name: 'random', points: 10, scoring: { rule: 'sprt', elo0: 100, elo1: 50 } }] })).toEqual(['/opponents/0/scoring/elo1: must be greater than elo0, e.g. elo0 0 and elo1 100']);
    expect(issues({ opponents: [{ name: 'random', points: 10, scoring: { ...SPRT, alpha: 0 } }] })[0]).toMatch(/^\/opponents\/0\/scoring\/alpha: must be a probability above 0/);
    expect(issues({ opponents: [{ name: 'random', points: 10, scoring: { ...SPRT, maxGames: 7 } }] })[0]).toMatch(/^\/opponents\/0\/scoring\/maxGames: must be an even number/);
    expect(issues({ opponents: [{ name: 'random', games: 10, points: 10, scoring: SPRT }] })).toEqual(['/opponents/0/games: does not go with the sprt rule: its "maxGames" caps the games; remove "games"']);
    expect(issues({ opponents: [{ ladder: ['random', 'greedy'], points: 10 }] })[0]).toMatch(/^\/opponents\/0\/scoring: a ladder needs the sprt rule/);
    expect(issues({ opponents: [{ ladder: ['random', 'grredy'], points: 10, scoring: SPRT }] })).toEqual([
      '/opponents/0/ladder/1: unknown reference AI "grredy" (did you mean "greedy"?): use one of random, greedy, weighted, mcts, mobility, alphabeta',
    ]);
    expect(issues({ opponents: [{ points: 10 }] })[0]).toMatch(/^\/opponents\/0\/name: is required/);
  });
});

describe('grading with sprt', () => {
  const assignment = resolveAssignment({
    title: 'SPRT test',
    interfaceCheck: { points: 0 },
    opponents: [
      { name: 'random', points: 40, seed: 3, openingMoves: 2, scoring: SPRT },
      { ladder: ['random', 'weighted', 'mobility'], points: 60, seed: 4, openingMoves: 2, scoring: { ...SPRT, maxGames: 20 } },
    ],
  });

  test('decides in pairs, stops at the decision, records the test and the trace; the ladder stops at the first level not beaten', async () => {
    const result = validateGradeResult(await grade({ assignment, assignmentSource: 'test', contestant: referenceContestant('reversi', 'mobility') }));
    const [single, ladder] = result.items;
    expect(single.sprt).toHaveLength(1);
    const test = single.sprt![0];
    expect(test.decision).toBe('H1');
    expect(test.llr).toBeGreaterThanOrEqual(test.upper);
    expect(test.upper).toBeCloseTo(Math.log(0.95 / 0.05), 10);
    expect(test.lower).toBeCloseTo(Math.log(0.05 / 0.95), 10);
    expect(test.gamesUsed % 2).toBe(0);
    expect(test.gamesUsed).toBeLessThan(60);
    expect(test.trace.at(-1)!.games).toBe(test.gamesUsed);
    expect(single.played).toBe(test.gamesUsed);
    expect(single.points).toBe(40);
    expect(result.games.filter((game) => game.item === 0)).toHaveLength(test.gamesUsed);
    // A pair shares its seed and its opening (openingMoves 2: a 2-ply line), colours swapped; the next pair has its own.
    const [first, second, third] = result.games.filter((game) => game.item === 0);
    expect([first.studentSide, second.studentSide, second.seed]).toEqual([0, 1, first.seed]);
    expect(second.record.turns.slice(0, 2).map((turn) => turn.move)).toEqual(first.record.turns.slice(0, 2).map((turn) => turn.move));
    expect(third.seed).not.toBe(first.seed);

    // mobility beats random and weighted; against itself it cannot show +150 Elo, so the ladder stops there.
    expect(ladder.sprt!.map((t) => [t.opponent, t.passed])).toEqual([['random', true], ['weighted', true], ['mobility', false]]);
    expect(ladder.points).toBe(40);
    const html = renderReport(result);
    expect(html).toContain('H1 accepted after');
    expect(html.match(/<polyline class="llr"/g)).toHaveLength(4);
  });

  test('a grade cut short resumes from its journal and reaches the same decision', async () => {
    const out = mkdtempSync(join(tmpdir(), 'referee-sprt-'));
    const small = resolveAssignment({ interfaceCheck: { points: 0 }, opponents: [{ name: 'greedy', points: 10, seed: 9, openingMoves: 2, scoring: { ...SPRT, elo1: 200 } }] });
    const full = await grade({ assignment: small, assignmentSource: 'test', contestant: referenceContestant('reversi', 'weighted'), outDir: out });
    const lines = readFileSync(join(out, JOURNAL_FILE), 'utf8').trim().split('\n');
    expect(lines).toHaveLength(full.items[0].played);
    // Keep the first three games (a pair and a half), as a kill would.
    writeFileSync(join(out, JOURNAL_FILE), `${lines.slice(0, 3).join('\n')}\n`);
    const resumed = await grade({ assignment: small, assignmentSource: 'test', contestant: referenceContestant('reversi', 'weighted'), outDir: out, resume: true });
    expect(resumed.timings.resumedGames).toBe(3);
    expect(resumed.items[0].sprt).toEqual(full.items[0].sprt);
    expect(resumed.items[0].points).toBe(full.items[0].points);
  });
});
