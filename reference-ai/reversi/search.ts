/**
 * The Reversi search behind the `mobility` and `alphabeta` levels, on the bitboard core rather than the
 * immutable Game interface (no allocation per node): negamax with alpha-beta, iterative deepening, a
 * transposition table, move ordering, and an exact endgame solver. Budgets are node counts, never time.
 */
import {
  flips,
  legalMask,
  lowestBit as bitIndex,
  orderedMoves,
  out,
  popcount as bitCount,
} from '../../harness/games/reversi/core.js';

const { imul } = Math;
import { finalValue, type Evaluator } from './evaluate.js';
import { SQUARE_WEIGHTS } from './weights.js';

export interface EngineOptions {
  evaluate: Evaluator;
  /** Nodes per move for the depth-limited search. */
  nodeBudget: number;
  /** Deepest iteration, in plies. */
  maxDepth: number;
  /** Solve exactly when at most this many squares are empty (0: never). */
  solveEmpties: number;
  /** Nodes allowed for the exact solve; past it, the depth-limited search decides. */
  solveBudget: number;
}

export interface EngineResult {
  move: number;
  /** For the side to move: evaluation units, or the exact final disc difference when `exact`. */
  value: number;
  /** Last completed depth (Infinity when solved). */
  depth: number;
  nodes: number;
  exact: boolean;
}

/** Plies a search may stack, passes included (a line has at most 60 moves and fewer passes than moves). */
const MAX_PLY = 128;
const MAX_MOVES = 64;
/** Depth from which interior nodes order moves by the opponent's reply count (costly, but cuts far more). */
const MOBILITY_ORDER_DEPTH = 3;
/** Empties above which the solver orders by the opponent's reply count ("fastest first"). */
const SOLVER_ORDER_EMPTIES = 6;

class BudgetExhausted extends Error {}

/** Module constants for globals used per node (global lookups are slow inside jest's vm context). */
const INF = Infinity;
const { max } = Math;

const EXACT = 0;
const LOWER = 1;
const UPPER = 2;

/**
 * A fixed-size, always-replace transposition table over full keys. Shared by every engine: searches are
 * synchronous, and bumping `generation` per search empties it logically, so a move depends only on its position.
 */
class Table {
  readonly mask: number;
  readonly keys: Int32Array;
  readonly generation: Int32Array;
  readonly value: Int32Array;
  readonly depth: Int8Array;
  readonly bound: Uint8Array;
  readonly best: Int8Array;
  current = 0;

  constructor(bits: number) {
    const size = 1 << bits;
    this.mask = size - 1;
    this.keys = new Int32Array(size * 4);
    this.generation = new Int32Array(size);
    this.value = new Int32Array(size);
    this.depth = new Int8Array(size);
    this.bound = new Uint8Array(size);
    this.best = new Int8Array(size);
  }

  slot(ph: number, pl: number, oh: number, ol: number): number {
    let h = imul(ph ^ 0x2545f491, 0x9e3779b1) ^ imul(pl ^ 0x6c8e9cf5, 0x85ebca6b);
    h ^= imul(oh ^ 0x1b873593, 0xc2b2ae35) ^ imul(ol ^ 0x5bd1e995, 0x27d4eb2f);
    h ^= h >>> 15;
    h = imul(h, 0x2c1b3c6d);
    h ^= h >>> 12;
    return h & this.mask;
  }

  matches(slot: number, ph: number, pl: number, oh: number, ol: number): boolean {
    const k = slot * 4;
    const { keys } = this;
    return this.generation[slot] === this.current && keys[k] === ph && keys[k + 1] === pl && keys[k + 2] === oh && keys[k + 3] === ol;
  }

  store(slot: number, ph: number, pl: number, oh: number, ol: number, depth: number, value: number, bound: number, best: number): void {
    const k = slot * 4;
    this.keys[k] = ph;
    this.keys[k + 1] = pl;
    this.keys[k + 2] = oh;
    this.keys[k + 3] = ol;
    this.generation[slot] = this.current;
    this.depth[slot] = depth;
    this.value[slot] = value;
    this.bound[slot] = bound;
    this.best[slot] = best;
  }
}

const sharedTable = new Table(18);

/** Opponent's reply count after the mover plays `sq` (which flips `out`-style (fh, fl)). */
function repliesAfter(sq: number, fh: number, fl: number, ph: number, pl: number, oh: number, ol: number): number {
  const nph = ph | fh | (sq >= 32 ? 1 << (sq - 32) : 0);
  const npl = pl | fl | (sq < 32 ? 1 << sq : 0);
  legalMask(oh & ~fh, ol & ~fl, nph, npl);
  return bitCount(out.hi, out.lo);
}

export class ReversiEngine {
  nodes = 0;
  private limit = 0;
  private readonly moves: Int32Array[] = [];
  private readonly scores: Int32Array[] = [];

