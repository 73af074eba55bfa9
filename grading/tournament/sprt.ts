/**
 * The sequential probability ratio test engine testers use (fishtest, fastchess, cutechess): is a player's Elo
 * against an opponent elo0 (H0) or elo1 (H1)? After each game pair the log-likelihood ratio (LLR) is compared with
 * Wald's bounds ln(β/(1−α)) and ln((1−β)/α); crossing the upper accepts H1, the lower accepts H0, with error rates
 * α (accepting H1 when elo = elo0) and β (accepting H0 when elo = elo1).
 *
 * The LLR is the generalised SPRT of Michel Van den Bergh as fishtest computes it (LLR_logistic): the outcome
 * frequencies are the empirical distribution, and under each hypothesis the distribution closest to it (maximum
 * likelihood) whose mean score is the logistic score of elo0 / elo1; LLR = N · Σ p̂_i ln(p1_i / p0_i).
 *
 * Pentanomial (the default, as fastchess): a sample is a game pair played with colours swapped, scored 0, ¼, ½, ¾, 1
 * (LL, LD, DD or WL, WD, WW), which absorbs the pair's correlation. Trinomial fallback for unpaired games: a sample
 * is one game, 0, ½, 1. Zero counts are regularised to 1e-3, as fastchess does.
 */

const { log, pow, max, min } = Math;

export interface SprtParams {
  elo0: number;
  elo1: number;
  alpha: number;
  beta: number;
}

export type SprtDecision = 'H1' | 'H0' | null;

/** Outcome counts of game pairs: [LL, LD, DD+WL, WD, WW] (pair scores 0, ½, 1, 1½, 2). */
export type Pentanomial = [number, number, number, number, number];
/** Outcome counts of games: [losses, draws, wins]. */
export type Trinomial = [number, number, number];

/** Expected score for an Elo difference (logistic). */
export const scoreOfElo = (elo: number): number => 1 / (1 + pow(10, -elo / 400));

export function sprtBounds(params: SprtParams): { lower: number; upper: number } {
  return { lower: log(params.beta / (1 - params.alpha)), upper: log((1 - params.beta) / params.alpha) };
}

/**
 * The distribution q closest to p (maximum likelihood) with mean score `s`: q_i = p_i / (1 + λ(a_i − s)), λ the
 * root of Σ p_i (a_i − s) / (1 + λ(a_i − s)) = 0 (decreasing in λ; found by bisection).
 */
function closestWithMean(scores: readonly number[], p: readonly number[], s: number): number[] {
  const lo0 = max(...scores) - s;
  const hi0 = s - min(...scores);
  // λ must keep every 1 + λ(a_i − s) positive.
  let lo = lo0 > 0 ? -1 / lo0 + 1e-12 : -1e6;
  let hi = hi0 > 0 ? 1 / hi0 - 1e-12 : 1e6;
  const f = (lambda: number): number => {
    let sum = 0;
    for (let i = 0; i < p.length; i++) sum += (p[i] * (scores[i] - s)) / (1 + lambda * (scores[i] - s));
    return sum;
  };
  for (let i = 0; i < 100; i++) {
    const mid = (lo + hi) / 2;
    if (f(mid) > 0) lo = mid;
    else hi = mid;
  }
  const lambda = (lo + hi) / 2;
  return p.map((pi, i) => pi / (1 + lambda * (scores[i] - s)));
}

function llrOf(scores: readonly number[], counts: readonly number[], params: SprtParams): number {
  const regularised = counts.map((count) => (count > 0 ? count : 1e-3));
  const n = regularised.reduce((sum, c) => sum + c, 0);
  if (counts.every((count) => count === 0)) return 0;
  const p = regularised.map((c) => c / n);
  const q0 = closestWithMean(scores, p, scoreOfElo(params.elo0));
  const q1 = closestWithMean(scores, p, scoreOfElo(params.elo1));
  let sum = 0;
  for (let i = 0; i < p.length; i++) sum += p[i] * (log(q1[i]) - log(q0[i]));
  return n * sum;
}

const PENTA_SCORES = [0, 0.25, 0.5, 0.75, 1];
const TRI_SCORES = [0, 0.5, 1];

export const llrPentanomial = (counts: Pentanomial, params: SprtParams): number => llrOf(PENTA_SCORES, counts, params);
export const llrTrinomial = (counts: Trinomial, params: SprtParams): number => llrOf(TRI_SCORES, counts, params);

export function decide(llr: number, params: SprtParams): SprtDecision {
  const { lower, upper } = sprtBounds(params);
  return llr >= upper ? 'H1' : llr <= lower ? 'H0' : null;
}

/** One game's score for the tested player: 1, ½ or 0. */
export type GameScore = 0 | 0.5 | 1;

export interface SprtStep {
  /** Games counted so far. */
  games: number;
  llr: number;
}

