/**
 * `referee serve --watch <out-dir>`: a read-only view of a batch, a tournament or a grade, running or finished. A
 * batch or a tournament is read from its SQLite journal (WAL lets this reader sit beside the writing coordinator):
 * finished games (and a batch's grades, a tournament's points), the games in play with their moves so far (the
 * live table, written at most every 250 ms) and who plays them. A single grade is read from its games.jsonl and
 * live.json. Everything read is checked before it is drawn: a torn
 * or hostile row is skipped, never shown half.
 */
import Database from 'better-sqlite3';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { BATCH_JOURNAL_FILE, PLAN_KEY } from '../../grading/batch/journal-db.js';
import { classStatus, type StudentSummary } from '../../grading/batch/summary.js';
import { JOURNAL_FILE } from '../../grading/journal.js';
import { TOURNAMENT_JOURNAL_FILE } from '../../grading/tournament/journal.js';
import { LADDER_JOURNAL_FILE } from '../../grading/ladder/store.js';
import { LIVE_FILE, LIVE_HEARTBEAT_KEY, LIVE_STATE_KEY, readLiveFile, STALE_AFTER_MS, type LiveGame } from '../../grading/live.js';
import type { GameProgress } from '../../grading/pool/job.js';
import { validProgress } from '../../grading/pool/progress.js';
import type { GameRecord } from '../../harness/referee/record.js';

export interface WatchedGame {
  key: string;
  student: string;
  game: string;
  players: [string, string];
  plies: number;
  result: string;
  finishedAt: string;
  worker: string | null;
}

/** A game in play, as listed (its moves come with WatchSource.liveGame). */
export interface LiveGameView {
  key: string;
  student: string;
  worker: string;
  game: string | null;
  players: [string, string] | null;
  plies: number;
  lastMove: string | null;
  startedAt: string;
  updatedAt: string;
}

export interface WorkerView {
  name: string;
  /** Games it finished (journaled). */
  finished: number;
  /** The games it is playing now. */
  playing: { key: string; label: string; plies: number }[];
  lastFinishedAt: string | null;
}

/**
 * running: the grader wrote within STALE_AFTER_MS; stopped: its last write is older (killed, or its machine went
 * down): games listed as in play then are not shown; done / interrupted: it ended and said so.
 */
export type RunState = 'running' | 'stopped' | 'done' | 'interrupted' | 'unknown';

export interface WatchOverview {
  source: 'batch' | 'tournament' | 'grade' | 'none';
  dir: string;
  /** False until the folder is made (by the run about to write there). */
  dirExists: boolean;
  run: { state: RunState; heartbeat: string | null };
  /** A tournament's participants: score is their points, maxScore their games finished. */
  students: { id: string; status: string; score: number | null; maxScore: number | null; games: number; planned: number | null; playing: number; error: string | null }[];
  /** Newest first (at most 200). */
  games: WatchedGame[];
  gamesTotal: number;
  /** Games in play, oldest first (at most 200). */
  live: LiveGameView[];
  workers: WorkerView[];
}

export interface WatchedLiveGame {
  key: string;
  student: string;
  worker: string;
  progress: GameProgress;
}

const MAX_LISTED = 200;

function describeResult(record: GameRecord): string {
  const end = record.end;
  if (!end) return 'unfinished';
  const who = end.winner === null ? 'draw' : `${record.players[end.winner]} wins`;
  return end.reason === 'score' ? `${who} ${end.score?.join('-') ?? ''}`.trim() : `${who} (${end.reason})`;
}

