/** Scoring rules: how a win rate against one opponent (draws count half) becomes rubric points. */
import type { ScoringRule } from './assignment.js';

/** The fraction of an item's points a win rate earns, in [0, 1]. */
export function scoreFraction(rule: ScoringRule, winRate: number): number {
  if (rule.rule === 'threshold') return winRate >= rule.winRate ? 1 : 0;
  const fraction = (winRate - rule.minWinRate) / (rule.fullWinRate - rule.minWinRate);
  return Math.min(1, Math.max(0, fraction));
}

/** Points to two decimals, so totals print and compare cleanly. */
export const roundPoints = (points: number): number => Math.round(points * 100) / 100;

export function itemPoints(rule: ScoringRule, winRate: number, points: number): number {
  return roundPoints(points * scoreFraction(rule, winRate));
}

/** The rule in words, for summaries and the report. */
export function describeRule(rule: ScoringRule): string {
  const pct = (rate: number): string => `${Math.round(rate * 1000) / 10}%`;
  return rule.rule === 'threshold'
    ? `full points at a win rate of ${pct(rule.winRate)} or more`
    : `0 points at ${pct(rule.minWinRate)} win rate, rising linearly to full points at ${pct(rule.fullWinRate)}`;
}
