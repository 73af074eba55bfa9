/**
 * The final: the published table once the final rerun stops (every adjacent pair of students separated at the LOS
 * threshold, or at its game cap, or the final's game cap reached), with the assignment's tournament rubric
 * (grading/tournament/rubric.ts: by rank or by rating) turned into each student's points. A pure function of the
 * fit, so `rebuild` re-derives it from the journal exactly.
 */
import type { Assignment } from '../assignment.js';
import type { RankingRow } from '../tournament/result.js';
import { describeTournamentRule, tournamentAwards } from '../tournament/rubric.js';
import { unseparatedPairs, type LadderFit, type Leaderboard } from './ratings.js';

export interface FinalAward {
  student: string;
  pseudonym: string;
  version: number;
  rank: number;
  elo: number;
  low: number;
  high: number;
  points: number | null;
  basis: string;
}

export interface FinalResult {
  format: 'referee.ladder-final/1';
  title: string;
  /** Why the final stopped. */
  reason: string;
  finalGames: number;
  threshold: number;
  pairCap: number;
  /** Adjacent students still not separated at the threshold (each reached its game cap). */
  tied: { a: string; b: string; los: number; games: number }[];
  rubric: { title: string; points: number; rule: string } | null;
  awards: FinalAward[];
  table: Leaderboard;
}

export function finalResult(
  fit: LadderFit,
  assignment: Assignment,
  context: { reason: string; finalGames: number; threshold: number; pairCap: number; meetings(a: string, b: string): number },
): FinalResult {
  const table = fit.table;
  const students = table.rows.filter((row) => row.kind === 'student');
  const asRanking = (): RankingRow[] =>
    table.rows.map((row) => ({ rank: row.rank, id: row.player, elo: row.elo, low: row.low, high: row.high, games: row.games, wins: 0, draws: 0, losses: 0, points: row.points, byes: 0, losNext: row.losNext }));
  const item = assignment.tournament;
  const awards = item ? tournamentAwards(item, asRanking(), new Set(students.map((row) => row.player))) : [];
  const byPlayer = new Map(awards.map((award) => [award.id, award]));
  const pseudonym = new Map(table.rows.map((row) => [row.player, row.pseudonym]));
  return {
    format: 'referee.ladder-final/1',
    title: assignment.title,
    reason: context.reason,
    finalGames: context.finalGames,
    threshold: context.threshold,
    pairCap: context.pairCap,
    tied: unseparatedPairs(fit, context.threshold).map(([a, b, los]) => ({ a: pseudonym.get(a) ?? a, b: pseudonym.get(b) ?? b, los: Math.round(los * 10000) / 10000, games: context.meetings(a, b) })),
    rubric: item ? { title: item.title, points: item.points, rule: describeTournamentRule(item) } : null,
    awards: students.map((row, place) => ({
      student: row.student ?? row.pseudonym,
      pseudonym: row.pseudonym,
      version: row.version!,
      rank: place + 1,
      elo: row.elo,
      low: row.low,
      high: row.high,
      points: byPlayer.get(row.player)?.points ?? null,
      basis: byPlayer.get(row.player)?.basis ?? `rank ${place + 1} of ${students.length} students (the assignment has no "tournament" rubric item, so no points)`,
    })),
    table,
  };
}
