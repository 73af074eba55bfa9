/** The rating fit, the SPRT and the pairings on synthetic data with known answers. */
import { describe, expect, it } from '@jest/globals';
import { createRng } from '../../harness/referee/seed.js';
import { fitRatings, likelihoodOfSuperiority, type PairResult } from '../../grading/tournament/elo.js';
import { bayesEloForScore, bayesEloProbabilities, runSprt, type GameScore } from '../../grading/tournament/sprt.js';
import { meetingKey, roundRobin, swissRound, type SwissStanding } from '../../grading/tournament/pairing.js';

const { pow, abs, log10 } = Math;

/** Simulate `games` games between random pairs of players with the given true ratings (BayesElo draws). */
function simulate(ratings: number[], games: number, seed: number, drawElo = 60): PairResult[] {
  const rng = createRng(seed);
  const table = new Map<string, PairResult>();
  const probabilities = new Map<string, { win: number; draw: number }>();
  for (let g = 0; g < games; g++) {
    const a = rng.int(ratings.length);
    let b = rng.int(ratings.length - 1);
    if (b >= a) b += 1;
    const key = `${a}-${b}`;
    const pair = table.get(key) ?? { a, b, wins: 0, draws: 0, losses: 0 };
    let p = probabilities.get(key);
    if (!p) {
      p = bayesEloProbabilities(bayesEloForScore(ratings[a] - ratings[b], drawElo), drawElo);
      probabilities.set(key, p);
    }
    const x = rng.next();
    if (x < p.win) pair.wins += 1;
    else if (x < p.win + p.draw) pair.draws += 1;
    else pair.losses += 1;
    table.set(key, pair);
  }
  return [...table.values()];
}

describe('maximum-likelihood Elo', () => {
  it('two players: the closed form −400·log10(1/s − 1), draws included', () => {
    for (const [w, d, l] of [[30, 10, 20], [7, 0, 3], [12, 30, 1], [5, 5, 5]]) {
      const fit = fitRatings(2, [{ a: 1, b: 0, wins: w, draws: d, losses: l }], 0, 0);
      const s = (w + d / 2) / (w + d + l);
      expect(fit.elo[1]).toBeCloseTo(-400 * log10(1 / s - 1), 6);
      expect(fit.prior).toBe(0);
    }
  });

  it('8 players, 20,000 games: the true ratings fall inside the 95% intervals about 95% of the time', () => {
    const ratings = [0, 60, 130, 170, 250, 320, 400, 520];
    let inside = 0;
    let total = 0;
    for (let replication = 0; replication < 30; replication++) {
      const fit = fitRatings(8, simulate(ratings, 20_000, 1000 + replication), 0, 0);
      for (let i = 1; i < 8; i++) {
        total += 1;
        if (abs(fit.elo[i] - ratings[i]) <= fit.error[i]) inside += 1;
      }
      expect(fit.error[0]).toBe(0);
    }
    const rate = inside / total;
    // 210 intervals: the binomial spread around 95% is ±1.5 points; allow about three of them.
    expect(rate).toBeGreaterThan(0.9);
    expect(rate).toBeLessThan(0.99);
  });

  it('anchors the named player and orders the likelihood of superiority', () => {
    const pairs = simulate([0, 200, 400], 3000, 5);
    const fit = fitRatings(3, pairs, 1, 1500);
    expect(fit.elo[1]).toBe(1500);
    expect(fit.elo[2]).toBeGreaterThan(fit.elo[1]);
    expect(likelihoodOfSuperiority(fit, 2, 1)).toBeGreaterThan(0.99);
    expect(likelihoodOfSuperiority(fit, 0, 1)).toBeLessThan(0.01);
  });

  it('a player who lost every game gets a finite rating through the stated prior', () => {
    const fit = fitRatings(3, [
      { a: 0, b: 1, wins: 0, draws: 0, losses: 10 },
      { a: 0, b: 2, wins: 0, draws: 0, losses: 10 },
      { a: 1, b: 2, wins: 5, draws: 0, losses: 5 },
    ], 1, 0);
    expect(fit.prior).toBe(1);
    expect(Number.isFinite(fit.elo[0])).toBe(true);
    expect(fit.elo[0]).toBeLessThan(-300);
  });

  it('refuses players that no game links to the others', () => {
    expect(() => fitRatings(3, [{ a: 0, b: 1, wins: 1, draws: 0, losses: 1 }])).toThrow(/not linked/);
  });
});

