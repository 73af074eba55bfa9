import {
  eloFromScore,
  eloWithError,
  formatWdl,
  scoreFromElo,
  summariseWdl,
  wilsonInterval,
} from '../../grading/stats.js';

describe('wilsonInterval', () => {
  it('matches the textbook interval for 8 of 10', () => {
    const { low, high } = wilsonInterval(8, 10);
    expect(low).toBeCloseTo(0.49016, 4);
    expect(high).toBeCloseTo(0.94332, 4);
  });

  it('is symmetric around one half for 50 of 100', () => {
    const { low, high } = wilsonInterval(50, 100);
    expect(low).toBeCloseTo(0.40383, 4);
    expect(high).toBeCloseTo(0.59617, 4);
  });

  it('stays inside [0, 1] at the extremes and accepts half points', () => {
    expect(wilsonInterval(0, 20).low).toBe(0);
    expect(wilsonInterval(20, 20).high).toBe(1);
    expect(wilsonInterval(20, 20).low).toBeCloseTo(0.83887, 4);
    const half = wilsonInterval(55.5, 100);
    expect(half.low).toBeLessThan(0.555);
    expect(half.high).toBeGreaterThan(0.555);
  });

  it('rejects impossible counts', () => {
    expect(() => wilsonInterval(11, 10)).toThrow(/within 0..10/);
  });
});

describe('Elo', () => {
  it('maps score rates to Elo with the logistic formula', () => {
    expect(eloFromScore(0.5)).toBe(0);
    expect(eloFromScore(0.75)).toBeCloseTo(190.8485, 3);
    expect(eloFromScore(0.64)).toBeCloseTo(99.951, 2);
    expect(eloFromScore(0.25)).toBeCloseTo(-190.8485, 3);
    expect(eloFromScore(1)).toBe(Infinity);
    expect(eloFromScore(0)).toBe(-Infinity);
    expect(scoreFromElo(eloFromScore(0.7))).toBeCloseTo(0.7, 12);
  });

  it('gives the cutechess-cli error bar for 60-0-40', () => {
    const { elo, error } = eloWithError(60, 0, 40);
    expect(elo).toBeCloseTo(70.4365, 3);
    expect(error).toBeCloseTo(70.5712, 3);
  });

  it('narrows the error bar when draws replace decisive games at the same score', () => {
    const { elo, error } = eloWithError(50, 20, 30);
    expect(elo).toBeCloseTo(70.4365, 3);
    expect(error).toBeCloseTo(62.5877, 3);
  });
});

describe('summariseWdl', () => {
  it('collects points, rate, interval and Elo', () => {
    const s = summariseWdl(56, 0, 44);
    expect(s.games).toBe(100);
    expect(s.points).toBe(56);
    expect(s.scoreRate).toBeCloseTo(0.56, 12);
    expect(s.wilson.low).toBeCloseTo(0.46228, 4);
    expect(s.wilson.high).toBeCloseTo(0.65328, 4);
    expect(formatWdl(s)).toBe('56-0-44  56.0% [46.2, 65.3]  +42 ± 70');
  });

  it('prints infinite Elo for a clean sweep', () => {
    expect(formatWdl(summariseWdl(10, 0, 0))).toMatch(/^10-0-0  100\.0% \[72\.2, 100\.0\]  \+inf ± inf$/);
  });

  it('rejects negative or fractional counts', () => {
    expect(() => summariseWdl(-1, 0, 3)).toThrow(/wins must be a whole number/);
    expect(() => summariseWdl(1, 0.5, 3)).toThrow(/draws must be a whole number/);
  });
});
