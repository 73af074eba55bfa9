/** Reversi behind the generic Game interface: immutable states over the bitboard core. */
import { reversiBotzone } from './botzone.js';
import type { Game, Outcome, Side } from '../game.js';
import { Board, squareName } from './board.js';
import { flips, hasSquare, legalMask, orderedMoves, out, perft, popcount, START } from './core.js';
import { reversiGeometry } from './geometry.js';
import { renderSvg, renderText } from './render.js';
import type { ReversiState } from './state.js';

const SYMBOLS = ['X', 'O'] as const;

function make(bh: number, bl: number, wh: number, wl: number, side: Side): ReversiState {
  return { bh, bl, wh, wl, side };
}

/** The side to move's discs first: [ph, pl, oh, ol]. */
function sides(s: ReversiState): [number, number, number, number] {
  return s.side === 0 ? [s.bh, s.bl, s.wh, s.wl] : [s.wh, s.wl, s.bh, s.bl];
}

function hasMove(ph: number, pl: number, oh: number, ol: number): boolean {
  legalMask(ph, pl, oh, ol);
  return (out.hi | out.lo) !== 0;
}

function parseSquare(text: string): number | null {
  // Strict: 'D3' only, as game.py compares the answer with its list of legal strings.
  if (typeof text !== 'string' || !/^[A-H][1-8]$/.test(text)) return null;
  return (text.charCodeAt(1) - 49) * 8 + (text.charCodeAt(0) - 65);
}

export const reversi: Game<ReversiState, number> = {
  id: 'reversi',
  title: 'Reversi (Othello), 8x8',
  symbols: SYMBOLS,
  sideNames: ['Black', 'White'],
  pieceNoun: ['disc', 'discs'],

  initial: () => make(START.bh, START.bl, START.wh, START.wl, 0),
  toMove: (s) => s.side,
  legalMoves(s) {
    const [ph, pl, oh, ol] = sides(s);
    return orderedMoves(ph, pl, oh, ol);
  },
  apply(s, move) {
    const [ph, pl, oh, ol] = sides(s);
    if (!Number.isInteger(move) || move < 0 || move > 63 || hasSquare(ph | oh, pl | ol, move)) {
      throw new Error(`reversi: ${String(move)} is not an empty square`);
    }
    flips(move, ph, pl, oh, ol);
    const fh = out.hi;
    const fl = out.lo;
    if ((fh | fl) === 0) throw new Error(`reversi: ${squareName(move)} flips nothing, so it is not legal`);
    const nph = ph | fh | (move >= 32 ? 1 << (move - 32) : 0);
    const npl = pl | fl | (move < 32 ? 1 << move : 0);
    const noh = oh & ~fh;
    const nol = ol & ~fl;
    return s.side === 0 ? make(nph, npl, noh, nol, 1) : make(noh, nol, nph, npl, 0);
  },
  pass: (s) => make(s.bh, s.bl, s.wh, s.wl, (s.side ^ 1) as Side),
  isTerminal(s) {
    const [ph, pl, oh, ol] = sides(s);
    return !hasMove(ph, pl, oh, ol) && !hasMove(oh, ol, ph, pl);
  },
  outcome(s): Outcome {
    const black = popcount(s.bh, s.bl);
    const white = popcount(s.wh, s.wl);
    return {
      winner: black > white ? 0 : white > black ? 1 : null,
      score: [black, white],
      diff: Math.abs(black - white),
    };
  },

  encode(s) {
    let text = '';
    for (let sq = 0; sq < 64; sq++) {
      const bit = sq < 32 ? 1 << sq : 1 << (sq - 32);
      const b = sq < 32 ? s.bl & bit : s.bh & bit;
      const w = sq < 32 ? s.wl & bit : s.wh & bit;
      text += b ? 'X' : w ? 'O' : '.';
    }
    return `${text} ${SYMBOLS[s.side]}`;
  },
  decode(text) {
    if (typeof text !== 'string' || !/^[.XO]{64} [XO]$/.test(text)) {
      throw new Error('reversi: a state is 64 cells of . X O (A1..H1, A2..H8), a space, then X or O to move');
    }
    let bh = 0;
    let bl = 0;
    let wh = 0;
    let wl = 0;
    for (let sq = 0; sq < 64; sq++) {
      const c = text[sq];
      if (c === '.') continue;
      if (sq < 32) {
        if (c === 'X') bl |= 1 << sq;
        else wl |= 1 << sq;
      } else if (c === 'X') bh |= 1 << (sq - 32);
      else wh |= 1 << (sq - 32);
    }
    return make(bh, bl, wh, wl, text[65] === 'X' ? 0 : 1);
  },
  formatMove: (move) => squareName(move),
  parseMove: parseSquare,
  renderText,
  renderSvg,
  geometry: reversiGeometry,
  files: { folder: 'reversi', boardType: 'ReversiBoard', python: true, cpp: true },
  studentBoard: {
    create: (s) => Board.fromBits(s.bh, s.bl, s.wh, s.wl),
    fingerprint: (board) => Board.fingerprint(board),
  },
  moveDetails(s, move) {
    const [ph, pl, oh, ol] = sides(s);
    flips(move, ph, pl, oh, ol);
    return { flipped: popcount(out.hi, out.lo) };
  },
  perft(s, depth) {
    const [ph, pl, oh, ol] = sides(s);
    return perft(ph, pl, oh, ol, depth);
  },
  botzone: reversiBotzone,
};
