/**
 * `npm run bench:batch`: a synthetic class (default 40 generated submissions of mixed strength, some broken)
 * graded on all cores — wall time, games/s, CPU utilisation of the machine — then the same class again in a
 * child process killed with kill -9 half-way and resumed, checking that the resume replays no finished game.
 *
 *   node dist/scripts/bench-batch.js [--students 40] [--jobs <cores>]
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { resolveAssignment } from '../grading/assignment.js';
import { openSubmissions } from '../grading/batch/input.js';
import { BATCH_JOURNAL_FILE, BatchJournal } from '../grading/batch/journal-db.js';
import { runBatch, type BatchOutcome } from '../grading/batch/runner.js';
import { packageFile } from '../grading/package-root.js';
import { isAlive } from '../harness/sandbox/process-tree.js';
import { count } from '../grading/words.js';

const ASSIGNMENT_JSON = {
  title: 'Batch benchmark',
  moveTimeoutMs: 1000,
  constructTimeoutMs: 2000,
  interfaceCheck: { points: 10 },
  opponents: [
    { name: 'random', games: 2, points: 40, seed: 11, scoring: { rule: 'linear', minWinRate: 0, fullWinRate: 1 } },
    { name: 'greedy', games: 2, points: 50, seed: 12, openingMoves: 2, scoring: { rule: 'linear', minWinRate: 0, fullWinRate: 1 } },
  ],
};

const sample = (kind: string): string => readFileSync(packageFile('tests', 'fixtures', 'students', kind, 'AIPlayer.ts'), 'utf8');

/** Mixed strength (weak, fair, strong samples) and one broken kind in eight: no export, a syntax error, a crash. */
function submission(index: number): string {
  const broken = ['export class Player {}\n', 'export class AIPlayer { getMove( }\n', 'export class AIPlayer { getMove() { process.exit(1); } }\n'];
  const body = index % 8 === 7 ? broken[Math.floor(index / 8) % broken.length] : sample(['weak', 'fair', 'strong'][index % 3]);
  // Distinct code per student (esbuild drops comments): identical submissions would share their games.
  return `${body}\nexport const generatedStudent = ${index};\n`;
}

function makeClass(students: number): string {
  const dir = mkdtempSync(join(tmpdir(), 'referee-bench-class-'));
  for (let index = 0; index < students; index++) {
    const folder = join(dir, `student${String(index).padStart(3, '0')}`);
    mkdirSync(folder);
    writeFileSync(join(folder, 'AIPlayer.ts'), submission(index));
  }
  return dir;
}

/** Busy and total jiffies of all cores (/proc/stat), for the machine's utilisation over a run. */
function cpuTimes(): { busy: number; total: number } {
  const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
  const total = fields.reduce((sum, value) => sum + value, 0);
  const idle = fields[3] + (fields[4] ?? 0);
  return { busy: total - idle, total };
}

function journalStats(outDir: string): { games: number; maxPlays: number } {
  const journal = BatchJournal.open(join(outDir, BATCH_JOURNAL_FILE), { readonly: true });
  try {
    return journal.gameStats();
  } finally {
    journal.close();
  }
}

async function grade(classDir: string, outDir: string, jobs: number, resume: boolean, onWorker?: (pid: number) => void): Promise<BatchOutcome> {
  const input = await openSubmissions(classDir);
  try {
    return await runBatch({
      input,
      assignment: resolveAssignment(ASSIGNMENT_JSON),
      assignmentSource: 'bench',
      outDir,
      jobs,
      resume,
      onEvent: (event) => {
        if (event.type === 'student-start') onWorker?.(event.worker);
      },
    });
  } finally {
    input.close();
  }
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

function option(name: string, fallback: number): number {
  const at = process.argv.indexOf(name);
  return at >= 0 ? Number(process.argv[at + 1]) : fallback;
}

async function main(): Promise<void> {
  if (process.argv[2] === '--child') {
    const [classDir, outDir, jobs] = process.argv.slice(3);
    await grade(classDir, outDir, Number(jobs), false, (pid) => console.log(`worker ${pid}`));
    return;
  }
  const students = option('--students', 40);
  const jobs = option('--jobs', availableParallelism());
  const classDir = makeClass(students);
  const work = mkdtempSync(join(tmpdir(), 'referee-bench-out-'));
  console.log(`Batch benchmark: ${students} generated students (every 8th broken), ${count(jobs, 'job')}, ${count(availableParallelism(), 'core')}`);

  const cpuBefore = cpuTimes();
  const started = performance.now();
  const full = await grade(classDir, join(work, 'full'), jobs, false);
  const seconds = (performance.now() - started) / 1000;
  const cpuAfter = cpuTimes();
  const utilisation = (cpuAfter.busy - cpuBefore.busy) / (cpuAfter.total - cpuBefore.total);
  const failed = full.students.filter((student) => student.status === 'error' || !student.interfaceCheck.passed).length;
  console.log(`full run      ${seconds.toFixed(1)} s wall, ${full.gamesPlayed} games, ${(full.gamesPlayed / seconds).toFixed(2)} games/s, ` +
    `${(seconds / students).toFixed(2)} s per student, CPU ${(100 * utilisation).toFixed(0)}% of all cores; ${failed} failed the check or errored`);

  // Kill -9 half-way, in a child process, then resume here.
  const outDir = join(work, 'killed');
  const script = fileURLToPath(import.meta.url);
  const child = spawn(process.execPath, [script, '--child', classDir, outDir, String(jobs)], { stdio: ['ignore', 'pipe', 'inherit'] });
  const workers: number[] = [];
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    for (const match of chunk.matchAll(/worker (\d+)/g)) workers.push(Number(match[1]));
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const half = Math.ceil(full.gamesPlayed / 2);
  for (;;) {
    await sleep(100);
    try {
      if (journalStats(outDir).games >= half) break;
    } catch {
      // the journal is not there yet
    }
  }
  child.kill('SIGKILL');
  await exited;
  while (workers.some(isAlive)) await sleep(50);
  const before = journalStats(outDir);
  const resumeStarted = performance.now();
  const resumed = await grade(classDir, outDir, jobs, true);
  const resumeSeconds = (performance.now() - resumeStarted) / 1000;
  const after = journalStats(outDir);
  const replayedNone = after.maxPlays === 1 && resumed.gamesPlayed === full.gamesPlayed - before.games && after.games === full.gamesPlayed;
  console.log(`kill -9 at    ${before.games} of ${full.gamesPlayed} games journaled`);
  console.log(`resume        ${resumeSeconds.toFixed(1)} s wall, ${resumed.gamesPlayed} games played, ${resumed.gamesReused} reused from the journal, ` +
    `most plays of any game: ${after.maxPlays} → ${replayedNone ? 'no finished game was replayed' : 'A FINISHED GAME WAS REPLAYED'}`);
  rmSync(classDir, { recursive: true, force: true });
  rmSync(work, { recursive: true, force: true });
  if (!replayedNone) process.exitCode = 1;
}

await main();
