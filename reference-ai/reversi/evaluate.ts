/**
 * Static evaluations for the Reversi searches, from the side to move's point of view. Both stay far below the
 * search's terminal values (search.ts WIN), so a proven win always outranks a good-looking position.
 */
import { legalMask, out } from '../../harness/games/reversi/core.js';
import { popcount as bitCount } from '../../harness/games/reversi/core.js';
import { tableWeight } from './weights.js';

/** (ph, pl, oh, ol) → an integer value for the player (ph, pl), who is to move (the table stores int32). */
export type Evaluator = (ph: number, pl: number, oh: number, ol: number) => number;

/** Module constant: global lookups are slow inside jest's vm context, and this runs at every leaf. */
const { round } = Math;

const NOT_A = 0xfefefefe | 0;
const NOT_H = 0x7f7f7f7f;
/** A1, H1 in the low half; A8, H8 in the high half. */
const CORNERS_LO = 0x00000081;
const CORNERS_HI = 0x81000000 | 0;

function mobility(ph: number, pl: number, oh: number, ol: number): number {
  legalMask(ph, pl, oh, ol);
  return bitCount(out.hi, out.lo);
}

function corners(hi: number, lo: number): number {
  return bitCount(hi & CORNERS_HI, lo & CORNERS_LO);
}

/** Squares next to at least one square of (hi, lo) in any of the eight directions, into `out`. */
function neighbours(hi: number, lo: number): void {
  let rh = ((hi << 1) & NOT_A) | ((hi >>> 1) & NOT_H);
  let rl = ((lo << 1) & NOT_A) | ((lo >>> 1) & NOT_H);
  rh |= (hi << 8) | (lo >>> 24);
  rl |= lo << 8;
  rl |= (lo >>> 8) | (hi << 24);
  rh |= hi >>> 8;
  rh |= (((hi << 9) | (lo >>> 23)) & NOT_A) | (((hi << 7) | (lo >>> 25)) & NOT_H);
  rl |= ((lo << 9) & NOT_A) | ((lo << 7) & NOT_H);
  rl |= (((lo >>> 7) | (hi << 25)) & NOT_A) | (((lo >>> 9) | (hi << 23)) & NOT_H);
  rh |= ((hi >>> 7) & NOT_A) | ((hi >>> 9) & NOT_H);
  out.hi = rh;
  out.lo = rl;
}

/** The value of a finished game: the disc difference, lifted far above any evaluation. */
export const WIN = 100_000;
export function finalValue(ph: number, pl: number, oh: number, ol: number): number {
  const diff = bitCount(ph, pl) - bitCount(oh, ol);
  return diff > 0 ? WIN + diff : diff < 0 ? -WIN + diff : 0;
}

/** The `mobility` level's evaluation: move-count difference plus corners. */
export const mobilityEvaluation: Evaluator = (ph, pl, oh, ol) => {
  const mine = mobility(ph, pl, oh, ol);
  const theirs = mobility(oh, ol, ph, pl);
  if (mine === 0 && theirs === 0) return finalValue(ph, pl, oh, ol);
  return 10 * (mine - theirs) + 100 * (corners(ph, pl) - corners(oh, ol));
};

/**
 * The `alphabeta` level's evaluation: relative mobility, corners, frontier discs (those touching an empty
 * square, which hand the opponent moves) and the positional table, with the disc count joining late.
 */
export const strongEvaluation: Evaluator = (ph, pl, oh, ol) => {
  const mine = mobility(ph, pl, oh, ol);
  const theirs = mobility(oh, ol, ph, pl);
  if (mine === 0 && theirs === 0) return finalValue(ph, pl, oh, ol);
  const myDiscs = bitCount(ph, pl);
  const theirDiscs = bitCount(oh, ol);
  const empties = 64 - myDiscs - theirDiscs;

  neighbours(~(ph | oh), ~(pl | ol));
  const nearEmptyHi = out.hi;
  const nearEmptyLo = out.lo;
  const myFrontier = bitCount(ph & nearEmptyHi, pl & nearEmptyLo);
  const theirFrontier = bitCount(oh & nearEmptyHi, ol & nearEmptyLo);

  const mobilityScore = (100 * (mine - theirs)) / (mine + theirs + 2);
  const frontierScore = (100 * (theirFrontier - myFrontier)) / (myFrontier + theirFrontier + 2);
  const cornerScore = 30 * (corners(ph, pl) - corners(oh, ol));
  const tableScore = tableWeight(ph, pl) - tableWeight(oh, ol);
  const discScore = empties < 20 ? ((20 - empties) * (myDiscs - theirDiscs)) / 4 : 0;
  return round(2 * mobilityScore + frontierScore + 4 * cornerScore + tableScore + discScore);
};
