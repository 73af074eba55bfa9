import { appendFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from '@jest/globals';
import { replayRecord } from '../../harness/referee/replay.js';
import { getGame } from '../../harness/games/registry.js';
import { grade } from '../../grading/grade.js';
import { readGradeResult, validateGradeResult, writeGradeResult } from '../../grading/grade-result.js';
import { JOURNAL_FILE } from '../../grading/journal.js';
import { countingContestant, failingContestant, smallAssignment } from './helpers.js';

const tempDir = (): string => mkdtempSync(join(tmpdir(), 'referee-grade-'));

describe('grade', () => {
  test('a reference AI graded on a small assignment: colours alternate, W/D/L add up, points follow the rules', async () => {
    const assignment = smallAssignment();
    const result = await grade({ assignment, assignmentSource: 'test', contestant: countingContestant('greedy') });
    validateGradeResult(result);
    expect(result.interfaceCheck).toMatchObject({ passed: true, points: 10, maxPoints: 10 });
    expect(result.games).toHaveLength(4);
    for (const entry of result.games) {
      expect(entry.studentSide).toBe(entry.index % 2);
      expect(entry.record.players[entry.studentSide]).toBe('greedy');
      expect(entry.record.players[1 - entry.studentSide]).toBe(assignment.opponents[entry.item].name);
      expect(replayRecord(entry.record, getGame).ok).toBe(true);
    }
    result.items.forEach((item, index) => {
      expect(item.wins + item.draws + item.losses).toBe(2);
      expect(item.bySide[0].wins + item.bySide[0].draws + item.bySide[0].losses).toBe(1);
      expect(item.winRate).toBe((item.wins + item.draws / 2) / 2);
      expect(item.wilson.low).toBeLessThanOrEqual(item.winRate);
      expect(item.wilson.high).toBeGreaterThanOrEqual(item.winRate);
      expect(item.visibility).toBe(index === 1 ? 'hidden' : 'visible');
    });
    const [vsRandom, vsGreedy] = result.items;
    expect(vsRandom.points).toBe(Math.round(20 * vsRandom.winRate * 100) / 100);
    expect(vsGreedy.points).toBe(vsGreedy.winRate >= 0.5 ? 30 : 0);
    expect(result.score).toBe(10 + vsRandom.points + vsGreedy.points);
    expect(result.maxScore).toBe(60);
  });

  test('the same seeds give the same games; --seed changes them', async () => {
    const assignment = smallAssignment();
    const once = await grade({ assignment, assignmentSource: 'test', contestant: countingContestant('random') });
    const again = await grade({ assignment, assignmentSource: 'test', contestant: countingContestant('random') });
    const reseeded = await grade({ assignment, assignmentSource: 'test', contestant: countingContestant('random'), seed: 99 });
    const moves = (result: typeof once): string[][] => result.games.map((entry) => entry.record.turns.map((turn) => turn.move ?? 'pass'));
    expect(moves(again)).toEqual(moves(once));
    expect(moves(reseeded)).not.toEqual(moves(once));
    expect(reseeded.items.every((item) => item.seed === 99)).toBe(true);
    expect(reseeded.seedOverride).toBe(99);
  });

  test('a failed interface check plays no game, scores 0 and says why', async () => {
    const result = await grade({ assignment: smallAssignment(), assignmentSource: 'test', contestant: failingContestant('no AIPlayer export') });
    validateGradeResult(result);
    expect(result.games).toEqual([]);
    expect(result.score).toBe(0);
    expect(result.items.every((item) => item.status === 'skipped' && item.points === 0)).toBe(true);
    expect(result.warnings[0]).toContain('interface check failed');
  });

  test('each finished game is journaled; --resume replays none of them; a changed config reuses none', async () => {
    const outDir = tempDir();
    const assignment = smallAssignment();
    const first = countingContestant('greedy');
    const original = await grade({ assignment, assignmentSource: 'test', contestant: first, outDir });
    const lines = readFileSync(join(outDir, JOURNAL_FILE), 'utf8').trim().split('\n');
    expect(lines).toHaveLength(4);
    expect(first.starts()).toBe(4);

    const resumed = countingContestant('greedy');
    const again = await grade({ assignment, assignmentSource: 'test', contestant: resumed, outDir, resume: true });
    expect(resumed.starts()).toBe(0);
    expect(again.timings.resumedGames).toBe(4);
    expect(again.games.map((entry) => entry.record)).toEqual(original.games.map((entry) => entry.record));
    expect(again.score).toBe(original.score);

    const changed = countingContestant('greedy');
    await grade({ assignment: smallAssignment({ moveTimeoutMs: 4000 }), assignmentSource: 'test', contestant: changed, outDir, resume: true });
    expect(changed.starts()).toBe(4);
  });

  test('a torn or forged journal line is played again, not trusted', async () => {
    const outDir = tempDir();
    const assignment = smallAssignment();
    await grade({ assignment, assignmentSource: 'test', contestant: countingContestant('greedy'), outDir });
    const path = join(outDir, JOURNAL_FILE);
    const lines = readFileSync(path, 'utf8').trim().split('\n');
    const forged = JSON.parse(lines[1]) as { record: { turns: { move?: string }[] } };
    forged.record.turns[0].move = 'A1';
    writeFileSync(path, `${lines[0]}\n${JSON.stringify(forged)}\n${lines[2]}\n`);
    appendFileSync(path, lines[3].slice(0, 200));
    const resumed = countingContestant('greedy');
    const result = await grade({ assignment, assignmentSource: 'test', contestant: resumed, outDir, resume: true });
    expect(resumed.starts()).toBe(2);
    expect(result.timings.resumedGames).toBe(2);
    expect(result.games).toHaveLength(4);
  });

  test('grade.json is validated before it is written and reads back', async () => {
    const dir = tempDir();
    const result = await grade({ assignment: smallAssignment(), assignmentSource: 'test', contestant: countingContestant('random') });
    writeGradeResult(join(dir, 'grade.json'), result);
    expect(readGradeResult(join(dir, 'grade.json'))).toEqual(JSON.parse(JSON.stringify(result)));
    const broken = { ...result, score: -1 };
    expect(() => writeGradeResult(join(dir, 'broken.json'), broken)).toThrow('grade result /score must be >= 0');
    const badRecord = JSON.parse(JSON.stringify(result));
    badRecord.games[0].record.turns[0].ply = 7;
    expect(() => validateGradeResult(badRecord)).toThrow(/\/games\/0\/record: record turns\[0\]\.ply/);
  });
});