describe('SPRT', () => {
  const params = { elo0: 0, elo1: 100, alpha: 0.05, beta: 0.05 };
  /** 2,000 runs of up to 1,000 games at a true Elo: the share that accepts H1. */
  function acceptRate(trueElo: number, seed: number): { h1: number; undecided: number } {
    const drawElo = 40;
    const p = bayesEloProbabilities(bayesEloForScore(trueElo, drawElo), drawElo);
    const rng = createRng(seed);
    let h1 = 0;
    let undecided = 0;
    for (let run = 0; run < 2000; run++) {
      const scores: GameScore[] = [];
      for (let g = 0; g < 1000; g++) {
        const x = rng.next();
        scores.push(x < p.win ? 1 : x < p.win + p.draw ? 0.5 : 0);
      }
      const outcome = runSprt(scores, params);
      if (outcome.decision === 'H1') h1 += 1;
      if (outcome.decision === null) undecided += 1;
    }
    return { h1: h1 / 2000, undecided: undecided / 2000 };
  }

  it('at elo0 it accepts H1 at most alpha of the time (+3 points)', () => {
    const { h1, undecided } = acceptRate(0, 11);
    expect(h1).toBeLessThanOrEqual(params.alpha + 0.03);
    expect(undecided).toBeLessThan(0.01);
  });

  it('at elo1 it accepts H0 at most beta of the time (+3 points)', () => {
    const { h1, undecided } = acceptRate(100, 12);
    expect(1 - h1 - undecided).toBeLessThanOrEqual(params.beta + 0.03);
  });

  it('counts pairs pentanomially and stops at the first crossing', () => {
    const outcome = runSprt(Array<GameScore>(40).fill(1), params);
    expect(outcome.decision).toBe('H1');
    expect(outcome.pentanomial[4]).toBe(outcome.gamesUsed / 2);
    expect(outcome.trace.at(-1)!.llr).toBeGreaterThanOrEqual(outcome.upper);
    const trinomial = runSprt([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], params, false);
    expect(trinomial.model).toBe('trinomial');
    expect(trinomial.decision).toBe('H0');
  });
});

describe('pairings', () => {
  it('round-robin: every pair exactly once, nobody twice in a round', () => {
    for (const n of [2, 5, 8, 10]) {
      const seen = new Set<string>();
      for (const round of roundRobin(n)) {
        const inRound = new Set<number>();
        for (const { a, b } of round.pairings) {
          expect(inRound.has(a) || inRound.has(b)).toBe(false);
          inRound.add(a);
          inRound.add(b);
          expect(seen.has(meetingKey(a, b))).toBe(false);
          seen.add(meetingKey(a, b));
        }
      }
      expect(seen.size).toBe((n * (n - 1)) / 2);
    }
  });

  it('Swiss: no pair twice, colours within one, byes rotate (31 players, 9 rounds, one game a meeting)', () => {
    const n = 31;
    const rng = createRng(3);
    const strength = Array.from({ length: n }, () => rng.next());
    const standings: SwissStanding[] = strength.map((_, player) => ({ player, score: 0, colourBalance: 0, hadBye: false }));
    const met = new Set<string>();
    const byes: number[] = [];
    for (let r = 0; r < 9; r++) {
      const round = swissRound(standings, met);
      expect(round.bye).not.toBeNull();
      byes.push(round.bye!);
      standings[round.bye!].hadBye = true;
      standings[round.bye!].score += 1;
      const inRound = new Set<number>([round.bye!]);
      for (const { a, b } of round.pairings) {
        expect(met.has(meetingKey(a, b))).toBe(false);
        expect(inRound.has(a) || inRound.has(b)).toBe(false);
        inRound.add(a);
        inRound.add(b);
        met.add(meetingKey(a, b));
        standings[a].colourBalance += 1;
        standings[b].colourBalance -= 1;
        const aWins = rng.next() < pow(strength[a], 1) / (strength[a] + strength[b]);
        standings[aWins ? a : b].score += 1;
      }
      expect(inRound.size).toBe(n);
      for (const s of standings) expect(abs(s.colourBalance)).toBeLessThanOrEqual(1);
    }
    expect(new Set(byes).size).toBe(byes.length);
  });

  it('Swiss: a small field still pairs without repeats when the bye has to move (5 players, 4 rounds)', () => {
    const standings: SwissStanding[] = [0, 1, 2, 3, 4].map((player) => ({ player, score: 0, colourBalance: 0, hadBye: false }));
    const met = new Set<string>();
    for (let r = 0; r < 4; r++) {
      const round = swissRound(standings, met);
      standings[round.bye!].hadBye = true;
      standings[round.bye!].score += 1;
      for (const { a, b } of round.pairings) {
        expect(met.has(meetingKey(a, b))).toBe(false);
        met.add(meetingKey(a, b));
        standings[a].score += 1;
      }
    }
    expect(met.size).toBe(8);
  });
});
