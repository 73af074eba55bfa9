/**
 * Negamax with alpha-beta over the Game interface: iterative deepening, the previous iteration's best move
 * searched first, an optional transposition table, a node budget per move and an exact solve near the end.
 * Nodes are counted, never time, so a search is the same on every machine.
 */
import type { AnyGame, Game, Outcome, Side } from '../../harness/games/game.js';
import type { AgentFactory } from '../../harness/referee/agent.js';

/** Terminal values sit above every evaluation: a win is WIN plus the margin, a loss −WIN minus it. */
export const WIN = 1_000_000;

export interface AlphaBetaOptions<S, M> {
  /** States visited per move (every call of the search counts one). */
  nodeBudget: number;
  /** Static value of a non-terminal state for the side to move; keep |value| well below WIN. Default 0. */
  evaluate?: (state: S) => number;
  /** Heuristic order, best first (default: the game's own order). Returns a new array. */
  orderMoves?: (state: S, moves: M[]) => M[];
  /** Transposition table: true keys states by game.encode; a function supplies a faster exact key. */
  transposition?: boolean | ((state: S) => string | number);
  /** Deepest iteration in plies (default 64). */
  maxDepth?: number;
  /**
   * Exact solve: once `movesLeft(state) <= threshold`, search to the end of the game under `nodeBudget` (its
   * own, usually larger budget); if that is not enough, fall back to the depth-limited search.
   */
  solve?: { movesLeft: (state: S) => number; threshold: number; nodeBudget: number };
}

export interface SearchResult<M> {
  move: M;
  /** Negamax value for the side to move at the root. */
  value: number;
  /** Depth of the last completed iteration (Infinity for an exact solve). */
  depth: number;
  /** Nodes visited, all iterations included. */
  nodes: number;
  /** True when every line ended in a terminal state, so `value` is the game-theoretic value. */
  exact: boolean;
}

/** The value of a terminal state for `side`: ±WIN plus the score margin, 0 for a draw. */
export function terminalValue(outcome: Outcome, side: Side): number {
  const margin = outcome.score[side] - outcome.score[side ^ 1];
  if (outcome.winner === null) return margin;
  return (outcome.winner === side ? WIN : -WIN) + margin;
}

const EXACT = 0;
const LOWER = 1;
const UPPER = 2;

interface TableEntry {
  depth: number;
  value: number;
  bound: typeof EXACT | typeof LOWER | typeof UPPER;
  /** Index of the best move in the game's legal-move order. */
  best: number;
  /** No leaf under this entry was cut off by the depth limit. */
  exact: boolean;
}

/** Module constant: global lookups are slow inside jest's vm context, and this one runs at every node. */
const INF = Infinity;

/** Thrown inside the search when the node budget runs out; caught at the root. */
class BudgetExhausted extends Error {}

interface RootOutcome<M> {
  move: M;
  value: number;
  complete: boolean;
  /** No leaf was cut off by the depth limit. */
  exact: boolean;
}

/** One search from one root position; holds the counters and the table for that move. */
class Search<S, M> {
  nodes = 0;
  private limit = 0;
  private cutByDepth = false;
  private readonly table = new Map<string | number, TableEntry>();
  private readonly key: ((state: S) => string | number) | null;

  constructor(
    private readonly game: Game<S, M>,
    private readonly options: AlphaBetaOptions<S, M>,
  ) {
    const t = options.transposition;
    this.key = t === true ? (s: S) => game.encode(s) : typeof t === 'function' ? t : null;
  }

  /** Iterative deepening from `root` with `budget` more nodes, the previous iteration's best move first. */
  deepen(root: S, moves: M[], budget: number, maxDepth: number): SearchResult<M> {
    this.limit = this.nodes + budget;
    let ordered = this.order(root, moves);
    let result: SearchResult<M> = { move: ordered[0], value: 0, depth: 0, nodes: 0, exact: false };
    for (let depth = 1; depth <= maxDepth; depth++) {
      const iteration = this.rootSearch(root, ordered, depth);
      if (iteration.complete || iteration.value > -INF) {
        const completed = iteration.complete ? depth : depth - 1;
        result = { move: iteration.move, value: iteration.value, depth: completed, nodes: this.nodes, exact: iteration.exact };
      }
      if (!iteration.complete || iteration.exact) break;
      ordered = [iteration.move, ...ordered.filter((m) => m !== iteration.move)];
    }
    result.nodes = this.nodes;
    if (result.exact) result.depth = Infinity;
    return result;
  }

