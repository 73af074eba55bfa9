/**
 * `referee batch <submissions>`: grade a whole class (a folder with one entry per student, or an LMS zip) into
 * out/: per student grade.json, report.html and the exports; for the class index.html and grades.csv. Resumable
 * (--resume), comparable (--compare old-out/).
 * Exit codes: 0 done (whatever the scores), 1 stopped by a full disk, 2 usage or input error, 130 interrupted.
 */
import { availableParallelism } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import cliProgress from 'cli-progress';
import { InvalidArgumentError, type Command } from 'commander';
import type { Assignment } from '../grading/assignment.js';
import { compareBatches, formatComparison } from '../grading/batch/compare.js';
import { DiskFullError } from '../grading/batch/disk-full.js';
import { InputError, openSubmissions, type SubmissionInput } from '../grading/batch/input.js';
import { JournalFormatError } from '../grading/batch/journal-db.js';
import { LAYOUT_NAMES } from '../grading/batch/layout.js';
import { BatchUsageError, GRADES_CSV, runBatch, type BatchEvent, type BatchOutcome } from '../grading/batch/runner.js';
import { DEFAULT_LIMITS } from '../grading/batch/snapshot.js';
import type { StudentSummary } from '../grading/batch/summary.js';
import type { GamePool } from '../grading/pool/job.js';
import { QueueUsageError, redactUrl } from '../grading/queue/connection.js';
import { QueuePool } from '../grading/queue/pool.js';
import { writeReport } from '../reports/render.js';
import { writeClassIndex } from '../reports/class/render.js';
import { positiveInt, UsageError } from './args.js';
import { assignmentArg } from './assignment-arg.js';

interface BatchFlags {
  config?: string;
  game?: string;
  out: string;
  jobs: number;
  resume?: boolean;
  only?: string[];
  compare?: string;
  anonymize?: boolean;
  maxSubmissionMb: number;
  maxFiles: number;
  queue?: string;
}

/** With --queue and no --jobs: how many games the coordinator keeps queued ahead (about half of this). */
const QUEUE_DEFAULT_JOBS = 64;

/** Where the compiled grading worker is, when not beside the runner in dist/ (tests run the sources). */
export const WORKER_ENV = 'REFEREE_BATCH_WORKER';

const idList = (value: string): string[] => {
  const ids = value.split(',').map((id) => id.trim()).filter((id) => id !== '');
  if (ids.length === 0) throw new InvalidArgumentError('must list student ids separated by commas, e.g. alice,bob.');
  return ids;
};

const megabytes = (value: string): number => {
  const number = Number(value);
  if (value.trim() === '' || !Number.isFinite(number) || number <= 0) throw new InvalidArgumentError('must be a number of megabytes > 0, e.g. 5.');
  return number;
};

