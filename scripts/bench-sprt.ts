/**
 * `npm run bench -- sprt`: the SPRT scoring rule by simulation. For each setting, 2,000 simulated tests at
 * elo = elo0 and at elo = elo1 (games drawn from BayesElo's win/draw/loss model, colour-swapped pairs) give the
 * observed error rates and the average number of games; beside them, the fixed-N rule that reaches the same
 * nominal error rates (normal approximation, N = ((z_α σ0 + z_β σ1) / (s1 − s0))²), checked by simulation too.
 */
import { createRng } from '../harness/referee/seed.js';
import { fitRatings, type PairResult } from '../grading/tournament/elo.js';
import { meetingKey, swissRound } from '../grading/tournament/pairing.js';
import {
  bayesEloForScore,
  bayesEloProbabilities,
  fixedGamesFor,
  runSprt,
  scoreOfElo,
  type GameScore,
  type SprtParams,
} from '../grading/tournament/sprt.js';

const RUNS = 2000;

function sampler(elo: number, drawElo: number, seed: number): { next: () => GameScore; sigma: number; score: number } {
  const p = bayesEloProbabilities(bayesEloForScore(elo, drawElo), drawElo);
  const score = p.win + p.draw / 2;
  const sigma = Math.sqrt(p.win * (1 - score) ** 2 + p.draw * (0.5 - score) ** 2 + p.loss * score ** 2);
  const rng = createRng(seed);
  return {
    next: () => {
      const x = rng.next();
      return x < p.win ? 1 : x < p.win + p.draw ? 0.5 : 0;
    },
    sigma,
    score,
  };
}

function simulate(params: SprtParams, elo: number, drawElo: number, maxGames: number, seed: number): { h1: number; undecided: number; games: number } {
  const source = sampler(elo, drawElo, seed);
  let h1 = 0;
  let undecided = 0;
  let games = 0;
  for (let run = 0; run < RUNS; run++) {
    const scores: GameScore[] = [];
    for (let g = 0; g < maxGames; g++) scores.push(source.next());
    const outcome = runSprt(scores, params);
    if (outcome.decision === 'H1') h1 += 1;
    if (outcome.decision === null) undecided += 1;
    games += outcome.gamesUsed;
  }
  return { h1: h1 / RUNS, undecided: undecided / RUNS, games: games / RUNS };
}

function simulateFixed(n: number, threshold: number, elo: number, drawElo: number, seed: number): number {
  const source = sampler(elo, drawElo, seed);
  let passed = 0;
  for (let run = 0; run < RUNS; run++) {
    let points = 0;
    for (let g = 0; g < n; g++) points += source.next();
    if (points / n > threshold) passed += 1;
  }
  return passed / RUNS;
}

export function benchSprt(): void {
  console.log(`## SPRT scoring rule (${RUNS} simulated tests per row; pentanomial GSPRT over colour-swapped pairs)`);
  const settings: { params: SprtParams; drawElo: number; label: string }[] = [
    { params: { elo0: 0, elo1: 100, alpha: 0.05, beta: 0.05 }, drawElo: 20, label: 'elo0 0, elo1 100, α = β = 0.05, ~5% draws (Reversi-like)' },
    { params: { elo0: 0, elo1: 100, alpha: 0.05, beta: 0.05 }, drawElo: 150, label: 'elo0 0, elo1 100, α = β = 0.05, ~40% draws' },
    { params: { elo0: 0, elo1: 200, alpha: 0.05, beta: 0.1 }, drawElo: 20, label: 'elo0 0, elo1 200, α 0.05, β 0.1 (a coarse class check)' },
  ];
  settings.forEach(({ params, drawElo, label }, index) => {
    const maxGames = 2000;
    const at0 = simulate(params, params.elo0, drawElo, maxGames, 100 + index);
    const at1 = simulate(params, params.elo1, drawElo, maxGames, 200 + index);
    const fixed = fixedGamesFor(params, sampler(params.elo0, drawElo, 1).sigma, sampler(params.elo1, drawElo, 1).sigma);
    const fixedAlpha = simulateFixed(fixed.games, fixed.threshold, params.elo0, drawElo, 300 + index);
    const fixedBeta = 1 - simulateFixed(fixed.games, fixed.threshold, params.elo1, drawElo, 400 + index);
    const pct = (x: number): string => `${(100 * x).toFixed(1)}%`;
    console.log(`${label}:`);
    console.log(
      `  SPRT   at elo0: passes ${pct(at0.h1)} (α ${pct(params.alpha)}), ${at0.games.toFixed(1)} games on average; ` +
        `at elo1: fails ${pct(1 - at1.h1 - at1.undecided)} (β ${pct(params.beta)}), ${at1.games.toFixed(1)} games; undecided ${pct(at0.undecided + at1.undecided)}`,
    );
    console.log(
      `  fixed N = ${fixed.games} games, pass above ${pct(fixed.threshold)} (s0 ${pct(scoreOfElo(params.elo0))}, s1 ${pct(scoreOfElo(params.elo1))}): ` +
        `passes ${pct(fixedAlpha)} at elo0, fails ${pct(fixedBeta)} at elo1`,
    );
    console.log(`  SPRT needs ${((100 * (at0.games + at1.games)) / 2 / fixed.games).toFixed(0)}% of the fixed-N games on average (${((2 * fixed.games) / (at0.games + at1.games)).toFixed(1)}x fewer)`);
  });
}

/** `npm run bench -- ratings`: a Swiss of 301 players (11 rounds) paired and rated, the large-class case. */
export function benchRatings(): void {
  console.log('## Swiss pairing and rating fit for a large class');
  const players = 301;
  const standings = Array.from({ length: players }, (_, player) => ({ player, score: 0, colourBalance: 0, hadBye: false }));
  const met = new Set<string>();
  const pairs: PairResult[] = [];
  const rng = createRng(5);
  const strength = standings.map(() => rng.next() * 800);
  let started = performance.now();
  for (let round = 0; round < 11; round++) {
    const paired = swissRound(standings, met);
    standings[paired.bye!].hadBye = true;
    standings[paired.bye!].score += 2;
    for (const { a, b } of paired.pairings) {
      met.add(meetingKey(a, b));
      const expected = scoreOfElo(strength[a] - strength[b]);
      const wins = (rng.next() < expected ? 1 : 0) + (rng.next() < expected ? 1 : 0);
      standings[a].score += wins;
      standings[b].score += 2 - wins;
      pairs.push({ a, b, wins, draws: 0, losses: 2 - wins });
    }
  }
  const pairingMs = performance.now() - started;
  started = performance.now();
  const fit = fitRatings(players, pairs, 0, 0);
  const fitMs = performance.now() - started;
  const widths = fit.error.filter((error) => error > 0).sort((a, b) => a - b);
  console.log(
    `${players} players, 11 rounds (${pairs.length * 2} games): pairing ${pairingMs.toFixed(0)} ms, maximum-likelihood fit ${fitMs.toFixed(0)} ms ` +
      `(${fit.iterations} Newton steps${fit.prior ? ', with the prior' : ''}); median 95% interval ±${widths[Math.floor(widths.length / 2)].toFixed(0)} Elo`,
  );
}
