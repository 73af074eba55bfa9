/**
 * Match statistics: score rates with a Wilson interval, and Elo differences with the error bar cutechess-cli
 * prints (normal approximation of the per-game score, mapped through the logistic Elo curve).
 */

/** The two-sided 95% normal quantile. */
export const Z95 = 1.959963984540054;

export interface Interval {
  low: number;
  high: number;
}

export interface WdlSummary {
  wins: number;
  draws: number;
  losses: number;
  games: number;
  /** Points scored: a win is 1, a draw ½. */
  points: number;
  /** points / games (NaN with no games). */
  scoreRate: number;
  /** Wilson 95% interval of the score rate. */
  wilson: Interval;
  /** Elo difference implied by the score rate (±Infinity at 0% or 100%). */
  elo: number;
  /** Half-width of the 95% Elo interval (Infinity when a bound is 0% or 100%). */
  eloError: number;
}

/**
 * Wilson score interval for `successes` out of `n` trials. `successes` may be fractional (draws count ½),
 * which treats the score rate as a binomial proportion — the usual approximation for game scores.
 */
export function wilsonInterval(successes: number, n: number, z: number = Z95): Interval {
  if (!(n > 0)) return { low: 0, high: 1 };
  if (successes < 0 || successes > n) throw new Error(`wilsonInterval: successes ${successes} must be within 0..${n}`);
  const p = successes / n;
  const z2 = z * z;
  const denominator = 1 + z2 / n;
  const centre = (p + z2 / (2 * n)) / denominator;
  const halfWidth = (z * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))) / denominator;
  return { low: Math.max(0, centre - halfWidth), high: Math.min(1, centre + halfWidth) };
}

/** Elo difference for an expected score `p` in [0, 1]: -400·log10(1/p − 1). */
export function eloFromScore(p: number): number {
  if (p <= 0) return -Infinity;
  if (p >= 1) return Infinity;
  // Same value as -400·log10(1/p − 1), written so that p = ½ gives 0 rather than -0.
  return 400 * Math.log10(p / (1 - p));
}

/** The expected score for an Elo difference (inverse of eloFromScore). */
export function scoreFromElo(elo: number): number {
  return 1 / (1 + Math.pow(10, -elo / 400));
}

/**
 * Elo difference and 95% error bar from W/D/L, as cutechess-cli computes it: the standard deviation of the
 * mean per-game score (1, ½, 0) gives a score interval, whose ends are mapped to Elo; the error is half the
 * width of that Elo interval.
 */
export function eloWithError(wins: number, draws: number, losses: number, z: number = Z95): { elo: number; error: number } {
  const games = wins + draws + losses;
  if (games === 0) return { elo: 0, error: Infinity };
  const w = wins / games;
  const d = draws / games;
  const l = losses / games;
  const mu = w + d / 2;
  const variance = w * (1 - mu) ** 2 + d * (0.5 - mu) ** 2 + l * (0 - mu) ** 2;
  const stdev = Math.sqrt(variance / games);
  const low = eloFromScore(mu - z * stdev);
  const high = eloFromScore(mu + z * stdev);
  return { elo: eloFromScore(mu), error: (high - low) / 2 };
}

/** Everything a calibration table needs about one W/D/L record. */
export function summariseWdl(wins: number, draws: number, losses: number): WdlSummary {
  for (const [name, value] of [['wins', wins], ['draws', draws], ['losses', losses]] as const) {
    if (!Number.isInteger(value) || value < 0) throw new Error(`summariseWdl: ${name} must be a whole number ≥ 0, got ${value}`);
  }
  const games = wins + draws + losses;
  const points = wins + draws / 2;
  const { elo, error } = eloWithError(wins, draws, losses);
  return {
    wins,
    draws,
    losses,
    games,
    points,
    scoreRate: games > 0 ? points / games : NaN,
    wilson: wilsonInterval(points, games),
    elo,
    eloError: error,
  };
}

/** One line such as "56-4-40  58.0% [48.2, 67.2]  +56 ± 70". */
export function formatWdl(summary: WdlSummary): string {
  const pct = (x: number): string => (100 * x).toFixed(1);
  const signed = (x: number): string => (Number.isFinite(x) ? (x >= 0 ? '+' : '') + x.toFixed(0) : x > 0 ? '+inf' : '-inf');
  const error = Number.isFinite(summary.eloError) ? summary.eloError.toFixed(0) : 'inf';
  return (
    `${summary.wins}-${summary.draws}-${summary.losses}  ${pct(summary.scoreRate)}% ` +
    `[${pct(summary.wilson.low)}, ${pct(summary.wilson.high)}]  ${signed(summary.elo)} ± ${error}`
  );
}