/** A shell word that pastes back unchanged (POSIX quoting). */
const shellWord = (word: string): string => (/^[\w./:=@%+,-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`);

function resumeCommand(submissions: string, flags: BatchFlags): string {
  const words = ['referee', 'batch', submissions, '--out', flags.out];
  if (flags.config) words.push('--config', flags.config);
  if (flags.only) words.push('--only', flags.only.join(','));
  if (flags.anonymize) words.push('--anonymize');
  words.push('--resume');
  return words.map(shellWord).join(' ');
}

function studentLine(summary: StudentSummary, cached: boolean): string {
  if (summary.status === 'error') return `${summary.id}: not graded — ${summary.error}`;
  const score = `${summary.score} / ${summary.maxScore}`;
  if (!summary.interfaceCheck.passed) return `${summary.id}: ${score} — interface check failed: ${summary.interfaceCheck.reason}`;
  return `${summary.id}: ${score} ${cached ? '(unchanged, from the journal)' : `(${summary.gamesPlayed} games played, ${summary.gamesReused} reused)`}`;
}

/** A live bar on a terminal (games done/total, ETA, failures so far); one line per student otherwise. */
function progressReporter(tty: boolean): { onEvent: (event: BatchEvent) => void; stop: () => void; warnings: string[] } {
  const warnings: string[] = [];
  let bar: cliProgress.SingleBar | null = null;
  let gamesPerStudent = 0;
  let failures = 0;
  let students = 0;
  const seen = new Map<string, number>();
  const onEvent = (event: BatchEvent): void => {
    if (event.type === 'warning') {
      if (tty) warnings.push(event.message);
      else console.error(`warning: ${event.message}`);
      return;
    }
    if (event.type === 'plan') {
      gamesPerStudent = event.gamesPerStudent;
      students = event.students;
      if (tty) {
        bar = new cliProgress.SingleBar(
          {
            format: 'grading {bar} {value}/{total} games | {students} students | ETA {eta_formatted} | failures {failures} | {current}',
            stream: process.stderr,
            hideCursor: true,
            etaBuffer: 50,
          },
          cliProgress.Presets.shades_classic,
        );
        bar.start(Math.max(1, event.toGrade * gamesPerStudent), 0, { students: `0/${students}`, failures: 0, current: '' });
      }
      return;
    }
    if (event.type === 'student-start') {
      bar?.update({ current: event.student });
    } else if (event.type === 'game') {
      seen.set(event.student, (seen.get(event.student) ?? 0) + 1);
      bar?.increment(1, { current: event.student });
    } else if (event.type === 'student-done') {
      const { summary } = event;
      if (summary.status === 'error' || !summary.interfaceCheck.passed) failures += 1;
      if (bar) {
        // Games a student never played (a failed check, an error) count as done for the ETA.
        const skipped = event.cached || (summary.status === 'error' && !seen.has(summary.id)) ? 0 : gamesPerStudent - (seen.get(summary.id) ?? 0);
        bar.increment(Math.max(0, skipped), { students: `${event.done}/${event.total}`, failures });
      } else {
        console.log(`[${event.done}/${event.total}] ${studentLine(summary, event.cached)}`);
      }
    }
  };
  return { onEvent, warnings, stop: () => (bar as cliProgress.SingleBar | null)?.stop() };
}

async function gradeClass(submissions: string, flags: BatchFlags): Promise<BatchOutcome | null> {
  const assignment = assignmentArg(flags.config, flags.game);
  const outDir = resolve(flags.out);
  let input: SubmissionInput;
  try {
    input = await openSubmissions(resolve(submissions));
  } catch (error) {
    if (error instanceof InputError) throw new UsageError(error.message);
    throw error;
  }
  const ignored = input.ignored.length > 0 ? `; ignored ${input.ignored.length} other entr${input.ignored.length === 1 ? 'y' : 'ies'} (${input.ignored.slice(0, 3).join(', ')}${input.ignored.length > 3 ? ', …' : ''})` : '';
  console.log(`Found ${input.students.length} student(s) in ${input.kind === 'zip' ? 'the zip' : 'the folder'} ${submissions}: ${LAYOUT_NAMES[input.layout]}${ignored}.`);

  const tty = process.stderr.isTTY === true;
  const progress = progressReporter(tty);
  const controller = new AbortController();
  let interrupts = 0;
  const onSigint = (): void => {
    interrupts += 1;
    if (interrupts > 1) process.exit(130);
    console.error('\nreferee: stopping — finishing the writes in progress (Ctrl-C again to quit at once)…');
    controller.abort();
  };
  let pool: GamePool | undefined;
  if (flags.queue) {
    try {
      pool = await QueuePool.open(flags.queue, { size: flags.jobs, onWarning: (message) => console.error(`warning: ${message}`) });
    } catch (error) {
      input.close();
      if (error instanceof QueueUsageError) throw new UsageError(error.message);
      throw error;
    }
    console.log(`Games go to the queue at ${redactUrl(flags.queue)}: start \`referee worker --queue ${redactUrl(flags.queue)}\` on each machine.`);
  }
  process.on('SIGINT', onSigint);
  const started = performance.now();
  let outcome: BatchOutcome;
  try {
    outcome = await runBatch({
      pool,
      input,
      assignment,
      assignmentSource: flags.config ?? 'built-in',
      outDir,
      jobs: flags.jobs,
      resume: flags.resume,
      only: flags.only,
      anonymize: flags.anonymize,
      limits: { maxBytes: Math.round(flags.maxSubmissionMb * 1024 * 1024), maxFiles: flags.maxFiles },
      workerScript: process.env[WORKER_ENV] || undefined,
      commandFor: (_student, path) =>
        ['referee', 'grade', path, ...(flags.config ? ['--config', flags.config] : []), ...(flags.game ? ['--game', flags.game] : [])]
          .map(shellWord)
          .join(' '),
      onEvent: progress.onEvent,
      onGraded: ({ result, dir }) => writeReport(join(dir, 'report.html'), result),
      signal: controller.signal,
    });
  } catch (error) {
    progress.stop();
    if (error instanceof BatchUsageError || error instanceof JournalFormatError) throw new UsageError(error.message);
    if (error instanceof DiskFullError) {
      console.error(`referee: ${error.message}`);
      process.exitCode = 1;
      return null;
    }
    throw error;
  } finally {
    process.off('SIGINT', onSigint);
    input.close();
    await pool?.close();
  }
  progress.stop();
  for (const warning of progress.warnings) console.error(`warning: ${warning}`);
  if (outcome.interrupted) {
    const done = outcome.graded + outcome.cached + outcome.errors;
    console.error(`referee: interrupted after ${done} student(s); every finished game and grade is journaled in ${outcome.journalPath}.`);
    console.error(`Resume with: ${resumeCommand(submissions, flags)}`);
    process.exitCode = 130;
    return null;
  }
  const index = join(outDir, 'index.html');
  writeClassIndex(index, { title: assignment.title, students: outcome.students });
  const files = [`index: ${index}`];
  if (outcome.pseudonyms) {
    const anonymous = join(outDir, 'index-anonymous.html');
    writeClassIndex(anonymous, { title: assignment.title, students: outcome.students, pseudonyms: outcome.pseudonyms });
    files.push(`anonymised: ${anonymous}`);
  }
  files.push(`grades: ${join(outDir, GRADES_CSV)}`);
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.log(
    `Graded ${outcome.students.length} student(s) in ${seconds} s: ${outcome.graded} graded now, ${outcome.cached} unchanged from the journal, ` +
      `${outcome.errors} not graded; ${outcome.gamesPlayed} games played, ${outcome.gamesReused} reused.`,
  );
  console.log(files.join('\n'));
  return outcome;
}