  constructor(private readonly options: EngineOptions) {
    if (!(Number.isInteger(options.maxDepth) && options.maxDepth >= 1 && options.maxDepth <= 60)) {
      throw new Error(`ReversiEngine: maxDepth must be a whole number in 1..60, got ${options.maxDepth}`);
    }
    for (let i = 0; i <= MAX_PLY; i++) {
      this.moves.push(new Int32Array(MAX_MOVES));
      this.scores.push(new Int32Array(MAX_MOVES));
    }
  }

  /** The move for the player (ph, pl) to move, who must have a legal move. */
  search(ph: number, pl: number, oh: number, ol: number): EngineResult {
    this.nodes = 0;
    sharedTable.current++;
    const rootMoves = orderedMoves(ph, pl, oh, ol);
    if (rootMoves.length === 0) throw new Error('ReversiEngine.search: the side to move has no legal move (it must pass)');
    const empties = 64 - bitCount(ph | oh, pl | ol);
    if (empties <= this.options.solveEmpties) {
      const solved = this.solveRoot(ph, pl, oh, ol, rootMoves);
      if (solved) return solved;
    }
    return this.deepen(ph, pl, oh, ol, rootMoves);
  }

  /** The exact final disc difference for the player to move, or null past `budget` nodes. */
  solveValue(ph: number, pl: number, oh: number, ol: number, budget: number): number | null {
    this.nodes = 0;
    this.limit = budget;
    try {
      return 0 + this.solve(ph, pl, oh, ol, -64, 64, 0, false); // 0 + x: no −0
    } catch (error) {
      if (error instanceof BudgetExhausted) return null;
      throw error;
    }
  }

  private solveRoot(ph: number, pl: number, oh: number, ol: number, rootMoves: number[]): EngineResult | null {
    this.limit = this.nodes + this.options.solveBudget;
    const ordered = rootMoves
      .map((sq, index) => {
        flips(sq, ph, pl, oh, ol);
        return { sq, index, replies: repliesAfter(sq, out.hi, out.lo, ph, pl, oh, ol) };
      })
      .sort((a, b) => a.replies - b.replies || a.index - b.index);
    let best = ordered[0].sq;
    let alpha = -65;
    try {
      for (const { sq } of ordered) {
        flips(sq, ph, pl, oh, ol);
        const fh = out.hi;
        const fl = out.lo;
        const value = 0 - this.solve( // 0 − x: a draw is 0, never −0
          oh & ~fh, ol & ~fl, ph | fh | (sq >= 32 ? 1 << (sq - 32) : 0), pl | fl | (sq < 32 ? 1 << sq : 0),
          -64, -alpha, 1, false,
        );
        if (value > alpha) {
          alpha = value;
          best = sq;
        }
      }
    } catch (error) {
      if (error instanceof BudgetExhausted) return null;
      throw error;
    }
    return { move: best, value: alpha, depth: INF, nodes: this.nodes, exact: true };
  }

  private deepen(ph: number, pl: number, oh: number, ol: number, rootMoves: number[]): EngineResult {
    this.limit = this.nodes + this.options.nodeBudget;
    let order = rootMoves;
    let result: EngineResult = { move: order[0], value: 0, depth: 0, nodes: 0, exact: false };
    for (let depth = 1; depth <= this.options.maxDepth; depth++) {
      let bestMove = order[0];
      let bestValue = -INF;
      let alpha = -INF;
      let complete = true;
      try {
        for (const sq of order) {
          flips(sq, ph, pl, oh, ol);
          const fh = out.hi;
          const fl = out.lo;
          const value = 0 - this.negamax( // 0 − x: a draw is 0, never −0
            oh & ~fh, ol & ~fl, ph | fh | (sq >= 32 ? 1 << (sq - 32) : 0), pl | fl | (sq < 32 ? 1 << sq : 0),
            depth - 1, -INF, -alpha, 1,
          );
          if (value > bestValue) {
            bestValue = value;
            bestMove = sq;
            alpha = max(alpha, value);
          }
        }
      } catch (error) {
        if (!(error instanceof BudgetExhausted)) throw error;
        complete = false;
      }
      // A partial iteration still counts once the previous best (searched first) is done: any move that beat
      // it was searched in full.
      if (bestValue > -INF) result = { move: bestMove, value: bestValue, depth: complete ? depth : depth - 1, nodes: this.nodes, exact: false };
      if (!complete) break;
      order = [bestMove, ...order.filter((sq) => sq !== bestMove)];
    }
    result.nodes = this.nodes;
    return result;
  }

  /** Fills this.moves[ply] with the set squares of (mh, ml); returns the count. */
  private generate(mh: number, ml: number, ply: number): number {
    const list = this.moves[ply];
    let n = 0;
    while (ml !== 0) {
      const bit = ml & -ml;
      ml ^= bit;
      list[n++] = bitIndex(bit);
    }
    while (mh !== 0) {
      const bit = mh & -mh;
      mh ^= bit;
      list[n++] = bitIndex(bit) + 32;
    }
    return n;
  }

