/**
 * Deterministic seeds and a small seeded RNG. Every random choice in a series (per-game layouts, reference AIs'
 * tie-breaks and playouts) derives from one series seed, so a recorded seed replays the same games anywhere.
 */

/** Math's functions as module constants: global lookups are ~50x slower inside jest's vm context. */
const { imul, floor } = Math;

/** splitmix32's output mixer: a bijection on 32-bit integers that spreads every input bit over the output. */
export function mix32(value: number): number {
  let t = (value + 0x9e3779b9) | 0;
  t = imul(t ^ (t >>> 16), 0x21f0aaad);
  t = imul(t ^ (t >>> 15), 0x735a2d97);
  return (t ^ (t >>> 15)) >>> 0;
}

function checkSeed(seed: number, what: string): void {
  if (!Number.isSafeInteger(seed)) {
    throw new RangeError(`${what} must be an integer (got ${String(seed)}); pass e.g. 1`);
  }
}

/**
 * The seed of game `index` of a series seeded with `seed`: a uint32. Distinct indices give distinct seeds for
 * the same series seed (the index is spread by an odd multiplier, then mixed by a bijection).
 */
export function deriveSeed(seed: number, index: number): number {
  checkSeed(seed, 'seed');
  if (!Number.isSafeInteger(index) || index < 0) {
    throw new RangeError(`game index must be a non-negative integer (got ${String(index)})`);
  }
  return mix32((mix32(seed >>> 0) + imul(index + 1, 0x9e3779b9)) | 0);
}

export interface Rng {
  /** A float in [0, 1). */
  next(): number;
  /** An integer in [0, n) for a positive integer n. */
  int(n: number): number;
}

/** mulberry32: tiny, fast, and good enough for game tie-breaks and playouts (not for cryptography). */
export function createRng(seed: number): Rng {
  checkSeed(seed, 'RNG seed');
  let state = mix32(seed >>> 0) | 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) | 0;
    let t = imul(state ^ (state >>> 15), 1 | state);
    t = (t + imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int(n: number): number {
      if (!Number.isSafeInteger(n) || n <= 0) {
        throw new RangeError(`rng.int(n) needs a positive integer n (got ${String(n)})`);
      }
      return floor(next() * n);
    },
  };
}
