/**
 * Maximum-likelihood Elo over all games at once, as Ordo and BayesElo fit ratings (not incremental K-factor Elo).
 *
 * Model (Ordo's): the expected score of i against j is E = 1 / (1 + 10^(−(r_i − r_j)/400)), and a game scoring s
 * (1, ½, 0) adds s·ln E + (1 − s)·ln(1 − E) to the log-likelihood, so a draw is half a win and half a loss. Every
 * rating is fitted jointly by Newton's method on that concave likelihood, with one participant anchored (its rating
 * fixed). For two players the fit is the closed form −400·log10(1/s − 1) of the score rate s.
 *
 * Draws (trinomial): the intervals use the observed spread of the three outcomes — the variance of a game's score
 * is W(1−E)² + D(½−E)² + L·E², smaller than E(1−E) when games are drawn — as a quasi-likelihood dispersion factor
 * φ on the inverse Fisher information (the likelihood's curvature at the optimum). 95% intervals are ±1.96 standard
 * errors of each rating relative to the anchor; the likelihood of superiority of i over j is Φ((r_i − r_j)/σ_ij).
 *
 * When some group of players never scored a point against the rest (a submission that loses every game), the
 * maximum-likelihood ratings are infinite; then, like BayesElo's prior, one virtual draw is added to every pair that
 * played, and the result says so.
 */

const { exp, log, sqrt, abs, max, min, LN10 } = Math;

/** Natural-log units per Elo point: E = 1 / (1 + e^(−BETA·d)). */
export const ELO_BETA = LN10 / 400;
export const Z95 = 1.959963984540054;

/** Aggregated results of one pair: games and points scored by `a` (wins + draws/2). */
export interface PairResult {
  a: number;
  b: number;
  wins: number;
  draws: number;
  losses: number;
}

export interface RatingFit {
  /** Elo per player, anchor at anchorElo. */
  elo: number[];
  /** 95% interval half-widths relative to the anchor (0 for the anchor). */
  error: number[];
  /** Covariance of the ratings in Elo², anchor row/column zero. */
  covariance: number[][];
  anchor: number;
  /** Virtual draws added per played pair (0 when the plain maximum-likelihood fit exists). */
  prior: number;
  /** Quasi-likelihood dispersion: observed score variance over the model's (1 without draws). */
  dispersion: number;
  iterations: number;
}

const sigmoid = (x: number): number => 1 / (1 + exp(-x));

/** Standard normal CDF (Abramowitz–Stegun 7.1.26 via erf; error < 1.5e-7). */
export function normalCdf(x: number): number {
  const t = 1 / (1 + (0.3275911 * abs(x)) / Math.SQRT2);
  const y = 1 - (((((1.061405429 * t - 1.453152027) * t + 1.421413741) * t - 0.284496736) * t + 0.254829592) * t) * exp(-(x * x) / 2);
  return x >= 0 ? 0.5 * (1 + y) : 0.5 * (1 - y);
}

/** Whether the "scored at least a draw against" graph is strongly connected: then every ML rating is finite. */
export function mlExists(players: number, pairs: readonly PairResult[]): boolean {
  if (players <= 1) return true;
  const forward: number[][] = Array.from({ length: players }, () => []);
  const backward: number[][] = Array.from({ length: players }, () => []);
  const edge = (from: number, to: number): void => {
    forward[from].push(to);
    backward[to].push(from);
  };
  for (const p of pairs) {
    if (p.wins + p.draws > 0) edge(p.a, p.b);
    if (p.losses + p.draws > 0) edge(p.b, p.a);
  }
  const reaches = (graph: number[][]): boolean => {
    const seen = new Uint8Array(players);
    const stack = [0];
    seen[0] = 1;
    let count = 1;
    while (stack.length > 0) {
      for (const next of graph[stack.pop()!]) {
        if (!seen[next]) {
          seen[next] = 1;
          count += 1;
          stack.push(next);
        }
      }
    }
    return count === players;
  };
  return reaches(forward) && reaches(backward);
}

/**
 * Cholesky factor L (row-major, lower triangle) of a symmetric positive definite matrix: the Fisher information
 * of a connected set of players is one. O(n³/3), so a Swiss of hundreds of students fits in well under a second.
 */
