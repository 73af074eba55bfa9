import { describe, expect, test } from '@jest/globals';
import { describeRule, itemPoints, scoreFraction } from '../../grading/scoring.js';

describe('scoring rules', () => {
  test('threshold: full points at or above the win rate, none below', () => {
    const rule = { rule: 'threshold', winRate: 0.6 } as const;
    expect(scoreFraction(rule, 0.6)).toBe(1);
    expect(scoreFraction(rule, 0.59)).toBe(0);
    expect(itemPoints(rule, 1, 25)).toBe(25);
  });

  test('linear: 0 at minWinRate, full at fullWinRate, clamped outside', () => {
    const rule = { rule: 'linear', minWinRate: 0.2, fullWinRate: 0.6 } as const;
    expect(scoreFraction(rule, 0.1)).toBe(0);
    expect(scoreFraction(rule, 0.4)).toBeCloseTo(0.5);
    expect(scoreFraction(rule, 0.9)).toBe(1);
    expect(itemPoints(rule, 0.3, 30)).toBe(7.5);
    expect(itemPoints(rule, 1 / 3, 10)).toBe(3.33);
  });

  test('rules read as words', () => {
    expect(describeRule({ rule: 'threshold', winRate: 0.5 })).toBe('full points at a win rate of 50% or more');
    expect(describeRule({ rule: 'linear', minWinRate: 0.2, fullWinRate: 0.6 })).toContain('0 points at 20% win rate');
  });
});
