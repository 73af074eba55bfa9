/**
 * `npm run bench -- landlock`: what the Landlock layer costs where it runs (no bubblewrap), and how long a player
 * computes after answering before it is frozen.
 *   - the launcher's own cost at start-up: exec of /bin/true through it (ruleset, seccomp, exec) vs directly;
 *   - a player's start (spawn → hello → loaded → ready) without bubblewrap, with and without Landlock;
 *   - the per-move round trip with and without Landlock (it adds nothing per move: it is installed once);
 *   - after-answer compute: a player that spins after each answer reports the CPU it got before it was stopped.
 * Prints figures and ratios; asserts nothing.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { cacheDir } from '../harness/sandbox/cache-dir.js';
import { confinementFor, launcherArgs } from '../harness/sandbox/confinement.js';
import { detectLayers, type Layers } from '../harness/sandbox/layers.js';
import { SandboxPlayer } from '../harness/sandbox/sandbox-player.js';
import { seccompProgram } from '../harness/sandbox/seccomp.js';
import { compileSubmission } from '../harness/submission/compile.js';
import { resolveSubmission } from '../harness/submission/resolve.js';
import { NODE_RANDOM_PLAYER, percentile, reversi, roundTripMicros } from './bench-support.js';

// Spins after each answer (a timer chain: the event loop is free, as in an async search) and, at the next ask,
// answers with the CPU it used between its previous answer and that ask.
const SPINNER = `
let after = null;
let spun = 0;
const spin = () => { const until = performance.now() + 0.1; while (performance.now() < until); setImmediate(spin); };
export class AIPlayer {
  constructor(color) { this.color = color; }
  getMove(board) {
    const used = after === null ? 0 : (process.cpuUsage(after).user + process.cpuUsage(after).system) / 1000;
    if (!spun) { spun = 1; setImmediate(spin); }
    after = process.cpuUsage();
    return JSON.stringify({ move: board.getLegalActions(this.color)[0], usedMs: used });
  }
}
`;

async function player(name: string, source: string, layers: Layers): Promise<SandboxPlayer> {
  const folder = join(cacheDir(), 'bench', name);
  mkdirSync(folder, { recursive: true, mode: 0o755 });
  writeFileSync(join(folder, 'AIPlayer.js'), source, { mode: 0o644 });
  const submission = resolveSubmission(join(folder, 'AIPlayer.js'));
  const compiled = await compileSubmission(submission);
  return new SandboxPlayer({ name, bundlePath: compiled.bundlePath, submissionRoot: submission.root, game: 'reversi', layers });
}

const info = { color: 'X', timeLimitMs: 10_000, moveNumber: 1, timeUsedMs: 0, attempt: 1, attemptsAllowed: 3, lastMove: null };
const state = reversi.encode(reversi.initial(1));

function launcherCost(launcher: string, runs: number): [number, number] {
  const args = launcherArgs(launcher, confinementFor(['/bin/true'], []), seccompProgram('no-fork').toString('hex'));
  const time = (command: string[]): number[] => {
    const times: number[] = [];
    for (let i = 0; i < runs; i++) {
      const started = performance.now();
      spawnSync(command[0], command.slice(1), { stdio: 'ignore' });
      times.push(performance.now() - started);
    }
    return times.sort((a, b) => a - b);
  };
  return [percentile(time(['/bin/true']), 50), percentile(time([...args, '/bin/true']), 50)];
}

async function startMs(layers: Layers, runs: number): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const p = await player('landlock-start', NODE_RANDOM_PLAYER, layers);
    const started = performance.now();
    await p.startGame({ game: 'reversi', side: 0, seed: 1, initialState: state, timeLimitMs: 10_000 });
    times.push(performance.now() - started);
    await p.close();
  }
  return percentile(times.sort((a, b) => a - b), 50);
}

async function afterAnswer(layers: Layers, moves: number, gapMs: number): Promise<number[]> {
  const p = await player('after-answer', SPINNER, layers);
  const used: number[] = [];
  try {
    await p.startGame({ game: 'reversi', side: 0, seed: 1, initialState: state, timeLimitMs: 10_000 });
    for (let i = 0; i <= moves; i++) {
      const answer = await p.requestMove({ state, info });
      if (i > 0 && answer.kind === 'move') used.push((JSON.parse(String(answer.value)) as { usedMs: number }).usedMs);
      await new Promise((done) => setTimeout(done, gapMs)); // the opponent's turn
    }
  } finally {
    await p.close();
  }
  return used.sort((a, b) => a - b);
}

export async function benchLandlock(): Promise<void> {
  console.log('## Landlock (no bubblewrap)');
  const detected = detectLayers();

  const saved = process.env.REFEREE_SANDBOX_NO_BWRAP;
  process.env.REFEREE_SANDBOX_NO_BWRAP = '1';
  const noBwrap = detectLayers({ fresh: true });
  if (saved === undefined) delete process.env.REFEREE_SANDBOX_NO_BWRAP;
  else process.env.REFEREE_SANDBOX_NO_BWRAP = saved;
  const landlock = noBwrap.landlock;
  if (!landlock?.launcher || landlock.abi === 0) {
    console.log(`Landlock is not available here: ${landlock?.problem ?? 'bubblewrap is in use'}`);
    return;
  }
  const withLandlock: Layers = noBwrap;
  const without: Layers = { ...noBwrap, landlock: null };
  const [bare, launched] = launcherCost(landlock.launcher, 200);
  console.log(`launcher at start-up (200 execs of /bin/true): ${launched.toFixed(2)} ms through it vs ${bare.toFixed(2)} ms direct: +${(launched - bare).toFixed(2)} ms (goal ≤ 5 ms)`);
  const [startWithout, startWith] = [await startMs(without, 10), await startMs(withLandlock, 10)];
  console.log(`player start to ready, p50 of 10: ${startWith.toFixed(1)} ms with Landlock vs ${startWithout.toFixed(1)} ms without (${(startWith / startWithout).toFixed(2)}x)`);
  const [moveWithout, moveWith] = [
    await roundTripMicros(await player('landlock-rt-a', NODE_RANDOM_PLAYER, without), 2000, 200),
    await roundTripMicros(await player('landlock-rt-b', NODE_RANDOM_PLAYER, withLandlock), 2000, 200),
  ];
  console.log(`per-move round trip p50: ${percentile(moveWith, 50).toFixed(0)} µs with Landlock vs ${percentile(moveWithout, 50).toFixed(0)} µs without (${(percentile(moveWith, 50) / percentile(moveWithout, 50)).toFixed(2)}x)`);
  for (const [name, layers] of [['bubblewrap', detected.bwrap ? detected : null], ['Landlock', withLandlock]] as const) {
    if (!layers) continue;
    const used = await afterAnswer(layers, 60, 30);
    console.log(
      `after-answer compute (${name}, 60 answers, a player spinning after each): p50 ${percentile(used, 50).toFixed(2)} ms, p90 ${percentile(used, 90).toFixed(2)} ms, ` +
        `max ${used[used.length - 1].toFixed(2)} ms of CPU before it was stopped (stated grace 2 ms; was 0–27 ms with a 2 ms timer)`,
    );
  }
}
