/**
 * UCT Monte-Carlo tree search over the Game interface with a playout budget: each iteration selects by UCB1,
 * expands one child, plays uniformly random moves to the end and backs up 1 / ½ / 0. Playouts are counted,
 * never timed, and every random choice comes from a seeded stream.
 */
import type { AnyGame, Game, Side } from '../../harness/games/game.js';
import type { AgentFactory } from '../../harness/referee/agent.js';
import { createRng, deriveSeed } from '../../harness/referee/seed.js';

export interface MctsOptions {
  /** Playouts (iterations) per move. */
  playouts: number;
  /** UCB1 exploration constant for rewards in [0, 1] (default √2). */
  exploration?: number;
  /**
   * A game's own faster playout: the generic playout's moves and random draws exactly (so a seed plays the same
   * games), returning the winner; undefined hands that state to the generic playout.
   */
  playout?: (state: unknown, rng: Rng) => Side | null | undefined;
}

export interface MctsResult<M> {
  move: M;
  /** Playouts run (equals the budget). */
  playouts: number;
  /** Visits of each root move, in the game's legal-move order. */
  rootVisits: number[];
}

type Rng = ReturnType<typeof createRng>;

/** Module constants: global lookups are slow inside jest's vm context, and these run at every tree step. */
const { log, sqrt } = Math;
const INF = Infinity;

/** A tree node. `move` is null for a pass. Rewards are from the view of `mover`, the side that played `move`. */
interface Node<S, M> {
  readonly state: S;
  readonly move: M | null;
  readonly mover: Side;
  readonly parent: Node<S, M> | null;
  readonly children: Node<S, M>[];
  /** Moves not yet expanded; [null] stands for a forced pass. */
  readonly untried: (M | null)[];
  visits: number;
  reward: number;
}

function makeNode<S, M>(game: Game<S, M>, state: S, move: M | null, parent: Node<S, M> | null): Node<S, M> {
  const terminal = game.isTerminal(state);
  const moves = terminal ? [] : game.legalMoves(state);
  return {
    state,
    move,
    mover: parent ? game.toMove(parent.state) : game.toMove(state),
    parent,
    children: [],
    untried: terminal ? [] : moves.length > 0 ? moves : [null],
    visits: 0,
    reward: 0,
  };
}

function step<S, M>(game: Game<S, M>, state: S, move: M | null): S {
  return move === null ? game.pass(state) : game.apply(state, move);
}

/** Random moves to the end; returns the winner (null for a draw). */
export function playout<S, M>(game: Game<S, M>, state: S, rng: Rng): Side | null {
  let s = state;
  while (!game.isTerminal(s)) {
    const moves = game.legalMoves(s);
    s = moves.length === 0 ? game.pass(s) : game.apply(s, moves[rng.int(moves.length)]);
  }
  return game.outcome(s).winner;
}

function selectChild<S, M>(node: Node<S, M>, exploration: number): Node<S, M> {
  const logVisits = log(node.visits);
  let best = node.children[0];
  let bestScore = -INF;
  for (const child of node.children) {
    const score = child.reward / child.visits + exploration * sqrt(logVisits / child.visits);
    if (score > bestScore) {
      bestScore = score;
      best = child;
    }
  }
  return best;
}

/** Run `options.playouts` UCT iterations from `state` (which must have a legal move). */
export function mctsSearch<S, M>(game: Game<S, M>, state: S, options: MctsOptions, rng: Rng): MctsResult<M> {
  if (!(Number.isInteger(options.playouts) && options.playouts >= 1)) {
    throw new Error(`mctsSearch: playouts must be a whole number ≥ 1, got ${options.playouts}`);
  }
  const exploration = options.exploration ?? Math.SQRT2;
  const root = makeNode(game, state, null, null);
  if (root.untried.length === 0 || root.untried[0] === null) {
    throw new Error('mctsSearch: the side to move has no legal move (it must pass)');
  }
  const rootMoves = root.untried.slice() as M[];

  for (let i = 0; i < options.playouts; i++) {
    let node = root;
    while (node.untried.length === 0 && node.children.length > 0) node = selectChild(node, exploration);
    if (node.untried.length > 0) {
      const [move] = node.untried.splice(rng.int(node.untried.length), 1);
      const child = makeNode(game, step(game, node.state, move), move, node);
      node.children.push(child);
      node = child;
    }
    const fast = options.playout?.(node.state, rng);
    const winner = fast === undefined ? playout(game, node.state, rng) : fast;
    for (let n: Node<S, M> | null = node; n; n = n.parent) {
      n.visits++;
      n.reward += winner === null ? 0.5 : winner === n.mover ? 1 : 0;
    }
  }

  const rootVisits = rootMoves.map((m) => root.children.find((c) => c.move === m)?.visits ?? 0);
  let bestIndex = 0;
  for (let i = 1; i < rootMoves.length; i++) if (rootVisits[i] > rootVisits[bestIndex]) bestIndex = i;
  return { move: rootMoves[bestIndex], playouts: options.playouts, rootVisits };
}

/** An agent playing the most-visited root move; move n of a game draws from the stream (seed, n). */
export function mctsAgent(options: MctsOptions): AgentFactory {
  return (game: AnyGame, _side, seed) => ({
    choose(state, info) {
      const moves = game.legalMoves(state);
      if (moves.length === 1) return moves[0];
      return mctsSearch(game, state, options, createRng(deriveSeed(seed, info.moveNumber))).move;
    },
  });
}
