/**
 * Python figures for `npm run bench`: per-move round trip and random-vs-random games/s for a Python player
 * through the full sandbox, next to the same figures for a node player, and next to the course platform's own
 * in-process game.py (≈ 10 random-vs-random games/s on one core), measured here with the Python Board; plus how
 * far past the deadline a player stuck in C code is stopped, and a cold `referee check` of a Python submission.
 * Prints figures; asserts nothing.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { getGame } from '../harness/games/registry.js';
import { playGame } from '../harness/referee/match.js';
import { deriveSeed } from '../harness/referee/seed.js';
import { cacheDir } from '../harness/sandbox/cache-dir.js';
import { findPython, pythonRuntimeDir } from '../harness/sandbox/python-runtime.js';
import { SandboxPlayer } from '../harness/sandbox/sandbox-player.js';
import { checkSubmission } from '../harness/submission/check.js';
import { compileSubmission } from '../harness/submission/compile.js';
import { resolveSubmission } from '../harness/submission/resolve.js';

const PLATFORM_GAMES_PER_S = 10;
const reversi = getGame('reversi');

const PYTHON_RANDOM = `import random


class AIPlayer:
    def __init__(self, color):
        self.color = color

    def get_move(self, board):
        return random.choice(list(board.get_legal_actions(self.color)))
`;
const NODE_RANDOM = `
export class AIPlayer {
  constructor(color) { this.color = color; }
  getMove(board) {
    const moves = board.getLegalActions(this.color);
    return moves[Math.floor(Math.random() * moves.length)];
  }
}
`;
const PYTHON_C_LOOP = `class AIPlayer:
    def __init__(self, color):
        pass

    def get_move(self, board):
        return str(sum(range(10 ** 12)))
`;

/** game.py's loop, in-process: a deepcopy of the board and func_timeout around every get_move, as the platform does. */
const GAME_PY = `
import random, sys, time
from copy import deepcopy
sys.path.insert(0, sys.argv[1])
from board_reversi import Board
from func_timeout import func_timeout

class RandomPlayer:
    def __init__(self, color):
        self.color = color
    def get_move(self, board):
        actions = list(board.get_legal_actions(self.color))
        return random.choice(actions) if actions else None

def play():
    board = Board()
    players = {'X': RandomPlayer('X'), 'O': RandomPlayer('O')}
    color = 'X'
    while True:
        if not list(board.get_legal_actions('X')) and not list(board.get_legal_actions('O')):
            return board.get_winner()
        if list(board.get_legal_actions(color)):
            action = func_timeout(60, players[color].get_move, kwargs={'board': deepcopy(board)})
            board._move(action, color)
        color = 'O' if color == 'X' else 'X'

games, started = 0, time.perf_counter()
while time.perf_counter() - started < float(sys.argv[2]):
    play()
    games += 1
print(games / (time.perf_counter() - started))
`;

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

async function player(name: string, file: string, source: string): Promise<SandboxPlayer> {
  const folder = join(cacheDir(), 'bench', name);
  mkdirSync(folder, { recursive: true, mode: 0o755 });
  writeFileSync(join(folder, file), source, { mode: 0o644 });
  const submission = resolveSubmission(join(folder, file));
  const compiled = await compileSubmission(submission);
  return new SandboxPlayer({
    name,
    bundlePath: compiled.bundlePath,
    submissionRoot: submission.root,
    game: 'reversi',
    runtime: submission.language === 'Python' ? 'python' : 'node',
  });
}

const pythonPlayer = (name: string, source = PYTHON_RANDOM) => player(`python-${name}`, 'AIPlayer.py', source);
const nodePlayer = (name: string) => player(`node-${name}`, 'AIPlayer.js', NODE_RANDOM);

const info = (timeLimitMs: number) => ({
  color: 'X',
  timeLimitMs,
  moveNumber: 1,
  timeUsedMs: 0,
  attempt: 1,
  attemptsAllowed: 3,
  lastMove: null,
});

/** p50 and p99 of one move request's round trip on the opening position, in µs. */
async function roundTrip(make: () => Promise<SandboxPlayer>, moves: number): Promise<[number, number]> {
  const sandboxed = await make();
  const state = reversi.encode(reversi.initial(1));
  try {
    await sandboxed.startGame({ game: 'reversi', side: 0, seed: 1, initialState: state, timeLimitMs: 10_000 });
    const times: number[] = [];
    for (let i = 0; i < moves + 100; i++) {
      const started = performance.now();
      await sandboxed.requestMove({ state, info: info(10_000) });
      if (i >= 100) times.push((performance.now() - started) * 1000);
    }
    times.sort((a, b) => a - b);
    return [percentile(times, 50), percentile(times, 99)];
  } finally {
    await sandboxed.close();
  }
}

