/**
 * The games in play, kept where a watcher can read them (`referee serve --watch`): which game each worker is
 * playing and its moves so far. Pools report progress as it comes; this registry writes the net change to its
 * sink at most every `everyMs`, in one write (a batch's SQLite journal, a grade's live.json), so a game that starts
 * and ends between two writes costs nothing and watching never slows grading. A heartbeat goes with every write,
 * so a watcher can tell a running grader from one that was killed.
 */
import type Database from 'better-sqlite3';
import { readFileSync } from 'node:fs';
import type { GameProgress } from './pool/job.js';
import { writeFileAtomic } from './write-atomic.js';

export interface LiveGame {
  /** The game's key (the pool job's). */
  key: string;
  /** Whose grade asked for it (a tournament: the game's label, e.g. 'alice vs bob #2'). */
  student: string;
  /** Who plays it ('local 12345', a queue worker's name). */
  worker: string;
  startedAt: string;
  updatedAt: string;
  /** Null until the worker's first report. */
  progress: GameProgress | null;
}

export type LiveState = 'running' | 'done' | 'interrupted';

export interface LiveChange {
  upserts: LiveGame[];
  deletes: string[];
  /** ISO time of this write. */
  heartbeat: string;
}

/** Where live games are kept. Writes are whole: a watcher never sees half of one. */
export interface LiveSink {
  write(change: LiveChange): void;
  /** The run is over: no game is in play any more. */
  end(state: LiveState, at: string): void;
}

/** How often the registry writes; a heartbeat at least every HEARTBEAT_MS even when nothing moved. */
export const LIVE_WRITE_MS = 250;
export const HEARTBEAT_MS = 1000;
/** A heartbeat older than this means the grader is not running any more (killed, or the machine went down). */
export const STALE_AFTER_MS = 10_000;

export class LiveGames {
  private readonly games = new Map<string, LiveGame>();
  private readonly dirty = new Set<string>();
  private readonly removed = new Set<string>();
  private readonly timer: ReturnType<typeof setInterval>;
  private lastWrite = 0;
  private failed = false;

  constructor(
    private readonly sink: LiveSink,
    /** Told once if the sink fails; live watching then stops, grading goes on. */
    private readonly onError: (message: string) => void = () => undefined,
    everyMs = LIVE_WRITE_MS,
  ) {
    this.timer = setInterval(() => this.flush(), everyMs);
    this.timer.unref();
    this.flush(true);
  }

  start(key: string, student: string, worker: string): void {
    const now = new Date().toISOString();
    const known = this.games.get(key);
    // Started again (a game handed to another worker plays from its start): the moves so far are void.
    this.games.set(key, { key, student: known?.student ?? student, worker, startedAt: now, updatedAt: now, progress: null });
    this.removed.delete(key);
    this.dirty.add(key);
  }

  progress(key: string, progress: GameProgress): void {
    const game = this.games.get(key);
    if (!game) return;
    game.progress = progress;
    game.updatedAt = new Date().toISOString();
    this.dirty.add(key);
  }

  /** The game is over (finished, failed or withdrawn): it leaves the live view at the next write. */
  end(key: string): void {
    if (!this.games.delete(key)) return;
    this.dirty.delete(key);
    this.removed.add(key);
  }

  /** Write what changed now (the timer does this every LIVE_WRITE_MS). */
  flush(force = false): void {
    if (this.failed) return;
    const now = Date.now();
    if (!force && this.dirty.size === 0 && this.removed.size === 0 && now - this.lastWrite < HEARTBEAT_MS) return;
    const change: LiveChange = {
      upserts: [...this.dirty].map((key) => this.games.get(key)!),
      deletes: [...this.removed],
      heartbeat: new Date(now).toISOString(),
    };
    this.dirty.clear();
    this.removed.clear();
    this.lastWrite = now;
    this.guard(() => this.sink.write(change));
  }

  /** Stop writing; the sink is told the run ended (and why). */
  close(state: LiveState): void {
    clearInterval(this.timer);
    this.games.clear();
    this.dirty.clear();
    this.removed.clear();
    this.guard(() => this.sink.end(state, new Date().toISOString()));
    this.failed = true;
  }

  private guard(write: () => void): void {
    if (this.failed) return;
    try {
      write();
    } catch (error) {
      this.failed = true;
      clearInterval(this.timer);
      this.onError(`live watching stopped: ${(error as Error).message} (grading goes on)`);
    }
  }
}

export const LIVE_FILE = 'live.json';
const LIVE_FORMAT = 'referee.live/1';

/** What live.json holds. */
export interface LiveSnapshot {
  format: typeof LIVE_FORMAT;
  state: LiveState;
  heartbeat: string;
  games: LiveGame[];
}

