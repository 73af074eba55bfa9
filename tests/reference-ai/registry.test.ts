import { registerGame } from '../../harness/games/registry.js';
import { referenceAgent, referenceDescription, referenceLevels, referenceNames } from '../../reference-ai/index.js';
import { playOut } from './helpers.js';
import { tictactoe } from './tictactoe.js';

// A game without heuristics of its own, to exercise the generic fallback (this file's module registry only).
registerGame(tictactoe);

describe('reference AI registry', () => {
  it('lists the Reversi ladder weakest first, each with a description', () => {
    expect(referenceNames('reversi')).toEqual(['random', 'greedy', 'weighted', 'mcts', 'mobility', 'alphabeta']);
    for (const level of referenceLevels('reversi')) {
      expect(referenceDescription('reversi', level.name)).toMatch(/\S{3}/);
      expect(referenceAgent('reversi', level.name)).toBe(level.factory);
    }
  });

  it('names the valid choices in one line for an unknown AI', () => {
    expect(() => referenceAgent('reversi', 'minimax')).toThrow(
      "unknown reference AI 'minimax' for reversi: use one of random, greedy, weighted, mcts, mobility, alphabeta",
    );
    expect(() => referenceDescription('reversi', '')).toThrow(/unknown reference AI '' for reversi/);
  });

  it('passes an unknown game on to the game registry error', () => {
    expect(() => referenceNames('chess')).toThrow(/unknown game 'chess'/);
  });

  it('gives any other game the generic ladder, which plays it legally', () => {
    expect(referenceNames('tictactoe')).toEqual(['random', 'alphabeta', 'mcts']);
    for (const name of referenceNames('tictactoe')) {
      const agent = referenceAgent('tictactoe', name);
      const random = referenceAgent('tictactoe', 'random');
      expect(playOut(tictactoe, agent, random, 1).outcome).not.toBeNull();
      expect(playOut(tictactoe, random, agent, 2).outcome).not.toBeNull();
    }
  });

  it('never loses tic-tac-toe with the generic alphabeta (it solves the game)', () => {
    const alphabeta = referenceAgent('tictactoe', 'alphabeta');
    const random = referenceAgent('tictactoe', 'random');
    for (let seed = 0; seed < 10; seed++) {
      expect(playOut(tictactoe, alphabeta, random, seed).outcome?.winner).not.toBe(1);
      expect(playOut(tictactoe, random, alphabeta, seed).outcome?.winner).not.toBe(0);
    }
  });
});
