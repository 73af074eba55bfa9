/** The tournament rubric item: config checks, and rank or rating turned into points for submissions only. */
import { describe, expect, test } from '@jest/globals';
import { AssignmentError, resolveAssignment } from '../../grading/assignment.js';
import { tournamentAwards } from '../../grading/tournament/rubric.js';
import type { RankingRow } from '../../grading/tournament/result.js';

const row = (rank: number, id: string, elo: number): RankingRow => ({ rank, id, elo, low: elo - 100, high: elo + 100, games: 10, wins: 5, draws: 0, losses: 5, points: 5, byes: 0, losNext: null });
const ranking = [row(1, 'ana', 500), row(2, 'weighted', 380), row(3, 'bo', 250), row(4, 'cy', 120), row(5, 'random', 0), row(6, 'di', -80)];
const students = new Set(['ana', 'bo', 'cy', 'di']);

describe('tournament rubric item', () => {
  test('by rank: percentiles among the submissions only', () => {
    const item = resolveAssignment({ tournament: { points: 30, scoring: { rule: 'rank' } } }).tournament!;
    expect(tournamentAwards(item, ranking, students)).toEqual([
      { id: 'ana', points: 30, basis: 'rank 1 of 4 submissions' },
      { id: 'bo', points: 20, basis: 'rank 2 of 4 submissions' },
      { id: 'cy', points: 10, basis: 'rank 3 of 4 submissions' },
      { id: 'di', points: 0, basis: 'rank 4 of 4 submissions' },
    ]);
  });

  test('by rating, the estimate or the lower end of the interval, clamped', () => {
    const estimate = resolveAssignment({ tournament: { points: 20, scoring: { rule: 'rating', minElo: 0, fullElo: 400 } } }).tournament!;
    expect(tournamentAwards(estimate, ranking, students).map((award) => award.points)).toEqual([20, 12.5, 6, 0]);
    const lower = resolveAssignment({ tournament: { points: 20, scoring: { rule: 'rating', minElo: 0, fullElo: 400, use: 'lower' } } }).tournament!;
    expect(tournamentAwards(lower, ranking, students).map((award) => award.points)).toEqual([20, 7.5, 1, 0]);
  });

  test('config mistakes name the pointer and the fix', () => {
    const issue = (json: unknown): string => {
      try {
        resolveAssignment(json);
      } catch (error) {
        return (error as AssignmentError).issues.map((each) => `${each.pointer}: ${each.message}`).join('\n');
      }
      throw new Error('expected an error');
    };
    expect(issue({ tournament: { points: 20, scoring: { rule: 'elo' } } })).toBe('/tournament/scoring/rule: must be "rank" or "rating"');
    expect(issue({ tournament: { points: 20, scoring: { rule: 'rating', minElo: 300, fullElo: 100 } } })).toBe('/tournament/scoring/fullElo: must be greater than minElo, e.g. minElo 0 and fullElo 400');
  });
});
