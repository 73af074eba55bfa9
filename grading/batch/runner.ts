/**
 * Grading a class: snapshot every student's submission, grade the ones not already graded (same submission,
 * config and harness) — the interface check and the scoring here, each game a job for a game pool (forked
 * workers, one game per worker at a time, up to `jobs` at once; or a Redis queue) — and journal every finished
 * game and grade in SQLite as it happens. Per-student trouble (bad input, a compile
 * error, a crash, a dead worker) is a result; only a full disk or an interrupt stops the batch, and both leave
 * the journal ready for --resume.
 *
 * Outputs: out/students/<id>/ holds grade.json and the per-student exports (the onGraded hook adds the HTML
 * report: grading/ never imports reports/); out/grades.csv is written once the class is done.
 */
import { availableParallelism } from 'node:os';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { assignmentHash, type Assignment } from '../assignment.js';
import { validateGradeResult, writeGradeResult, type GradeResult } from '../grade-result.js';
import { harnessVersion } from '../package-root.js';
import { gradesCsv } from '../exporters/csv.js';
import { EXPORT_FORMATS, PER_STUDENT_FORMATS } from '../exporters/formats.js';
import { DiskFullError, isDiskFull } from './disk-full.js';
import type { SubmissionInput } from './input.js';
import { BATCH_JOURNAL_FILE, BatchJournal } from './journal-db.js';
import { gradeCacheKey } from './keys.js';
import { submissionContestant } from '../contestant.js';
import { grade } from '../grade.js';
import { LiveGames } from '../live.js';
import { artefactSpec, buildArtefact } from '../pool/artefact.js';
import { PoolAbortError, PoolWorkerError, type GamePool, type PlayerSpec } from '../pool/job.js';
import { ForkPool, WorkerStartError } from './pool.js';
import { pseudonyms } from './pseudonym.js';
import { DEFAULT_LIMITS, snapshotStudent, type SnapshotLimits } from './snapshot.js';
import { errorSummary, summarizeGrade, withClassFacts, type StudentSummary } from './summary.js';
import { writeFileAtomic } from '../write-atomic.js';

export interface GradedStudent {
  summary: StudentSummary;
  result: GradeResult;
  /** out/students/<id>/ */
  dir: string;
}

export type BatchEvent =
  /** Before any grading: how many students, how many already graded, how many games a student plays. */
  | { type: 'plan'; students: number; cached: number; toGrade: number; gamesPerStudent: number }
  /** A student's first game started on a worker (pid for a local worker; 0 for a queue worker elsewhere). */
  | { type: 'student-start'; student: string; worker: number; workerName: string }
  | { type: 'game'; student: string; finished: number; total: number; result: 'win' | 'draw' | 'loss'; resumed: boolean }
  /** A student is finished: graded now, taken from the journal (cached), or an error. */
  | { type: 'student-done'; summary: StudentSummary; cached: boolean; done: number; total: number }
  | { type: 'warning'; message: string };

export interface BatchOptions {
  input: SubmissionInput;
  assignment: Assignment;
  /** The config file, or 'built-in'. */
  assignmentSource: string;
  outDir: string;
  /** Games played at once: forked worker processes, one game each (ignored with `pool`). */
  jobs: number;
  /** Interface checks at once (default: the number of cores; a check's clock must not depend on the pool's size). */
  checksAtOnce?: number;
  /** Play the games here instead of in forked workers (a queue); the caller closes it. */
  pool?: GamePool;
  /** Students checked and graded at once in this process (default: enough to queue twice the pool's size in games). */
  studentsAtOnce?: number;
  /** Continue the journal already in outDir; without it an outDir holding a journal is refused. */
  resume?: boolean;
  /** Grade only these student ids. */
  only?: string[];
  limits?: SnapshotLimits;
  /** The compiled game worker (default: worker.js beside this module, i.e. in dist/). */
  workerScript?: string;
  /** The command that re-grades one student, for the report (default `referee grade <snapshot>`). */
  commandFor?: (student: string, path: string) => string;
  onEvent?: (event: BatchEvent) => void;
  /** Called as each student's grade is written (the CLI renders report.html here). */
  onGraded?: (graded: GradedStudent) => void | Promise<void>;
  /** Add stable pseudonyms (a column in grades.csv, and outcome.pseudonyms for an anonymised index). */
  anonymize?: boolean;
  /** Aborting stops the batch: games in flight are dropped, everything finished stays journaled. */
  signal?: AbortSignal;
}

