/**
 * The report's advice tells a game lost on time in the middle of the game from an endgame lost on the board, and
 * names the time-limit API that exists in the submission's language, with the import the starter uses.
 */
import { beforeAll, describe, expect, test } from '@jest/globals';
import { grade } from '../../grading/grade.js';
import type { GradeResult } from '../../grading/grade-result.js';
import { diagnose } from '../../reports/diagnosis.js';
import { countingContestant, smallAssignment } from '../grading/helpers.js';

let base: GradeResult;
beforeAll(async () => {
  base = await grade({ assignment: smallAssignment(), assignmentSource: 'test', contestant: countingContestant('random') });
});

/** The grade with every game of item 0 lost on time at ply 18 or 19, as the submission in `language`. */
function timingOut(language: string): GradeResult {
  const result = JSON.parse(JSON.stringify(base)) as GradeResult;
  result.submission.language = language;
  const item = result.items[0];
  const games = result.games.filter((entry) => entry.item === 0);
  games.forEach((entry, index) => {
    entry.result = 'loss';
    entry.record.turns = entry.record.turns.slice(0, 17 + (index % 2));
    entry.record.end = { ...entry.record.end, winner: (1 - entry.studentSide) as 0 | 1, reason: 'forfeit' as never, loser: { side: entry.studentSide, verdict: 'timeout', message: 'no answer within the limit' } as never, score: null };
  });
  item.wins = 0;
  item.draws = 0;
  item.losses = games.length;
  item.verdicts = { ...item.verdicts, timeout: games.length };
  return result;
}

/** The Python grade with every game of item 0 lost on time before its first move, under `limits`. */
function lostAtStart(limits: Record<string, number>, wallMs: number, message: string, rule: string): GradeResult {
  const result = timingOut('Python');
  for (const entry of result.games.filter((game) => game.item === 0)) {
    entry.record.turns = [];
    entry.record.config = { ...entry.record.config, ...limits };
    entry.record.end.loser = { side: entry.studentSide, verdict: 'timeout', phase: 'start', attempts: [], wallMs, message, rule };
  }
  return result;
}

describe('diagnosis', () => {
  test('timeouts at plies 18–19 in every game: losses by rule, not "decided in the endgame"', () => {
    const lines = diagnose(timingOut('TypeScript'), 0, new Map(), ['Black', 'White']).lines;
    expect(lines.some((line) => line.startsWith('Losses decided'))).toBe(false);
    expect(lines).toContainEqual(expect.stringMatching(/^Losses: all \d+ by rule \(at plies 18–19\), none on the board/));
    // The cause comes first, with the fix that fits it.
    expect(lines[0]).toMatch(/^Time: \d+ games lost at plies 18–19 \(the first: no answer within the limit\)\. Fix: stop the search by the clock/);
  });

  test('a load past its allowance is a Loading line naming the __main__ guard, not "lost on time"', () => {
    const result = lostAtStart({ loadTimeoutMs: 500 }, 1000, 'loading the submission took over 500 ms', 'loadTimeoutMs: loading the submission (imports, module-level code, static initialisers) must take at most 500 ms');
    result.assignment.config.referee = { ...result.assignment.config.referee, loadTimeoutMs: 500 };
    const lines = diagnose(result, 0, new Map(), ['Black', 'White']).lines;
    expect(lines[0]).toMatch(/^Loading: \d+ games lost while the submission was loading: loading the submission took 1 s, over the 500 ms allowed\. Fix: .*if __name__ == '__main__':/);
    expect(lines.some((line) => /clock/.test(line))).toBe(false);
  });

  test('the time-limit API in the submission\'s language, with the starter\'s import', () => {
    const ts = diagnose(timingOut('TypeScript'), 0, new Map(), ['Black', 'White']).lines.find((line) => line.startsWith('Time:'));
    expect(ts).toContain("moveInfo().timeLimitMs, import { moveInfo } from 'board-referee'");
    expect(ts).not.toContain('info.');
    const python = diagnose(timingOut('Python'), 0, new Map(), ['Black', 'White']).lines.find((line) => line.startsWith('Time:'));
    expect(python).toContain('info.time_limit_ms, with get_move(self, board, info=None)');
    expect(python).not.toContain('moveInfo');
  });

  test('a constructor over its own time is "Building the AIPlayer", with the fix for a constructor, never the clock', () => {
    const result = lostAtStart({ constructTimeoutMs: 1000 }, 1234, 'answered after 1234 ms, over the 1000 ms limit', 'constructTimeoutMs: building the AIPlayer must take at most 1000 ms (loading not included)');
    const lines = diagnose(result, 0, new Map(), ['Black', 'White']).lines;
    expect(lines[0]).toMatch(/^Building the AIPlayer: \d+ games lost while the AIPlayer was being built, before its first move: building the AIPlayer took 1\.2 s, over the 1 s allowed\. Fix: keep __init__ light/);
    expect(lines.some((line) => /clock/.test(line))).toBe(false);
  });
});
