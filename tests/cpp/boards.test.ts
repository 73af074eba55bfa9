/**
 * Every game's C++ Board (harness/games/<game>/board.h, as the grader stages it) against its TypeScript student Board
 * on seeded random games: at every ply both colours' legal actions in the same order, what move() returns (Reversi's
 * flipped squares in board.py's order), the disc counts after it, and undo + replay giving the position back; every
 * few plies an illegal request (a taken cell, a name off the board) is refused by both. One small driver per game,
 * compiled with the real g++, fed one line a ply. (Amazons from encoded states: tests/cpp/amazons-board.test.ts.)
 */
import { execFileSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { expect, test } from '@jest/globals';
import { Board as Connect4Board } from '../../harness/games/connect4/index.js';
import { Board as GomokuBoard } from '../../harness/games/gomoku/index.js';
import { Board as NoGoBoard } from '../../harness/games/nogo/index.js';
import { Board as ReversiBoard } from '../../harness/games/reversi/index.js';
import { getGame } from '../../harness/games/registry.js';
import { createRng } from '../../harness/referee/seed.js';
import { cppHeadersDir, findCompiler } from '../../harness/sandbox/cpp-runtime.js';
import { scratch } from '../sandbox/support.js';

type Color = 'X' | 'O';
interface TsBoard {
  getLegalActions(color: Color): string[];
  move(action: string, color: Color): unknown;
  count(color: Color): number;
}

const said = (result: unknown): string =>
  Array.isArray(result) ? (result.length ? result.join(',') : '0') : result === false ? '0' : result === true ? '1' : String(result);

/**
 * Gomoku's first game opens with a six in a row for X (E1 joins A1-D1 and F1): freestyle ends there, exactly-five
 * plays on; random plies follow in both.
 */
const OVERLINE = ['A1', 'H8', 'B1', 'J10', 'C1', 'L12', 'D1', 'N14', 'F1', 'A15', 'E1'];

const GAMES: [string, () => TsBoard, boolean, string, string[]][] = [
  ['reversi', () => new ReversiBoard() as TsBoard, true, 'Z9', []],
  ['connect4', () => new Connect4Board() as TsBoard, false, '7', []],
  ['gomoku', () => new GomokuBoard() as TsBoard, false, 'P1', OVERLINE],
  ['gomoku-exact5', () => new GomokuBoard(true) as TsBoard, false, 'P1', OVERLINE],
  ['nogo', () => new NoGoBoard() as TsBoard, false, 'I5', []],
];

test.each(GAMES)('C++ %s Board = the TypeScript Board, every ply of 6 seeded random games', (game, make, passes, offBoard, opening) => {
  const compiler = findCompiler();
  if (!compiler) throw new Error('this test needs g++ (apt-get install g++)');
  const binary = join(scratch(`board-driver-${game}`), 'driver');
  // A variant's header is its base game's; the driver sets the played game as the C++ host does.
  const header = getGame(game).files.folder;
  execFileSync(compiler.path, ['-std=c++17', '-O2', '-Wall', '-Werror', '-I', cppHeadersDir(), '-include', `referee/${header}.h`,
    `-DREFEREE_PLAYED_GAME="${game}"`, '-o', binary, resolve('tests/fixtures/cpp/board-driver/driver.cpp')]);
  const expected: string[] = [];
  const outputs: string[] = [];
  for (let g = 0; g < 6; g++) {
    const rng = createRng(40 + g);
    const board = make();
    const requests: string[] = [];
    const answers: string[] = [];
    let color: Color = 'X';
    let idle = 0;
    for (let ply = 0; idle < 2 && ply < 400; ply++) {
      const other: Color = color === 'X' ? 'O' : 'X';
      const legal = board.getLegalActions(color);
      const theirs = board.getLegalActions(other);
      // Every 5th ply an illegal request first: a taken cell when there is one, else a name off the board.
      if (ply % 5 === 4) {
        const taken = ['D4', 'E5', '0', 'H8', 'E5'].find((name) => !legal.includes(name) && board.move(name, color) === false) ?? offBoard;
        requests.push(`${color} ${taken}`);
        answers.push(`${legal.join(',')}|${theirs.join(',')}|0|${board.count('X')},${board.count('O')}|1`);
      }
      if (legal.length === 0) {
        idle = passes ? idle + 1 : 2;
        color = other;
        continue;
      }
      idle = 0;
      const pick = g === 0 && ply < opening.length ? opening[ply] : legal[rng.int(legal.length)];
      const result = board.move(pick, color);
      requests.push(`${color} ${pick}`);
      answers.push(`${legal.join(',')}|${theirs.join(',')}|${said(result)}|${board.count('X')},${board.count('O')}|1`);
      color = other;
    }
    outputs.push(execFileSync(binary, { input: `${requests.join('\n')}\n`, encoding: 'utf8', maxBuffer: 1 << 28 }));
    expected.push(answers.join('\n'));
    expect(requests.length).toBeGreaterThan(7);
    // The overline ends freestyle at once and not exactly-five (so the C++ Board's rule is the one compared).
    if (g === 0 && opening.length) expect(requests.length > opening.length + 3).toBe(game === 'gomoku-exact5');
  }
  const got = outputs.map((one) => one.trimEnd());
  const mismatch = got.findIndex((one, i) => one !== expected[i]);
  const where = mismatch < 0 ? -1 : got[mismatch].split('\n').findIndex((line, i) => line !== expected[mismatch].split('\n')[i]);
  expect(mismatch < 0 ? 'all plies agree' : `game ${mismatch} ply line ${where}: ${got[mismatch].split('\n')[where]} vs ${expected[mismatch].split('\n')[where]}`).toBe('all plies agree');
}, 120_000);

test.each(['reversi', 'connect4'])('%s: code written for a vector of strings compiles against the C++ Board and means the same', (game) => {
  const compiler = findCompiler();
  if (!compiler) throw new Error('this test needs g++ (apt-get install g++)');
  const binary = join(scratch(`board-idioms-${game}`), 'idioms');
  execFileSync(compiler.path, ['-std=c++17', '-O2', '-Wall', '-Werror', '-I', cppHeadersDir(), '-include', `referee/${game}.h`, '-o', binary, resolve('tests/fixtures/cpp/board-driver/idioms.cpp')]);
  expect(execFileSync(binary, { encoding: 'utf8' }).trim()).toBe('ok');
}, 60_000);
