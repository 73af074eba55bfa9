/**
 * Sandbox figures for `npm run bench`: per-move round trip through the full sandbox, sandboxed random-vs-random
 * games/s on both cores, how far past the deadline a looping player is stopped, a cold `referee check` of a
 * TypeScript submission, and the cost of running the board-heavy hot path inside a VM context (the vm2 layer's
 * mechanism). Prints figures against their goals; asserts nothing.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { runInNewContext } from 'node:vm';
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';
import { getGame } from '../harness/games/registry.js';
import { playGame } from '../harness/referee/match.js';
import { deriveSeed } from '../harness/referee/seed.js';
import { cacheDir } from '../harness/sandbox/cache-dir.js';
import { describeLayers, detectLayers } from '../harness/sandbox/layers.js';
import { SandboxPlayer } from '../harness/sandbox/sandbox-player.js';
import { checkSubmission } from '../harness/submission/check.js';
import { compileSubmission } from '../harness/submission/compile.js';
import { resolveSubmission } from '../harness/submission/resolve.js';

const PLATFORM_GAMES_PER_S = 10;
const reversi = getGame('reversi');

const RANDOM_PLAYER = `
export class AIPlayer {
  constructor(color) { this.color = color; }
  getMove(board) {
    const moves = board.getLegalActions(this.color);
    return moves[Math.floor(Math.random() * moves.length)];
  }
}
`;
const LOOPING_PLAYER = 'export class AIPlayer { getMove() { for (;;); } }\n';
const TS_PLAYER = `
import type { Board, MoveInfo } from 'referee';
export class AIPlayer {
  constructor(private readonly color: 'X' | 'O') {}
  getMove(board: Board, info?: MoveInfo): string {
    const moves = board.getLegalActions(this.color);
    return moves[(info?.moveNumber ?? 0) % moves.length];
  }
}
`;

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

async function submissionPlayer(name: string, source: string): Promise<SandboxPlayer> {
  const folder = join(cacheDir(), 'bench', name);
  mkdirSync(folder, { recursive: true, mode: 0o755 });
  writeFileSync(join(folder, 'AIPlayer.js'), source, { mode: 0o644 });
  const submission = resolveSubmission(join(folder, 'AIPlayer.js'));
  const compiled = await compileSubmission(submission);
  return new SandboxPlayer({ name, bundlePath: compiled.bundlePath, submissionRoot: submission.root, game: 'reversi' });
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

async function roundTrip(moves: number): Promise<void> {
  const player = await submissionPlayer('round-trip', RANDOM_PLAYER);
  const state = reversi.encode(reversi.initial(1));
  try {
    await player.startGame({ game: 'reversi', side: 0, seed: 1, initialState: state, timeLimitMs: 10_000 });
    const times: number[] = [];
    for (let i = 0; i < moves + 200; i++) {
      const started = performance.now();
      await player.requestMove({ state, info: info(10_000) });
      if (i >= 200) times.push((performance.now() - started) * 1000);
    }
    times.sort((a, b) => a - b);
    console.log(
      `per-move round trip (${moves} moves, idle players frozen 2 ms after answering): p50 ${percentile(times, 50).toFixed(0)} µs, ` +
        `p99 ${percentile(times, 99).toFixed(0)} µs (goal p50 ≤ 100 µs; bare stdio JSON lines ≈ 125 µs)`,
    );
  } finally {
    await player.close();
  }
}

async function gamesPerSecond(games: number, lanes: number): Promise<void> {
  const pairs = await Promise.all(
    Array.from({ length: lanes }, async (_, lane) => [
      await submissionPlayer(`random-a${lane}`, RANDOM_PLAYER),
      await submissionPlayer(`random-b${lane}`, RANDOM_PLAYER),
    ]),
  );
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
    const rate = games / ((performance.now() - started) / 1000);
    console.log(
      `sandboxed random vs random: ${rate.toFixed(1)} games/s on ${lanes} lanes (${(rate / PLATFORM_GAMES_PER_S).toFixed(1)}x ` +
        `the platform's ~${PLATFORM_GAMES_PER_S} games/s in-process; goal ≥ 20x)`,
    );
  } finally {
    await Promise.all(pairs.flat().map((player) => player.close()));
  }
}

async function timeoutOvershoot(runs: number, limitMs: number): Promise<void> {
  const player = await submissionPlayer('looping', LOOPING_PLAYER);
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
  overshoot.sort((a, b) => a - b);
  console.log(
    `timeout overshoot (${runs} runs, ${limitMs} ms limit): p50 ${percentile(overshoot, 50).toFixed(1)} ms, ` +
      `p99 ${percentile(overshoot, 99).toFixed(1)} ms past the deadline (goal p99 ≤ 50 ms)`,
  );
}

async function coldCheck(): Promise<void> {
  const previous = process.env.REFEREE_CACHE_DIR;
  const folder = mkdtempSync(join(tmpdir(), 'referee-bench-'));
  process.env.REFEREE_CACHE_DIR = join(folder, 'cache');
  try {
    mkdirSync(join(folder, 'submission'), { mode: 0o755 });
    writeFileSync(join(folder, 'submission', 'AIPlayer.ts'), TS_PLAYER);
    const started = performance.now();
    const result = await checkSubmission(join(folder, 'submission'));
    const ms = performance.now() - started;
    console.log(`cold referee check of a TypeScript submission: ${ms.toFixed(0)} ms, ${result.ok ? 'pass' : 'FAIL'} (goal ≤ 1500 ms)`);
  } finally {
    if (previous === undefined) delete process.env.REFEREE_CACHE_DIR;
    else process.env.REFEREE_CACHE_DIR = previous;
  }
}

/**
 * The vm2 question: what does running the student's board-heavy code inside a VM context cost? Random
 * playouts on the student Board, built inside the context, against the same code in the main context.
 */
