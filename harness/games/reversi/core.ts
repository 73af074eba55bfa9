/**
 * Reversi bitboard core: the hot path behind the Game object, the student Board and the reference AIs.
 *
 * A 64-bit board is two int32 halves because BigInt is 8–11x slower (shared/ARCHITECTURE.md): `lo` holds
 * squares 0..31 (rows 1–4), `hi` squares 32..63 (rows 5–8). Square = row * 8 + col, row 0 is rank "1", col 0 is
 * file "A", exactly as board.py indexes `_board[row][col]`.
 *
 * Functions that produce a 64-bit answer leave it in the exported `out` pair instead of allocating, so a search
 * can call them millions of times without garbage.
 */

/**
 * Math's functions as module constants: inside a vm context (jest runs each test file in one; a sandbox could)
 * every global lookup costs ~50x more, and these run millions of times per second.
 */
const { imul, clz32 } = Math;

/** Result registers for functions that return a 64-bit set: read them right after the call. */
export const out = { hi: 0, lo: 0 };

/** Every column except A (col 0) / except H (col 7) / the six inner columns, per half. */
const NOT_A = 0xfefefefe | 0;
const NOT_H = 0x7f7f7f7f;
const INNER = 0x7e7e7e7e;

export function popcount32(x: number): number {
  x = x - ((x >>> 1) & 0x55555555);
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  x = (x + (x >>> 4)) & 0x0f0f0f0f;
  return imul(x, 0x01010101) >>> 24;
}

export function popcount(hi: number, lo: number): number {
  return popcount32(hi) + popcount32(lo);
}

/**
 * Squares where the player (ph, pl) may move against the opponent (oh, ol), into `out`.
 * Per direction, the runs of opponent discs next to the player's: one step, a second, then two doublings over
 * pairs of opponent discs (Kogge-Stone: runs of up to six in four steps instead of six), then one step on to the
 * empty square (east alone by one addition, below). Opponents are masked to the inner columns for any direction with
 * a sideways step, so no shift can wrap from one row's edge to the next.
 */
