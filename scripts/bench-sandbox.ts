/**
 * Sandbox figures for `npm run bench`: per-move round trip through the full sandbox, sandboxed random-vs-random
 * games/s on both cores, how far past the deadline a looping player is stopped, a cold `referee check` of a
 * TypeScript submission, and the cost of running the board-heavy hot path inside a VM context (the vm2 layer's
 * mechanism). Prints figures against their goals; asserts nothing.
 */
import { spawn } from 'node:child_process';
import { availableParallelism, loadavg } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { PlayerCgroup } from '../harness/sandbox/cgroup.js';
import { performance } from 'node:perf_hooks';
import { runInNewContext } from 'node:vm';
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';
import { describeLayers, detectLayers } from '../harness/sandbox/layers.js';
import {
  bareStdioMicros,
  benchPlayer,
  coldCheck,
  deadlineOvershootMs,
  gamesPerSecond,
  NODE_RANDOM_PLAYER,
  percentile,
  platformGamesPerSecond,
  roundTripMicros,
} from './bench-support.js';

const LOOPING_PLAYER = 'export class AIPlayer { getMove() { for (;;); } }\n';
const TS_PLAYER = `
import { moveInfo, type Board } from 'board-referee';
export class AIPlayer {
  constructor(private readonly color: 'X' | 'O') {}
  getMove(board: Board): string {
    const moves = board.getLegalActions(this.color);
    return moves[(moveInfo()?.moveNumber ?? 0) % moves.length];
  }
}
`;

const submissionPlayer = (name: string, source: string) => benchPlayer(name, 'AIPlayer.js', source);

async function roundTrip(moves: number): Promise<void> {
  const times = await roundTripMicros(await submissionPlayer('round-trip', NODE_RANDOM_PLAYER), moves, 200);
  const bare = await bareStdioMicros(moves);
  console.log(
    `per-move round trip (${moves} moves, idle players frozen 2 ms after answering): p50 ${percentile(times, 50).toFixed(0)} µs, ` +
      `p99 ${percentile(times, 99).toFixed(0)} µs, ${(percentile(times, 50) / bare).toFixed(2)}x a bare stdio JSON-lines round trip ` +
      `(p50 ${bare.toFixed(0)} µs, same run; load ${loadavg()[0].toFixed(1)}; goal p50 ≤ 100 µs)`,
  );
}

async function sandboxedGamesPerSecond(games: number, lanes: number): Promise<void> {
  const platform = platformGamesPerSecond();
  const rate = await gamesPerSecond((lane) => submissionPlayer(`random-${lane}`, NODE_RANDOM_PLAYER), games, lanes);
  console.log(
    `sandboxed random vs random: ${rate.toFixed(1)} games/s on ${lanes} lanes, ${availableParallelism()} cores (${(rate / platform).toFixed(1)}x ` +
      `the platform's game.py in-process on one core, ${platform.toFixed(1)} games/s in this run; goal ≥ 20x)`,
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

/**
 * The freeze between turns, per move: a write to the player's cgroup freezer (v1 freezer.state / v2
 * cgroup.freeze, which stops everything the player owns whatever its process group) against SIGSTOP/SIGCONT of
 * its process groups (what remains without a freezer). Measured on a live node process with its ~10 threads,
 * one freeze + thaw per move, on the parent's clock.
 */
export async function benchFreeze(moves = 2000): Promise<void> {
  console.log('## Freeze between turns');
  const probeStarted = performance.now();
  const layers = detectLayers({ fresh: true });
  console.log(`live start-up probe of the layers (bubblewrap run once as a player would be): ${(performance.now() - probeStarted).toFixed(0)} ms, once per process`);
  if (!layers.cgroup?.freezer) {
    console.log('no writable cgroup freezer here: players are frozen with SIGSTOP/SIGCONT of their process groups only');
    return;
  }
  const cgroup = new PlayerCgroup(layers.cgroup, 256, 64);
  const joins = cgroup.joinFiles().map((file) => `echo $$ > ${file}`).join('; ');
  const child = spawn('/bin/sh', ['-c', `${joins}; exec "$0" -e "setInterval(() => {}, 1000)"`, process.execPath], { detached: true, stdio: 'ignore' });
  await sleep(300);
  const pid = child.pid as number;
  const time = (freeze: () => void, thaw: () => void): number[] => {
    const samples: number[] = [];
    for (let i = 0; i < moves; i++) {
      const started = performance.now();
      freeze();
      thaw();
      samples.push((performance.now() - started) * 1000);
    }
    return samples;
  };
  const viaCgroup = time(() => cgroup.setFrozen(true), () => cgroup.setFrozen(false)).sort((a, b) => a - b);
  const viaSignals = time(() => process.kill(-pid, 'SIGSTOP'), () => process.kill(-pid, 'SIGCONT')).sort((a, b) => a - b);
  process.kill(-pid, 'SIGKILL');
  await sleep(100);
  await cgroup.destroy();
  const p50c = percentile(viaCgroup, 50);
  const p50s = percentile(viaSignals, 50);
  console.log(
    `freeze + thaw per move (${moves} moves, ${layers.cgroup.version} freezer): cgroup ${p50c.toFixed(1)} µs p50 (p99 ${percentile(viaCgroup, 99).toFixed(1)}), ` +
      `SIGSTOP/SIGCONT of the process group ${p50s.toFixed(1)} µs p50 (p99 ${percentile(viaSignals, 99).toFixed(1)}); ratio ${(p50c / p50s).toFixed(2)}x. ` +
      'Signals are used where seccomp proves the player owns no other process (its pids are fixed at start); the cgroup elsewhere.',
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