export interface SprtOutcome {
  decision: SprtDecision;
  model: 'pentanomial' | 'trinomial';
  llr: number;
  lower: number;
  upper: number;
  /** Games up to and including the deciding one (all games when undecided). */
  gamesUsed: number;
  pentanomial: Pentanomial;
  trinomial: Trinomial;
  /** The LLR after every sample (pair or game). */
  trace: SprtStep[];
}

/**
 * Run the test over games in order. `paired`: games 2k and 2k+1 form a pair (pentanomial, one sample per complete
 * pair; a trailing half pair is not counted); otherwise every game is a sample (trinomial). Stops at the first
 * sample whose LLR crosses a bound, so games after a decision never change it.
 */
export function runSprt(scores: readonly GameScore[], params: SprtParams, paired = true): SprtOutcome {
  const { lower, upper } = sprtBounds(params);
  const penta: Pentanomial = [0, 0, 0, 0, 0];
  const tri: Trinomial = [0, 0, 0];
  const trace: SprtStep[] = [];
  let llr = 0;
  let decision: SprtDecision = null;
  let gamesUsed = 0;
  const step = paired ? 2 : 1;
  for (let i = 0; i + step <= scores.length && decision === null; i += step) {
    if (paired) {
      penta[(scores[i] + scores[i + 1]) * 2] += 1;
      tri[scores[i] * 2] += 1;
      tri[scores[i + 1] * 2] += 1;
      llr = llrPentanomial(penta, params);
    } else {
      tri[scores[i] * 2] += 1;
      llr = llrTrinomial(tri, params);
    }
    gamesUsed = i + step;
    trace.push({ games: gamesUsed, llr });
    decision = decide(llr, params);
  }
  if (decision === null) gamesUsed = paired ? scores.length - (scores.length % 2) : scores.length;
  return { decision, model: paired ? 'pentanomial' : 'trinomial', llr, lower, upper, gamesUsed, pentanomial: penta, trinomial: tri, trace };
}

/** Per-game win/draw/loss probabilities at an Elo difference with a BayesElo draw parameter (for simulations). */
export function bayesEloProbabilities(elo: number, drawElo: number): { win: number; draw: number; loss: number } {
  const win = 1 / (1 + pow(10, (-elo + drawElo) / 400));
  const loss = 1 / (1 + pow(10, (elo + drawElo) / 400));
  return { win, draw: 1 - win - loss, loss };
}

/**
 * The BayesElo elo whose expected score equals the logistic score of `elo` (simulations at "elo = elo0" must hit
 * the tested score exactly, whatever the draw rate).
 */
export function bayesEloForScore(elo: number, drawElo: number): number {
  const target = scoreOfElo(elo);
  let lo = -2000;
  let hi = 2000;
  for (let i = 0; i < 100; i++) {
    const mid = (lo + hi) / 2;
    const p = bayesEloProbabilities(mid, drawElo);
    if (p.win + p.draw / 2 < target) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}

/**
 * Games a fixed-N test needs for the same error rates (normal approximation): accept H1 when the mean score
 * exceeds a threshold t between s0 and s1, with N = ((z_α σ0 + z_β σ1) / (s1 − s0))², σ the per-game score
 * standard deviation under each hypothesis.
 */
export function fixedGamesFor(params: SprtParams, sigma0: number, sigma1: number): { games: number; threshold: number } {
  const s0 = scoreOfElo(params.elo0);
  const s1 = scoreOfElo(params.elo1);
  const za = normalQuantile(1 - params.alpha);
  const zb = normalQuantile(1 - params.beta);
  const root = (za * sigma0 + zb * sigma1) / (s1 - s0);
  const games = Math.ceil(root * root);
  return { games, threshold: s0 + (za * sigma0) / Math.sqrt(games) };
}

/** Inverse standard normal CDF (Acklam's rational approximation, relative error < 1.2e-9). */
export function normalQuantile(p: number): number {
  if (!(p > 0 && p < 1)) throw new RangeError(`normalQuantile: p must be in (0, 1), got ${p}`);
  const a = [-39.69683028665376, 220.9460984245205, -275.9285104469687, 138.357751867269, -30.66479806614716, 2.506628277459239];
  const b = [-54.47609879822406, 161.5858368580409, -155.6989798598866, 66.80131188771972, -13.28068155288572];
  const c = [-0.007784894002430293, -0.3223964580411365, -2.400758277161838, -2.549732539343734, 4.374664141464968, 2.938163982698783];
  const d = [0.007784695709041462, 0.3224671290700398, 2.445134137142996, 3.754408661907416];
  const low = 0.02425;
  if (p < low) {
    const q = Math.sqrt(-2 * log(p));
    return (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) / ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
  }
  if (p > 1 - low) return -normalQuantile(1 - p);
  const q = p - 0.5;
  const r = q * q;
  return ((((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q) / (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1);
}