async function vmContextCost(playouts: number): Promise<void> {
  const entry = fileURLToPath(new URL('../harness/games/reversi/board.js', import.meta.url));
  const bundled = await build({
    entryPoints: [entry],
    bundle: true,
    write: false,
    format: 'iife',
    globalName: 'reversiBoard',
    platform: 'neutral',
    logLevel: 'silent',
  });
  const code = `${bundled.outputFiles[0].text}
    function run(n) {
      let seed = 1;
      const random = () => ((seed = (Math.imul(seed, 1103515245) + 12345) | 0) >>> 0) / 4294967296;
      let discs = 0;
      for (let i = 0; i < n; i++) {
        const board = new reversiBoard.Board();
        let color = 'X', passes = 0;
        while (passes < 2) {
          const moves = board.getLegalActions(color);
          if (moves.length === 0) passes++;
          else { passes = 0; board._move(moves[Math.floor(random() * moves.length)], color); }
          color = color === 'X' ? 'O' : 'X';
        }
        discs += board.count('X');
      }
      return discs;
    }`;
  const time = (run: (n: number) => number): number => {
    run(200);
    const started = performance.now();
    run(playouts);
    return performance.now() - started;
  };
  const plain = time(new Function(`${code}\nreturn run;`)() as (n: number) => number);
  const inContext = time(runInNewContext(`${code}\nrun;`) as (n: number) => number);
  console.log(
    `board-heavy hot path inside a VM context (node:vm, what vm2 runs on): ${(((inContext - plain) / plain) * 100).toFixed(1)}% ` +
      `slower over ${playouts} random playouts (threshold for adding vm2: < 10%)`,
  );
}

export async function benchSandbox(): Promise<void> {
  console.log('## Sandbox');
  const active = describeLayers(detectLayers()).filter((layer) => layer.active).map((layer) => layer.layer);
  console.log(`layers: ${active.join(', ')}`);
  await roundTrip(5000);
  await gamesPerSecond(400, 2);
  await timeoutOvershoot(30, 100);
  await coldCheck();
  await vmContextCost(3000);
}
