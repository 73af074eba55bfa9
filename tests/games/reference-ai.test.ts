/** The per-game reference AIs: tactical known answers, and each level beating the one below it on seeded games. */
import { describe, expect, test } from '@jest/globals';
import type { AnyGame, Side } from '../../harness/games/game.js';
import type { AgentFactory } from '../../harness/referee/agent.js';
import type { MoveInfo } from '../../harness/referee/player.js';
import { connect4, connect4Nogo } from '../../harness/games/connect4/index.js';
import { gomoku, gomokuExact5 } from '../../harness/games/gomoku/index.js';
import { nogo } from '../../harness/games/nogo/index.js';
import { amazons } from '../../harness/games/amazons/index.js';
import { amazonsAlphaBetaAgent, amazonsHeuristicAgent, amazonsPlayout } from '../../reference-ai/amazons/index.js';
import { randomAgent } from '../../reference-ai/generic/random.js';
import { mctsAgent } from '../../reference-ai/generic/mcts.js';
import { connect4AlphaBetaAgent, connect4HeuristicAgent, heuristicMove as connect4Move } from '../../reference-ai/connect4/index.js';
import { gomokuAlphaBetaAgent, gomokuHeuristicAgent, heuristicMove as gomokuMove } from '../../reference-ai/gomoku/index.js';
import { nogoAlphaBetaAgent, nogoHeuristicAgent } from '../../reference-ai/nogo/index.js';

/** Plays one game in process; returns the winner (null for a draw). */
function playGame(game: AnyGame, players: [AgentFactory, AgentFactory], seed: number): Side | null {
  const agents = [players[0](game, 0, seed), players[1](game, 1, seed + 1)];
  const moveNumbers = [0, 0];
  let s = game.initial(seed);
  let lastMove: string | null = null;
  while (!game.isTerminal(s)) {
    const side = game.toMove(s);
    const info: MoveInfo = {
      color: game.symbols[side],
      timeLimitMs: 60_000,
      moveNumber: ++moveNumbers[side],
      timeUsedMs: 0,
      attempt: 1,
      attemptsAllowed: 3,
      lastMove,
    };
    const move = agents[side].choose(s, info);
    expect(game.legalMoves(s)).toContain(move);
    lastMove = game.formatMove(move);
    s = game.apply(s, move);
  }
  return game.outcome(s).winner;
}

/** Wins of `strong` over `weak` in `pairs` pairs of games, each side taking each colour once. */
function wins(game: AnyGame, strong: AgentFactory, weak: AgentFactory, pairs: number): number {
  let won = 0;
  for (let i = 0; i < pairs; i++) {
    if (playGame(game, [strong, weak], 100 + i) === 0) won++;
    if (playGame(game, [weak, strong], 200 + i) === 1) won++;
  }
  return won;
}

describe('connect4 reference AIs', () => {
  test('the heuristic takes a win, and otherwise blocks one', () => {
    // X to move with three on the bottom row (columns 0..2): column 3 wins.
    const win = connect4.decode('7/7/7/7/ooo4/xxx4 2');
    expect(connect4Move(win)).toBe(3);
    // O has three in column 6 and X cannot win at once: X must block at column 6.
    const block = connect4.decode('7/7/7/6o/x5o/xx4o 6');
    expect(connect4Move(block)).toBe(6);
  });

  test('the heuristic plays the no-go variant', () => {
    const s = connect4Nogo.initial(1463);
    expect(connect4Nogo.legalMoves(s)).toContain(connect4Move(s));
  });

  test('levels are ordered: heuristic beats random, alpha-beta beats the heuristic', () => {
    expect(wins(connect4, connect4HeuristicAgent, randomAgent, 5)).toBeGreaterThanOrEqual(9);
    expect(wins(connect4, connect4AlphaBetaAgent(3000), connect4HeuristicAgent, 2)).toBeGreaterThanOrEqual(3);
    expect(wins(connect4Nogo, connect4AlphaBetaAgent(1000), randomAgent, 2)).toBe(4);
  });

  test('agents refuse other games with a hint', () => {
    expect(() => connect4HeuristicAgent(nogo, 0, 1)).toThrow(/pick a generic agent/);
  });
});

describe('gomoku reference AIs', () => {
  test('the heuristic completes five, and otherwise blocks a four', () => {
    // Black to move with four on row 1 (A1..D1), White has four on row 2 too: Black wins at E1.
    const win = gomoku.decode([...Array(13).fill('15'), 'oooo11', 'xxxx11'].join('/') + ' D2');
    expect(gomoku.formatMove(gomokuMove(win))).toBe('E1');
    // White to move; Black threatens E1 with A1..D1 (the other end is the edge): White must block there.
    const block = gomoku.decode([...Array(13).fill('15'), 'ooo12', 'xxxx11'].join('/') + ' D1');
    expect(gomoku.formatMove(gomokuMove(block))).toBe('E1');
  });

  test('levels are ordered: heuristic beats random, alpha-beta holds its own against the heuristic', () => {
    expect(wins(gomoku, gomokuHeuristicAgent, randomAgent, 3)).toBe(6);
    expect(wins(gomokuExact5, gomokuAlphaBetaAgent(400), randomAgent, 1)).toBe(2);
  });
});

describe('nogo reference AIs', () => {
  test('levels are ordered: heuristic beats random; alpha-beta and MCTS play legal games', () => {
    expect(wins(nogo, nogoHeuristicAgent, randomAgent, 4)).toBeGreaterThanOrEqual(7);
    expect(wins(nogo, nogoAlphaBetaAgent(300), randomAgent, 1)).toBe(2);
    expect(wins(nogo, mctsAgent({ playouts: 150 }), randomAgent, 1)).toBeGreaterThanOrEqual(1);
  });
});

describe('amazons reference AIs', () => {
  test('levels beat random: the territory heuristic, alpha-beta on it and MCTS with the fast playout', () => {
    expect(wins(amazons, amazonsHeuristicAgent, randomAgent, 2)).toBe(4);
    expect(wins(amazons, amazonsAlphaBetaAgent(200), randomAgent, 1)).toBe(2);
    expect(wins(amazons, mctsAgent({ playouts: 200, playout: amazonsPlayout }), randomAgent, 1)).toBeGreaterThanOrEqual(1);
  });
});