function cholesky(matrix: number[][]): Float64Array {
  const n = matrix.length;
  const l = new Float64Array(n * n);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j <= i; j++) {
      let sum = matrix[i][j];
      for (let k = 0; k < j; k++) sum -= l[i * n + k] * l[j * n + k];
      if (i === j) {
        if (!(sum > 1e-300)) throw new Error('rating fit: the players are not connected by games');
        l[i * n + i] = sqrt(sum);
      } else {
        l[i * n + j] = sum / l[j * n + j];
      }
    }
  }
  return l;
}

/** Solve L·Lᵀ·x = b. */
function choleskySolve(l: Float64Array, n: number, rhs: ArrayLike<number>): number[] {
  const y = new Array<number>(n);
  for (let i = 0; i < n; i++) {
    let sum = rhs[i];
    for (let k = 0; k < i; k++) sum -= l[i * n + k] * y[k];
    y[i] = sum / l[i * n + i];
  }
  const x = new Array<number>(n);
  for (let i = n - 1; i >= 0; i--) {
    let sum = y[i];
    for (let k = i + 1; k < n; k++) sum -= l[k * n + i] * x[k];
    x[i] = sum / l[i * n + i];
  }
  return x;
}

function solve(matrix: number[][], rhs: number[]): number[] {
  return choleskySolve(cholesky(matrix), rhs.length, rhs);
}

/** The inverse through one factorisation (n back-substitutions of O(n²) each). */
function invert(matrix: number[][]): number[][] {
  const n = matrix.length;
  const l = cholesky(matrix);
  const unit = new Float64Array(n);
  const columns = Array.from({ length: n }, (_, j) => {
    unit.fill(0);
    unit[j] = 1;
    return choleskySolve(l, n, unit);
  });
  return Array.from({ length: n }, (_, i) => columns.map((column) => column[i]));
}

/** Whether every player is linked to the anchor by games (else their ratings mean nothing against it). */
export function connected(players: number, pairs: readonly PairResult[]): boolean {
  const links: number[][] = Array.from({ length: players }, () => []);
  for (const p of pairs) {
    if (p.wins + p.draws + p.losses === 0) continue;
    links[p.a].push(p.b);
    links[p.b].push(p.a);
  }
  const seen = new Uint8Array(players);
  const stack = [0];
  seen[0] = 1;
  let count = 1;
  while (stack.length > 0) {
    for (const next of links[stack.pop()!]) {
      if (!seen[next]) {
        seen[next] = 1;
        count += 1;
        stack.push(next);
      }
    }
  }
  return count === players;
}

/**
 * Fit ratings for `players` players from their pairs' W/D/L. `anchor` is fixed at `anchorElo`.
 * Throws if some player is not linked to the others by games.
 */
