/**
 * The batch journal: one SQLite file (better-sqlite3, WAL, synchronous=FULL) under out/. Every finished game
 * and every finished grade is its own committed transaction, so a batch killed at any moment — kill -9, a
 * reboot — loses only the games in flight. The batch runner (the coordinator) writes every game and grade as
 * its pool reports it; WAL lets readers (a report, a test) look while it does.
 */
import { randomBytes } from 'node:crypto';
import Database from 'better-sqlite3';
import type { Side } from '../../harness/games/game.js';
import type { GameRecord } from '../../harness/referee/record.js';
import { opponentAt, type Assignment } from '../assignment.js';
import type { GameStore } from '../grade.js';
import type { JournalEntry } from '../journal.js';
import { recordWorkers, sqliteLiveSink, type LiveSink } from '../live.js';
import { faithfulRecord, prepareJournal } from '../sqlite-journal.js';
import { playKey } from './keys.js';
import type { StudentSummary } from './summary.js';

export const BATCH_JOURNAL_FILE = 'batch.sqlite';
/** meta key of the run's plan (BatchPlan as JSON). */
export const PLAN_KEY = 'plan';

export interface BatchPlan {
  /** Every student of this run, in the input's order. */
  students: string[];
  /** Games a student plays (an SPRT item counts at its most). */
  gamesPerStudent: number;
}
const FORMAT = 'referee.batch/1';

export interface StoredGrade {
  student: string;
  cacheKey: string | null;
  summary: StudentSummary;
  finishedAt: string;
}

const SCHEMA = `
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS games (
  key TEXT PRIMARY KEY,
  student TEXT NOT NULL,
  wall_ms INTEGER NOT NULL,
  record TEXT NOT NULL,
  plays INTEGER NOT NULL DEFAULT 1,
  finished_at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS games_by_time ON games (finished_at);
CREATE INDEX IF NOT EXISTS games_by_student ON games (student);
CREATE TABLE IF NOT EXISTS grades (
  student TEXT PRIMARY KEY,
  cache_key TEXT,
  status TEXT NOT NULL,
  summary TEXT NOT NULL,
  finished_at TEXT NOT NULL
);`;

/** The journal was made by something else (or a newer Referee): say so rather than misread it. */
export class JournalFormatError extends Error {
  override name = 'JournalFormatError';
}

export class BatchJournal {
  private constructor(readonly path: string, readonly db: Database.Database) {}

  /** Open (creating if need be) the journal at `path`. */
  static open(path: string, options: { readonly?: boolean } = {}): BatchJournal {
    const db = new Database(path, { readonly: options.readonly ?? false, fileMustExist: options.readonly ?? false, timeout: 30_000 });
    try {
      const format = prepareJournal(db, SCHEMA, FORMAT, !options.readonly);
      if (format !== FORMAT) throw new JournalFormatError(`${path} is not a Referee batch journal (format ${format ?? 'missing'}, expected ${FORMAT}): move it away or use another output folder`);
      if (!options.readonly) recordWorkers(db);
    } catch (error) {
      db.close();
      // A file that is not SQLite at all (or is damaged) is the same user-facing problem as a foreign journal.
      const code = (error as { code?: unknown }).code;
      if (code === 'SQLITE_NOTADB' || code === 'SQLITE_CORRUPT') {
        throw new JournalFormatError(`${path} is not a readable Referee batch journal (${(error as Error).message}): move it away or use another output folder`);
      }
      throw error;
    }
    return new BatchJournal(path, db);
  }

