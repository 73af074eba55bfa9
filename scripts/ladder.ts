/**
 * Calibrates a game's reference ladder: plays every adjacent pair of levels (or every pair with --all) over
 * N colour-balanced games from seeded random openings, two pairs at a time in worker threads, and prints
 * W-D-L, score with its Wilson interval, the Elo difference ± 95% and a cumulative Elo per level (lowest = 0).
 * Exits 1 if some level fails to score above 50% against the level below it.
 *
 *   npm run ladder -- --game reversi --games 100 --seed 1
 */
import { availableParallelism } from 'node:os';
import { Worker, isMainThread, parentPort } from 'node:worker_threads';
import { Command, InvalidArgumentError } from 'commander';
import { eloWithError, formatWdl, summariseWdl, Z95 } from '../grading/stats.js';
import { getGame } from '../harness/games/registry.js';
import { playCalibrationSeries, type CalibrationOptions } from '../reference-ai/calibration.js';
import { referenceNames } from '../reference-ai/index.js';

/** A pair to measure; `a` is the level higher in the ladder. */
type PairJob = CalibrationOptions;

interface PairResult {
  job: PairJob;
  wins: number;
  draws: number;
  losses: number;
  /** Games lost by forfeit rather than on the board (should be 0 for trusted agents). */
  forfeits: number;
  seconds: number;
}

/** One pair's calibration series, in this thread. */
async function playPair(job: PairJob): Promise<PairResult> {
  const started = process.hrtime.bigint();
  const result = await playCalibrationSeries(job);
  const [tally] = result.tally;
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  return { job, wins: tally.wins, draws: tally.draws, losses: tally.losses, forfeits: result.games - result.scoreEnds, seconds };
}

/** Worker side: play each job posted and post its result back. */
function serveJobs(): void {
  parentPort!.on('message', (job: PairJob) => {
    playPair(job).then(
      (result) => parentPort!.postMessage({ result }),
      (error: unknown) => parentPort!.postMessage({ error: error instanceof Error ? error.message : String(error) }),
    );
  });
}

/** Runs the jobs on `workers` threads, reporting each result as it lands; results come back in job order. */
async function runJobs(jobs: PairJob[], workers: number, onResult: (result: PairResult) => void): Promise<PairResult[]> {
  const results: PairResult[] = new Array(jobs.length);
  let next = 0;
  const runWorker = (): Promise<void> =>
    new Promise((resolve, reject) => {
      const worker = new Worker(new URL(import.meta.url));
      let current = -1;
      const dispatch = (): void => {
        if (next >= jobs.length) {
          void worker.terminate().then(() => resolve());
          return;
        }
        current = jobs.length - 1 - next++; // top of the ladder first: the strong levels' pairs take longest
        worker.postMessage(jobs[current]);
      };
      worker.on('message', (message: { result?: PairResult; error?: string }) => {
        if (message.error !== undefined || !message.result) {
          void worker.terminate();
          reject(new Error(`${jobs[current].a} vs ${jobs[current].b}: ${message.error}`));
          return;
        }
        results[current] = message.result;
        onResult(message.result);
        dispatch();
      });
      worker.on('error', reject);
      dispatch();
    });
  await Promise.all(Array.from({ length: Math.min(workers, jobs.length) }, runWorker));
  return results;
}

/**
 * Elo ± error for one step, finite even for a clean sweep: a 100% (0%) score is counted as one win (loss)
 * turned into a draw, half a game short of it, and flagged so the table can print "≥".
 */
function stepElo(result: PairResult): { elo: number; error: number; bounded: boolean } {
  let { wins, draws, losses } = result;
  const bounded = draws === 0 && (wins === 0 || losses === 0);
  if (bounded && wins > 0) [wins, draws] = [wins - 1, 1];
  else if (bounded && losses > 0) [losses, draws] = [losses - 1, 1];
  return { ...eloWithError(wins, draws, losses), bounded };
}

const pad = (text: string, width: number): string => text.padEnd(width);
const signed = (x: number): string => `${x >= 0 ? '+' : ''}${x.toFixed(0)}`;

function positiveInt(value: string): number {
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n <= 0) throw new InvalidArgumentError('give a positive whole number, e.g. 100');
  return n;
}

