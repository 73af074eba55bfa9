/**
 * The C++ AIPlayer (Reversi, Gomoku, NoGo, Connect Four) end to end through the CLI: the header-only Boards list moves in the same
 * order as the TypeScript Board (a first-legal-move player repeats, move for move, what the same player written in
 * TypeScript plays against a seeded opponent), a grade of each, `referee init --cpp`, and the wrong game's header.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, expect, test } from '@jest/globals';
import { getGame } from '../../harness/games/registry.js';
import { packageFile } from '../../grading/package-root.js';
import { scratch } from '../sandbox/support.js';
import { seedCache } from '../setup/suite-cache.js';
import { CPP_FIXTURES } from './support.js';
import { runToEnd } from '../setup/children.js';

const env: Record<string, string> = {};
beforeAll(() => {
  env.REFEREE_CACHE_DIR = seedCache(scratch('cpp-aiplayer-cache'));
});

/** The CLI run to its end, however long a loaded machine takes (runToEnd: a failed test stops it). */
async function referee(...args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const run = await runToEnd(process.execPath, [packageFile('dist', 'cli', 'index.js'), ...args], { ...process.env, ...env });
  return { code: run.code, stdout: run.stdout, stderr: run.stderr };
}

/** The first-legal-move player for `game`, in C++ and in TypeScript, each in a folder of its own. */
function firstMovePlayers(game: string): { cpp: string; ts: string } {
  const cpp = join(scratch(`first-cpp-${game}`), 'first');
  mkdirSync(cpp);
  const header = getGame(game).files.folder;
  writeFileSync(join(cpp, 'AIPlayer.cpp'), readFileSync(join(CPP_FIXTURES, 'aiplayer-first', 'AIPlayer.cpp'), 'utf8').replace('__GAME__', header));
  const ts = join(scratch(`first-ts-${game}`), 'first');
  mkdirSync(ts);
  writeFileSync(join(ts, 'AIPlayer.ts'), 'export class AIPlayer {\n  constructor(private color: string) {}\n  getMove(board: any): string { return board.getLegalActions(this.color)[0]; }\n}\n');
  return { cpp, ts };
}

interface Series {
  records: { turns: { kind: string; move?: string }[] }[];
}
const moves = (series: Series): string[][] => series.records.map((record) => record.turns.filter((turn) => turn.kind === 'move').map((turn) => turn.move!));

test.each([
  ['reversi', 'greedy'],
  ['gomoku', 'random'],
  ['nogo', 'random'],
  ['connect4', 'random'],
  ['connect4-nogo', 'random'],
  ['amazons', 'random'],
])('%s: the C++ Board lists moves in the TypeScript Board\'s order (first-move player vs %s, 4 seeded games)', async (game, opponent) => {
  const { cpp, ts } = firstMovePlayers(game);
  const play = async (player: string): Promise<Series> => {
    const run = await referee('play', '--game', game, '--black', player, '--white', opponent, '--games', '4', '--seed', '5', '--json');
    expect(run.stderr).not.toMatch(/error/i);
    return JSON.parse(run.stdout) as Series;
  };
  const fromCpp = moves(await play(cpp));
  // Every game is played out (a first-move Connect Four player that is not blocked wins on its 4th disc: 7 plies).
  expect(fromCpp.every((game) => game.length >= 7)).toBe(true);
  expect(fromCpp).toEqual(moves(await play(ts)));
}, 240_000);

