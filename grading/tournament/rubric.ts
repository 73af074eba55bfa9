/**
 * The optional tournament rubric item: each submission's place in the ranking as points. By rank (percentile
 * among the submissions: reference AIs neither score nor count) or by rating against the anchor (the estimate or,
 * more cautiously, the lower end of its 95% interval), linear between the two ends the config names.
 */
import type { TournamentItem } from '../assignment.js';
import { roundPoints } from '../scoring.js';
import type { RankingRow } from './result.js';

export interface RubricAward {
  id: string;
  points: number;
  /** What the points were computed from, in words ("rank 3 of 30", "Elo 212"). */
  basis: string;
}

export function describeTournamentRule(item: TournamentItem): string {
  const { scoring } = item;
  if (scoring.rule === 'rank') {
    return `${item.points} points by rank among the submissions: full points in the top ${Math.round(scoring.fullPercentile * 100)}%, none from ${Math.round(scoring.zeroPercentile * 100)}% down, linear between`;
  }
  return `${item.points} points by ${scoring.use === 'lower' ? 'the lower end of the 95% interval of the' : 'the'} rating: none at Elo ${scoring.minElo}, full at ${scoring.fullElo}, linear between`;
}

export function tournamentAwards(item: TournamentItem, ranking: readonly RankingRow[], submissions: ReadonlySet<string>): RubricAward[] {
  const rows = ranking.filter((row) => submissions.has(row.id));
  const clamp = (x: number): number => Math.min(1, Math.max(0, x));
  return rows.map((row, place) => {
    if (item.scoring.rule === 'rank') {
      const percentile = rows.length > 1 ? place / (rows.length - 1) : 0;
      const { fullPercentile, zeroPercentile } = item.scoring;
      const fraction = clamp((zeroPercentile - percentile) / (zeroPercentile - fullPercentile));
      return { id: row.id, points: roundPoints(item.points * fraction), basis: `rank ${place + 1} of ${rows.length} submissions` };
    }
    const elo = item.scoring.use === 'lower' ? row.low : row.elo;
    const fraction = clamp((elo - item.scoring.minElo) / (item.scoring.fullElo - item.scoring.minElo));
    return { id: row.id, points: roundPoints(item.points * fraction), basis: `${item.scoring.use === 'lower' ? 'interval low ' : ''}Elo ${elo.toFixed(0)}` };
  });
}