function nonNegativeInt(value: string): number {
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n < 0) throw new InvalidArgumentError('give a whole number ≥ 0, e.g. 4');
  return n;
}

function integer(value: string): number {
  const n = Number(value);
  if (!Number.isSafeInteger(n)) throw new InvalidArgumentError('give a whole number, e.g. 1');
  return n;
}

async function main(): Promise<void> {
  const program = new Command()
    .name('ladder')
    .description('Measure the reference ladder of a game: adjacent pairs (or all pairs), W-D-L, score, Elo')
    .option('--game <id>', 'game registry id', 'reversi')
    .option('--games <n>', 'games per pair (even: each opening is played with both colours)', positiveInt, 100)
    .option('--seed <n>', 'series seed (fixes every opening and every game)', integer, 1)
    .option('--all', 'play every pair, not only neighbours', false)
    .option('--opening-plies <n>', 'random plies before the agents take over', nonNegativeInt, 4)
    .option('--workers <n>', 'worker threads', positiveInt, Math.min(2, availableParallelism()))
    .parse();
  const options = program.opts<{ game: string; games: number; seed: number; all: boolean; openingPlies: number; workers: number }>();

  const game = getGame(options.game);
  const names = referenceNames(game.id);
  const jobs: PairJob[] = [];
  for (let upper = 1; upper < names.length; upper++) {
    for (let lower = options.all ? 0 : upper - 1; lower < upper; lower++) {
      jobs.push({ gameId: game.id, a: names[upper], b: names[lower], games: options.games, seed: options.seed, openingPlies: options.openingPlies });
    }
  }

  console.log(
    `${game.title}: ladder ${names.join(' < ')}\n` +
      `${options.games} games per pair, seed ${options.seed}, ${options.openingPlies} random opening plies, ` +
      `${options.workers} workers\n`,
  );
  const results = await runJobs(jobs, options.workers, (r) => {
    process.stderr.write(`  done: ${r.job.a} vs ${r.job.b} ${r.wins}-${r.draws}-${r.losses} (${r.seconds.toFixed(1)} s)\n`);
  });

  const pairWidth = Math.max(...jobs.map((j) => `${j.a} vs ${j.b}`.length)) + 2;
  console.log(`${pad('pair', pairWidth)}W-D-L  score [95% Wilson]  Elo ± 95%`);
  for (const r of results) {
    const line = formatWdl(summariseWdl(r.wins, r.draws, r.losses));
    const forfeits = r.forfeits > 0 ? `  (${r.forfeits} forfeits!)` : '';
    console.log(`${pad(`${r.job.a} vs ${r.job.b}`, pairWidth)}${line}${forfeits}`);
  }

  console.log(`\n${pad('level', pairWidth)}cumulative Elo (${names[0]} = 0; ≥: a clean sweep, counted as one game drawn)`);
  let elo = 0;
  let variance = 0;
  let atLeast = false;
  const failures: string[] = [];
  console.log(`${pad(names[0], pairWidth)}0`);
  for (let upper = 1; upper < names.length; upper++) {
    const step = results.find((r) => r.job.a === names[upper] && r.job.b === names[upper - 1])!;
    const bounded = stepElo(step);
    elo += bounded.elo;
    variance += (bounded.error / Z95) ** 2;
    atLeast ||= bounded.bounded;
    const error = Number.isFinite(variance) ? (Z95 * Math.sqrt(variance)).toFixed(0) : 'inf';
    console.log(`${pad(names[upper], pairWidth)}${atLeast ? '≥ ' : ''}${signed(elo)} ± ${error}`);
    if (step.wins + step.draws / 2 <= (step.wins + step.draws + step.losses) / 2) {
      failures.push(`${names[upper]} does not score above 50% against ${names[upper - 1]}`);
    }
  }
  if (failures.length > 0) {
    console.log(`\nladder order violated: ${failures.join('; ')}`);
    process.exitCode = 1;
  }
}

if (isMainThread) {
  main().catch((error: unknown) => {
    console.error(`ladder: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(2); // other workers may still be busy; a failed calibration is not worth waiting for
  });
} else {
  serveJobs();
}
