/** Scoring rules: how a win rate against one opponent (draws count half), or an SPRT decision, becomes rubric points. */
import type { FixedRule, OpponentItem, ScoringRule } from './assignment.js';
import { runSprt, type GameScore, type SprtOutcome } from './tournament/sprt.js';

/** The fraction of an item's points a win rate earns under a fixed-N rule, in [0, 1]. */
export function scoreFraction(rule: FixedRule, winRate: number): number {
  if (rule.rule === 'threshold') return winRate >= rule.winRate ? 1 : 0;
  const fraction = (winRate - rule.minWinRate) / (rule.fullWinRate - rule.minWinRate);
  return Math.min(1, Math.max(0, fraction));
}

/** Points to two decimals, so totals print and compare cleanly. */
export const roundPoints = (points: number): number => Math.round(points * 100) / 100;

export function itemPoints(rule: FixedRule, winRate: number, points: number): number {
  return roundPoints(points * scoreFraction(rule, winRate));
}

const pct = (rate: number): string => `${Math.round(rate * 1000) / 10}%`;

function describeFixed(rule: FixedRule): string {
  return rule.rule === 'threshold'
    ? `full points at a win rate of ${pct(rule.winRate)} or more`
    : `0 points at ${pct(rule.minWinRate)} win rate, rising linearly to full points at ${pct(rule.fullWinRate)}`;
}

/** The rule in words, for summaries and the report. */
export function describeRule(rule: ScoringRule): string {
  if (rule.rule !== 'sprt') return describeFixed(rule);
  return (
    `SPRT over colour-swapped game pairs: H0 Elo ≤ ${rule.elo0} vs H1 Elo ≥ ${rule.elo1} against the opponent, ` +
    `α = ${rule.alpha} (points to an Elo-${rule.elo0} AI), β = ${rule.beta} (none to an Elo-${rule.elo1} AI); ` +
    `H1 → full points, H0 → none; undecided after ${rule.maxGames} games → ${describeFixed(rule.fallback)}`
  );
}

/** One SPRT-tested opponent (an sprt item, or one level of a ladder), as GradeResult records it. */
export interface SprtResult {
  opponent: string;
  elo0: number;
  elo1: number;
  alpha: number;
  beta: number;
  lower: number;
  upper: number;
  llr: number;
  model: 'pentanomial' | 'trinomial';
  /** H1 / H0; 'max-games': maxGames reached undecided (the fallback rule decided); 'unfinished': fewer games (--only). */
  decision: 'H1' | 'H0' | 'max-games' | 'unfinished';
  /** Whether the level counts as beaten (H1, or the fallback rule's full points at max-games). */
  passed: boolean;
  gamesUsed: number;
  winRate: number;
  /** Pair outcomes [LL, LD, DD+WL, WD, WW]. */
  pentanomial: number[];
  trace: { games: number; llr: number }[];
}

/**
 * The test over one opponent's games (in game order: 2k and 2k+1 are a colour-swapped pair). The SPRT stops at
 * the first crossing; games after it count for nothing.
 */
export function sprtResult(rule: Extract<ScoringRule, { rule: 'sprt' }>, opponent: string, scores: GameScore[]): SprtResult {
  const outcome: SprtOutcome = runSprt(scores, rule, true);
  const used = scores.slice(0, outcome.gamesUsed);
  const winRate = used.length === 0 ? 0 : used.reduce<number>((sum, score) => sum + score, 0) / used.length;
  const decision = outcome.decision ?? (scores.length >= rule.maxGames ? 'max-games' : 'unfinished');
  const passed = decision === 'H1' || (decision === 'max-games' && scoreFraction(rule.fallback, winRate) >= 1);
  return {
    opponent,
    elo0: rule.elo0,
    elo1: rule.elo1,
    alpha: rule.alpha,
    beta: rule.beta,
    lower: outcome.lower,
    upper: outcome.upper,
    llr: outcome.llr,
    model: outcome.model,
    decision,
    passed,
    gamesUsed: outcome.gamesUsed,
    winRate,
    pentanomial: [...outcome.pentanomial],
    trace: outcome.trace,
  };
}

/** An sprt item's points: full for H1, none for H0, the fallback rule's at max-games. */
export function sprtPoints(item: OpponentItem, result: SprtResult): number {
  if (item.scoring.rule !== 'sprt') throw new TypeError('sprtPoints: not an sprt item');
  if (result.decision === 'H1') return item.points;
  if (result.decision === 'max-games') return itemPoints(item.scoring.fallback, result.winRate, item.points);
  return 0;
}