  /** Whether nothing has been journaled yet. */
  isEmpty(): boolean {
    const count = (table: string): number => (this.db.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number }).n;
    return count('games') === 0 && count('grades') === 0;
  }

  /** The secret behind --anonymize's pseudonyms: made once per journal, so pseudonyms stay stable across runs. */
  pseudonymKey(): string {
    const row = this.db.prepare('SELECT value FROM meta WHERE key = ?').get('pseudonym-key') as { value: string } | undefined;
    if (row) return row.value;
    const key = randomBytes(16).toString('hex');
    this.db.prepare('INSERT OR IGNORE INTO meta (key, value) VALUES (?, ?)').run('pseudonym-key', key);
    return (this.db.prepare('SELECT value FROM meta WHERE key = ?').get('pseudonym-key') as { value: string }).value;
  }

  /**
   * The games of one student's grade. Games are keyed by what decides them (see keys.ts), not by their place in
   * the rubric; a stored game is used only if its moves still replay.
   */
  gameStore(student: string, context: { assignment: Assignment; submissionHash: string; harness: string }): GameStore {
    const { assignment, submissionHash, harness } = context;
    const keyOf = (item: number, index: number, seed: number): string => {
      const opponent = assignment.opponents[item];
      return playKey({
        harness,
        submission: submissionHash,
        game: assignment.game,
        referee: assignment.referee,
        opponent: opponentAt(opponent, index),
        openingMoves: opponent.openingMoves,
        seed,
        studentSide: (index % 2) as Side,
      });
    };
    const select = this.db.prepare('SELECT wall_ms, record FROM games WHERE key = ?');
    const upsert = this.db.prepare(
      `INSERT INTO games (key, student, wall_ms, record, finished_at, worker) VALUES (@key, @student, @wallMs, @record, @finishedAt, @worker)
       ON CONFLICT(key) DO UPDATE SET plays = plays + 1, student = excluded.student, wall_ms = excluded.wall_ms,
         record = excluded.record, finished_at = excluded.finished_at, worker = excluded.worker`,
    );
    const replayed = this.db.prepare('UPDATE games SET plays = plays + 1 WHERE key = ?');
    /** The stored record under `key` if it is a faithful one of the game with `seed` (a damaged row is none). */
    const stored = (key: string, seed: number): { wallMs: number; record: GameRecord } | undefined => {
      const row = select.get(key) as { wall_ms: number; record: string } | undefined;
      const record = row && faithfulRecord(row.record, seed);
      return record ? { wallMs: row.wall_ms, record } : undefined;
    };
    return {
      find(slot): JournalEntry | undefined {
        const found = stored(keyOf(slot.item, slot.index, slot.seed), slot.seed);
        return found ? { key: slot.key, item: slot.item, index: slot.index, ...found } : undefined;
      },
      keyOf(slot): string {
        return keyOf(slot.item, slot.index, slot.seed);
      },
      save(entry) {
        const key = keyOf(entry.item, entry.index, entry.record.seed);
        // Idempotent by game: a game played again (its result lost to a FLUSHALL as it finished) keeps its first
        // record; only a damaged row is replaced. `plays` still counts the replay.
        if (stored(key, entry.record.seed)) {
          replayed.run(key);
          return;
        }
        upsert.run({
          key: keyOf(entry.item, entry.index, entry.record.seed),
          student,
          wallMs: entry.wallMs,
          record: JSON.stringify(entry.record),
          finishedAt: new Date().toISOString(),
          worker: entry.worker ?? null,
        });
      },
    };
  }

  /** What this run will grade (for `referee serve --watch`: students not started yet show as waiting). */
  savePlan(plan: BatchPlan): void {
    this.db.prepare('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value').run(PLAN_KEY, JSON.stringify(plan));
  }

  /** The journal's live table (grading/live.ts): the games in play, for `referee serve --watch`. */
  liveSink(): LiveSink {
    return sqliteLiveSink(this.db);
  }

  findGrade(student: string): StoredGrade | undefined {
    const row = this.db.prepare('SELECT student, cache_key, summary, finished_at FROM grades WHERE student = ?').get(student) as GradeRow | undefined;
    return row ? storedGrade(row) : undefined;
  }

  saveGrade(summary: StudentSummary, cacheKey: string | null): void {
    this.db
      .prepare(
        `INSERT INTO grades (student, cache_key, status, summary, finished_at) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT(student) DO UPDATE SET cache_key = excluded.cache_key, status = excluded.status,
           summary = excluded.summary, finished_at = excluded.finished_at`,
      )
      .run(summary.id, cacheKey, summary.status, JSON.stringify(summary), new Date().toISOString());
  }

  grades(): StoredGrade[] {
    const rows = this.db.prepare('SELECT student, cache_key, summary, finished_at FROM grades ORDER BY student').all() as GradeRow[];
    return rows.map(storedGrade);
  }

  /** Games journaled, and the most times any one of them was played (1 unless a finished game was replayed). */
  gameStats(): { games: number; maxPlays: number } {
    const row = this.db.prepare('SELECT COUNT(*) AS games, COALESCE(MAX(plays), 0) AS maxPlays FROM games').get() as { games: number; maxPlays: number };
    return row;
  }

  /** SQLite's own consistency check: 'ok' for a sound file. */
  integrityCheck(): string {
    return (this.db.pragma('integrity_check', { simple: true }) as string) ?? 'unknown';
  }

  close(): void {
    if (this.db.open) this.db.close();
  }
}

interface GradeRow {
  student: string;
  cache_key: string | null;
  summary: string;
  finished_at: string;
}

const storedGrade = (row: GradeRow): StoredGrade => ({
  student: row.student,
  cacheKey: row.cache_key,
  summary: JSON.parse(row.summary) as StudentSummary,
  finishedAt: row.finished_at,
});
