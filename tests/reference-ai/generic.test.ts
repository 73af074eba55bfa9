import type { Game } from '../../harness/games/game.js';
import { reversi, type ReversiState } from '../../harness/games/reversi/index.js';
import { createRng } from '../../harness/referee/seed.js';
import { alphaBetaAgent, alphaBetaSearch, WIN } from '../../reference-ai/generic/alphabeta.js';
import { mctsAgent, mctsSearch } from '../../reference-ai/generic/mcts.js';
import { randomAgent } from '../../reference-ai/generic/random.js';
import { bruteForce, moveInfo, playOut, reversiPosition } from './helpers.js';
import { ticTacToeState, tictactoe, type TicTacToeState } from './tictactoe.js';

/** The score margin inside a terminal-scaled value (±WIN + margin). */
const margin = (value: number): number => (value > WIN / 2 ? value - WIN : value < -WIN / 2 ? value + WIN : value);

describe('generic random', () => {
  it('repeats its moves for a seed and varies them across seeds', () => {
    const game = (seed: number) => playOut(reversi, randomAgent, randomAgent, seed).moves.join(' ');
    expect(game(1)).toBe(game(1));
    expect(new Set([game(1), game(2), game(3)]).size).toBe(3);
  });

  it('draws every legal move over many seeds', () => {
    const state = reversi.initial();
    const seen = new Set<number>();
    for (let seed = 0; seed < 50; seed++) seen.add(randomAgent(reversi, 0, seed).choose(state, moveInfo(1)) as number);
    expect([...seen].sort()).toEqual([...reversi.legalMoves(state)].sort());
  });
});

describe('generic alphabeta', () => {
  it('takes an immediate win and blocks an immediate loss', () => {
    const win = alphaBetaSearch(tictactoe, ticTacToeState('XX.OO....'), { nodeBudget: 100_000 });
    expect(win.move).toBe(2);
    expect(win.value).toBe(WIN + 1);
    const block = alphaBetaSearch(tictactoe, ticTacToeState('XX.O.....'), { nodeBudget: 100_000 });
    expect(block.move).toBe(2);
  });

  it('plays the fork that wins by force', () => {
    // X (to move) at 0 and 8, O at 2 and 4 threatening 6: X blocks at 6, which forks (threats 3 and 7).
    const result = alphaBetaSearch(tictactoe, ticTacToeState('X.O.O...X'), { nodeBudget: 100_000, transposition: true });
    expect(result.exact).toBe(true);
    expect(result.value).toBe(WIN + 1);
    expect(result.move).toBe(6);
  });

  it('solves the empty board as a draw, with and without the transposition table', () => {
    const plain = alphaBetaSearch(tictactoe, tictactoe.initial(), { nodeBudget: 1_000_000 });
    const cached = alphaBetaSearch(tictactoe, tictactoe.initial(), { nodeBudget: 1_000_000, transposition: true });
    expect([plain.exact, plain.value]).toEqual([true, 0]);
    expect([cached.exact, cached.value]).toEqual([true, 0]);
    expect(cached.nodes).toBeLessThan(plain.nodes);
  });

  it('stops at its node budget and still answers a legal move', () => {
    const result = alphaBetaSearch(tictactoe, tictactoe.initial(), { nodeBudget: 60 });
    expect(result.nodes).toBeLessThanOrEqual(61); // the node that found the budget spent is counted
    expect(result.exact).toBe(false);
    expect(tictactoe.legalMoves(tictactoe.initial())).toContain(result.move);
  });

  it("matches brute-force minimax on Reversi endgames with 8 empties", () => {
    const empties = (s: ReversiState) => reversi.encode(s).split('.').length - 1;
    for (let seed = 1; seed <= 4; seed++) {
      const state = reversiPosition(seed, 8);
      const solved = alphaBetaSearch(reversi, state, {
        nodeBudget: 1000,
        transposition: true,
        solve: { movesLeft: empties, threshold: 8, nodeBudget: 1_000_000 },
      });
      expect(solved.exact).toBe(true);
      expect(margin(solved.value)).toBe(bruteForce(reversi, state));
      expect(-bruteForce(reversi, reversi.apply(state, solved.move))).toBe(margin(solved.value));
    }
  });

  it('plays only legal moves through the agent factory', () => {
    const agent = alphaBetaAgent<ReversiState, number>({ nodeBudget: 2000 });
    expect(() => playOut(reversi, agent, randomAgent, 5)).not.toThrow();
    expect(() => playOut(tictactoe, randomAgent, alphaBetaAgent({ nodeBudget: 500 }), 5)).not.toThrow();
  });
});

/** Wraps a game so that every finished playout (one outcome() call) is counted. */
function counting<S, M>(game: Game<S, M>): { game: Game<S, M>; outcomes: () => number } {
  let outcomes = 0;
  const wrapped: Game<S, M> = {
    ...game,
    outcome(state) {
      outcomes++;
      return game.outcome(state);
    },
  };
  return { game: wrapped, outcomes: () => outcomes };
}

describe('generic mcts', () => {
  it('runs exactly its playout budget', () => {
    for (const playouts of [1, 37, 400]) {
      const { game, outcomes } = counting(tictactoe);
      const result = mctsSearch(game, tictactoe.initial(), { playouts }, createRng(3));
      expect(outcomes()).toBe(playouts);
      expect(result.playouts).toBe(playouts);
      expect(result.rootVisits.reduce((a, b) => a + b, 0)).toBe(playouts);
    }
  });

  it('counts playouts, not positions, on Reversi too', () => {
    const { game, outcomes } = counting(reversi);
    mctsSearch(game, reversi.initial(), { playouts: 50 }, createRng(1));
    expect(outcomes()).toBe(50);
  });

  it('takes an immediate win and blocks an immediate loss', () => {
    const rng = createRng(9);
    expect(mctsSearch(tictactoe, ticTacToeState('XX.OO....'), { playouts: 500 }, rng).move).toBe(2);
    expect(mctsSearch(tictactoe, ticTacToeState('XX.O.....'), { playouts: 2000 }, rng).move).toBe(2);
  });

  it('repeats its choice for a seed and move number', () => {
    const agent = mctsAgent({ playouts: 200 });
    const state: TicTacToeState = tictactoe.initial();
    const pick = (seed: number, moveNumber: number) => agent(tictactoe, 0, seed).choose(state, moveInfo(moveNumber));
    expect(pick(4, 1)).toBe(pick(4, 1));
    const { moves } = playOut(reversi, mctsAgent({ playouts: 30 }), randomAgent, 2);
    expect(playOut(reversi, mctsAgent({ playouts: 30 }), randomAgent, 2).moves).toEqual(moves);
  });

  it('rejects a budget that is not a whole number of playouts', () => {
    expect(() => mctsSearch(tictactoe, tictactoe.initial(), { playouts: 0 }, createRng(1))).toThrow(/playouts must be a whole number ≥ 1/);
  });
});
