import { reversi, type ReversiState } from '../../harness/games/reversi/index.js';
import { mobilityEvaluation, strongEvaluation } from '../../reference-ai/reversi/evaluate.js';
import { greedyMove } from '../../reference-ai/reversi/greedy.js';
import {
  ALPHABETA_NODES,
  ALPHABETA_SOLVE_EMPTIES,
  ALPHABETA_SOLVE_NODES,
} from '../../reference-ai/reversi/index.js';
import { sidesOf } from '../../reference-ai/reversi/position.js';
import { ReversiEngine, type EngineOptions } from '../../reference-ai/reversi/search.js';
import { weightedMove } from '../../reference-ai/reversi/weighted.js';
import { referenceAgent, referenceNames } from '../../reference-ai/index.js';
import { bruteForce, moveInfo, playOut, reversiPosition } from './helpers.js';
import { tictactoe } from './tictactoe.js';

const ALPHABETA: EngineOptions = {
  evaluate: strongEvaluation,
  nodeBudget: ALPHABETA_NODES,
  maxDepth: 60,
  solveEmpties: ALPHABETA_SOLVE_EMPTIES,
  solveBudget: ALPHABETA_SOLVE_NODES,
};

const search = (options: EngineOptions, state: ReversiState) => {
  const { ph, pl, oh, ol } = sidesOf(state);
  return new ReversiEngine(options).search(ph, pl, oh, ol);
};
const choose = (name: string, state: ReversiState) =>
  reversi.formatMove(referenceAgent('reversi', name)(reversi, state.side, 1).choose(state, moveInfo(1)) as number);
const board = (rows: string[], toMove: 'X' | 'O') => reversi.decode(`${rows.join('')} ${toMove}`);

/** Black to move: A1 takes a corner for one disc; H3 flips the most (four). */
const CORNER = board(
  ['.OX.....', '........', '..XOOOO.', '...OX...', '...XO...', '........', '........', '........'],
  'X',
);

/** Black to move, 10 empties: H5 wins by 2, G1 draws, D1, A3 and H3 lose (found and checked by brute force). */
const ONE_WINNING_MOVE = reversi.decode('XOX.OX.OXOOOOXOX.OOOOOX.OOXXOOXX.XXOOOX.XXXXXXOO..XOXOXO..XXXXXX X');

describe('greedy and weighted', () => {
  it('greedy flips the most discs; weighted prefers the corner', () => {
    expect(choose('greedy', CORNER)).toBe('H3');
    expect(choose('weighted', CORNER)).toBe('A1');
  });

  it("break ties by board.py's move order", () => {
    // All four opening moves flip one disc and are mirror images on the table.
    const start = reversi.initial();
    expect(greedyMove(start)).toBe(reversi.legalMoves(start)[0]);
    expect(weightedMove(start)).toBe(reversi.legalMoves(start)[0]);
  });
});

describe('Reversi alphabeta engine', () => {
  it('takes the corner in the middle game', () => {
    expect(choose('alphabeta', CORNER)).toBe('A1');
    expect(choose('mobility', CORNER)).toBe('A1');
  });

  it('finds the only winning move and its exact margin', () => {
    const result = search(ALPHABETA, ONE_WINNING_MOVE);
    expect(reversi.formatMove(result.move)).toBe('H5');
    expect(result).toMatchObject({ exact: true, value: 2 });
  });

  it('solves 8-empty endgames to the brute-force minimax value and plays an optimal move', () => {
    for (let seed = 1; seed <= 6; seed++) {
      const state = reversiPosition(seed, 8);
      const { ph, pl, oh, ol } = sidesOf(state);
      const exact = bruteForce(reversi, state);
      expect(new ReversiEngine(ALPHABETA).solveValue(ph, pl, oh, ol, 10_000_000)).toBe(exact);
      const result = search(ALPHABETA, state);
      expect(result.exact).toBe(true);
      expect(result.value).toBe(exact);
      expect(-bruteForce(reversi, reversi.apply(state, result.move))).toBe(exact);
    }
  });

  it('gives up a solve that exceeds its budget', () => {
    const { ph, pl, oh, ol } = sidesOf(reversiPosition(3, 14));
    expect(new ReversiEngine(ALPHABETA).solveValue(ph, pl, oh, ol, 100)).toBeNull();
  });

  it('stays within its node budget and reaches depth 6 or more in the middle game', () => {
    for (let seed = 1; seed <= 5; seed++) {
      const result = search(ALPHABETA, reversiPosition(seed, 34));
      expect(result.exact).toBe(false);
      expect(result.nodes).toBeLessThanOrEqual(ALPHABETA_NODES + 1);
      expect(result.depth).toBeGreaterThanOrEqual(6);
    }
    const small = search({ ...ALPHABETA, nodeBudget: 3000 }, reversiPosition(1, 34));
    expect(small.nodes).toBeLessThanOrEqual(3001);
  });

  it('searches a fixed depth when the budget allows', () => {
    const options = { evaluate: mobilityEvaluation, nodeBudget: Number.MAX_SAFE_INTEGER, maxDepth: 4, solveEmpties: 0, solveBudget: 0 };
    expect(search(options, reversiPosition(2, 40)).depth).toBe(4);
  });

  it('rejects a depth outside 1..60', () => {
    expect(() => new ReversiEngine({ ...ALPHABETA, maxDepth: 0 })).toThrow(/maxDepth must be a whole number in 1..60/);
  });
});

describe('every Reversi reference AI', () => {
  const names = referenceNames('reversi');

  const random = referenceAgent('reversi', 'random');

  it.each(names)('%s plays a whole game of legal moves', (name) => {
    const { moves, outcome } = playOut(reversi, random, referenceAgent('reversi', name), 12);
    expect(moves.length).toBeGreaterThan(50);
    expect(outcome).not.toBeNull();
  });

  it.each(names)('%s repeats its moves for a seed', (name) => {
    const agent = referenceAgent('reversi', name);
    expect(playOut(reversi, agent, random, 11, 12).moves).toEqual(playOut(reversi, agent, random, 11, 12).moves);
  });

  it.each(names.filter((n) => !['random', 'mcts'].includes(n)))('%s refuses to play another game', (name) => {
    expect(() => referenceAgent('reversi', name)(tictactoe, 0, 1)).toThrow(new RegExp(`'${name}' plays Reversi only, not 'tictactoe'`));
  });
});