  /** A search to the end of the game; null if `budget` nodes do not suffice. */
  solve(root: S, moves: M[], budget: number): SearchResult<M> | null {
    this.limit = this.nodes + budget;
    const outcome = this.rootSearch(root, this.order(root, moves), Number.MAX_SAFE_INTEGER);
    if (!outcome.complete) return null;
    return { move: outcome.move, value: outcome.value, depth: Infinity, nodes: this.nodes, exact: true };
  }

  /**
   * The root of one iteration. If the budget runs out midway, a move that already beat the first (the previous
   * best, fully searched) is still a sound choice, so a partial iteration reports it with complete = false.
   */
  private rootSearch(root: S, moves: M[], depth: number): RootOutcome<M> {
    this.cutByDepth = false;
    let bestMove = moves[0];
    let bestValue = -INF;
    let alpha = -INF;
    try {
      for (const move of moves) {
        const value = 0 - this.negamax(this.game.apply(root, move), depth - 1, -INF, -alpha); // 0 − x: no −0
        if (value > bestValue) {
          bestValue = value;
          bestMove = move;
          alpha = alpha > value ? alpha : value;
        }
      }
    } catch (error) {
      if (!(error instanceof BudgetExhausted)) throw error;
      return { move: bestMove, value: bestValue, complete: false, exact: false };
    }
    return { move: bestMove, value: bestValue, complete: true, exact: !this.cutByDepth };
  }

  private negamax(state: S, depth: number, alpha: number, beta: number): number {
    if (++this.nodes > this.limit) throw new BudgetExhausted();
    const { game } = this;
    if (game.isTerminal(state)) return terminalValue(game.outcome(state), game.toMove(state));
    if (depth <= 0) {
      this.cutByDepth = true;
      return this.options.evaluate ? this.options.evaluate(state) : 0;
    }
    const moves = game.legalMoves(state);
    if (moves.length === 0) return -this.negamax(game.pass(state), depth - 1, -beta, -alpha);

    const key = this.key ? this.key(state) : null;
    const entry = key === null ? undefined : this.table.get(key);
    let hint = -1;
    if (entry) {
      const usable =
        entry.depth >= depth &&
        (entry.bound === EXACT ||
          (entry.bound === LOWER && entry.value >= beta) ||
          (entry.bound === UPPER && entry.value <= alpha));
      if (usable) {
        if (!entry.exact) this.cutByDepth = true;
        return entry.value;
      }
      hint = entry.best;
    }

    const alphaIn = alpha;
    const cutAbove = this.cutByDepth;
    this.cutByDepth = false;
    let best = -INF;
    let bestIndex = -1;
    for (const index of this.searchOrder(state, moves, hint)) {
      const value = -this.negamax(game.apply(state, moves[index]), depth - 1, -beta, -alpha);
      if (value > best) {
        best = value;
        bestIndex = index;
        if (value > alpha) alpha = value;
        if (alpha >= beta) break;
      }
    }
    if (key !== null) {
      const bound = best <= alphaIn ? UPPER : best >= beta ? LOWER : EXACT;
      this.table.set(key, { depth, value: best, bound, best: bestIndex, exact: !this.cutByDepth });
    }
    this.cutByDepth ||= cutAbove;
    return best;
  }

  /** Indices into `moves`: the table's best move first, then the heuristic order. */
  private searchOrder(state: S, moves: M[], hint: number): number[] {
    const order = this.options.orderMoves;
    const indices = order ? order(state, moves).map((m) => moves.indexOf(m)) : moves.map((_, i) => i);
    if (hint < 0) return indices;
    return [hint, ...indices.filter((i) => i !== hint)];
  }

  private order(state: S, moves: M[]): M[] {
    return this.options.orderMoves ? this.options.orderMoves(state, moves) : [...moves];
  }
}

/** Search one position; the root must have at least one legal move. */
export function alphaBetaSearch<S, M>(game: Game<S, M>, state: S, options: AlphaBetaOptions<S, M>): SearchResult<M> {
  const moves = game.legalMoves(state);
  if (moves.length === 0) throw new Error('alphaBetaSearch: the side to move has no legal move (it must pass)');
  const search = new Search(game, options);
  const { solve } = options;
  if (solve && solve.movesLeft(state) <= solve.threshold) {
    const solved = search.solve(state, moves, solve.nodeBudget);
    if (solved) return solved;
  }
  return search.deepen(state, moves, options.nodeBudget, options.maxDepth ?? 64);
}

/** An agent that plays the alpha-beta move (a single legal move is played without searching). */
export function alphaBetaAgent<S, M>(options: AlphaBetaOptions<S, M>): AgentFactory {
  return (game: AnyGame) => ({
    choose(state: S) {
      const moves = game.legalMoves(state) as M[];
      return moves.length === 1 ? moves[0] : alphaBetaSearch(game as Game<S, M>, state, options).move;
    },
  });
}