export function fitRatings(players: number, pairs: readonly PairResult[], anchor = 0, anchorElo = 0): RatingFit {
  if (players < 1) throw new Error('rating fit: no players');
  if (anchor < 0 || anchor >= players) throw new RangeError(`rating fit: anchor ${anchor} is not a player`);
  if (players > 1 && !connected(players, pairs)) throw new Error('rating fit: some players are not linked to the others by any game');
  const prior = mlExists(players, pairs) ? 0 : 1;
  // Aggregate per unordered pair: games n and points s of the lower index.
  const merged = new Map<number, { i: number; j: number; n: number; s: number; w: number; d: number; l: number }>();
  for (const p of pairs) {
    const n = p.wins + p.draws + p.losses;
    if (n === 0 || p.a === p.b) continue;
    const [i, j, w, l] = p.a < p.b ? [p.a, p.b, p.wins, p.losses] : [p.b, p.a, p.losses, p.wins];
    const key = i * players + j;
    const entry = merged.get(key) ?? { i, j, n: 0, s: 0, w: 0, d: 0, l: 0 };
    entry.n += n;
    entry.s += w + p.draws / 2;
    entry.w += w;
    entry.d += p.draws;
    entry.l += l;
    merged.set(key, entry);
  }
  const list = [...merged.values()];
  // Free parameters: everyone but the anchor, in natural units θ = BETA·Elo.
  const free = Array.from({ length: players }, (_, i) => i).filter((i) => i !== anchor);
  const slot = new Int32Array(players).fill(-1);
  free.forEach((player, k) => (slot[player] = k));
  const theta = new Array<number>(players).fill(0);
  const m = free.length;

  const logLikelihood = (t: number[]): number => {
    let sum = 0;
    for (const e of list) {
      const n = e.n + prior;
      const s = e.s + prior / 2;
      const d = t[e.i] - t[e.j];
      // s·ln σ(d) + (n − s)·ln σ(−d), computed stably.
      sum += -s * softplus(-d) - (n - s) * softplus(d);
    }
    return sum;
  };
  const information = (t: number[]): { grad: number[]; info: number[][] } => {
    const grad = new Array<number>(m).fill(0);
    const info = Array.from({ length: m }, () => new Array<number>(m).fill(0));
    for (const e of list) {
      const n = e.n + prior;
      const s = e.s + prior / 2;
      const p = sigmoid(t[e.i] - t[e.j]);
      const g = s - n * p;
      const h = n * p * (1 - p);
      const a = slot[e.i];
      const b = slot[e.j];
      if (a >= 0) {
        grad[a] += g;
        info[a][a] += h;
      }
      if (b >= 0) {
        grad[b] -= g;
        info[b][b] += h;
      }
      if (a >= 0 && b >= 0) {
        info[a][b] -= h;
        info[b][a] -= h;
      }
    }
    return { grad, info };
  };

  let iterations = 0;
  if (m > 0) {
    let current = logLikelihood(theta);
    for (; iterations < 200; iterations++) {
      const { grad, info } = information(theta);
      const gradNorm = grad.reduce((sum, g) => max(sum, abs(g)), 0);
      if (gradNorm < 1e-10) break;
      const step = solve(info, grad);
      // Damped Newton: halve the step until the likelihood rises (it is concave, so this ends).
      let scale = 1;
      let accepted = false;
      for (let tries = 0; tries < 50; tries++) {
        const next = [...theta];
        free.forEach((player, k) => (next[player] += scale * step[k]));
        const value = logLikelihood(next);
        if (value >= current - 1e-12) {
          for (let i = 0; i < players; i++) theta[i] = next[i];
          current = value;
          accepted = true;
          break;
        }
        scale /= 2;
      }
      if (!accepted) break;
      if (step.reduce((sum, x) => max(sum, abs(x * scale)), 0) < 1e-12) break;
    }
  }

  // Dispersion from the observed trinomial spread around the fitted expectations (real games only).
  let observed = 0;
  let expected = 0;
  let games = 0;
  for (const e of list) {
    const p = sigmoid(theta[e.i] - theta[e.j]);
    observed += e.w * (1 - p) ** 2 + e.d * (0.5 - p) ** 2 + e.l * p * p;
    expected += e.n * p * (1 - p);
    games += e.n;
  }
  const dof = games - m;
  const dispersion = expected > 0 && dof > 0 ? min(1.5, max(0.05, (observed / expected) * (games / dof))) : 1;

  const covariance = Array.from({ length: players }, () => new Array<number>(players).fill(0));
  if (m > 0) {
    const inverse = invert(information(theta).info);
    const scale = dispersion / (ELO_BETA * ELO_BETA);
    free.forEach((pi, a) => free.forEach((pj, b) => (covariance[pi][pj] = inverse[a][b] * scale)));
  }
  const elo = theta.map((t) => anchorElo + (t - theta[anchor]) / ELO_BETA);
  const error = covariance.map((row, i) => Z95 * sqrt(max(0, row[i])));
  return { elo, error, covariance, anchor, prior, dispersion, iterations };
}

/** ln(1 + e^x) without overflow. */
function softplus(x: number): number {
  return x > 0 ? x + log(1 + exp(-x)) : log(1 + exp(x));
}

/** Likelihood of superiority: the probability that i is truly stronger than j under the fit's normal approximation. */
export function likelihoodOfSuperiority(fit: RatingFit, i: number, j: number): number {
  const c = fit.covariance;
  const variance = c[i][i] + c[j][j] - 2 * c[i][j];
  const diff = fit.elo[i] - fit.elo[j];
  if (!(variance > 0)) return diff > 0 ? 1 : diff < 0 ? 0 : 0.5;
  return normalCdf(diff / sqrt(variance));
}