export function legalMask(ph: number, pl: number, oh: number, ol: number): void {
  const mh = oh & INNER;
  const ml = ol & INNER;
  let rh: number;
  let rl: number;
  let th: number;
  let tl: number;
  let qh: number;
  let ql: number;

  // East (+1) and west (-1): a row never crosses between the halves. East runs towards higher bits, so one addition
  // does it: adding a run's first disc (next to a player's) carries through the run onto the square after it (the
  // inner-column mask keeps every carry inside its row, and `| 0` keeps the sum an int32).
  rh = ((mh + ((ph << 1) & mh)) | 0) & ~mh; rl = ((ml + ((pl << 1) & ml)) | 0) & ~ml;
  th = (ph >>> 1) & mh; tl = (pl >>> 1) & ml;
  th |= (th >>> 1) & mh; tl |= (tl >>> 1) & ml;
  qh = mh & (mh >>> 1); ql = ml & (ml >>> 1);
  th |= (th >>> 2) & qh; tl |= (tl >>> 2) & ql;
  th |= (th >>> 2) & qh; tl |= (tl >>> 2) & ql;
  rh |= th >>> 1; rl |= tl >>> 1;

  // South (+8) and north (-8): rows grow towards the high half.
  th = ((ph << 8) | (pl >>> 24)) & oh; tl = (pl << 8) & ol;
  th |= ((th << 8) | (tl >>> 24)) & oh; tl |= (tl << 8) & ol;
  qh = ((oh << 8) | (ol >>> 24)) & oh; ql = (ol << 8) & ol;
  th |= ((th << 16) | (tl >>> 16)) & qh; tl |= (tl << 16) & ql;
  th |= ((th << 16) | (tl >>> 16)) & qh; tl |= (tl << 16) & ql;
  rh |= ((th << 8) | (tl >>> 24)); rl |= (tl << 8);
  tl = ((pl >>> 8) | (ph << 24)) & ol; th = (ph >>> 8) & oh;
  tl |= ((tl >>> 8) | (th << 24)) & ol; th |= (th >>> 8) & oh;
  ql = ((ol >>> 8) | (oh << 24)) & ol; qh = (oh >>> 8) & oh;
  tl |= ((tl >>> 16) | (th << 16)) & ql; th |= (th >>> 16) & qh;
  tl |= ((tl >>> 16) | (th << 16)) & ql; th |= (th >>> 16) & qh;
  rl |= ((tl >>> 8) | (th << 24)); rh |= (th >>> 8);

  // South-east (+9) and north-west (-9): rows grow towards the high half.
  th = ((ph << 9) | (pl >>> 23)) & mh; tl = (pl << 9) & ml;
  th |= ((th << 9) | (tl >>> 23)) & mh; tl |= (tl << 9) & ml;
  qh = ((mh << 9) | (ml >>> 23)) & mh; ql = (ml << 9) & ml;
  th |= ((th << 18) | (tl >>> 14)) & qh; tl |= (tl << 18) & ql;
  th |= ((th << 18) | (tl >>> 14)) & qh; tl |= (tl << 18) & ql;
  rh |= ((th << 9) | (tl >>> 23)); rl |= (tl << 9);
  tl = ((pl >>> 9) | (ph << 23)) & ml; th = (ph >>> 9) & mh;
  tl |= ((tl >>> 9) | (th << 23)) & ml; th |= (th >>> 9) & mh;
  ql = ((ml >>> 9) | (mh << 23)) & ml; qh = (mh >>> 9) & mh;
  tl |= ((tl >>> 18) | (th << 14)) & ql; th |= (th >>> 18) & qh;
  tl |= ((tl >>> 18) | (th << 14)) & ql; th |= (th >>> 18) & qh;
  rl |= ((tl >>> 9) | (th << 23)); rh |= (th >>> 9);

  // South-west (+7) and north-east (-7): rows grow towards the high half.
  th = ((ph << 7) | (pl >>> 25)) & mh; tl = (pl << 7) & ml;
  th |= ((th << 7) | (tl >>> 25)) & mh; tl |= (tl << 7) & ml;
  qh = ((mh << 7) | (ml >>> 25)) & mh; ql = (ml << 7) & ml;
  th |= ((th << 14) | (tl >>> 18)) & qh; tl |= (tl << 14) & ql;
  th |= ((th << 14) | (tl >>> 18)) & qh; tl |= (tl << 14) & ql;
  rh |= ((th << 7) | (tl >>> 25)); rl |= (tl << 7);
  tl = ((pl >>> 7) | (ph << 25)) & ml; th = (ph >>> 7) & mh;
  tl |= ((tl >>> 7) | (th << 25)) & ml; th |= (th >>> 7) & mh;
  ql = ((ml >>> 7) | (mh << 25)) & ml; qh = (mh >>> 7) & mh;
  tl |= ((tl >>> 14) | (th << 18)) & ql; th |= (th >>> 14) & qh;
  tl |= ((tl >>> 14) | (th << 18)) & ql; th |= (th >>> 14) & qh;
  rl |= ((tl >>> 7) | (th << 25)); rh |= (th >>> 7);

  out.hi = rh & ~(ph | oh);
  out.lo = rl & ~(pl | ol);
}

/** board.py's eight (row, col) steps, in its `_can_fliped` order: E, SE, S, SW, W, NW, N, NE. */
const FLIP_DIRS: ReadonlyArray<readonly [number, number]> = [
  [0, 1], [1, 1], [1, 0], [1, -1], [0, -1], [-1, -1], [-1, 0], [-1, 1],
];

/** DIRECTION_OF_STEP[n - sq + 9]: the FLIP_DIRS index of the step from sq to its neighbour n. */
export const DIRECTION_OF_STEP = new Int8Array(19).fill(-1);
FLIP_DIRS.forEach(([dr, dc], d) => { DIRECTION_OF_STEP[dr * 8 + dc + 9] = d; });

/**
 * Per square and direction, the squares of the ray leaving it (nearest first), packed as
 * RAYS[(sq * 8 + dir) * 8 + k], with RAY_LEN[sq * 8 + dir] entries: what RAY_HI / RAY_LO below are built from.
 */
const RAYS = new Int8Array(64 * 8 * 8);
const RAY_LEN = new Uint8Array(64 * 8);
for (let sq = 0; sq < 64; sq++) {
  for (let d = 0; d < 8; d++) {
    const [dr, dc] = FLIP_DIRS[d];
    let r = (sq >> 3) + dr;
    let c = (sq & 7) + dc;
    let k = 0;
    while (r >= 0 && r < 8 && c >= 0 && c < 8) {
      RAYS[(sq * 8 + d) * 8 + k++] = r * 8 + c;
      r += dr;
      c += dc;
    }
    RAY_LEN[sq * 8 + d] = k;
  }
}