export interface BatchOutcome {
  /** Every student with a result, in id order (with --only, earlier results of the others too). */
  students: StudentSummary[];
  interrupted: boolean;
  graded: number;
  cached: number;
  errors: number;
  gamesPlayed: number;
  gamesReused: number;
  journalPath: string;
  /** Student id → pseudonym, with anonymize. */
  pseudonyms: Map<string, string> | null;
}

/** The batch cannot start as asked (an out/ already in use, an unknown --only id): fix the command. */
export class BatchUsageError extends Error {
  override name = 'BatchUsageError';
}

export const STUDENTS_DIR = 'students';
export const SUBMISSIONS_DIR = 'submissions';
export const GRADES_CSV = 'grades.csv';

const defaultWorker = (): string => fileURLToPath(new URL('./worker.js', import.meta.url));

const writeAtomic = writeFileAtomic;

function selectedStudents(input: SubmissionInput, only: string[] | undefined): Set<string> {
  const ids = input.students.map((student) => student.id);
  if (!only) return new Set(ids);
  const unknown = only.filter((id) => !ids.includes(id));
  if (unknown.length > 0) {
    const known = ids.slice(0, 8).join(', ') + (ids.length > 8 ? ', …' : '');
    throw new BatchUsageError(`--only names no student ${unknown.map((id) => JSON.stringify(id)).join(', ')}: the students are ${known}`);
  }
  return new Set(only);
}