/** A grade's live games: out/live.json, rewritten whole (write, then rename) at each change. */
export class LiveFile implements LiveSink {
  private readonly games = new Map<string, LiveGame>();

  constructor(private readonly path: string) {}

  write(change: LiveChange): void {
    for (const key of change.deletes) this.games.delete(key);
    for (const game of change.upserts) this.games.set(game.key, game);
    this.save('running', change.heartbeat);
  }

  end(state: LiveState, at: string): void {
    this.games.clear();
    this.save(state, at);
  }

  private save(state: LiveState, heartbeat: string): void {
    const snapshot: LiveSnapshot = { format: LIVE_FORMAT, state, heartbeat, games: [...this.games.values()] };
    writeFileAtomic(this.path, JSON.stringify(snapshot));
  }
}

/** live.json as written, or null when it is missing or not one (a watcher then shows no live games). */
export function readLiveFile(path: string): LiveSnapshot | null {
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    return null;
  }
  const snapshot = data as Partial<LiveSnapshot> | null;
  if (!snapshot || snapshot.format !== LIVE_FORMAT || !Array.isArray(snapshot.games) || typeof snapshot.heartbeat !== 'string') return null;
  if (snapshot.state !== 'running' && snapshot.state !== 'done' && snapshot.state !== 'interrupted') return null;
  return snapshot as LiveSnapshot;
}

/**
 * A journal's games table with who played each game (`worker`), counted by `serve --watch` from an index without
 * reading a record. Journals from before gain the column, empty for their games.
 */
export function recordWorkers(db: Database.Database): void {
  const columns = db.prepare("SELECT name FROM pragma_table_info('games')").all() as { name: string }[];
  if (!columns.some((column) => column.name === 'worker')) db.exec('ALTER TABLE games ADD COLUMN worker TEXT');
  db.exec('CREATE INDEX IF NOT EXISTS games_by_worker ON games (worker, finished_at)');
}

/** The live table of a SQLite journal (the batch's and the tournament's). */
export const LIVE_TABLE_SQL = `
CREATE TABLE IF NOT EXISTS live (
  key TEXT PRIMARY KEY,
  student TEXT NOT NULL,
  worker TEXT NOT NULL,
  progress TEXT,
  started_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);`;
/** meta keys of the live view: the last write's time, and 'running' | 'done' | 'interrupted'. */
export const LIVE_HEARTBEAT_KEY = 'live-heartbeat';
export const LIVE_STATE_KEY = 'live-state';

/**
 * A journal's live table as a LiveSink: games in play with their moves so far, and the heartbeat in its meta
 * table. Opening it clears what a killed run left. Each write is one transaction, committed without waiting for
 * the disk (synchronous=NORMAL for it alone: losing the live view in a power cut costs nothing; the journal's
 * games keep their FULL commits).
 */
export function sqliteLiveSink(db: Database.Database): LiveSink {
  db.exec(LIVE_TABLE_SQL);
  const setMeta = db.prepare('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value');
  const upsert = db.prepare(
    `INSERT INTO live (key, student, worker, progress, started_at, updated_at) VALUES (@key, @student, @worker, @progress, @startedAt, @updatedAt)
     ON CONFLICT(key) DO UPDATE SET student = excluded.student, worker = excluded.worker, progress = excluded.progress,
       started_at = excluded.started_at, updated_at = excluded.updated_at`,
  );
  const remove = db.prepare('DELETE FROM live WHERE key = ?');
  const write = db.transaction((change: LiveChange) => {
    for (const key of change.deletes) remove.run(key);
    for (const game of change.upserts) upsert.run({ ...game, progress: game.progress ? JSON.stringify(game.progress) : null });
    setMeta.run(LIVE_HEARTBEAT_KEY, change.heartbeat);
    setMeta.run(LIVE_STATE_KEY, 'running');
  });
  const end = db.transaction((state: LiveState, at: string) => {
    db.exec('DELETE FROM live');
    setMeta.run(LIVE_HEARTBEAT_KEY, at);
    setMeta.run(LIVE_STATE_KEY, state);
  });
  const relaxed = <T extends unknown[]>(run: (...args: T) => void) => (...args: T): void => {
    const previous = db.pragma('synchronous', { simple: true }) as number;
    db.pragma('synchronous = NORMAL');
    try {
      run(...args);
    } finally {
      db.pragma(`synchronous = ${previous}`);
    }
  };
  db.exec('DELETE FROM live');
  return { write: relaxed((change: LiveChange) => void write(change)), end: relaxed((state: LiveState, at: string) => void end(state, at)) };
}