/**
 * Per square and direction, the ray leaving it as a set (RAY_HI, RAY_LO at sq * 8 + dir; directions as
 * FLIP_DIRS: the first four run towards higher squares, the last four towards lower ones).
 */
export const RAY_HI = new Int32Array(64 * 8);
export const RAY_LO = new Int32Array(64 * 8);
for (let i = 0; i < 64 * 8; i++) {
  for (let k = 0; k < RAY_LEN[i]; k++) {
    const s = RAYS[i * 8 + k];
    if (s < 32) RAY_LO[i] |= 1 << s;
    else RAY_HI[i] |= 1 << (s - 32);
  }
}

/** NEAR_LO[sq] / NEAR_HI[sq]: sq's on-board neighbours, as the low and high half of a set. */
export const NEAR_LO = new Int32Array(64);
export const NEAR_HI = new Int32Array(64);
/** SCAN_RANK[s - o + 9]: the place of the step o → s in board.py's scan N, NE, E, SE, S, SW, W, NW. */
const SCAN_RANK = new Int8Array(19).fill(-1);
{
  const steps: ReadonlyArray<readonly [number, number]> = [
    [-1, 0], [-1, 1], [0, 1], [1, 1], [1, 0], [1, -1], [0, -1], [-1, -1],
  ];
  steps.forEach(([dr, dc], rank) => { SCAN_RANK[dr * 8 + dc + 9] = rank; });
  for (let sq = 0; sq < 64; sq++) {
    for (const [dr, dc] of steps) {
      const r = (sq >> 3) + dr;
      const c = (sq & 7) + dc;
      if (r < 0 || r > 7 || c < 0 || c > 7) continue;
      const n = r * 8 + c;
      if (n < 32) NEAR_LO[sq] |= 1 << n;
      else NEAR_HI[sq] |= 1 << (n - 32);
    }
  }
}

/**
 * Discs flipped when the player plays `sq`, into `out` (zero when the move flips nothing, i.e. is illegal for an
 * empty square). Does not check that `sq` is empty. Only the directions whose first square holds an opponent disc
 * can flip (one to three of the eight on most moves), so those are found first from the neighbour set. Per such
 * direction, the first square of the ray that is not the opponent's (the lowest set bit on a ray towards higher
 * squares, the highest on one towards lower squares) closes the run when it is the player's: no walk along the ray.
 */
export function flips(sq: number, ph: number, pl: number, oh: number, ol: number): void {
  let fh = 0;
  let fl = 0;
  const nh = ~oh;
  const nl = ~ol;
  let ah = NEAR_HI[sq] & oh;
  let al = NEAR_LO[sq] & ol;
  while ((ah | al) !== 0) {
    let next: number;
    if (al !== 0) {
      const bit = al & -al;
      al ^= bit;
      next = 31 - clz32(bit);
    } else {
      const bit = ah & -ah;
      ah ^= bit;
      next = 63 - clz32(bit);
    }
    const d = DIRECTION_OF_STEP[next - sq + 9];
    const i = sq * 8 + d;
    if (d < 4) {
      const rl = RAY_LO[i];
      const stopL = rl & nl;
      if (stopL !== 0) {
        const f = stopL & -stopL;
        if ((pl & f) !== 0) fl |= rl & (f - 1);
      } else {
        const rh = RAY_HI[i];
        const stopH = rh & nh;
        const f = stopH & -stopH;
        if ((ph & f) !== 0) {
          fl |= rl;
          fh |= rh & (f - 1);
        }
      }
    } else {
      const rh = RAY_HI[i];
      const stopH = rh & nh;
      if (stopH !== 0) {
        const f = 1 << (31 - clz32(stopH));
        if ((ph & f) !== 0) fh |= rh & -(f << 1);
      } else {
        const rl = RAY_LO[i];
        const stopL = rl & nl;
        if (stopL !== 0) {
          const f = 1 << (31 - clz32(stopL));
          if ((pl & f) !== 0) {
            fh |= rh;
            fl |= rl & -(f << 1);
          }
        }
      }
    }
  }
  out.hi = fh;
  out.lo = fl;
}

