/**
 * The Python Boards and the TypeScript rules agree exactly: seeded random games played by the TypeScript engine
 * (legal moves from the Game, flips from the TypeScript student Board), replayed on the Python Board in one
 * long-lived python3 process fed by JSON lines, comparing at each turn the legal actions and what _move returned,
 * then the winner and the final board.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createInterface } from 'node:readline';
import { resolve } from 'node:path';
import type { AnyGame } from '../../harness/games/game.js';
import { getGame } from '../../harness/games/registry.js';
import { sized } from '../setup/long.js';
import { createRng } from '../../harness/referee/seed.js';
import { findPython, pythonRuntimeDir } from '../../harness/sandbox/python-runtime.js';

interface StudentBoard {
  getLegalActions(color: string): string[];
  _move(action: string, color: string): unknown;
  getWinner(toMove?: string): unknown;
  _board?: string[][];
  board?: string[][];
}

interface Played {
  request: { game: string; initial: string; plies: [string, string | null][]; toMove: string };
  expected: { plies: [string, unknown][]; winner: unknown; final: string };
}

/** One seeded random game on the TypeScript side: the request for Python and the answer it must give. */
function playTs(game: AnyGame, seed: number, rules?: Record<string, boolean>, start?: unknown): Played {
  const rng = createRng(seed);
  let state = start ?? game.initial(seed, rules);
  const initial = game.encode(state);
  const board = game.studentBoard.create(state) as StudentBoard;
  const plies: [string, string | null][] = [];
  const expected: [string, unknown][] = [];
  while (!game.isTerminal(state)) {
    const color = game.symbols[game.toMove(state)];
    const legal = game.legalMoves(state).map((move: unknown) => game.formatMove(move));
    const boardLegal = board.getLegalActions(color);
    if (boardLegal.join(',') !== legal.join(',')) expect(boardLegal).toEqual(legal);
    if (legal.length === 0) {
      plies.push([color, null]);
      expected.push(['', null]);
      state = game.pass(state);
      continue;
    }
    const pick = legal[rng.int(legal.length)];
    plies.push([color, pick]);
    expected.push([legal.join(','), board._move(pick, color)]);
    state = game.apply(state, game.parseMove(pick));
  }
  const toMove = game.symbols[game.toMove(state)];
  const winner = game.id === 'nogo' || game.id === 'amazons' ? board.getWinner(toMove) : board.getWinner();
  const rows = (game.id === 'reversi' ? board._board : board.board) as string[][];
  const final = rows.map((row) => row.join('')).join('/');
  if (game.id === 'reversi') {
    const outcome = game.outcome(state);
    expect(winner).toEqual([outcome.winner ?? 2, outcome.diff]);
  }
  return { request: { game: game.id, initial, plies, toMove }, expected: { plies: expected, winner, final } };
}

let driver: ChildProcessWithoutNullStreams;
let answers: AsyncIterableIterator<string>;

beforeAll(() => {
  const python = findPython();
  if (!python) throw new Error('these tests need python3 >= 3.8 (apt-get install python3-minimal)');
  driver = spawn(python.path, ['-I', '-B', resolve('tests/python/consistency_driver.py'), pythonRuntimeDir()]);
  driver.stderr.setEncoding('utf8');
  driver.stderr.on('data', (text: string) => process.stderr.write(text));
  answers = createInterface({ input: driver.stdout })[Symbol.asyncIterator]();
});
afterAll(() => {
  driver.stdin.end();
  driver.kill();
});

/** Play `games` seeded games of `id` and compare each with Python; returns how many plies were compared. */
async function compare(id: string, games: number, firstSeed: number, rules?: Record<string, boolean>, start?: (seed: number) => unknown): Promise<number> {
  const game = getGame(id);
  const played: Played[] = [];
  for (let i = 0; i < games; i++) {
    const one = playTs(game, firstSeed + i, rules, start?.(firstSeed + i));
    played.push(one);
    driver.stdin.write(`${JSON.stringify(one.request)}\n`);
  }
  let plies = 0;
  for (const [i, one] of played.entries()) {
    const next = await answers.next();
    const answer = JSON.parse(next.value as string) as Played['expected'];
    // One expect per game, with the seed in view when it fails.
    expect({ seed: firstSeed + i, ...answer }).toEqual({ seed: firstSeed + i, ...one.expected });
    plies += one.expected.plies.length;
  }
  return plies;
}

describe('Python Boards agree with the TypeScript rules', () => {
  const reversiGames = sized(300, 2000);
  test(`reversi: ${reversiGames} seeded random games (legal actions in order, flips, winner, final board)`, async () => {
    expect(await compare('reversi', reversiGames, 1)).toBeGreaterThan(reversiGames * 55);
  }, 120_000);
  test.each([
    ['connect4', 300],
    ['connect4-nogo', 200],
    ['gomoku', 30],
    ['gomoku-exact5', 30],
    ['nogo', 150],
  ])('%s: %i seeded random games', async (id, games) => {
    expect(await compare(id, games, 1)).toBeGreaterThan(games * 7);
  }, 120_000);

  test('amazons: 12 seeded random games on 8x8 and 3 on 10x10 (every legal action list, in order)', async () => {
    expect(await compare('amazons', 12, 1)).toBeGreaterThan(12 * 20);
    expect(await compare('amazons', 3, 50, { board10: true })).toBeGreaterThan(3 * 40);
    // From midgame positions too: _from_state places every piece from the text, whatever the start position was.
    const amazons = getGame('amazons');
    const midgame = (seed: number): unknown => {
      const rng = createRng(seed);
      let state = amazons.initial();
      for (let ply = 0; ply < 6; ply++) {
        const moves = amazons.legalMoves(state);
        state = amazons.apply(state, moves[rng.int(moves.length)]);
      }
      return state;
    };
    expect(await compare('amazons', 4, 200, undefined, midgame)).toBeGreaterThan(4 * 10);
  }, 120_000);

  test('nogo without the centre rule (E5 allowed first): 100 seeded random games', async () => {
    expect(await compare('nogo', 100, 1000, { centerFirstMoveBanned: false })).toBeGreaterThan(100 * 7);
  }, 120_000);
});
