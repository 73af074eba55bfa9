/**
 * The final: the published table once the final rerun stops (every adjacent pair of students separated at the LOS
 * threshold, or at its game cap, or the final's game cap reached), with the assignment's tournament rubric
 * (grading/tournament/rubric.ts: by rank or by rating) turned into each student's points. A pure function of the
 * fit, so `rebuild` re-derives it from the journal exactly.
 */
import { existsSync, readFileSync } from 'node:fs';
import type { Assignment } from '../assignment.js';
import type { RankingRow } from '../tournament/result.js';
import { describeTournamentRule, tournamentAwards } from '../tournament/rubric.js';
import { choosePair, type OnlineSkill, type SkillPlayer } from './matchmaking.js';
import { unseparatedPairs, type LadderFit, type Leaderboard } from './ratings.js';

export type FinalStep = { meet: [string, string] } | { done: string } | { wait: true };

/**
 * The final's next meeting: a student not yet linked to the scale meets the reference ladder first; then the
 * adjacent pair of students least separated (LOS nearest ½, fewest games between them) among those under the
 * threshold and under the pair cap. Done when none is left, or at the final's game cap.
 */
export function nextFinalMeeting(
  fit: LadderFit,
  skill: OnlineSkill,
  players: readonly SkillPlayer[],
  busy: ReadonlySet<string>,
  settings: { threshold: number; pairCap: number; maxGames: number },
  finalGames: number,
  random: () => number,
): FinalStep {
  const students = players.filter((p) => !p.reference);
  if (finalGames >= settings.maxGames) return { done: 'the final game cap was reached' };
  const unrated = fit.table.unrated.find((row) => !busy.has(row.player));
  if (unrated) {
    const pair = choosePair(skill, [...players.filter((p) => p.reference), { id: unrated.player, reference: false }], busy, random);
    if (pair) return { meet: [pair[0].id, pair[1].id] };
  }
  const meetings = (a: string, b: string): number => skill.meetings(a, b);
  const open = unseparatedPairs(fit, settings.threshold).filter(([a, b]) => meetings(a, b) < settings.pairCap);
  if (students.length < 2) return { done: 'fewer than two students' };
  if (open.length === 0 && fit.table.unrated.length === 0) return { done: 'every adjacent pair is separated or at its game cap' };
  const candidates = open.filter(([a, b]) => !busy.has(a) && !busy.has(b)).sort((x, y) => Math.abs(x[2] - 0.5) - Math.abs(y[2] - 0.5) || meetings(x[0], x[1]) - meetings(y[0], y[1]));
  return candidates.length === 0 ? { wait: true } : { meet: [candidates[0][0], candidates[0][1]] };
}

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

/**
 * The final's file (final.json) as the service wrote it, null when there is none, or why it cannot be used: cut short
 * by a full disk, edited into something else. Every reader goes through here (export, the instructor's page).
 */
export function readFinal(path: string): FinalResult | null | { damaged: string } {
  if (!existsSync(path)) return null;
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    return { damaged: 'it is cut short or not JSON' };
  }
  const final = value as Partial<FinalResult> | null;
  if (!final || typeof final !== 'object' || final.format !== 'referee.ladder-final/1') return { damaged: 'it is not a ladder final (no format referee.ladder-final/1)' };
  if (!Array.isArray(final.awards) || !final.table || !Array.isArray(final.table.rows)) return { damaged: 'its awards or table are missing' };
  return final as FinalResult;
}
