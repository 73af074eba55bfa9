/**
 * Sandbox figures for `npm run bench`: per-move round trip through the full sandbox, sandboxed random-vs-random
 * games/s on both cores, how far past the deadline a looping player is stopped, a cold `referee check` of a
 * TypeScript submission, and the cost of running the board-heavy hot path inside a VM context (the vm2 layer's
 * mechanism). Prints figures against their goals; asserts nothing.
 */
import { availableParallelism } from 'node:os';
import { performance } from 'node:perf_hooks';
import { runInNewContext } from 'node:vm';
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';
import { describeLayers, detectLayers } from '../harness/sandbox/layers.js';
import {
  benchPlayer,
  coldCheck,
  deadlineOvershootMs,
  gamesPerSecond,
  NODE_RANDOM_PLAYER,
  percentile,
  PLATFORM_GAMES_PER_S,
  roundTripMicros,
} from './bench-support.js';

const LOOPING_PLAYER = 'export class AIPlayer { getMove() { for (;;); } }\n';
const TS_PLAYER = `
import type { Board, MoveInfo } from 'board-referee';
export class AIPlayer {
  constructor(private readonly color: 'X' | 'O') {}
  getMove(board: Board, info?: MoveInfo): string {
    const moves = board.getLegalActions(this.color);
    return moves[(info?.moveNumber ?? 0) % moves.length];
  }
}
`;

const submissionPlayer = (name: string, source: string) => benchPlayer(name, 'AIPlayer.js', source);

async function roundTrip(moves: number): Promise<void> {
  const times = await roundTripMicros(await submissionPlayer('round-trip', NODE_RANDOM_PLAYER), moves, 200);
  console.log(
    `per-move round trip (${moves} moves, idle players frozen 2 ms after answering): p50 ${percentile(times, 50).toFixed(0)} µs, ` +
      `p99 ${percentile(times, 99).toFixed(0)} µs (goal p50 ≤ 100 µs; bare stdio JSON lines ≈ 125 µs)`,
  );
}

async function sandboxedGamesPerSecond(games: number, lanes: number): Promise<void> {
  const rate = await gamesPerSecond((lane) => submissionPlayer(`random-${lane}`, NODE_RANDOM_PLAYER), games, lanes);
  console.log(
    `sandboxed random vs random: ${rate.toFixed(1)} games/s on ${lanes} lanes, ${availableParallelism()} cores (${(rate / PLATFORM_GAMES_PER_S).toFixed(1)}x ` +
      `the platform's ~${PLATFORM_GAMES_PER_S} games/s in-process; goal ≥ 20x)`,
  );
}

async function timeoutOvershoot(runs: number, limitMs: number): Promise<void> {
  const overshoot = await deadlineOvershootMs(await submissionPlayer('looping', LOOPING_PLAYER), runs, limitMs);
  console.log(
    `timeout overshoot (${runs} runs, ${limitMs} ms limit): p50 ${percentile(overshoot, 50).toFixed(1)} ms, ` +
      `p99 ${percentile(overshoot, 99).toFixed(1)} ms past the deadline (goal p99 ≤ 50 ms)`,
  );
}

async function typeScriptColdCheck(): Promise<void> {
  const [ms, ok] = await coldCheck('AIPlayer.ts', TS_PLAYER);
  console.log(`cold referee check of a TypeScript submission: ${ms.toFixed(0)} ms, ${ok ? 'pass' : 'FAIL'} (goal ≤ 1500 ms)`);
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
  // One lane per core, then one more: a lane waits on pipe round trips, so a third keeps both cores busy.
  const cores = availableParallelism();
  await sandboxedGamesPerSecond(400, cores);
  await sandboxedGamesPerSecond(400, cores + 1);
  await timeoutOvershoot(30, 100);
  await typeScriptColdCheck();
  await vmContextCost(3000);
}
