/**
 * `npm run bench:queue`: the same games played by the local fork pool (1 and 2 processes) and through a real
 * redis-server by `referee worker`s (1 and 2 workers, one game at a time each) — games/s, and the queue's
 * overhead per game (queue with one worker vs the fork pool with one process, same games); then the stall
 * recovery time: a worker killed mid-game, seconds until the other starts the game again.
 *
 *   node dist/scripts/bench-queue.js [--games 192]
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { deriveSeed } from '../harness/referee/seed.js';
import { resolveAssignment } from '../grading/assignment.js';
import { defaultGameWorker, ForkPool } from '../grading/batch/pool.js';
import { harnessVersion, packageFile } from '../grading/package-root.js';
import { artefactSpec, buildArtefact, type Artefact } from '../grading/pool/artefact.js';
import type { GameJob, GamePool } from '../grading/pool/job.js';
import { QueuePool } from '../grading/queue/pool.js';
import { ensureKeyFile } from '../grading/queue/signing.js';
import { DEFAULT_LOCK_MS } from '../grading/queue/worker.js';
import { platformGamesPerSecond } from './bench-support.js';
import { count } from '../grading/words.js';

const STUDENTS = 6;
const config = resolveAssignment({ title: 'bench', moveTimeoutMs: 1000, constructTimeoutMs: 2000, opponents: [{ name: 'random', games: 2, points: 1 }] }).referee;

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

async function makeArtefacts(): Promise<Artefact[]> {
  const dir = mkdtempSync(join(tmpdir(), 'referee-bench-queue-'));
  const artefacts: Artefact[] = [];
  for (let index = 0; index < STUDENTS; index++) {
    mkdirSync(join(dir, `s${index}`));
    // The weak sample: first legal move, distinct code per student.
    const source = `import type { Board } from 'referee';\nexport const student = ${index};\nexport class AIPlayer {\n  constructor(private readonly color: 'X' | 'O') {}\n  getMove(board: Board): string { return board.getLegalActions(this.color)[0]; }\n}\n`;
    writeFileSync(join(dir, `s${index}`, 'AIPlayer.ts'), source);
    artefacts.push(await buildArtefact(join(dir, `s${index}`, 'AIPlayer.ts')));
  }
  rmSync(dir, { recursive: true, force: true });
  return artefacts;
}

/** Games per student, in a row as a batch queues them (the workers' players stay warm). */
const PER_STUDENT = 8;

/** `games` jobs, a student's games in a row, against random and greedy, alternating colours; keys unique to the run. */
function jobs(artefacts: Artefact[], games: number, run: string): GameJob[] {
  return Array.from({ length: games }, (_, index) => {
    const student = Math.floor(index / PER_STUDENT) % artefacts.length;
    const artefact = artefacts[student];
    const opponent = { kind: 'reference' as const, name: index % 4 < 2 ? 'random' : 'greedy', ai: index % 4 < 2 ? 'random' : 'greedy', openingMoves: 0 };
    const spec = artefactSpec(artefact, `s${student}`);
    return {
      key: `bench-${run}-${index}`,
      harness: harnessVersion(),
      game: 'reversi',
      config,
      seed: deriveSeed(7, index),
      players: index % 2 === 0 ? [spec, opponent] : [opponent, spec],
      label: `bench #${index}`,
    } satisfies GameJob;
  });
}

/** Wall time, and the sum of the games' own times (the rest of lanes × wall is the pool's overhead). */
async function timed(pool: GamePool, list: GameJob[]): Promise<{ seconds: number; gameMs: number }> {
  const started = performance.now();
  const played = await Promise.all(list.map(async (job) => {
    const game = await pool.play(job);
    await game.done?.();
    return game;
  }));
  return { seconds: (performance.now() - started) / 1000, gameMs: played.reduce((sum, game) => sum + game.wallMs, 0) };
}

/** Each worker's output so far (the stall measurement watches it). */
const outputs = new Map<ChildProcess, string>();

function startWorker(url: string, name: string, keyFile: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, [packageFile('dist', 'cli', 'index.js'), 'worker', '--queue', url, '--key-file', keyFile, '--concurrency', '1', '--name', name], { stdio: ['ignore', 'pipe', 'inherit'] });
  outputs.set(child, '');
  return new Promise((resolve) => {
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      outputs.set(child, outputs.get(child)! + chunk);
      if (chunk.includes('waiting for games')) resolve(child);
    });
  });
}

/**
 * Stall recovery with the default lock: a slow game (the student thinks 100 ms a move) is started; the worker
 * playing it is killed with SIGKILL; seconds until the other worker starts the game again.
 */
