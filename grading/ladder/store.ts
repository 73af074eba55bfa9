/**
 * The ladder's journal: one SQLite file (better-sqlite3, WAL, synchronous=FULL) in the data folder holding the
 * roster (tokens hashed at rest), every submitted version with its check report, every game with the versions
 * that played it, and the phase (open → frozen → final → done). Each accepted submission and each finished game is
 * its own committed transaction before anyone is told about it, so a kill -9 loses neither; everything published
 * (the leaderboard, the final points) is derived from these rows alone (see ratings.ts), which is what `rebuild`
 * re-derives.
 */
import Database from 'better-sqlite3';
import { RECORD_FORMAT, type GameRecord } from '../../harness/referee/record.js';
import { prepareJournal } from '../sqlite-journal.js';
import { dateTime } from '../words.js';

export const LADDER_JOURNAL_FILE = 'ladder.sqlite';
const FORMAT = 'referee.ladder/1';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS students (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  pseudonym TEXT NOT NULL,
  token_hash TEXT NOT NULL UNIQUE,
  instructor INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS versions (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  student TEXT NOT NULL REFERENCES students(id),
  content_hash TEXT NOT NULL,
  path TEXT NOT NULL,
  submitted_at TEXT NOT NULL,
  counts INTEGER NOT NULL,
  status TEXT NOT NULL,
  language TEXT,
  artefact TEXT,
  runtime TEXT,
  entry TEXT,
  message TEXT,
  check_report TEXT,
  verdict_at TEXT,
  attempts INTEGER NOT NULL DEFAULT 0,
  UNIQUE (student, content_hash)
);
CREATE INDEX IF NOT EXISTS versions_by_student ON versions (student, id);
CREATE TABLE IF NOT EXISTS games (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  key TEXT NOT NULL UNIQUE,
  kind TEXT NOT NULL,
  black TEXT NOT NULL,
  white TEXT NOT NULL,
  seed INTEGER NOT NULL,
  black_score REAL NOT NULL,
  reason TEXT NOT NULL,
  wall_ms INTEGER NOT NULL,
  worker TEXT,
  record TEXT NOT NULL,
  finished_at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS games_by_black ON games (black);
CREATE INDEX IF NOT EXISTS games_by_white ON games (white);
CREATE TABLE IF NOT EXISTS history (
  version INTEGER NOT NULL,
  games INTEGER NOT NULL,
  elo REAL NOT NULL,
  low REAL NOT NULL,
  high REAL NOT NULL,
  at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS history_by_version ON history (version);
CREATE TABLE IF NOT EXISTS quarantine (
  tbl TEXT NOT NULL,
  row_id INTEGER NOT NULL,
  row TEXT NOT NULL,
  why TEXT NOT NULL,
  at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS practice (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  version INTEGER NOT NULL,
  opponent TEXT NOT NULL,
  requested_at TEXT NOT NULL,
  game INTEGER
);`;

/** Where a version stands. Only 'valid' versions play rated games; the newest counted valid one is active. */
export type VersionStatus = 'received' | 'checking' | 'validating' | 'failed' | 'invalid' | 'valid' | 'grader-error';
const VERSION_STATUSES: readonly string[] = ['received', 'checking', 'validating', 'failed', 'invalid', 'valid', 'grader-error'];
export const PENDING_STATUSES: readonly VersionStatus[] = ['received', 'checking', 'validating'];

/** 'validation' games are the episode before a version is rated (the one against the weakest reference counts). */
export type GameKind = 'validation' | 'rated' | 'practice' | 'final';
const GAME_KINDS: readonly string[] = ['validation', 'rated', 'practice', 'final'];

export type Phase = 'open' | 'frozen' | 'final' | 'done';

export interface StudentRow {
  id: string;
  name: string;
  pseudonym: string;
  instructor: boolean;
}

export interface VersionRow {
  id: number;
  student: string;
  contentHash: string;
  /** The extracted files (the entry file or folder to check and build), relative to the data folder. */
  path: string;
  submittedAt: string;
  /** Submitted before the freeze: may become the active (ranked) version. */
  counts: boolean;
  status: VersionStatus;
  language: string | null;
  artefact: string | null;
  runtime: 'node' | 'python' | 'cpp' | 'botzone' | null;
  entry: string | null;
  message: string | null;
  checkReport: unknown;
  verdictAt: string | null;
  attempts: number;
  /** The entry file the student named (`ladder submit --entry`), relative to `path`; null: the usual conventions. */
  chosenEntry: string | null;
}

export interface GameRow {
  id: number;
  key: string;
  kind: GameKind;
  /** Player ids: `v<version id>` for a student's version, `r:<name>` for a reference AI. */
  black: string;
  white: string;
  seed: number;
  blackScore: number;
  reason: string;
  wallMs: number;
  worker: string | null;
  finishedAt: string;
}

/** The file is not a ladder journal, or is damaged: one line naming the fix. */
export class LadderJournalError extends Error {
  override name = 'LadderJournalError';
}

interface RawVersion {
  id: number;
  student: string;
  content_hash: string;
  path: string;
  submitted_at: string;
  counts: number;
  status: VersionStatus;
  language: string | null;
  artefact: string | null;
  runtime: VersionRow['runtime'];
  entry: string | null;
  message: string | null;
  check_report: string | null;
  verdict_at: string | null;
  attempts: number;
  chosen_entry?: string | null;
}

const versionOf = (row: RawVersion): VersionRow => ({
  id: row.id,
  student: row.student,
  contentHash: row.content_hash,
  path: row.path,
  submittedAt: row.submitted_at,
  counts: row.counts === 1,
  status: row.status,
  language: row.language,
  artefact: row.artefact,
  runtime: row.runtime,
  entry: row.entry,
  message: row.message,
  checkReport: row.check_report === null ? null : JSON.parse(row.check_report),
  verdictAt: row.verdict_at,
  attempts: row.attempts,
  chosenEntry: row.chosen_entry ?? null,
});

const GAME_COLUMNS = 'id, key, kind, black, white, seed, black_score AS blackScore, reason, wall_ms AS wallMs, worker, finished_at AS finishedAt';

/** A path the journal may name inside the data folder: relative, no `..`, no backslash or control character. */
export const safeRelativePath = (path: unknown): boolean =>
  typeof path === 'string' && path.length > 0 && path.length <= 400 && !path.startsWith('/') && !/[\\\x00-\x1f]/.test(path) && !path.split('/').includes('..');

const PLAYER_ID = /^(v\d{1,12}|r:[A-Za-z0-9_.-]{1,64})$/;

/**
 * Why a games row cannot be counted (cut short by a crash, edited by hand, written by another Referee), or null. Read
 * through SQLite's JSON functions (GAME_CHECK_COLUMNS): the records are checked without being carried into JS.
 */
function damagedGame(row: Record<string, unknown>): string | null {
  if (!GAME_KINDS.includes(row.kind as string)) return `its kind ${JSON.stringify(String(row.kind)).slice(0, 40)} is not one of ${GAME_KINDS.join(', ')}`;
  if (!PLAYER_ID.test(String(row.black)) || !PLAYER_ID.test(String(row.white))) return 'its players are not version or reference ids';
  if (![0, 0.5, 1].includes(row.black_score as number)) return `its result ${String(row.black_score).slice(0, 20)} is not 1, 0.5 or 0`;
  if (row.valid !== 1) return 'its record is cut short or not JSON';
  if (row.type !== 'object') return 'its record is not a game record';
  if (row.format !== RECORD_FORMAT) return `its record is of another Referee version (format ${JSON.stringify(String(row.format)).slice(0, 40)}, this one reads ${RECORD_FORMAT})`;
  if (row.record_seed !== row.seed || row.turns !== 'array' || row.end !== 'object') return 'its record is not the record of this game (seed, turns or end)';
  const score = row.winner_type === 'null' ? 0.5 : row.winner === 0 ? 1 : row.winner === 1 ? 0 : NaN;
  if (score !== row.black_score) return `its stored result ${row.black_score as number} is not its record's (${Number.isNaN(score) ? 'no winner' : score}): edited by hand`;
  return null;
}

/** What damagedGame reads of a games row (a record that is not JSON reads as invalid, its fields as null). */
const GAME_CHECK_COLUMNS = `id, kind, black, white, black_score, seed, json_valid(record) AS valid,
  CASE WHEN json_valid(record) THEN json_type(record) END AS type,
  CASE WHEN json_valid(record) AND json_type(record) = 'object' THEN json_extract(record, '$.format') END AS format,
  CASE WHEN json_valid(record) AND json_type(record) = 'object' THEN json_extract(record, '$.seed') END AS record_seed,
  CASE WHEN json_valid(record) AND json_type(record) = 'object' THEN json_type(record, '$.turns') END AS turns,
  CASE WHEN json_valid(record) AND json_type(record) = 'object' THEN json_type(record, '$.end') END AS "end",
  CASE WHEN json_valid(record) AND json_type(record, '$.end') = 'object' THEN json_extract(record, '$.end.winner') END AS winner,
  CASE WHEN json_valid(record) AND json_type(record, '$.end') = 'object' THEN json_type(record, '$.end.winner') END AS winner_type`;

/** Why a versions row cannot be trusted, or null. */
function damagedVersion(row: Record<string, unknown>, students: ReadonlySet<string>): string | null {
  if (!students.has(row.student as string)) return `its student ${JSON.stringify(String(row.student)).slice(0, 40)} is not on the roster`;
  if (!VERSION_STATUSES.includes(row.status as string)) return `its status ${JSON.stringify(String(row.status)).slice(0, 40)} is not one this Referee knows`;
  if (row.counts !== 0 && row.counts !== 1) return 'its counts field is not 0 or 1';
  if (!safeRelativePath(row.path)) return 'its path leaves the data folder';
  if (row.chosen_entry != null && !safeRelativePath(row.chosen_entry)) return 'its entry leaves the submission';
  if (row.check_report !== null) {
    try {
      JSON.parse(String(row.check_report));
    } catch {
      return 'its check report is cut short or not JSON';
    }
  }
  return null;
}

/** What damagedHistory reads of a history row (SQLite keeps any type in any column: typeof says what is there). */
const HISTORY_CHECK_COLUMNS = `rowid AS id, version, typeof(version) AS version_type, games, typeof(games) AS games_type,
  elo, typeof(elo) AS elo_type, low, typeof(low) AS low_type, high, typeof(high) AS high_type, at, typeof(at) AS at_type`;

const NUMERIC = new Set(['integer', 'real']);
/** An ISO time as the store writes it (new Date().toISOString()). */
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,3})?Z$/;
/** Far past any Elo a ladder publishes: a point beyond it was written by hand or by a broken disk. */
const ELO_BOUND = 1e5;

/** Why a history (rating over time) row cannot be trusted, or null. */
function damagedHistory(row: Record<string, unknown>): string | null {
  if (row.version_type !== 'integer' || (row.version as number) < 1) return 'its version is not a version id';
  if (row.games_type !== 'integer' || (row.games as number) < 0) return `its game count ${JSON.stringify(String(row.games)).slice(0, 20)} is not a whole number`;
  for (const field of ['elo', 'low', 'high'] as const) {
    if (!NUMERIC.has(row[`${field}_type`] as string) || Math.abs(row[field] as number) > ELO_BOUND) return `its ${field} ${JSON.stringify(String(row[field])).slice(0, 20)} is not a rating`;
  }
  if (!((row.low as number) <= (row.elo as number) && (row.elo as number) <= (row.high as number))) return 'its rating lies outside its own interval';
  if (row.at_type !== 'text' || !ISO_TIME.test(row.at as string) || Number.isNaN(Date.parse(row.at as string))) return 'its time is not a time';
  return null;
}

/** Why a practice request row cannot be trusted, or null (`references`: the ladder's reference AIs). */
function damagedPractice(row: Record<string, unknown>, versions: ReadonlySet<number>, references: readonly string[] | null): string | null {
  if (typeof row.version !== 'number' || !versions.has(row.version)) return `its version ${JSON.stringify(String(row.version)).slice(0, 20)} is not one of this ladder's`;
  if (references && !references.includes(row.opponent as string)) return `its opponent ${JSON.stringify(String(row.opponent)).slice(0, 40)} is not one of this ladder's reference AIs`;
  if (typeof row.requested_at !== 'string' || !ISO_TIME.test(row.requested_at)) return 'its time is not a time';
  if (row.game !== null && (typeof row.game !== 'number' || !Number.isInteger(row.game) || row.game < 1)) return 'its game is not a game id';
  return null;
}

/** A row set aside at start: which, and why (for the one line the server says about it). */
export interface DamagedRow {
  table: 'games' | 'versions' | 'history' | 'practice';
  /** The row's id (history rows: their rowid). */
  id: number;
  student?: string;
  /** The version a history or practice row belongs to, when that could be read. */
  version?: number;
  why: string;
}

export const versionPlayer = (id: number): string => `v${id}`;
export const referencePlayer = (name: string): string => `r:${name}`;

export class LadderStore {
  private constructor(
    readonly path: string,
    readonly db: Database.Database,
  ) {}

  static open(path: string, options: { readonly?: boolean } = {}): LadderStore {
    let db: Database.Database;
    try {
      db = new Database(path, { readonly: options.readonly ?? false, fileMustExist: options.readonly ?? false, timeout: 30_000 });
    } catch (error) {
      throw new LadderJournalError(`${path} cannot be opened (${(error as Error).message}): check --data`);
    }
    try {
      const format = prepareJournal(db, SCHEMA, FORMAT, !options.readonly);
      if (format !== FORMAT) throw new LadderJournalError(`${path} is not a Referee ladder journal (format ${format ?? 'missing'}): use another --data folder`);
      // Journals from before `ladder submit --entry` gain its column (absent: null, the usual conventions).
      const columns = (db.prepare('PRAGMA table_info(versions)').all() as { name: string }[]).map((c) => c.name);
      if (!options.readonly && !columns.includes('chosen_entry')) db.exec('ALTER TABLE versions ADD COLUMN chosen_entry TEXT');
    } catch (error) {
      db.close();
      const code = (error as { code?: unknown }).code;
      if (code === 'SQLITE_NOTADB' || code === 'SQLITE_CORRUPT') throw new LadderJournalError(`${path} is not a readable ladder journal (${(error as Error).message}): use another --data folder`);
      throw error;
    }
    return new LadderStore(path, db);
  }

  /**
   * Rows no reader can trust are moved, whole, into the quarantine table (one transaction), so the service neither
   * counts them nor fails on them, and nothing is deleted: the instructor can restore a row by hand.
   */
  setAsideDamaged(references: readonly string[] | null = null): DamagedRow[] {
    const students = new Set(this.students().map((s) => s.id));
    const found: (DamagedRow & { row: Record<string, unknown> })[] = [];
    for (const row of this.db.prepare('SELECT * FROM versions ORDER BY id').iterate() as Iterable<Record<string, unknown>>) {
      const why = damagedVersion(row, students);
      if (why) found.push({ table: 'versions', id: Number(row.id), student: String(row.student).slice(0, 40), why, row });
    }
    const whole = this.db.prepare('SELECT * FROM games WHERE id = ?');
    for (const row of this.db.prepare(`SELECT ${GAME_CHECK_COLUMNS} FROM games ORDER BY id`).iterate() as Iterable<Record<string, unknown>>) {
      const why = damagedGame(row);
      if (why) found.push({ table: 'games', id: Number(row.id), why, row: whole.get(row.id) as Record<string, unknown> });
    }
    // After versions: a practice request of a version just set aside goes with it.
    const versions = new Set<number>();
    for (const { id } of this.db.prepare('SELECT id FROM versions').iterate() as Iterable<{ id: number }>) versions.add(id);
    for (const each of found) if (each.table === 'versions') versions.delete(each.id);
    for (const row of this.db.prepare('SELECT * FROM practice ORDER BY id').iterate() as Iterable<Record<string, unknown>>) {
      const why = damagedPractice(row, versions, references);
      if (why) found.push({ table: 'practice', id: Number(row.id), ...(typeof row.version === 'number' ? { version: row.version } : {}), why, row });
    }
    const wholeHistory = this.db.prepare('SELECT rowid AS rowid, * FROM history WHERE rowid = ?');
    for (const row of this.db.prepare(`SELECT ${HISTORY_CHECK_COLUMNS} FROM history ORDER BY rowid`).iterate() as Iterable<Record<string, unknown>>) {
      const why = damagedHistory(row);
      if (why) found.push({ table: 'history', id: Number(row.id), ...(row.version_type === 'integer' ? { version: row.version as number } : {}), why, row: wholeHistory.get(row.id) as Record<string, unknown> });
    }
    if (found.length === 0) return [];
    const keep = this.db.prepare('INSERT INTO quarantine (tbl, row_id, row, why, at) VALUES (?, ?, ?, ?, ?)');
    const at = new Date().toISOString();
    this.db.transaction(() => {
      for (const each of found) {
        keep.run(each.table, each.id, JSON.stringify(each.row), each.why, at);
        this.db.prepare(`DELETE FROM ${each.table} WHERE ${each.table === 'history' ? 'rowid' : 'id'} = ?`).run(each.id);
      }
    })();
    return found.map(({ row: _row, ...rest }) => rest);
  }

  getMeta(key: string): string | undefined {
    return (this.db.prepare('SELECT value FROM meta WHERE key = ?').get(key) as { value: string } | undefined)?.value;
  }

  setMeta(key: string, value: string): void {
    this.db.prepare('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value').run(key, value);
  }

  phase(): Phase {
    return (this.getMeta('phase') as Phase | undefined) ?? 'open';
  }

  // Roster ---------------------------------------------------------------------------------------------------------

  students(): StudentRow[] {
    const rows = this.db.prepare('SELECT id, name, pseudonym, instructor FROM students ORDER BY instructor, id').all() as (Omit<StudentRow, 'instructor'> & { instructor: number })[];
    return rows.map((row) => ({ ...row, instructor: row.instructor === 1 }));
  }

  hasStudent(id: string): boolean {
    return this.db.prepare('SELECT 1 FROM students WHERE id = ?').get(id) !== undefined;
  }

  addStudent(row: StudentRow, tokenHash: string): void {
    this.db.prepare('INSERT INTO students (id, name, pseudonym, token_hash, instructor) VALUES (?, ?, ?, ?, ?)').run(row.id, row.name, row.pseudonym, tokenHash, row.instructor ? 1 : 0);
  }

  /** Every (student, token hash): the caller compares in constant time (tokens.ts). */
  tokenHashes(): { id: string; hash: string }[] {
    return this.db.prepare('SELECT id, token_hash AS hash FROM students').all() as { id: string; hash: string }[];
  }

  // Versions -------------------------------------------------------------------------------------------------------

  version(id: number): VersionRow | undefined {
    const row = this.db.prepare('SELECT * FROM versions WHERE id = ?').get(id) as RawVersion | undefined;
    return row ? versionOf(row) : undefined;
  }

  versionByContent(student: string, contentHash: string): VersionRow | undefined {
    const row = this.db.prepare('SELECT * FROM versions WHERE student = ? AND content_hash = ?').get(student, contentHash) as RawVersion | undefined;
    return row ? versionOf(row) : undefined;
  }

  versionsOf(student: string): VersionRow[] {
    return (this.db.prepare('SELECT * FROM versions WHERE student = ? ORDER BY id').all(student) as RawVersion[]).map(versionOf);
  }

  allVersions(): VersionRow[] {
    return (this.db.prepare('SELECT * FROM versions ORDER BY id').all() as RawVersion[]).map(versionOf);
  }

  pendingVersions(): VersionRow[] {
    return (this.db.prepare(`SELECT * FROM versions WHERE status IN ('received', 'checking', 'validating') ORDER BY id`).all() as RawVersion[]).map(versionOf);
  }

  /**
   * Record a new version unless the quota or cool-down refuses it (one transaction, so two uploads at once cannot
   * both squeeze under the quota). Returns the version, or the refusal in one line.
   */
  addVersion(input: { student: string; contentHash: string; path: string; chosenEntry?: string; counts: boolean; now: Date; quota: { perDay: number; cooldownSeconds: number } }): { version: VersionRow; duplicate: boolean } | { refused: string } {
    return this.db.transaction(() => {
      const existing = this.versionByContent(input.student, input.contentHash);
      if (existing) return { version: existing, duplicate: true };
      const dayAgo = new Date(input.now.getTime() - 24 * 3600 * 1000).toISOString();
      // Only the student's own versions count against them: a grader error is not a used submission.
      const recent = this.db.prepare(`SELECT submitted_at FROM versions WHERE student = ? AND submitted_at > ? AND status != 'grader-error' ORDER BY submitted_at DESC`).all(input.student, dayAgo) as { submitted_at: string }[];
      if (recent.length >= input.quota.perDay) {
        const oldest = new Date(recent[recent.length - 1].submitted_at).getTime() + 24 * 3600 * 1000;
        return { refused: `quota reached: ${input.quota.perDay} submissions a day; the next one is possible after ${dateTime(oldest)}` };
      }
      if (recent.length > 0) {
        const wait = new Date(recent[0].submitted_at).getTime() + input.quota.cooldownSeconds * 1000 - input.now.getTime();
        if (wait > 0) return { refused: `cool-down: wait ${Math.ceil(wait / 1000)} s before the next submission (one every ${input.quota.cooldownSeconds} s)` };
      }
      const info = this.db
        .prepare(`INSERT INTO versions (student, content_hash, path, submitted_at, counts, status, chosen_entry) VALUES (?, ?, ?, ?, ?, 'received', ?)`)
        .run(input.student, input.contentHash, input.path, input.now.toISOString(), input.counts ? 1 : 0, input.chosenEntry ?? null);
      return { version: this.version(Number(info.lastInsertRowid))!, duplicate: false };
    })();
  }

  updateVersion(id: number, fields: Partial<Pick<VersionRow, 'status' | 'language' | 'artefact' | 'runtime' | 'entry' | 'message' | 'checkReport' | 'verdictAt' | 'attempts'>>): void {
    const columns: Record<string, string> = {
      status: 'status', language: 'language', artefact: 'artefact', runtime: 'runtime', entry: 'entry', message: 'message', checkReport: 'check_report', verdictAt: 'verdict_at', attempts: 'attempts',
    };
    const sets: string[] = [];
    const values: unknown[] = [];
    for (const [field, value] of Object.entries(fields)) {
      sets.push(`${columns[field]} = ?`);
      values.push(field === 'checkReport' ? (value === null ? null : JSON.stringify(value)) : value);
    }
    if (sets.length === 0) return;
    this.db.prepare(`UPDATE versions SET ${sets.join(', ')} WHERE id = ?`).run(...values, id);
  }

  // Games ----------------------------------------------------------------------------------------------------------

  gameByKey(key: string): GameRow | undefined {
    return this.db.prepare(`SELECT ${GAME_COLUMNS} FROM games WHERE key = ?`).get(key) as GameRow | undefined;
  }

  game(id: number): (GameRow & { record: GameRecord }) | undefined {
    const row = this.db.prepare(`SELECT ${GAME_COLUMNS}, record FROM games WHERE id = ?`).get(id) as (GameRow & { record: string }) | undefined;
    return row ? { ...row, record: JSON.parse(row.record) as GameRecord } : undefined;
  }

  /** Keep a finished game (its own transaction); a game already kept under its key is kept once. */
  saveGame(game: Omit<GameRow, 'id' | 'finishedAt'>, record: GameRecord): GameRow {
    this.db
      .prepare(
        `INSERT OR IGNORE INTO games (key, kind, black, white, seed, black_score, reason, wall_ms, worker, record, finished_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(game.key, game.kind, game.black, game.white, game.seed, game.blackScore, game.reason, game.wallMs, game.worker, JSON.stringify(record), new Date().toISOString());
    return this.gameByKey(game.key)!;
  }

  games(): GameRow[] {
    return this.db.prepare(`SELECT ${GAME_COLUMNS} FROM games ORDER BY id`).all() as GameRow[];
  }

  /** Every game with its record, in order (rebuild re-derives each result from its record). */
  *gamesWithRecords(): Generator<GameRow & { record: string }> {
    for (const row of this.db.prepare(`SELECT ${GAME_COLUMNS}, record FROM games ORDER BY id`).iterate()) yield row as GameRow & { record: string };
  }

  gamesOf(player: string, limit = 200): GameRow[] {
    return this.db.prepare(`SELECT ${GAME_COLUMNS} FROM games WHERE black = ? OR white = ? ORDER BY id DESC LIMIT ?`).all(player, player, limit) as GameRow[];
  }

  gameCount(kinds?: GameKind[]): number {
    if (!kinds) return (this.db.prepare('SELECT COUNT(*) AS n FROM games').get() as { n: number }).n;
    return (this.db.prepare(`SELECT COUNT(*) AS n FROM games WHERE kind IN (${kinds.map(() => '?').join(', ')})`).get(...kinds) as { n: number }).n;
  }

  // Practice -------------------------------------------------------------------------------------------------------

  requestPractice(version: number, opponent: string): number {
    return Number(this.db.prepare('INSERT INTO practice (version, opponent, requested_at) VALUES (?, ?, ?)').run(version, opponent, new Date().toISOString()).lastInsertRowid);
  }

  openPractice(): { id: number; version: number; opponent: string }[] {
    return this.db.prepare('SELECT id, version, opponent FROM practice WHERE game IS NULL ORDER BY id').all() as { id: number; version: number; opponent: string }[];
  }

  openPracticeOf(version: number): number {
    return (this.db.prepare('SELECT COUNT(*) AS n FROM practice WHERE version = ? AND game IS NULL').get(version) as { n: number }).n;
  }

  finishPractice(id: number, game: number): void {
    this.db.prepare('UPDATE practice SET game = ? WHERE id = ?').run(game, id);
  }

  // Rating over time -----------------------------------------------------------------------------------------------

  addHistory(points: { version: number; games: number; elo: number; low: number; high: number }[]): void {
    const insert = this.db.prepare('INSERT INTO history (version, games, elo, low, high, at) VALUES (?, ?, ?, ?, ?, ?)');
    const at = new Date().toISOString();
    this.db.transaction(() => {
      for (const p of points) insert.run(p.version, p.games, p.elo, p.low, p.high, at);
    })();
  }

  historyOf(version: number): { games: number; elo: number; low: number; high: number; at: string }[] {
    return this.db.prepare('SELECT games, elo, low, high, at FROM history WHERE version = ? ORDER BY rowid').all(version) as { games: number; elo: number; low: number; high: number; at: string }[];
  }

  integrityCheck(): string {
    return (this.db.pragma('integrity_check', { simple: true }) as string) ?? 'unknown';
  }

  close(): void {
    if (this.db.open) this.db.close();
  }
}
