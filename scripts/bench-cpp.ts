/**
 * C++ figures for `npm run bench -- cpp`: the compile step (g++ inside the sandbox) cold and from the cache, and
 * the per-move round trip of a C++ player (the C++ host, dlopen, getPoint) on the Connect Four course's board next
 * to the same random player in JavaScript through the node host. Prints figures; asserts nothing.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { getGame } from '../harness/games/registry.js';
import { cacheDir } from '../harness/sandbox/cache-dir.js';
import { findCompiler } from '../harness/sandbox/cpp-runtime.js';
import { detectLayers } from '../harness/sandbox/layers.js';
import { SandboxPlayer } from '../harness/sandbox/sandbox-player.js';
import { compileSubmission } from '../harness/submission/compile.js';
import { compileCppSubmission } from '../harness/submission/compile-cpp.js';
import { resolveSubmission, runtimeOf } from '../harness/submission/resolve.js';
import { NODE_RANDOM_PLAYER, percentile } from './bench-support.js';

const GAME = 'connect4-nogo';

/** A random open column through the SDK's interface, as the course's weakest test AI plays. */
const CPP_RANDOM = `#include "Point.h"
#include "Strategy.h"
#include <cstdlib>

extern "C" Point* getPoint(const int M, const int N, const int* top, const int* _board,
	const int lastX, const int lastY, const int noX, const int noY) {
	int open[16], k = 0;
	for (int y = 0; y < N; y++) if (top[y] > 0) open[k++] = y;
	int y = open[rand() % k];
	return new Point(top[y] - 1, y);
}

extern "C" void clearPoint(Point* p) { delete p; }
`;

function write(name: string, file: string, source: string): string {
  const folder = join(cacheDir(), 'bench', name);
  mkdirSync(folder, { recursive: true, mode: 0o755 });
  writeFileSync(join(folder, file), source, { mode: 0o644 });
  return folder;
}

async function player(folder: string, name: string): Promise<SandboxPlayer> {
  const submission = resolveSubmission(folder);
  const compiled = await compileSubmission(submission);
  return new SandboxPlayer({ name, bundlePath: compiled.bundlePath, submissionRoot: submission.root, game: GAME, runtime: runtimeOf(submission.language) });
}

async function roundTrips(one: SandboxPlayer, moves: number, warmup: number): Promise<number[]> {
  const game = getGame(GAME);
  const state = game.encode(game.initial(7));
  const info = { color: 'X', timeLimitMs: 10_000, moveNumber: 1, timeUsedMs: 0, attempt: 1, attemptsAllowed: 1, lastMove: null };
  try {
    await one.startGame({ game: GAME, side: 0, seed: 7, initialState: state, timeLimitMs: 10_000 });
    const times: number[] = [];
    for (let i = 0; i < moves + warmup; i++) {
      const started = performance.now();
      await one.requestMove({ state, info });
      if (i >= warmup) times.push((performance.now() - started) * 1000);
    }
    return times.sort((a, b) => a - b);
  } finally {
    await one.close();
  }
}

/**
 * What confining the compiler costs (issue #28): a cold compile of the same source under bubblewrap (with the
 * compile's seccomp filter), under the Landlock launcher (Landlock, seccomp, the not-found preload) and with the
 * launcher told Landlock is refused (seccomp only). Medians of 3 fresh sources each.
 */
async function compileConfinements(): Promise<void> {
  const modes: { name: string; env: Record<string, string> }[] = [
    { name: 'bubblewrap + seccomp', env: {} },
    { name: 'Landlock + seccomp + preload', env: { REFEREE_SANDBOX_NO_BWRAP: '1' } },
    { name: 'seccomp only (Landlock refused)', env: { REFEREE_SANDBOX_NO_BWRAP: '1', REFEREE_SANDBOX_NO_LANDLOCK: '1' } },
  ];
  const medians: number[] = [];
  for (const mode of modes) {
    const saved = { ...process.env };
    Object.assign(process.env, mode.env);
    try {
      const layers = detectLayers({ fresh: true });
      const times: number[] = [];
      for (let i = 0; i < 3; i++) {
        const folder = write(`cpp-confine-${i}`, 'Strategy.cpp', `${CPP_RANDOM}// ${mode.name} ${Date.now()}-${process.pid}-${i}\n`);
        const started = performance.now();
        await compileCppSubmission(resolveSubmission(folder), { layers });
        times.push(performance.now() - started);
      }
      medians.push(percentile(times.sort((a, b) => a - b), 50));
    } finally {
      for (const key of Object.keys(mode.env)) if (saved[key] === undefined) delete process.env[key];
    }
  }
  console.log('  cold compile by what confines the compiler (median of 3):');
  modes.forEach((mode, i) => console.log(`    ${mode.name.padEnd(34)} ${medians[i].toFixed(0).padStart(5)} ms   ${(medians[i] / medians[0]).toFixed(2)}x bubblewrap's`));
}

export async function benchCpp(): Promise<void> {
  console.log('## C++ submissions (connect4-nogo, the SDK interface)');
  const compiler = findCompiler();
  if (!compiler) {
    console.log('  skipped: no g++ on this machine');
    return;
  }
  // A fresh comment makes a source the cache has never seen: the cold figure is a real g++ run in the sandbox.
  const folder = write('cpp-random', 'Strategy.cpp', `${CPP_RANDOM}// ${Date.now()}-${process.pid}\n`);
  let started = performance.now();
  await compileSubmission(resolveSubmission(folder));
  const cold = performance.now() - started;
  started = performance.now();
  await compileSubmission(resolveSubmission(folder));
  const cached = performance.now() - started;
  console.log(`  compile (g++ ${compiler.version}, -O2, in the sandbox): cold ${cold.toFixed(0)} ms, cached ${cached.toFixed(1)} ms (${(cold / cached).toFixed(0)}x)`);
  await compileConfinements();

  const moves = 2000;
  const cpp = await roundTrips(await player(folder, 'cpp-random'), moves, 200);
  const node = await roundTrips(await player(write('node-random-c4', 'AIPlayer.js', NODE_RANDOM_PLAYER), 'node-random'), moves, 200);
  const row = (name: string, times: number[]) => `  ${name.padEnd(28)} p50 ${percentile(times, 50).toFixed(0).padStart(5)} µs   p90 ${percentile(times, 90).toFixed(0).padStart(5)} µs`;
  console.log(`  per-move round trip, ${moves} moves on the opening (warm player, frozen between moves):`);
  console.log(row('C++ host (getPoint)', cpp));
  console.log(row('node host (getMove)', node));
  console.log(`  C++ / node at the median: ${(percentile(cpp, 50) / percentile(node, 50)).toFixed(2)}`);
}