async function stallRecovery(pool: GamePool, workers: ChildProcess[]): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'referee-bench-stall-'));
  writeFileSync(join(dir, 'AIPlayer.ts'), `import type { Board } from 'referee';\nexport class AIPlayer {\n  constructor(private readonly color: 'X' | 'O') {}\n  getMove(board: Board): string { const until = Date.now() + 100; while (Date.now() < until) { /* think */ } return board.getLegalActions(this.color)[0]; }\n}\n`);
  const artefact = await buildArtefact(join(dir, 'AIPlayer.ts'));
  rmSync(dir, { recursive: true, force: true });
  await pool.publish(artefact);
  const job = { ...jobs([artefact], 1, `stall-${Date.now()}`)[0], label: 'stall #1' };
  const played = pool.play(job).then((game) => game.done?.());
  let victim: ChildProcess | undefined;
  while (!victim) {
    victim = workers.find((worker) => outputs.get(worker)!.includes('playing stall #1'));
    await sleep(20);
  }
  await sleep(1000);
  const other = workers.find((worker) => worker !== victim)!;
  const mark = outputs.get(other)!.length;
  const killed = performance.now();
  victim.kill('SIGKILL');
  while (!outputs.get(other)!.slice(mark).includes('playing stall #1')) await sleep(20);
  const seconds = (performance.now() - killed) / 1000;
  await played;
  return seconds;
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const games = Number(argv[argv.indexOf('--games') + 1] ?? 192) || 192;
  const artefacts = await makeArtefacts();
  console.log(`Queue benchmark: ${games} Reversi games (a sandboxed first-legal-move student vs random/greedy), ${count(availableParallelism(), 'core')}, load ${(await import('node:os')).loadavg()[0].toFixed(1)}`);
  const rows: { name: string; seconds: number; rate: number; overheadMs: number }[] = [];
  const report = (name: string, lanes: number, result: { seconds: number; gameMs: number }): void => {
    const rate = games / result.seconds;
    // Per game, the lane time not spent inside a game: dispatch, IPC or Redis round trips, waiting.
    const overheadMs = (result.seconds * 1000 * lanes - result.gameMs) / games;
    rows.push({ name, seconds: result.seconds, rate, overheadMs });
    console.log(
      `${name.padEnd(28)} ${result.seconds.toFixed(2).padStart(6)} s  ${rate.toFixed(1).padStart(6)} games/s  (${(rate / platformGamesPerSecond()).toFixed(1)}x the platform's game.py, ${platformGamesPerSecond().toFixed(1)} games/s in this run)  ` +
        `mean game ${(result.gameMs / games).toFixed(1)} ms, outside games ${overheadMs.toFixed(1)} ms/game/lane`,
    );
  };

  for (const size of [1, 2]) {
    const pool = new ForkPool(defaultGameWorker(), size);
    for (const artefact of artefacts) await pool.publish(artefact);
    await timed(pool, jobs(artefacts, size * 2 * STUDENTS, `warm-fork${size}`));
    report(`local fork pool, ${size} process${size > 1 ? 'es' : ''}`, size, await timed(pool, jobs(artefacts, games, `fork${size}-${Date.now()}`)));
    await pool.close();
  }

  const dir = mkdtempSync(join(tmpdir(), 'referee-bench-redis-'));
  const port = await freePort();
  const redis = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--appendonly', 'yes', '--appendfsync', 'everysec', '--save', ''], { stdio: 'ignore' });
  const url = `redis://127.0.0.1:${port}/0`;
  const workers: ChildProcess[] = [];
  try {
    await sleep(300);
    const keyFile = join(dir, 'queue.key');
    const { key } = ensureKeyFile(keyFile);
    const pool = await QueuePool.open({ url, passwordInUrl: false }, { size: 2, key });
    for (const artefact of artefacts) await pool.publish(artefact);
    for (const count of [1, 2]) {
      while (workers.length < count) workers.push(await startWorker(url, `bench${workers.length + 1}`, keyFile));
      await timed(pool, jobs(artefacts, count * 2 * STUDENTS, `warm-queue${count}`));
      report(`queue, ${count} worker${count > 1 ? 's' : ''}`, count, await timed(pool, jobs(artefacts, games, `queue${count}-${Date.now()}`)));
    }
    const seconds = await stallRecovery(pool, workers);
    console.log(`stall recovery: a worker killed (SIGKILL) mid-game, the other started the game again after ${seconds.toFixed(1)} s (default lock ${DEFAULT_LOCK_MS / 1000} s; goal ≤ 15 s)`);
    await pool.close();
  } finally {
    for (const worker of workers) worker.kill('SIGTERM');
    await Promise.all(workers.map((worker) => new Promise((resolve) => (worker.exitCode !== null ? resolve(null) : worker.once('exit', resolve)))));
    redis.kill('SIGTERM');
    await new Promise((resolve) => redis.once('exit', resolve));
    rmSync(dir, { recursive: true, force: true });
  }
  const fork1 = rows.find((row) => row.name.startsWith('local fork pool, 1'))!;
  const queue1 = rows.find((row) => row.name === 'queue, 1 worker')!;
  const queue2 = rows.find((row) => row.name === 'queue, 2 workers')!;
  const fork2 = rows.find((row) => row.name.startsWith('local fork pool, 2'))!;
  console.log(
    `queue overhead per game: ${(queue1.overheadMs - fork1.overheadMs).toFixed(1)} ms (time outside games, 1 worker vs 1 fork process; ` +
      `wall-time difference ${(((queue1.seconds - fork1.seconds) * 1000) / games).toFixed(1)} ms); ` +
      `queue/local: ${(queue1.rate / fork1.rate).toFixed(2)}x with 1, ${(queue2.rate / fork2.rate).toFixed(2)}x with 2; 2 workers / 1: ${(queue2.rate / queue1.rate).toFixed(2)}x`,
  );
}

await main();
