/**
 * The C++ Amazons Board (harness/games/amazons/board.h, as the grader stages it) against the TypeScript rules on
 * seeded random playouts: at every ply the same legal actions in the same order, move() accepting the played move,
 * and the same board after it. One small driver, compiled once with the real g++, fed one line a ply.
 */
import { execFileSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { expect, test } from '@jest/globals';
import { amazons, Board } from '../../harness/games/amazons/index.js';
import { createRng } from '../../harness/referee/seed.js';
import { cppHeadersDir, findCompiler } from '../../harness/sandbox/cpp-runtime.js';
import { scratch } from '../sandbox/support.js';

test('C++ Board = TypeScript rules: 8 random games on 8x8 and 2 on 10x10, every ply', () => {
  const compiler = findCompiler();
  if (!compiler) throw new Error('this test needs g++ (apt-get install g++)');
  const binary = join(scratch('amazons-driver'), 'driver');
  execFileSync(compiler.path, ['-std=c++17', '-O2', '-I', cppHeadersDir(), '-o', binary, resolve('tests/fixtures/cpp/amazons-driver/driver.cpp')]);
  const requests: string[] = [];
  const expected: string[] = [];
  for (const [games, rules, firstSeed] of [[8, {}, 1], [2, { board10: true }, 100]] as const) {
    for (let g = 0; g < games; g++) {
      const rng = createRng(firstSeed + g);
      let state = amazons.initial(0, rules);
      while (!amazons.isTerminal(state)) {
        const color = amazons.symbols[state.side];
        const legal = amazons.legalMoves(state).map(amazons.formatMove);
        const pick = legal[rng.int(legal.length)];
        const after = amazons.apply(state, amazons.parseMove(pick)!);
        requests.push(`${color} ${pick} ${amazons.encode(state)}`);
        expected.push(`${legal.join(',')} 1 ${Board.fromState(after).board.map((row) => row.join('')).join('/')}`);
        state = after;
      }
      // The finished position: no legal action for the side to move.
      requests.push(`${amazons.symbols[state.side]} - ${amazons.encode(state)}`);
      expected.push(` - ${Board.fromState(state).board.map((row) => row.join('')).join('/')}`);
    }
  }
  const answers = execFileSync(binary, { input: `${requests.join('\n')}\n`, encoding: 'utf8', maxBuffer: 1 << 30 }).trimEnd().split('\n');
  expect(answers.length).toBe(requests.length);
  const mismatch = answers.findIndex((answer, i) => answer !== expected[i]);
  expect(mismatch === -1 ? 'all plies agree' : `ply ${mismatch}: ${requests[mismatch]}`).toBe('all plies agree');
  expect(requests.length).toBeGreaterThan(8 * 20);
}, 120_000);