/** Whether bit `sq` is set in (hi, lo). */
export function hasSquare(hi: number, lo: number, sq: number): boolean {
  return sq < 32 ? ((lo >>> sq) & 1) === 1 : ((hi >>> (sq - 32)) & 1) === 1;
}

/** Index of the lowest set bit of a non-zero int32. */
export function lowestBit(x: number): number {
  return 31 - clz32(x & -x);
}

/**
 * Leaves at `depth` plies from the position where the player (ph, pl) is to move. Conventions of the reference
 * table: a forced pass takes a ply; a game that ends before full depth counts as one leaf. Copy-make recursion
 * (arguments are the position), so there is nothing to undo.
 */
export function perft(ph: number, pl: number, oh: number, ol: number, depth: number): number {
  if (depth <= 0) return 1;
  legalMask(ph, pl, oh, ol);
  let mh = out.hi;
  let ml = out.lo;
  if ((mh | ml) === 0) {
    legalMask(oh, ol, ph, pl);
    if ((out.hi | out.lo) === 0) return 1; // game over: one leaf
    return depth === 1 ? 1 : perft(oh, ol, ph, pl, depth - 1); // pass
  }
  if (depth === 1) return popcount32(mh) + popcount32(ml);
  if (depth === 2) return perftLastTwo(ph, pl, oh, ol, mh, ml);
  let total = 0;
  while (ml !== 0) {
    const bit = ml & -ml;
    ml ^= bit;
    flips(31 - clz32(bit), ph, pl, oh, ol);
    const fh = out.hi;
    const fl = out.lo;
    total += perft(oh & ~fh, ol & ~fl, ph | fh, pl | fl | bit, depth - 1);
  }
  while (mh !== 0) {
    const bit = mh & -mh;
    mh ^= bit;
    flips(63 - clz32(bit), ph, pl, oh, ol);
    const fh = out.hi;
    const fl = out.lo;
    total += perft(oh & ~fh, ol & ~fl, ph | fh | bit, pl | fl, depth - 1);
  }
  return total;
}

/**
 * perft at depth 2 with the moves (mh, ml) known: each child's leaves are its mover's move count (a bulk count
 * from the move mask), without a call per child; a child with no move counts 1 either way (a pass, or the end).
 */
function perftLastTwo(ph: number, pl: number, oh: number, ol: number, mh: number, ml: number): number {
  let total = 0;
  while (ml !== 0) {
    const bit = ml & -ml;
    ml ^= bit;
    flips(31 - clz32(bit), ph, pl, oh, ol);
    const fh = out.hi;
    const fl = out.lo;
    legalMask(oh & ~fh, ol & ~fl, ph | fh, pl | fl | bit);
    const n = popcount32(out.hi) + popcount32(out.lo);
    total += n === 0 ? 1 : n;
  }
  while (mh !== 0) {
    const bit = mh & -mh;
    mh ^= bit;
    flips(63 - clz32(bit), ph, pl, oh, ol);
    const fh = out.hi;
    const fl = out.lo;
    legalMask(oh & ~fh, ol & ~fl, ph | fh | bit, pl | fl);
    const n = popcount32(out.hi) + popcount32(out.lo);
    total += n === 0 ? 1 : n;
  }
  return total;
}

/** The start position: D4 = O, E4 = X, D5 = X, E5 = O (board.py). Black = X. */
export const START = {
  bh: 1 << 3, // D5 = square 35 → hi bit 3
  bl: 1 << 28, // E4 = square 28
  wh: 1 << 4, // E5 = square 36 → hi bit 4
  wl: 1 << 27, // D4 = square 27
} as const;

/**
 * board.py's get_legal_actions order, which students break ties by: scan the opponent's discs row by row (A1, B1
 * … H8); for each, its empty neighbours N, NE, E, SE, S, SW, W, NW, each kept the first time it is seen; keep
 * those that flip something. A legal square is therefore listed where its first opponent neighbour (lowest index)
 * lists it, so its rank is (that neighbour o, the direction from it): one lookup per legal square. That rank,
 * o * 8 + direction (0..511), names the square on its own, so the squares are sorted without comparisons: by
 * their neighbour o as a 64-bit set, then by direction as bits of o's entry (legalInOrder; an insertion sort of
 * the ranks was slower, and a 512-bit set of ranks in 16 words 1.05x slower).
 */
