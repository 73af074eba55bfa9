/**
 * `referee batch <submissions>`: grade a whole class (a folder with one entry per student, or an LMS zip) into
 * out/: per student grade.json, report.html and the exports; for the class index.html and grades.csv. Resumable
 * (--resume), comparable (--compare old-out/).
 * Exit codes: 0 done (whatever the scores), 1 stopped by a full disk, 2 usage or input error, 130 interrupted.
 */
import { availableParallelism } from 'node:os';
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import cliProgress from 'cli-progress';
import { InvalidArgumentError, type Command } from 'commander';
import type { Assignment } from '../grading/assignment.js';
import { compareBatches, formatComparison } from '../grading/batch/compare.js';
import { DiskFullError } from '../grading/batch/disk-full.js';
import { prepareOutDir, rethrowDiskFull } from './out-dir.js';
import { InputError, openSubmissions, type SubmissionInput } from '../grading/batch/input.js';
import { JournalFormatError } from '../grading/batch/journal-db.js';
import { LAYOUT_NAMES } from '../grading/batch/layout.js';
import { BatchUsageError, GRADES_CSV, runBatch, SUBMISSIONS_DIR, type BatchEvent, type BatchOutcome } from '../grading/batch/runner.js';
import { DEFAULT_LIMITS } from '../grading/batch/snapshot.js';
import { withClassFacts, type StudentSummary } from '../grading/batch/summary.js';
import { withdrawController, type GamePool } from '../grading/pool/job.js';
import type { QueuePool } from '../grading/queue/pool.js';
import { writeReport } from '../reports/render.js';
import { writeClassIndex } from '../reports/class/render.js';
import { PASSWORD_ENV, queueEndpoint, redactUrl, urlWithoutPassword } from '../grading/queue/connection.js';
import { closeLine, openQueuePool, queueResumeWords, workerHint } from './queue-flags.js';
import { positiveInt, protocolName, shellWord, UsageError } from './args.js';
import type { SubmissionProtocol } from '../harness/submission/resolve.js';
import { assignmentArg } from './assignment-arg.js';
import { count } from '../grading/words.js';

/** '1 game', '3 games' (the summary's counts in words). */

interface BatchFlags {
  quiet?: boolean;
  protocol?: SubmissionProtocol;
  config?: string;
  game?: string;
  out: string;
  jobs?: number;
  resume?: boolean;
  only?: string[];
  compare?: string;
  anonymize?: boolean;
  maxSubmissionMb: number;
  maxFiles: number;
  queue?: string;
  keyFile?: string;
  redisPasswordFile?: string;
  similarity?: boolean;
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

function resumeCommand(submissions: string, flags: BatchFlags): string {
  const words = ['referee', 'batch', submissions, '--out', flags.out];
  if (flags.config) words.push('--config', flags.config);
  if (flags.protocol) words.push('--protocol', flags.protocol);
  if (flags.only) words.push('--only', flags.only.join(','));
  if (flags.anonymize) words.push('--anonymize');
  if (flags.jobs !== undefined && flags.jobs !== (flags.queue ? QUEUE_DEFAULT_JOBS : availableParallelism())) words.push('--jobs', String(flags.jobs));
  words.push(...queueResumeWords(flags));
  words.push('--resume');
  return words.map(shellWord).join(' ');
}

function studentLine(summary: StudentSummary, cached: boolean): string {
  if (summary.status === 'error') return `${summary.id}: not graded — ${summary.error}`;
  const score = `${summary.score} / ${summary.maxScore}`;
  if (!summary.interfaceCheck.passed) return `${summary.id}: ${score} — interface check failed: ${summary.interfaceCheck.reason}`;
  return `${summary.id}: ${score} ${cached ? '(unchanged, from the journal)' : `(${count(summary.gamesPlayed, 'game')} played, ${summary.gamesReused} reused)`}`;
}

/** A live bar on a terminal (games done/total, ETA, failures so far); one line per student otherwise. */
function progressReporter(tty: boolean, quiet: boolean): { onEvent: (event: BatchEvent) => void; stop: () => void; warnings: string[] } {
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
      if (tty && !quiet) {
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
      } else if (!quiet) {
        // Without a terminal (CI logs, pipes): one line per finished student on stderr, as it happens.
        console.error(`[${event.done}/${event.total}] ${studentLine(summary, event.cached)}`);
      }
    }
  };
  return { onEvent, warnings, stop: () => (bar as cliProgress.SingleBar | null)?.stop() };
}