export function register(program: Command): void {
  program
    .command('batch')
    .description('grade a class: a folder with one entry per student, or an LMS zip; writes index.html, grades.csv, reports and exports')
    .argument('[submissions]', 'folder of submissions (one folder or file per student) or an LMS zip (Canvas-style or one folder per student)')
    .option('--config <file>', 'assignment JSON (see grading/assignment.schema.json); default: the built-in ladder')
    .option('--game <id>', 'without --config: the game whose built-in assignment to use (default: reversi)')
    .option('--out <dir>', 'output folder (journal, reports, index.html, grades.csv)', 'referee-batch')
    .option('--jobs <n>', 'games at once, one worker process each (default: the number of cores); with --queue, the games all workers play at once (default 64)', positiveInt, availableParallelism())
    .option('--queue <url>', 'play the games on `referee worker`s through Redis: redis://[:password@]host:6379/0 (rediss:// for TLS)')
    .option('--resume', 'continue the journal in --out: skip what is done, replay no finished game')
    .option('--only <ids>', 'grade only these students (comma-separated ids)', idList)
    .option('--compare <old-out>', 'list the students whose score changed since an earlier batch output, and why')
    .option('--anonymize', 'also write index-anonymous.html with stable pseudonyms (and a pseudonym column in grades.csv)')
    .option('--max-submission-mb <mb>', 'refuse submissions larger than this', megabytes, DEFAULT_LIMITS.maxBytes / 1024 / 1024)
    .option('--max-files <n>', 'refuse submissions with more files than this', positiveInt, DEFAULT_LIMITS.maxFiles)
    .action(async (submissions: string | undefined, flags: BatchFlags, command: Command) => {
      if (flags.queue && command.getOptionValueSource('jobs') === 'default') flags.jobs = QUEUE_DEFAULT_JOBS;
      if (submissions === undefined && flags.compare === undefined) {
        throw new UsageError('batch needs the submissions to grade (a folder or an LMS zip), or --compare old-out/ to compare two outputs');
      }
      if (submissions !== undefined) {
        const outcome = await gradeClass(submissions, flags);
        if (!outcome) return;
      }
      if (flags.compare !== undefined) {
        try {
          console.log(formatComparison(compareBatches(resolve(flags.compare), resolve(flags.out)), flags.compare, flags.out));
        } catch (error) {
          if (error instanceof BatchUsageError || error instanceof JournalFormatError) throw new UsageError(error.message);
          throw error;
        }
      }
    });
}