export async function runBatch(options: BatchOptions): Promise<BatchOutcome> {
  const { input, assignment, outDir } = options;
  const emit = options.onEvent ?? (() => undefined);
  const configHash = assignmentHash(assignment);
  const harness = harnessVersion();
  const selected = selectedStudents(input, options.only);
  mkdirSync(outDir, { recursive: true });
  const journalPath = join(outDir, BATCH_JOURNAL_FILE);
  let journal: BatchJournal;
  try {
    journal = BatchJournal.open(journalPath);
  } catch (error) {
    if (isDiskFull(error)) throw new DiskFullError(outDir, (error as Error).message);
    throw error;
  }
  const outcome: BatchOutcome = { students: [], interrupted: false, graded: 0, cached: 0, errors: 0, gamesPlayed: 0, gamesReused: 0, journalPath, pseudonyms: null };
  try {
    if (!options.resume && !journal.isEmpty()) {
      throw new BatchUsageError(`${outDir} already holds a batch journal: add --resume to continue it (finished work is kept), or choose an empty --out`);
    }
    const results = new Map<string, StudentSummary>();
    const total = selected.size;
    const finish = (summary: StudentSummary, cached: boolean): void => {
      results.set(summary.id, summary);
      if (summary.status === 'error') outcome.errors += 1;
      else if (cached) outcome.cached += 1;
      else outcome.graded += 1;
      emit({ type: 'student-done', summary, cached, done: results.size, total });
    };
    const context = (submissionHash: string | null) => ({ assignment, configHash, harness, submissionHash });

    // Snapshot everyone first: cheap, and it tells the plan how much grading there is.
    const tasks: { student: string; path: string; command: string; cacheKey: string; hash: string; order: number }[] = [];
    const cachedSummaries: StudentSummary[] = [];
    const inputErrors: StudentSummary[] = [];
    for (const student of input.students) {
      if (!selected.has(student.id)) continue;
      const snapshot = await snapshotStudent(student, join(outDir, SUBMISSIONS_DIR), options.limits ?? DEFAULT_LIMITS);
      if (snapshot.problem !== undefined) {
        inputErrors.push(errorSummary(student.id, snapshot.problem, context(null)));
        continue;
      }
      const cacheKey = gradeCacheKey({ submissionHash: snapshot.hash, configHash, harness });
      const stored = journal.findGrade(student.id);
      const gradeFile = join(outDir, STUDENTS_DIR, student.id, 'grade.json');
      if (stored && stored.cacheKey === cacheKey && stored.summary.status === 'graded' && existsSync(gradeFile)) {
        cachedSummaries.push(stored.summary);
        continue;
      }
      const command = options.commandFor?.(student.id, snapshot.path) ?? `referee grade ${snapshot.path}`;
      tasks.push({ student: student.id, path: snapshot.path, command, cacheKey, hash: snapshot.hash, order: tasks.length });
    }
    const gamesPerStudent = assignment.opponents.reduce((sum, item) => sum + item.games, 0);
    emit({ type: 'plan', students: total, cached: cachedSummaries.length, toGrade: tasks.length, gamesPerStudent });
    journal.savePlan({ students: input.students.filter((student) => selected.has(student.id)).map((student) => student.id), gamesPerStudent });
    for (const summary of inputErrors) {
      journal.saveGrade(summary, null);
      finish(summary, false);
    }
    for (const summary of cachedSummaries) finish(summary, true);

    let fatal: Error | null = null;
    let stopping = false;
    const pool: GamePool =
      options.pool ??
      new ForkPool(options.workerScript ?? defaultWorker(), Math.max(1, options.jobs), { onWarning: (line) => emit({ type: 'warning', message: line }) });
    const checkSlots = new Slots(options.checksAtOnce ?? availableParallelism());
    // Games in play, move by move, for `referee serve --watch` (the journal's live table).
    const live = new LiveGames(journal.liveSink(), (message) => emit({ type: 'warning', message }));
    const stop = async (error: Error | null): Promise<void> => {
      fatal ??= error;
      if (stopping) return;
      stopping = true;
      await pool.close();
    };
    const record = (summary: StudentSummary, cacheKey: string | null): void => {
      try {
        journal.saveGrade(summary, cacheKey);
      } catch (error) {
        if (isDiskFull(error)) {
          void stop(new DiskFullError(outDir, (error as Error).message));
          return;
        }
        throw error;
      }
      finish(summary, false);
    };
    const writeGraded = async (student: string, raw: GradeResult, hash: string, cacheKey: string): Promise<void> => {
      const dir = join(outDir, STUDENTS_DIR, student);
      let summary: StudentSummary;
      try {
        const result = validateGradeResult(raw);
        summary = summarizeGrade(student, result, hash);
        mkdirSync(dir, { recursive: true });
        writeGradeResult(join(dir, 'grade.json'), result);
        for (const format of PER_STUDENT_FORMATS) {
          const { file, render, refusal } = EXPORT_FORMATS[format];
          // A grader error has no Gradescope or Classroom file: any would be recorded as the student's points.
          if (refusal?.(result)) rmSync(join(dir, file), { force: true });
          else writeAtomic(join(dir, file), render(result, student));
        }
        await options.onGraded?.({ summary, result, dir });
      } catch (error) {
        if (isDiskFull(error)) return stop(new DiskFullError(outDir, (error as Error).message));
        summary = errorSummary(student, `the grade could not be written: ${(error as Error).message}`, context(hash));
        return record(summary, null);
      }
      outcome.gamesPlayed += summary.gamesPlayed;
      outcome.gamesReused += summary.gamesReused;
      record(summary, cacheKey);
    };

    /** One student: compile and check here, publish the compiled artefact, the games to the pool, score here. */
    // Students' games go to the pool in student order (the checks run side by side), so students finish in order.
    let queuedBefore: Promise<void> = Promise.resolve();
    const gradeOne = async (task: (typeof tasks)[number]): Promise<void> => {
      const previous = queuedBefore;
      let release!: () => void;
      queuedBefore = new Promise((resolve) => (release = resolve));
      // After the grade's synchronous hand-over of every game to the pool (setImmediate runs after its microtasks).
      const letNextQueue = (): void => void setImmediate(release);
      let result: GradeResult;
      try {
        const base = await submissionContestant(task.path, assignment);
        // Checks are timed on this machine: at most one per core at once, however many games the pool runs.
        const contestant = { ...base, submission: { ...base.submission, name: task.student }, check: () => checkSlots.run(() => base.check()) };
        let contestantSpec: PlayerSpec | undefined;
        try {
          const artefact = await buildArtefact(task.path, assignment.entry, assignment.protocol);
          await pool.publish(artefact);
          contestantSpec = artefactSpec(artefact, task.student);
        } catch (error) {
          // Code that does not compile fails its interface check and plays no game; anything else is the grader's.
          if (error instanceof PoolWorkerError) throw error;
        }
        let started = false;
        result = await grade({
          assignment,
          assignmentSource: options.assignmentSource,
          contestant,
          store: journal.gameStore(task.student, { assignment, submissionHash: contestant.submission.hash, harness }),
          pool,
          contestantSpec,
          live,
          command: task.command,
          order: task.order,
          beforeGames: async () => {
            await previous;
            letNextQueue();
          },
          onGameStart: (_slot, worker) => {
            if (started) return;
            started = true;
            emit({ type: 'student-start', student: task.student, worker: worker.pid ?? 0, workerName: worker.name });
          },
          onGame: (entry, finished, gamesTotal) =>
            emit({ type: 'game', student: task.student, finished, total: gamesTotal, result: entry.result, resumed: entry.resumed }),
        });
      } catch (error) {
        letNextQueue();
        if (stopping) return;
        if (isDiskFull(error)) return stop(new DiskFullError(outDir, (error as Error).message));
        if (error instanceof WorkerStartError) return stop(error);
        // Withdrawn without a stop: the grader's doing (a pool gone), never silence — the student gets an error.
        const message = (error as Error).message;
        const text = error instanceof PoolWorkerError || error instanceof PoolAbortError ? `${message}: run again with --resume to retry` : `grading failed: ${message}`;
        return record(errorSummary(task.student, text, context(task.hash)), null);
      }
      letNextQueue();
      if (!stopping) await writeGraded(task.student, result, task.hash, task.cacheKey);
    };

    const onAbort = (): void => {
      outcome.interrupted = true;
      void stop(null);
    };
    if (options.signal?.aborted) onAbort();
    options.signal?.addEventListener('abort', onAbort, { once: true });
    try {
      const queue = [...tasks];
      const lane = async (): Promise<void> => {
        for (let task = queue.shift(); task && !stopping; task = queue.shift()) await gradeOne(task);
      };
      // Enough students at once that their queued games keep every worker busy while the next ones are checked.
      const gamesPerStudent = Math.max(1, assignment.opponents.reduce((sum, item) => sum + item.games, 0));
      const lanes = options.studentsAtOnce ?? Math.max(2, Math.ceil((2 * pool.size) / gamesPerStudent) + 1);
      await Promise.all(Array.from({ length: Math.min(lanes, tasks.length) }, lane));
    } finally {
      options.signal?.removeEventListener('abort', onAbort);
      if (!options.pool) await pool.close();
      live.close(outcome.interrupted || fatal ? 'interrupted' : 'done');
    }
    if (fatal) throw fatal;

    // The class: everyone graded or failed now, plus (with --only) the others' earlier results.
    for (const student of input.students) {
      const summary = results.get(student.id) ?? (selected.has(student.id) ? undefined : journal.findGrade(student.id)?.summary);
      if (summary) outcome.students.push(summary);
    }
    outcome.students = withClassFacts(outcome.students, new Map(input.students.map((student) => [student.id, student])));
    if (options.anonymize) outcome.pseudonyms = pseudonyms(outcome.students.map((student) => student.id), journal.pseudonymKey());
    if (!outcome.interrupted) {
      try {
        // A UTF-8 byte-order mark first: Excel opens a BOM-less CSV in the machine's legacy code page and garbles
        // non-ASCII names; Canvas and Moodle imports and csv parsers skip the mark.
        writeAtomic(join(outDir, GRADES_CSV), `\ufeff${gradesCsv(outcome.students, { pseudonyms: outcome.pseudonyms ?? undefined })}`);
      } catch (error) {
        if (isDiskFull(error)) throw new DiskFullError(outDir, (error as Error).message);
        throw error;
      }
    }
    return outcome;
  } catch (error) {
    if (isDiskFull(error) && !(error instanceof DiskFullError)) throw new DiskFullError(outDir, (error as Error).message);
    throw error;
  } finally {
    journal.close();
  }
}

/** At most `size` tasks at once; the others wait in order. */
class Slots {
  private free: number;
  private readonly waiting: (() => void)[] = [];

  constructor(size: number) {
    this.free = Math.max(1, size);
  }

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.free > 0) this.free--;
    else await new Promise<void>((resolve) => this.waiting.push(resolve));
    try {
      return await task();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.free++;
    }
  }
}
