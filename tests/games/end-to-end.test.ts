/**
 * Every registered game, end to end: a TypeScript and a Python submission pass the interface check, play a
 * graded series against the game's reference AIs inside the sandbox, and every record replays. Nothing here
 * names a game: adding a game to the registry adds it to this test.
 */
import { describe, expect, test } from '@jest/globals';
import { resolve } from 'node:path';
import { gameIds, getGame } from '../../harness/games/registry.js';
import { replayRecord } from '../../harness/referee/replay.js';
import { resolveAssignment } from '../../grading/assignment.js';
import { submissionContestant } from '../../grading/contestant.js';
import { grade } from '../../grading/grade.js';

const SUBMISSIONS = {
  TypeScript: resolve('tests/fixtures/submissions/any-game/AIPlayer.ts'),
  Python: resolve('tests/fixtures/python/any-game/AIPlayer.py'),
};

function tinyAssignment(game: string) {
  return resolveAssignment({
    title: `${game} end to end`,
    game,
    moveTimeoutMs: 5000,
    illegalMoveLimit: 3,
    opponents: [{ name: 'random', games: 2, points: 10, seed: 11, scoring: { rule: 'linear', minWinRate: 0, fullWinRate: 1 } }],
  });
}

describe.each(gameIds())('%s', (gameId) => {
  test.each(Object.entries(SUBMISSIONS))('a %s submission grades end to end', async (language, path) => {
    const assignment = tinyAssignment(gameId);
    const result = await grade({
      assignment,
      assignmentSource: 'test',
      contestant: await submissionContestant(path, assignment),
    });
    expect(result.submission.language).toBe(language);
    expect(result.interfaceCheck.passed).toBe(true);
    expect(result.games).toHaveLength(2);
    for (const { record } of result.games) {
      expect(record.game).toBe(gameId);
      // The sample player only plays legal moves, so every game ends on the board.
      expect(record.end.reason).toBe('score');
      const replay = replayRecord(record, getGame);
      expect(replay.ok).toBe(true);
    }
  });
});