test.each([
  ['reversi', 'aiplayer-reversi'],
  ['gomoku', 'aiplayer-gomoku'],
])('grade: a C++ %s AIPlayer graded end to end', async (game, folder) => {
  const dir = scratch(`grade-${game}`);
  const out = join(dir, 'out');
  const config = join(dir, 'assignment.json');
  writeFileSync(config, JSON.stringify({ title: `${game} in C++`, game, opponents: [{ name: 'random', games: 4, points: 50 }] }));
  const run = await referee('grade', join(CPP_FIXTURES, folder), '--config', config, '--out', out, '--quiet');
  expect(run.code).toBe(0);
  const grade = JSON.parse(readFileSync(join(out, 'grade.json'), 'utf8')) as { status: string; submission: { language: string }; score: number; items: { points: number }[] };
  expect({ status: grade.status, language: grade.submission.language }).toEqual({ status: 'graded', language: 'C++' });
  expect(grade.items[0].points).toBeGreaterThan(0); // the interface check
  expect(grade.score).toBeGreaterThan(grade.items[0].points); // and some games won
}, 240_000);

test('init --cpp: the Gomoku starter checks as it is; its own copy of the header is not what the grader builds with', async () => {
  const dir = join(scratch('init-cpp'), 'starter');
  const init = await referee('init', dir, '--cpp', '--game', 'gomoku', '--referee', 'file:/nowhere', '--no-lockfile');
  expect(init.code).toBe(0);
  expect(init.stdout).toContain('src/referee/gomoku.h');
  // A broken local copy changes nothing: the grader compiles against its own header.
  writeFileSync(join(dir, 'src', 'referee', 'gomoku.h'), '#error the grader must not read this copy\n');
  const check = await referee('check', join(dir, 'src'), '--game', 'gomoku');
  expect(check.stdout).toMatch(/PASS/);
  expect(check.code).toBe(0);
}, 120_000);

test('init --cpp for the Connect Four course: the SDK starter (Strategy.cpp and its headers) checks as it is', async () => {
  const dir = join(scratch('init-sdk'), 'starter');
  expect((await referee('init', dir, '--cpp', '--game', 'connect4-nogo', '--referee', 'file:/nowhere', '--no-lockfile')).code).toBe(0);
  const check = await referee('check', join(dir, 'src'), '--game', 'connect4-nogo');
  expect(check.stdout).toMatch(/uses getPoint/);
  expect(check.code).toBe(0);
}, 120_000);

test('a Reversi AIPlayer played as Gomoku: one line naming the header to include', async () => {
  const check = await referee('check', join(CPP_FIXTURES, 'aiplayer-reversi'), '--game', 'gomoku');
  expect(check.code).toBe(1);
  expect(check.stdout).toContain('this AIPlayer was built for reversi (its Board header), but the game is gomoku: include the gomoku Board header');
}, 120_000);

test('a C++ Reversi AIPlayer that returns a non-move gets the Board\'s hint, not the Connect Four SDK\'s', async () => {
  const dir = join(scratch('cpp-reversi-illegal'), 'illegal');
  mkdirSync(dir);
  writeFileSync(join(dir, 'AIPlayer.cpp'), '#include <string>\n#include "referee/reversi.h"\nclass AIPlayer {\n public:\n  explicit AIPlayer(char color) : color_(color) {}\n  std::string getMove(const Board& board) { (void)board; return "Z9"; }\n private:\n  char color_;\n};\n');
  const check = await referee('check', dir, '--game', 'reversi');
  expect(check.code).toBe(1);
  expect(check.stdout).toContain('fix: return one of board.getLegalActions(color)');
  expect(check.stdout).not.toMatch(/top\[y\]|Point\(/);
}, 120_000);

test('gomoku-exact5 in C++: the host gives the Gomoku header its variant (the handed Board and a Board() of its own)', async () => {
  const exact = await referee('check', join(CPP_FIXTURES, 'aiplayer-gomoku-exact5'), '--game', 'gomoku-exact5');
  expect(`${exact.code} ${exact.stdout}`).toMatch(/^0 /);
  const freestyle = await referee('check', join(CPP_FIXTURES, 'aiplayer-gomoku-exact5'), '--game', 'gomoku');
  expect(freestyle.code).toBe(1);
  expect(freestyle.stdout).toContain('Z99');
}, 120_000);
