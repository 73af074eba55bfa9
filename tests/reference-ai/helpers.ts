/** Test helpers: positions from seeded random play, and a brute-force minimax to check searches against. */
import type { AnyGame, Game } from '../../harness/games/game.js';
import { reversi, type ReversiState } from '../../harness/games/reversi/index.js';
import type { Agent, AgentFactory } from '../../harness/referee/agent.js';
import type { MoveInfo } from '../../harness/referee/player.js';
import { createRng } from '../../harness/referee/seed.js';

/** The Reversi position after random play down to `empties` empty squares, with the side to move able to move. */
export function reversiPosition(seed: number, empties: number): ReversiState {
  for (let attempt = 0; ; attempt++) {
    const rng = createRng(seed * 1000 + attempt);
    let s = reversi.initial();
    while (!reversi.isTerminal(s) && 64 - discs(s) > empties) {
      const moves = reversi.legalMoves(s);
      s = moves.length === 0 ? reversi.pass(s) : reversi.apply(s, moves[rng.int(moves.length)]);
    }
    if (64 - discs(s) === empties && reversi.legalMoves(s).length > 1) return s;
  }
}

function discs(s: ReversiState): number {
  const count = (x: number): number => {
    let n = 0;
    for (let v = x >>> 0; v; v &= v - 1) n++;
    return n;
  };
  return count(s.bh) + count(s.bl) + count(s.wh) + count(s.wl);
}

/** Exact final score difference (side to move minus opponent) by full minimax, no pruning. */
export function bruteForce<S, M>(game: Game<S, M>, state: S): number {
  if (game.isTerminal(state)) {
    const { score } = game.outcome(state);
    const me = game.toMove(state);
    return score[me] - score[me ^ 1];
  }
  const moves = game.legalMoves(state);
  if (moves.length === 0) return -bruteForce(game, game.pass(state));
  let best = -Infinity;
  for (const move of moves) best = Math.max(best, -bruteForce(game, game.apply(state, move)));
  return best;
}

export function moveInfo(moveNumber: number, color = 'X'): MoveInfo {
  return { color, timeLimitMs: 60_000, moveNumber, timeUsedMs: 0, attempt: 1, attemptsAllowed: 3, lastMove: null };
}

/**
 * A game between two agent factories through the Game interface (stopped after `maxPlies` if given),
 * checking every move is legal. Returns the moves played (passes are null) and the outcome of a finished game.
 */
export function playOut(game: AnyGame, black: AgentFactory, white: AgentFactory, seed: number, maxPlies = Infinity) {
  const agents: Agent[] = [black(game, 0, seed), white(game, 1, seed)];
  const moveNumbers = [0, 0];
  const moves: (string | null)[] = [];
  let state = game.initial(seed);
  while (!game.isTerminal(state) && moves.length < maxPlies) {
    const legal = game.legalMoves(state);
    if (legal.length === 0) {
      moves.push(null);
      state = game.pass(state);
      continue;
    }
    const side = game.toMove(state);
    const move = agents[side].choose(state, moveInfo(++moveNumbers[side], game.symbols[side]));
    if (!legal.includes(move)) throw new Error(`illegal move ${String(move)} in ${game.encode(state)}`);
    moves.push(game.formatMove(move));
    state = game.apply(state, move);
  }
  return { moves, outcome: game.isTerminal(state) ? game.outcome(state) : null };
}
