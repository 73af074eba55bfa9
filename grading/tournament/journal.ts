/**
 * The tournament journal: one SQLite file (better-sqlite3, WAL, synchronous=FULL) under out/, like the batch
 * journal. Every finished game is its own committed transaction keyed by what decides it, so a tournament killed
 * at any moment (kill -9 included) resumes without replaying a finished game.
 */
import Database from 'better-sqlite3';
import type { GameRecord } from '../../harness/referee/record.js';
import { recordWorkers, sqliteLiveSink, type LiveSink } from '../live.js';
import { faithfulRecord, prepareJournal } from '../sqlite-journal.js';

export const TOURNAMENT_JOURNAL_FILE = 'tournament.sqlite';
const FORMAT = 'referee.tournament-journal/1';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS games (
  key TEXT PRIMARY KEY,
  wall_ms INTEGER NOT NULL,
  record TEXT NOT NULL,
  plays INTEGER NOT NULL DEFAULT 1,
  finished_at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS games_by_time ON games (finished_at);`;

/** The file is not a tournament journal: say so rather than misread it. */
export class TournamentJournalError extends Error {
  override name = 'TournamentJournalError';
}

export class TournamentJournal {
  private readonly select: Database.Statement;
  private readonly upsert: Database.Statement;
  private readonly replayed: Database.Statement;

  private constructor(
    readonly path: string,
    private readonly db: Database.Database,
  ) {
    this.select = db.prepare('SELECT wall_ms, record FROM games WHERE key = ?');
    this.upsert = db.prepare(
      `INSERT INTO games (key, wall_ms, record, finished_at, worker) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT(key) DO UPDATE SET plays = plays + 1, wall_ms = excluded.wall_ms, record = excluded.record, finished_at = excluded.finished_at,
         worker = excluded.worker`,
    );
    this.replayed = db.prepare('UPDATE games SET plays = plays + 1 WHERE key = ?');
  }

  static open(path: string): TournamentJournal {
    let db: Database.Database;
    try {
      db = new Database(path, { timeout: 30_000 });
    } catch (error) {
      throw new TournamentJournalError(`${path} cannot be opened (${(error as Error).message}): choose another --out`);
    }
    try {
      const format = prepareJournal(db, SCHEMA, FORMAT, true);
      if (format !== FORMAT) throw new TournamentJournalError(`${path} is not a Referee tournament journal (format ${format ?? 'missing'}): move it away or use another --out`);
      recordWorkers(db);
    } catch (error) {
      db.close();
      const code = (error as { code?: unknown }).code;
      if (code === 'SQLITE_NOTADB' || code === 'SQLITE_CORRUPT') {
        throw new TournamentJournalError(`${path} is not a readable Referee tournament journal (${(error as Error).message}): move it away or use another --out`);
      }
      throw error;
    }
    return new TournamentJournal(path, db);
  }

  isEmpty(): boolean {
    return (this.db.prepare('SELECT COUNT(*) AS n FROM games').get() as { n: number }).n === 0;
  }

  /** A finished game, if its record still replays (a damaged row is simply played again). */
  find(key: string, seed: number): { record: GameRecord; wallMs: number } | undefined {
    const row = this.select.get(key) as { wall_ms: number; record: string } | undefined;
    const record = row && faithfulRecord(row.record, seed);
    return record ? { record, wallMs: row.wall_ms } : undefined;
  }

  /** Keep a finished game, and who played it ('local 12345', a queue worker's name). */
  save(key: string, record: GameRecord, wallMs: number, worker: string | null = null): void {
    // Idempotent by game: a game played again (its result lost to a FLUSHALL as it finished) keeps its first
    // record; only a damaged row is replaced. `plays` still counts the replay.
    if (this.find(key, record.seed)) {
      this.replayed.run(key);
      return;
    }
    this.upsert.run(key, wallMs, JSON.stringify(record), new Date().toISOString(), worker);
  }

  /** The journal's live table (grading/live.ts): the games in play, for `referee serve --watch`. */
  liveSink(): LiveSink {
    return sqliteLiveSink(this.db);
  }

  /** Games journaled, and the most times one game was played (1 unless a finished game was replayed). */
  stats(): { games: number; maxPlays: number } {
    return this.db.prepare('SELECT COUNT(*) AS games, COALESCE(MAX(plays), 0) AS maxPlays FROM games').get() as { games: number; maxPlays: number };
  }

  close(): void {
    if (this.db.open) this.db.close();
  }
}
