/**
 * What the sandbox and Python benches share: submissions behind the full sandbox, and the Reversi measurements
 * both take on them (per-move round trip, games/s, how far past a deadline a stuck player is stopped, a cold
 * `referee check`). The measurements return figures; each bench words and prints its own.
 */
import { execFileSync, spawn } from 'node:child_process';
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
import { resolveSubmission, runtimeOf } from '../harness/submission/resolve.js';

/**
 * game.py's loop, in-process, on board.py as written (PlainBoard): a deepcopy of the board and func_timeout around
 * every get_move, as the platform does. The anchor of the Python rows here and in bench-table.ts.
 */
export const GAME_PY = `
import random, sys, time
from copy import deepcopy
sys.path.insert(0, sys.argv[1])
from board_reversi import PlainBoard as Board
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

let platformRate: number | null = null;

/**
 * The anchor of every games/s row: game.py's loop above, random vs random in-process on one core, measured once per
 * bench run (`seconds` of games); NaN without python3.
 */
export function platformGamesPerSecond(seconds = 3): number {
  if (platformRate !== null) return platformRate;
  const python = findPython();
  platformRate = python ? Number(execFileSync(python.path, ['-I', '-B', '-c', GAME_PY, pythonRuntimeDir(), String(seconds)], { encoding: 'utf8' }).trim()) : NaN;
  return platformRate;
}
export const reversi = getGame('reversi');

/** Random legal moves, in JavaScript. */
export const NODE_RANDOM_PLAYER = `
export class AIPlayer {
  constructor(color) { this.color = color; }
  getMove(board) {
    const moves = board.getLegalActions(this.color);
    return moves[Math.floor(Math.random() * moves.length)];
  }
}
`;

export function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** A Reversi player behind the sandbox for `source`, saved as `file` (AIPlayer.js, AIPlayer.py) in the cache. */
export async function benchPlayer(name: string, file: string, source: string): Promise<SandboxPlayer> {
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
    runtime: runtimeOf(submission.language),
  });
}

const info = (timeLimitMs: number) => ({
  color: 'X',
  timeLimitMs,
  moveNumber: 1,
  timeUsedMs: 0,
  attempt: 1,
  attemptsAllowed: 3,
  lastMove: null,
});

/** Round trips of `moves` move requests on the opening position in µs, sorted, after `warmup` unmeasured ones. */
export async function roundTripMicros(player: SandboxPlayer, moves: number, warmup: number): Promise<number[]> {
  const state = reversi.encode(reversi.initial(1));
  try {
    await player.startGame({ game: 'reversi', side: 0, seed: 1, initialState: state, timeLimitMs: 10_000 });
    const times: number[] = [];
    for (let i = 0; i < moves + warmup; i++) {
      const started = performance.now();
      await player.requestMove({ state, info: info(10_000) });
      if (i >= warmup) times.push((performance.now() - started) * 1000);
    }
    return times.sort((a, b) => a - b);
  } finally {
    await player.close();
  }
}

/** Games/s of `games` games between players from `make`, `lanes` games at a time. */
export async function gamesPerSecond(make: (lane: string) => Promise<SandboxPlayer>, games: number, lanes: number): Promise<number> {
  const pairs = await Promise.all(Array.from({ length: lanes }, async (_, lane) => [await make(`a${lane}`), await make(`b${lane}`)]));
  try {
    // Warm: the first game of each pair spawns its processes.
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

/** How far past a `limitMs` deadline a player that never answers is stopped, in ms, sorted, over `runs` moves. */
export async function deadlineOvershootMs(player: SandboxPlayer, runs: number, limitMs: number): Promise<number[]> {
  const state = reversi.encode(reversi.initial(1));
  const overshoot: number[] = [];
  try {
    for (let i = 0; i < runs; i++) {
      await player.startGame({ game: 'reversi', side: 0, seed: 1, initialState: state, timeLimitMs: 10_000 });
      const started = performance.now();
      await player.requestMove({ state, info: info(limitMs) });
      overshoot.push(performance.now() - started - limitMs);
    }
  } finally {
    await player.close();
  }
  return overshoot.sort((a, b) => a - b);
}

/** A `referee check` of a submission of one `file`, with an empty cache: [ms, whether it passed]. */
export async function coldCheck(file: string, source: string): Promise<[number, boolean]> {
  const previous = process.env.REFEREE_CACHE_DIR;
  const folder = mkdtempSync(join(tmpdir(), 'referee-bench-'));
  process.env.REFEREE_CACHE_DIR = join(folder, 'cache');
  try {
    mkdirSync(join(folder, 'submission'), { mode: 0o755 });
    writeFileSync(join(folder, 'submission', file), source);
    const started = performance.now();
    const result = await checkSubmission(join(folder, 'submission'));
    return [performance.now() - started, result.ok];
  } finally {
    if (previous === undefined) delete process.env.REFEREE_CACHE_DIR;
    else process.env.REFEREE_CACHE_DIR = previous;
  }
}

/** The floor of a per-move channel: a bare node child echoing JSON lines over stdio, round trip p50 in µs. */
export async function bareStdioMicros(moves: number): Promise<number> {
  const child = spawn(process.execPath, ['-e', "process.stdin.setEncoding('utf8');let b='';process.stdin.on('data',d=>{b+=d;let i;while((i=b.indexOf('\\n'))>=0){const l=b.slice(0,i);b=b.slice(i+1);process.stdout.write(JSON.stringify({move:JSON.parse(l).n})+'\\n');}})"], { stdio: ['pipe', 'pipe', 'inherit'] });
  child.stdout.setEncoding('utf8');
  const times: number[] = [];
  let pending: (() => void) | null = null;
  let buffer = '';
  child.stdout.on('data', (data: string) => {
    buffer += data;
    if (buffer.includes('\n')) {
      buffer = '';
      pending?.();
    }
  });
  const state = getGame('reversi').encode(getGame('reversi').initial(1));
  for (let i = 0; i < moves + 200; i++) {
    const started = performance.now();
    await new Promise<void>((done) => {
      pending = done;
      child.stdin.write(`${JSON.stringify({ type: 'move', n: i, state })}\n`);
    });
    if (i >= 200) times.push((performance.now() - started) * 1000);
  }
  child.kill();
  return percentile(times.sort((a, b) => a - b), 50);
}