function parseJson(text: string | null): unknown {
  if (text === null) return null;
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

const isPair = (value: unknown): value is [string, string] => Array.isArray(value) && value.length === 2 && value.every((each) => typeof each === 'string');

function runState(state: string | null, heartbeat: string | null, now = Date.now()): RunState {
  if (state === 'done' || state === 'interrupted') return state;
  if (state !== 'running' || heartbeat === null) return 'unknown';
  const at = Date.parse(heartbeat);
  return Number.isFinite(at) && now - at <= STALE_AFTER_MS ? 'running' : 'stopped';
}

function liveView(game: { key: string; student: string; worker: string; startedAt: string; updatedAt: string }, progress: GameProgress | null): LiveGameView {
  const moves = progress?.moves ?? [];
  return {
    key: game.key,
    student: game.student,
    worker: game.worker,
    game: progress?.game ?? null,
    players: progress?.players ?? null,
    plies: moves.length,
    lastMove: moves.length > 0 ? (moves[moves.length - 1] ?? 'pass') : null,
    startedAt: game.startedAt,
    updatedAt: game.updatedAt,
  };
}

const labelOf = (game: LiveGameView): string => (game.players ? `${game.players[0]} vs ${game.players[1]}` : `${game.student} (starting)`);

/** Workers from finished games' counts and the games in play (a worker with both shows once). */
function workersOf(finished: { worker: string; n: number; last: string | null }[], live: LiveGameView[]): WorkerView[] {
  const byName = new Map<string, WorkerView>();
  const get = (name: string): WorkerView => {
    let worker = byName.get(name);
    if (!worker) byName.set(name, (worker = { name, finished: 0, playing: [], lastFinishedAt: null }));
    return worker;
  };
  for (const row of finished) Object.assign(get(row.worker), { finished: row.n, lastFinishedAt: row.last });
  for (const game of live) get(game.worker).playing.push({ key: game.key, label: labelOf(game), plies: game.plies });
  return [...byName.values()].sort((a, b) => b.playing.length - a.playing.length || a.name.localeCompare(b.name));
}

interface LiveRow {
  key: string;
  student: string;
  worker: string;
  progress: string | null;
  started_at: string;
  updated_at: string;
}

export class WatchSource {
  private db: Database.Database | null = null;
  private kind: 'batch' | 'tournament' = 'batch';
  /** A tournament's points per participant, counted from the games journaled up to `tallied` (rowid). */
  private readonly points = new Map<string, { games: number; points: number }>();
  private tallied = 0;

  constructor(readonly dir: string) {}

  /**
   * A one-line problem with the folder, or null. An empty folder is fine (a batch may be about to start), and so is
   * one that does not exist yet (`serve --watch out/` started before `batch --out out/`): the page waits for it.
   */
  static problem(dir: string): string | null {
    if (existsSync(dir) && !statSync(dir).isDirectory()) return `--watch ${dir}: not a folder; pass the --out folder of a batch, grade or tournament`;
    return null;
  }

  /** Whether the folder exists yet. */
  exists(): boolean {
    return existsSync(this.dir);
  }

  private journal(): Database.Database | null {
    if (this.db) return this.db;
    // A class ladder's journal has a tournament's shape (games with records, a live table).
    for (const [file, kind] of [[BATCH_JOURNAL_FILE, 'batch'], [TOURNAMENT_JOURNAL_FILE, 'tournament'], [LADDER_JOURNAL_FILE, 'tournament']] as const) {
      const path = join(this.dir, file);
      if (!existsSync(path)) continue;
      try {
        this.db = new Database(path, { readonly: true, fileMustExist: true, timeout: 5000 });
        this.kind = kind;
      } catch {
        return null;
      }
      return this.db;
    }
    return null;
  }

  private empty(source: WatchOverview['source']): WatchOverview {
    return { source, dir: this.dir, dirExists: this.exists(), run: { state: 'unknown', heartbeat: null }, students: [], games: [], gamesTotal: 0, live: [], workers: [] };
  }

  overview(): WatchOverview {
    const db = this.journal();
    if (db) {
      try {
        return this.journalOverview(db);
      } catch {
        // A journal being created may not have its tables yet: show it as empty until it does.
        return this.empty(this.kind);
      }
    }
    const jsonl = join(this.dir, JOURNAL_FILE);
    if (existsSync(jsonl) || existsSync(join(this.dir, LIVE_FILE))) return this.gradeOverview(jsonl);
    return this.empty('none');
  }

  private hasColumn(db: Database.Database, table: string, column: string): boolean {
    return (db.prepare(`SELECT name FROM pragma_table_info('${table}')`).all() as { name: string }[]).some((row) => row.name === column);
  }

  private journalRun(db: Database.Database): WatchOverview['run'] {
    const meta = (key: string): string | null => (db.prepare('SELECT value FROM meta WHERE key = ?').get(key) as { value: string } | undefined)?.value ?? null;
    const heartbeat = meta(LIVE_HEARTBEAT_KEY);
    return { state: runState(meta(LIVE_STATE_KEY), heartbeat), heartbeat };
  }

  /** The live table's rows (none from a journal made before it existed, or of a run that is not running). */
  private liveRows(db: Database.Database, run: WatchOverview['run'], key?: string): LiveRow[] {
    if (run.state !== 'running') return [];
    const exists = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'live'").get();
    if (!exists) return [];
    const columns = 'key, student, worker, progress, started_at, updated_at';
    if (key !== undefined) return db.prepare(`SELECT ${columns} FROM live WHERE key = ?`).all(key) as LiveRow[];
    return db.prepare(`SELECT ${columns} FROM live ORDER BY started_at, key LIMIT ?`).all(MAX_LISTED) as LiveRow[];
  }

  /** A tournament's participants: points from the games journaled since the last look (each row read once). */
  private tournamentPlayers(db: Database.Database): WatchOverview['students'] {
    const rows = db
      .prepare(
        `SELECT rowid, json_extract(record, '$.players') AS players, json_extract(record, '$.end.winner') AS winner
         FROM (SELECT rowid, CASE WHEN json_valid(record) THEN record ELSE '{}' END AS record FROM games WHERE rowid > ? ORDER BY rowid)`,
      )
      .all(this.tallied) as { rowid: number; players: string | null; winner: number | null }[];
    for (const row of rows) {
      this.tallied = Math.max(this.tallied, row.rowid);
      const players = parseJson(row.players);
      if (!isPair(players)) continue;
      players.forEach((id, side) => {
        const entry = this.points.get(id) ?? { games: 0, points: 0 };
        entry.games += 1;
        entry.points += row.winner === null ? 0.5 : row.winner === side ? 1 : 0;
        this.points.set(id, entry);
      });
    }
    return [...this.points]
      .map(([id, { games, points }]) => ({ id, status: '', score: points, maxScore: games, games, planned: null, playing: 0, error: null }))
      .sort((a, b) => (b.score ?? 0) - (a.score ?? 0) || a.id.localeCompare(b.id));
  }

  /** The batch's plan, if it wrote one and it has the right shape. */
  private plan(db: Database.Database): { students: string[]; gamesPerStudent: number } | null {
    const row = db.prepare('SELECT value FROM meta WHERE key = ?').get(PLAN_KEY) as { value: string } | undefined;
    const plan = parseJson(row?.value ?? null) as { students?: unknown; gamesPerStudent?: unknown } | null;
    if (!plan || !Array.isArray(plan.students) || !plan.students.every((id) => typeof id === 'string') || !Number.isInteger(plan.gamesPerStudent)) return null;
    return { students: plan.students.slice(0, 10_000) as string[], gamesPerStudent: plan.gamesPerStudent as number };
  }

  private journalOverview(db: Database.Database): WatchOverview {
    const tournament = this.kind === 'tournament';
    const grades = tournament ? [] : (db.prepare('SELECT student, summary FROM grades ORDER BY student').all() as { student: string; summary: string }[]);
    const counts = tournament ? [] : (db.prepare('SELECT student, COUNT(*) AS n FROM games GROUP BY student').all() as { student: string; n: number }[]);
    const withWorker = this.hasColumn(db, 'games', 'worker');
    // JSON is read by SQLite, not here: the list needs a few fields of each record, not the whole of it.
    const rows = db
      .prepare(
        `SELECT key, student, finished_at, worker, json_extract(record, '$.game') AS game, json_extract(record, '$.players') AS players,
           json_array_length(record, '$.turns') AS plies, json_extract(record, '$.end') AS end_
         FROM (SELECT key, ${tournament ? "'' AS student" : 'student'}, finished_at, ${withWorker ? 'worker' : 'NULL AS worker'},
                 CASE WHEN json_valid(record) THEN record ELSE '{}' END AS record
               FROM games ORDER BY finished_at DESC, rowid DESC LIMIT ?)`,
      )
      .all(MAX_LISTED) as { key: string; student: string; finished_at: string; worker: string | null; game: unknown; players: string; plies: number; end_: string }[];
    const total = (db.prepare('SELECT COUNT(*) AS n FROM games').get() as { n: number }).n;
    const run = this.journalRun(db);
    const live = this.liveRows(db, run).map((row) =>
      liveView({ key: row.key, student: row.student, worker: row.worker, startedAt: row.started_at, updatedAt: row.updated_at }, validProgress(parseJson(row.progress))),
    );
    const finishedBy = withWorker
      ? (db.prepare('SELECT worker, COUNT(*) AS n, MAX(finished_at) AS last FROM games WHERE worker IS NOT NULL GROUP BY worker').all() as { worker: string; n: number; last: string | null }[])
      : [];

    const byStudent = new Map<string, WatchOverview['students'][number]>();
    const plan = tournament ? null : this.plan(db);
    const student = (id: string): WatchOverview['students'][number] => {
      let entry = byStudent.get(id);
      if (!entry) byStudent.set(id, (entry = { id, status: 'grading', score: null, maxScore: null, games: 0, planned: plan?.gamesPerStudent ?? null, playing: 0, error: null }));
      return entry;
    };
    // Everyone the run will grade, from the start: those not reached yet are waiting.
    for (const id of plan?.students ?? []) student(id).status = 'waiting';
    for (const { student: id, n } of counts) Object.assign(student(id), { games: n, status: 'grading' });
    if (tournament) {
      for (const entry of this.tournamentPlayers(db)) byStudent.set(entry.id, entry);
      // A participant in its first game has no finished game yet: it is listed as playing all the same.
      for (const game of live) for (const id of game.players ?? []) student(id).playing += 1;
      for (const entry of byStudent.values()) {
        entry.score ??= 0;
        entry.maxScore ??= entry.games;
        // An always-on ladder has no 'done': between games its players wait, like a running tournament's.
        entry.status = entry.playing > 0 ? 'playing' : run.state === 'done' ? 'finished' : run.state === 'stopped' || run.state === 'interrupted' ? 'stopped' : 'waiting for its next game';
      }
    } else {
      for (const game of live) Object.assign(student(game.student), { status: 'grading' }).playing += 1;
    }
    for (const grade of grades) {
      const summary = parseJson(grade.summary) as StudentSummary | null;
      const entry = student(grade.student);
      // index.html's words (a submission that does not compile is 'interface check failed', not 'graded').
      const standing = summary?.interfaceCheck ? classStatus(summary) : { status: summary?.status ?? 'graded', reason: summary?.error ?? null };
      // Games reused from the journal (an identical submission's, a resumed run's) count as this student's.
      const games = typeof summary?.gamesPlayed === 'number' && typeof summary.gamesReused === 'number' ? summary.gamesPlayed + summary.gamesReused : 0;
      Object.assign(entry, {
        status: standing.status,
        score: summary?.score ?? null,
        maxScore: summary?.maxScore ?? null,
        error: standing.reason,
        games: Math.max(entry.games, games),
      });
    }
    const games: WatchedGame[] = [];
    for (const row of rows) {
      const players = parseJson(row.players);
      const end = parseJson(row.end_) as GameRecord['end'] | null;
      if (typeof row.game !== 'string' || !isPair(players) || typeof row.plies !== 'number') continue;
      games.push({
        key: row.key,
        student: row.student,
        game: row.game,
        players,
        plies: row.plies,
        result: describeResult({ players, end } as GameRecord),
        finishedAt: row.finished_at,
        worker: row.worker,
      });
    }
    return {
      source: this.kind,
      dir: this.dir,
      dirExists: true,
      run,
      students: tournament ? [...byStudent.values()] : [...byStudent.values()].sort((a, b) => a.id.localeCompare(b.id)),
      games,
      gamesTotal: total,
      live,
      workers: workersOf(finishedBy, live),
    };
  }

  private gradeLines(path: string): { key: string; record: GameRecord; worker: string | null }[] {
    const entries: { key: string; record: GameRecord; worker: string | null }[] = [];
    if (!existsSync(path)) return entries;
    for (const line of readFileSync(path, 'utf8').split('\n')) {
      if (line.trim() === '') continue;
      try {
        const entry = JSON.parse(line) as { key?: unknown; record?: GameRecord; worker?: unknown };
        if (typeof entry.key === 'string' && entry.record) entries.push({ key: entry.key, record: entry.record, worker: typeof entry.worker === 'string' ? entry.worker : null });
      } catch {
        // A torn last line: the game is being written.
      }
    }
    return entries;
  }

  /** A grade's live.json: its games in play if it is running. */
  private gradeLive(): { run: WatchOverview['run']; games: LiveGame[] } {
    const snapshot = readLiveFile(join(this.dir, LIVE_FILE));
    if (!snapshot) return { run: { state: 'unknown', heartbeat: null }, games: [] };
    const run = { state: runState(snapshot.state, snapshot.heartbeat), heartbeat: snapshot.heartbeat };
    const games = run.state !== 'running' ? [] : snapshot.games.filter((game) => typeof game?.key === 'string' && typeof game.worker === 'string' && typeof game.student === 'string');
    return { run, games };
  }

  private gradeOverview(path: string): WatchOverview {
    const entries = this.gradeLines(path);
    const games: WatchedGame[] = [];
    for (const { key, record, worker } of entries) {
      if (typeof record.game !== 'string' || !isPair(record.players) || !Array.isArray(record.turns)) continue;
      games.push({ key, student: 'this submission', game: record.game, players: record.players, plies: record.turns.length, result: describeResult(record), finishedAt: '', worker });
    }
    games.reverse();
    const { run, games: inPlay } = this.gradeLive();
    const live = inPlay.map((game) => liveView(game, validProgress(game.progress)));
    const finishedBy = new Map<string, number>();
    for (const game of games) if (game.worker) finishedBy.set(game.worker, (finishedBy.get(game.worker) ?? 0) + 1);
    return {
      source: 'grade',
      dir: this.dir,
      dirExists: true,
      run,
      students: [{ id: 'this submission', status: run.state === 'running' ? 'grading' : 'finished', score: null, maxScore: null, games: entries.length, planned: null, playing: live.length, error: null }],
      games: games.slice(0, MAX_LISTED),
      gamesTotal: entries.length,
      live,
      workers: workersOf([...finishedBy].map(([worker, n]) => ({ worker, n, last: null })), live),
    };
  }

  /** A game in play with its moves so far, or null once it is over (then record() has it) or unknown. */
  liveGame(key: string): WatchedLiveGame | null {
    const db = this.journal();
    if (db) {
      try {
        const row = this.liveRows(db, this.journalRun(db), key)[0];
        const progress = row ? validProgress(parseJson(row.progress)) : null;
        return row && progress ? { key, student: row.student, worker: row.worker, progress } : null;
      } catch {
        return null;
      }
    }
    const game = this.gradeLive().games.find((each) => each.key === key);
    const progress = game ? validProgress(game.progress) : null;
    return game && progress ? { key, student: game.student, worker: game.worker, progress } : null;
  }

  record(key: string): GameRecord | null {
    const db = this.journal();
    if (db) {
      const row = db.prepare('SELECT record FROM games WHERE key = ?').get(key) as { record: string } | undefined;
      return row ? (parseJson(row.record) as GameRecord | null) : null;
    }
    return this.gradeLines(join(this.dir, JOURNAL_FILE)).find((entry) => entry.key === key)?.record ?? null;
  }

  close(): void {
    this.db?.close();
    this.db = null;
  }
}