  /** Swaps the best-scored of moves[i..n) into place i (lazy selection sort: cutoffs often come early). */
  private pick(ply: number, i: number, n: number): number {
    const list = this.moves[ply];
    const scores = this.scores[ply];
    let best = i;
    for (let j = i + 1; j < n; j++) if (scores[j] > scores[best]) best = j;
    if (best !== i) {
      const m = list[i];
      list[i] = list[best];
      list[best] = m;
      const s = scores[i];
      scores[i] = scores[best];
      scores[best] = s;
    }
    return list[i];
  }

  private negamax(ph: number, pl: number, oh: number, ol: number, depth: number, alpha: number, beta: number, ply: number): number {
    if (++this.nodes > this.limit) throw new BudgetExhausted();
    if (depth <= 0) return this.options.evaluate(ph, pl, oh, ol);
    legalMask(ph, pl, oh, ol);
    const mh = out.hi;
    const ml = out.lo;
    if ((mh | ml) === 0) {
      legalMask(oh, ol, ph, pl);
      if ((out.hi | out.lo) === 0) return finalValue(ph, pl, oh, ol);
      return -this.negamax(oh, ol, ph, pl, depth, -beta, -alpha, ply + 1);
    }

    const table = sharedTable;
    const slot = table.slot(ph, pl, oh, ol);
    let hint = -1;
    if (table.matches(slot, ph, pl, oh, ol)) {
      if (table.depth[slot] >= depth) {
        const v = table.value[slot];
        const b = table.bound[slot];
        if (b === EXACT || (b === LOWER && v >= beta) || (b === UPPER && v <= alpha)) return v;
      }
      hint = table.best[slot];
    }

    const n = this.generate(mh, ml, ply);
    const list = this.moves[ply];
    const scores = this.scores[ply];
    for (let i = 0; i < n; i++) {
      const sq = list[i];
      if (sq === hint) scores[i] = 1 << 30;
      else if (depth >= MOBILITY_ORDER_DEPTH) {
        flips(sq, ph, pl, oh, ol);
        scores[i] = SQUARE_WEIGHTS[sq] - 16 * repliesAfter(sq, out.hi, out.lo, ph, pl, oh, ol);
      } else scores[i] = SQUARE_WEIGHTS[sq];
    }

    const alphaIn = alpha;
    let best = -INF;
    let bestMove = list[0];
    for (let i = 0; i < n; i++) {
      const sq = this.pick(ply, i, n);
      flips(sq, ph, pl, oh, ol);
      const fh = out.hi;
      const fl = out.lo;
      const value = -this.negamax(
        oh & ~fh, ol & ~fl, ph | fh | (sq >= 32 ? 1 << (sq - 32) : 0), pl | fl | (sq < 32 ? 1 << sq : 0),
        depth - 1, -beta, -alpha, ply + 1,
      );
      if (value > best) {
        best = value;
        bestMove = sq;
        if (value > alpha) alpha = value;
        if (alpha >= beta) break;
      }
    }
    table.store(slot, ph, pl, oh, ol, depth, best, best <= alphaIn ? UPPER : best >= beta ? LOWER : EXACT, bestMove);
    return best;
  }

  /** Exact final disc difference (empty squares count for nobody, as board.py counts), fail-soft. */
  private solve(ph: number, pl: number, oh: number, ol: number, alpha: number, beta: number, ply: number, passed: boolean): number {
    if (++this.nodes > this.limit || ply >= MAX_PLY) throw new BudgetExhausted();
    legalMask(ph, pl, oh, ol);
    const mh = out.hi;
    const ml = out.lo;
    if ((mh | ml) === 0) {
      if (passed) return bitCount(ph, pl) - bitCount(oh, ol);
      return -this.solve(oh, ol, ph, pl, -beta, -alpha, ply + 1, true);
    }
    const n = this.generate(mh, ml, ply);
    const list = this.moves[ply];
    const scores = this.scores[ply];
    const fastestFirst = 64 - bitCount(ph | oh, pl | ol) > SOLVER_ORDER_EMPTIES;
    for (let i = 0; i < n; i++) {
      const sq = list[i];
      if (fastestFirst) {
        flips(sq, ph, pl, oh, ol);
        scores[i] = SQUARE_WEIGHTS[sq] - 64 * repliesAfter(sq, out.hi, out.lo, ph, pl, oh, ol);
      } else scores[i] = SQUARE_WEIGHTS[sq];
    }
    let best = -65;
    for (let i = 0; i < n; i++) {
      const sq = this.pick(ply, i, n);
      flips(sq, ph, pl, oh, ol);
      const fh = out.hi;
      const fl = out.lo;
      const value = -this.solve(
        oh & ~fh, ol & ~fl, ph | fh | (sq >= 32 ? 1 << (sq - 32) : 0), pl | fl | (sq < 32 ? 1 << sq : 0),
        -beta, -max(alpha, best), ply + 1, false,
      );
      if (value > best) {
        best = value;
        if (best >= beta) break;
      }
    }
    return best;
  }
}