/** Random vs random games/s through the sandbox, `lanes` games at a time. */
async function gamesPerSecond(make: (name: string) => Promise<SandboxPlayer>, games: number, lanes: number): Promise<number> {
  const pairs = await Promise.all(Array.from({ length: lanes }, async (_, lane) => [await make(`a${lane}`), await make(`b${lane}`)]));
  try {
    await Promise.all(pairs.map(([black, white], lane) => playGame({ game: reversi, black, white, seed: lane })));
    let next = 0;
    const started = performance.now();
    await Promise.all(
      pairs.map(async ([black, white]) => {
        while (next < games) {
          const index = next++;
          await playGame({ game: reversi, black, white, seed: deriveSeed(7, index) });
        }
      }),
    );
    return games / ((performance.now() - started) / 1000);
  } finally {
    await Promise.all(pairs.flat().map((one) => one.close()));
  }
}

async function cLoopOvershoot(runs: number, limitMs: number): Promise<number[]> {
  const looping = await pythonPlayer('c-loop', PYTHON_C_LOOP);
  const state = reversi.encode(reversi.initial(1));
  const overshoot: number[] = [];
  try {
    for (let i = 0; i < runs; i++) {
      await looping.startGame({ game: 'reversi', side: 0, seed: 1, initialState: state, timeLimitMs: 10_000 });
      const started = performance.now();
      await looping.requestMove({ state, info: info(limitMs) });
      overshoot.push(performance.now() - started - limitMs);
    }
  } finally {
    await looping.close();
  }
  return overshoot.sort((a, b) => a - b);
}

async function coldCheck(): Promise<[number, boolean]> {
  const previous = process.env.REFEREE_CACHE_DIR;
  const folder = mkdtempSync(join(tmpdir(), 'referee-bench-py-'));
  process.env.REFEREE_CACHE_DIR = join(folder, 'cache');
  try {
    mkdirSync(join(folder, 'submission'), { mode: 0o755 });
    writeFileSync(join(folder, 'submission', 'AIPlayer.py'), PYTHON_RANDOM);
    const started = performance.now();
    const result = await checkSubmission(join(folder, 'submission'));
    return [performance.now() - started, result.ok];
  } finally {
    if (previous === undefined) delete process.env.REFEREE_CACHE_DIR;
    else process.env.REFEREE_CACHE_DIR = previous;
  }
}

export async function benchPython(): Promise<void> {
  const python = findPython();
  if (!python) {
    console.log('python: no python3 >= 3.8 found; Python figures skipped');
    return;
  }
  console.log(`python: ${python.path} (Python ${python.version})`);
  const [py50, py99] = await roundTrip(() => pythonPlayer('round-trip'), 1000);
  const [node50, node99] = await roundTrip(() => nodePlayer('round-trip'), 1000);
  console.log(
    `per-move round trip through the sandbox (1000 moves): Python p50 ${py50.toFixed(0)} µs, p99 ${py99.toFixed(0)} µs; ` +
      `node p50 ${node50.toFixed(0)} µs, p99 ${node99.toFixed(0)} µs`,
  );
  const pyRate = await gamesPerSecond(pythonPlayer, 40, 2);
  const nodeRate = await gamesPerSecond(nodePlayer, 40, 2);
  const inProcess = Number(
    execFileSync(python.path, ['-I', '-B', '-c', GAME_PY, pythonRuntimeDir(), '3'], { encoding: 'utf8' }).trim(),
  );
  console.log(
    `random vs random, sandboxed, 2 lanes: Python ${pyRate.toFixed(1)} games/s, node ${nodeRate.toFixed(1)} games/s; ` +
      `game.py's loop in-process on one core (deepcopy + func_timeout per move, Python Board): ${inProcess.toFixed(1)} games/s ` +
      `(the platform: ~${PLATFORM_GAMES_PER_S})`,
  );
  const overshoot = await cLoopOvershoot(5, 300);
  console.log(
    `Python stuck in C code (sum(range(10**12)), 300 ms limit, 5 runs): stopped p50 ${percentile(overshoot, 50).toFixed(1)} ms, ` +
      `max ${overshoot[overshoot.length - 1].toFixed(1)} ms past the deadline`,
  );
  const [checkMs, ok] = await coldCheck();
  console.log(`cold referee check of a Python submission: ${checkMs.toFixed(0)} ms, ${ok ? 'pass' : 'FAIL'}`);
}