/** SQUARE_OF_RANK[rank]: the square a rank names. */
export const SQUARE_OF_RANK = new Int8Array(512);
for (let s = 0; s < 64; s++) {
  for (let o = 0; o < 64; o++) if (hasNeighbour(s, o)) SQUARE_OF_RANK[(o << 3) | SCAN_RANK[s - o + 9]] = s;
}
function hasNeighbour(s: number, o: number): boolean {
  return o < 32 ? ((NEAR_LO[s] >>> o) & 1) === 1 : ((NEAR_HI[s] >>> (o - 32)) & 1) === 1;
}
/** The rank of legal square s: from its lowest opponent neighbour o (a 19-entry table, not a 64x64 one: cache). */
function rankOf(s: number, oh: number, ol: number): number {
  const nl = NEAR_LO[s] & ol;
  const o = nl !== 0 ? 31 - clz32(nl & -nl) : 63 - clz32(NEAR_HI[s] & oh & -(NEAR_HI[s] & oh));
  return (o << 3) | SCAN_RANK[s - o + 9];
}

/**
 * SLOT[o]: the scan directions (a bit each) from opponent disc o to the legal squares it ranks, while the answer is
 * being sorted (whoever reads an entry empties it).
 */
const SLOT = new Uint8Array(64);

/**
 * The player's legal squares in board.py's order, each as its entry in `byRank` (its square, or its name), in a fresh
 * array of the exact length. Sorts by rank without comparisons: each square's direction bit is set in its first
 * opponent neighbour's SLOT entry and that neighbour in a 64-bit set, so reading the set from its lowest square and
 * each entry from its lowest bit gives the ranks in order. One function rather than a ranking call and a reading call
 * passing the neighbour set between them through `out`: 165 against 183 ns a call on positions recorded from random
 * playouts (medians of three processes each, load ~30).
 */
export function legalInOrder<T>(ph: number, pl: number, oh: number, ol: number, byRank: readonly T[]): T[] {
  legalMask(ph, pl, oh, ol);
  let lh = out.hi;
  let ll = out.lo;
  let nh = 0;
  let nl = 0;
  let n = 0;
  // A shift counts modulo 32, so `1 << o` is o's bit in whichever half holds it.
  while (ll !== 0) {
    const bit = ll & -ll;
    ll ^= bit;
    const rank = rankOf(31 - clz32(bit), oh, ol);
    const o = rank >> 3;
    SLOT[o] |= 1 << (rank & 7);
    if (o < 32) nl |= 1 << o;
    else nh |= 1 << o;
    n++;
  }
  while (lh !== 0) {
    const bit = lh & -lh;
    lh ^= bit;
    const rank = rankOf(63 - clz32(bit), oh, ol);
    const o = rank >> 3;
    SLOT[o] |= 1 << (rank & 7);
    if (o < 32) nl |= 1 << o;
    else nh |= 1 << o;
    n++;
  }
  const into = new Array<T>(n);
  let k = 0;
  // The low half's neighbours, then the high half's: no test of which half per neighbour.
  while (nl !== 0) {
    const bit = nl & -nl;
    nl ^= bit;
    const o = 31 - clz32(bit);
    let dirs = SLOT[o];
    SLOT[o] = 0;
    do {
      into[k++] = byRank[(o << 3) | (31 - clz32(dirs & -dirs))];
      dirs &= dirs - 1;
    } while (dirs !== 0);
  }
  while (nh !== 0) {
    const bit = nh & -nh;
    nh ^= bit;
    const o = 63 - clz32(bit);
    let dirs = SLOT[o];
    SLOT[o] = 0;
    do {
      into[k++] = byRank[(o << 3) | (31 - clz32(dirs & -dirs))];
      dirs &= dirs - 1;
    } while (dirs !== 0);
  }
  return into;
}

/** SQUARE_OF_RANK as a plain array, for legalInOrder. */
const SQUARES_BY_RANK: readonly number[] = Array.from(SQUARE_OF_RANK);

/** The player's legal squares in board.py's order (see legalInOrder). */
export function orderedMoves(ph: number, pl: number, oh: number, ol: number): number[] {
  return legalInOrder(ph, pl, oh, ol, SQUARES_BY_RANK);
}
