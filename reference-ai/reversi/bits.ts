/**
 * Bit counting for the Reversi searches, with Math's functions copied into module constants: inside a vm
 * context (jest runs every test file in one) each global lookup such as `Math.imul` costs ~50x more, and these
 * run millions of times per move. Same results as core.ts's popcount / lowestBit.
 */
const { imul, clz32 } = Math;

export function bitCount(hi: number, lo: number): number {
  return count32(hi) + count32(lo);
}

function count32(x: number): number {
  x = x - ((x >>> 1) & 0x55555555);
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  x = (x + (x >>> 4)) & 0x0f0f0f0f;
  return imul(x, 0x01010101) >>> 24;
}

/** Index of the single set bit of `bit` (a power of two as int32). */
export function bitIndex(bit: number): number {
  return 31 - clz32(bit);
}

/** 32-bit multiply, for hashing. */
export { imul };