async function gradeClass(submissions: string, flags: BatchFlags): Promise<BatchOutcome | null> {
  const configured = assignmentArg(flags.config, flags.game);
  const assignment = flags.protocol !== undefined ? { ...configured, protocol: flags.protocol } : configured;
  const outDir = prepareOutDir(flags.out);
  let input: SubmissionInput;
  try {
    input = await openSubmissions(resolve(submissions), { exclude: [outDir] });
  } catch (error) {
    if (error instanceof InputError) throw new UsageError(error.message);
    throw error;
  }
  const ignored = input.ignored.length > 0 ? `; ignored ${count(input.ignored.length, 'other entry', 'other entries')} (${input.ignored.slice(0, 3).join(', ')}${input.ignored.length > 3 ? ', …' : ''})` : '';
  console.log(`Found ${count(input.students.length, 'student')} in ${input.kind === 'zip' ? 'the zip' : 'the folder'} ${submissions}: ${LAYOUT_NAMES[input.layout]}${ignored}.`);

  const tty = process.stderr.isTTY === true;
  const progress = progressReporter(tty, flags.quiet === true);
  // index.html is rewritten as students finish (at most every 2 s, and always at the end), so an instructor can
  // watch a long batch; the students not done yet are simply not listed.
  const index = join(outDir, 'index.html');
  const done = new Map<string, StudentSummary>();
  let indexWrittenAt = 0;
  const facts = new Map(input.students.map((student) => [student.id, student]));
  const liveIndex = (event: BatchEvent): void => {
    progress.onEvent(event);
    if (event.type !== 'student-done') return;
    done.set(event.summary.id, event.summary);
    const now = Date.now();
    if (now - indexWrittenAt < 2000 && event.done < event.total) return;
    indexWrittenAt = now;
    try {
      mkdirSync(outDir, { recursive: true });
      writeClassIndex(index, { title: `${assignment.title} (${event.done} of ${event.total} so far)`, students: withClassFacts([...done.values()], facts) });
    } catch (error) {
      // The final index is written (and a full disk reported) after the batch; a live copy is a convenience.
      console.error(`warning: index.html not updated (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
    }
  };
  const controller = withdrawController();
  let interrupts = 0;
  let stoppedBy: NodeJS.Signals | null = null;
  const onSignal = (signal: NodeJS.Signals): void => {
    interrupts += 1;
    if (interrupts > 1) process.exit(signal === 'SIGTERM' ? 143 : 130);
    stoppedBy = signal;
    console.error(`\nreferee: stopping (${signal}) — finishing the writes in progress${flags.queue ? ' and taking queued games off the queue' : ''} (${signal === 'SIGINT' ? 'Ctrl-C' : 'SIGTERM'} again to quit at once)…`);
    controller.abort();
  };
  let pool: GamePool | undefined;
  let queuePool: QueuePool | undefined;
  if (flags.queue) {
    try {
      queuePool = await openQueuePool({ ...flags, queue: flags.queue }, flags.jobs ?? QUEUE_DEFAULT_JOBS);
    } catch (error) {
      input.close();
      throw error;
    }
    pool = queuePool;
    console.log(`Games go to the queue at ${redactUrl(urlWithoutPassword(flags.queue))}: start \`${workerHint({ ...flags, queue: flags.queue })}\` on each machine.`);
  }
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  const started = performance.now();
  let outcome: BatchOutcome;
  try {
    outcome = await runBatch({
      pool,
      input,
      assignment,
      assignmentSource: flags.config ?? 'built-in',
      outDir,
      jobs: flags.jobs ?? availableParallelism(),
      resume: flags.resume,
      only: flags.only,
      anonymize: flags.anonymize,
      limits: { maxBytes: Math.round(flags.maxSubmissionMb * 1024 * 1024), maxFiles: flags.maxFiles },
      workerScript: process.env[WORKER_ENV] || undefined,
      commandFor: (_student, path) =>
        ['referee', 'grade', path, ...(flags.config ? ['--config', flags.config] : []), ...(flags.game ? ['--game', flags.game] : [])]
          .map(shellWord)
          .join(' '),
      onEvent: liveIndex,
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
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    input.close();
    await pool?.close();
    const closed = closeLine(queuePool);
    if (closed && stoppedBy) console.error(closed);
  }
  progress.stop();
  for (const warning of progress.warnings) console.error(`warning: ${warning}`);
  if (outcome.interrupted) {
    const done = outcome.graded + outcome.cached + outcome.errors;
    console.error(`referee: interrupted after ${count(done, 'student')}; every finished game and grade is journaled in ${outcome.journalPath}.`);
    console.error(`Resume with: ${resumeCommand(submissions, flags)}`);
    if (flags.queue && queueEndpoint(flags.queue).passwordInUrl) console.error(`(the Redis password is not repeated: set ${PASSWORD_ENV} or pass --redis-password-file)`);
    process.exitCode = stoppedBy === 'SIGTERM' ? 143 : 130;
    return null;
  }
  const files = [`index: ${index}`];
  try {
    writeClassIndex(index, { title: assignment.title, students: outcome.students });
    if (outcome.pseudonyms) {
      const anonymous = join(outDir, 'index-anonymous.html');
      writeClassIndex(anonymous, { title: assignment.title, students: outcome.students, pseudonyms: outcome.pseudonyms });
      files.push(`anonymised: ${anonymous}`);
    }
  } catch (error) {
    rethrowDiskFull(error, outDir);
  }
  files.push(`grades: ${join(outDir, GRADES_CSV)}`);
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.log(
    `Graded ${count(outcome.students.length, 'student')} in ${seconds} s: ${outcome.graded} graded now, ${outcome.cached} unchanged from the journal, ` +
      `${outcome.errors} not graded; ${count(outcome.gamesPlayed, 'game')} played, ${outcome.gamesReused} reused.`,
  );
  console.log(files.join('\n'));
  const graderErrors = outcome.students.filter((student) => student.error?.startsWith('not graded: grader error'));
  if (graderErrors.length > 0) {
    // The grading machine failed for these students: not their fault, and not a finished batch (exit 3).
    console.error(`referee: ${count(graderErrors.length, 'student')} not graded because of a grader error: ${graderErrors[0].error}; fix it and run again with --resume`);
    process.exitCode = 3;
  }
  return outcome;
}

export function register(program: Command): void {
  program
    .command('batch')
    .description('grade a class: a folder with one entry per student, or an LMS zip; writes index.html, grades.csv, reports and exports')
    .argument('[submissions]', 'folder of submissions (one folder or file per student) or an LMS zip (Canvas-style or one folder per student)')
    .option('--config <file>', 'assignment JSON (see grading/assignment.schema.json); default: the built-in ladder')
    .option('--game <id>', 'without --config: the game whose built-in assignment to use (default: reversi)')
    .option('--protocol <name>', "botzone: take every submission for a Botzone bot (a whole program on stdin/stdout) even without Botzone's signs in its source; course: never (over the assignment's protocol)", protocolName)
    .option('--out <dir>', 'output folder (journal, reports, index.html, grades.csv)', 'referee-batch')
    .option('--jobs <n>', `games at once, one worker process each (default: the number of cores, ${availableParallelism()} here); with --queue, the games all workers play at once (default 64)`, positiveInt)
    .option('--quiet', 'no progress on stderr (no bar, no line per student)')
    .option('--queue <url>', 'play the games on `referee worker`s through Redis: redis://host:6379/0 (rediss:// for TLS; the password from --redis-password-file or $REFEREE_REDIS_PASSWORD)')
    .option('--key-file <path>', `with --queue: the key that signs results, shared with every worker (created, mode 600, if the file does not exist; default: $REFEREE_QUEUE_KEY_FILE)`)
    .option('--redis-password-file <path>', "with --queue: a file (mode 600) whose first line is Redis's password (default: $REFEREE_REDIS_PASSWORD; never put it in the URL)")
    .option('--resume', 'continue the journal in --out: skip what is done, replay no finished game')
    .option('--only <ids>', 'grade only these students (comma-separated ids)', idList)
    .option('--compare <old-out>', 'list the students whose score changed since an earlier batch output, and why')
    .option('--anonymize', 'also write index-anonymous.html with stable pseudonyms (and a pseudonym column in grades.csv)')
    .option('--max-submission-mb <mb>', 'refuse submissions larger than this', megabytes, DEFAULT_LIMITS.maxBytes / 1024 / 1024)
    .option('--max-files <n>', 'refuse submissions with more files than this', positiveInt, DEFAULT_LIMITS.maxFiles)
    .option('--similarity', 'also write similarity.html and similarity.json: which students are worth a look together (see `referee similarity`)')
    .action(async (submissions: string | undefined, flags: BatchFlags) => {
      if (flags.queue && flags.jobs === undefined) flags.jobs = QUEUE_DEFAULT_JOBS;
      if (submissions === undefined && flags.compare === undefined) {
        throw new UsageError('batch needs the submissions to grade (a folder or an LMS zip), or --compare old-out/ to compare two outputs');
      }
      if (submissions !== undefined) {
        const outcome = await gradeClass(submissions, flags);
        if (!outcome) return;
        // The class's similarity report over the batch's own snapshots, after the grades are safe on disk.
        if (flags.similarity) {
          const { batchEntrants, runForBatch } = await import('./similarity.js');
          const outDir = resolve(flags.out);
          const lines = await runForBatch({ students: batchEntrants(join(outDir, SUBMISSIONS_DIR), outcome.students.map((student) => student.id)), assignment: assignmentArg(flags.config, flags.game), outDir, pseudonyms: outcome.pseudonyms, quiet: flags.quiet });
          console.log(lines.join('\n'));
        }
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
