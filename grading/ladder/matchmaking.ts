/**
 * Who plays next. OpenSkill (the `openskill` package, Plackett-Luce) carries an online μ/σ per player, updated
 * game by game in journal order; it is cheap and good enough to choose informative games, and it is what a
 * provisional display may show — never what is published (ratings.ts). A pair is worth playing when the game's
 * outcome is uncertain (close μ: high match quality), when the ratings are uncertain (large σ), and when the two
 * have met little; reference-vs-reference games are worth little once the scale is set.
 */
import { rate, rating, type Rating } from 'openskill';

export interface SkillPlayer {
  id: string;
  reference: boolean;
}

/** OpenSkill's defaults: μ 25, σ 25/3, β 25/6. */
const BETA = 25 / 6;

/** Elo points per OpenSkill μ unit near σ → 0 (two players' logistic scale c = √2·β). */
export const ELO_PER_MU = 400 / Math.LN10 / (Math.SQRT2 * BETA);

export class OnlineSkill {
  private readonly ratings = new Map<string, Rating>();
  private readonly met = new Map<string, number>();

  get(id: string): Rating {
    let found = this.ratings.get(id);
    if (!found) this.ratings.set(id, (found = rating()));
    return found;
  }

  meetings(a: string, b: string): number {
    return this.met.get(a < b ? `${a}|${b}` : `${b}|${a}`) ?? 0;
  }

  /** One counted game (blackScore 1, ½ or 0). */
  update(black: string, white: string, blackScore: number): void {
    if (black === white) return;
    const rank = blackScore === 1 ? [1, 2] : blackScore === 0 ? [2, 1] : [1, 1];
    const [[b], [w]] = rate([[this.get(black)], [this.get(white)]], { rank });
    this.ratings.set(black, b);
    this.ratings.set(white, w);
    const key = black < white ? `${black}|${white}` : `${white}|${black}`;
    this.met.set(key, (this.met.get(key) ?? 0) + 1);
  }

  /** Provisional Elo relative to `anchor` (display and simulation only). */
  elo(id: string, anchor: string): number {
    return (this.get(id).mu - this.get(anchor).mu) * ELO_PER_MU;
  }
}

/** How much a game between a and b is worth playing now. */
export function pairValue(skill: OnlineSkill, a: SkillPlayer, b: SkillPlayer): number {
  const ra = skill.get(a.id);
  const rb = skill.get(b.id);
  const c2 = 2 * BETA * BETA + ra.sigma * ra.sigma + rb.sigma * rb.sigma;
  const diff = ra.mu - rb.mu;
  // TrueSkill's match quality: the chance of a draw relative to the best match; ∈ (0, 1].
  const quality = Math.sqrt((2 * BETA * BETA) / c2) * Math.exp(-(diff * diff) / (2 * c2));
  const uncertainty = ra.sigma * ra.sigma + rb.sigma * rb.sigma;
  const weight = a.reference && b.reference ? 0.05 : 1;
  return (weight * quality * uncertainty) / (1 + skill.meetings(a.id, b.id));
}

/**
 * The most informative pair among players not busy (random ± 10% jitter from `random` so equal pairs take turns);
 * null when fewer than two are free.
 */
export function choosePair(skill: OnlineSkill, players: readonly SkillPlayer[], busy: ReadonlySet<string>, random: () => number): [SkillPlayer, SkillPlayer] | null {
  const free = players.filter((p) => !busy.has(p.id));
  let best: [SkillPlayer, SkillPlayer] | null = null;
  let bestValue = -1;
  for (let i = 0; i < free.length; i++) {
    for (let j = i + 1; j < free.length; j++) {
      const value = pairValue(skill, free[i], free[j]) * (0.9 + 0.2 * random());
      if (value > bestValue) {
        bestValue = value;
        best = [free[i], free[j]];
      }
    }
  }
  return best;
}
