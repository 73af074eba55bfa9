/**
 * The speed work (the Reversi core's flips and move order, NoGo's own MCTS playout) changed no reference AI's
 * moves: these games were recorded with the code before it (seeded, budgets in nodes and playouts). NoGo's MCTS
 * is held to the generic playout move for move in nogo-playout.test.ts (a whole game of it is slow under jest).
 */
import { getGame } from '../../harness/games/registry.js';
import { InProcessPlayer } from '../../harness/referee/in-process.js';
import { playGame } from '../../harness/referee/match.js';
import { referenceAgent } from '../../reference-ai/index.js';

const RECORDED: [string, string][] = [
  ["reversi alphabeta vs weighted seed 5", "D3 E3 F4 G3 G4 C3 F5 H4 F3 F6 E2 F1 E6 G6 G5 C6 H6 H5 H3 F2 D6 D7 D1 E1 G1 E7 D2 C1 B1 H2 H1 H7 H8 G2 F7 G8 C2 G7 B4 B3 A4 A3 A2 A5 A6 B2 F8 E8 C4 C5 A1 pass B5 B6 C8 D8 A7 B8 C7 B7 A8"],
  ["reversi mcts vs mobility seed 6", "C4 E3 F2 C6 F6 E6 F7 C5 C7 D3 C3 F5 G6 D2 E1 D1 C1 E2 F3 G1 F1 B1 F4 D6 E7 G3 H3 G4 G5 C2 G2 H1 pass H2 pass B3 A3 H4 B5 H5 H6 H7 G7 H8 G8 F8 E8 A4 A5 B2 A2 D8 D7 B4 B6 A7 B7 A6 A8 B8 C8"],
];

test.each(RECORDED)('%s plays as recorded', async (name, moves) => {
  const [game, black, , white, , seed] = name.split(' ');
  const record = await playGame({
    game: getGame(game),
    black: new InProcessPlayer(black, referenceAgent(game, black), getGame),
    white: new InProcessPlayer(white, referenceAgent(game, white), getGame),
    seed: Number(seed),
  });
  expect(record.turns.map((turn) => turn.move ?? 'pass').join(' ')).toBe(moves);
}, 120_000);
