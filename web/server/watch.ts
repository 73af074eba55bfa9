/**
 * `referee serve --watch <out-dir>`: a read-only view of a batch or a grade, running or finished. A batch is read
 * from its SQLite journal (WAL lets this reader sit beside the writing workers); a single grade from its
 * games.jsonl. The journal holds each game once it is finished, so games appear as they end and the page plays
 * the newest one move by move.
 */
import Database from 'better-sqlite3';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { BATCH_JOURNAL_FILE } from '../../grading/batch/journal-db.js';
import type { StudentSummary } from '../../grading/batch/summary.js';
import { JOURNAL_FILE } from '../../grading/journal.js';
import type { GameRecord } from '../../harness/referee/record.js';

export interface WatchedGame {
  key: string;
  student: string;
  game: string;
  players: [string, string];
  plies: number;
  result: string;
  finishedAt: string;
}

export interface WatchOverview {
  source: 'batch' | 'grade' | 'none';
  dir: string;
  students: { id: string; status: string; score: number | null; maxScore: number | null; games: number; error: string | null }[];
  /** Newest first (at most 200). */
  games: WatchedGame[];
  gamesTotal: number;
}

const MAX_LISTED = 200;

function describeResult(record: GameRecord): string {
  const end = record.end;
  if (!end) return 'unfinished';
  const who = end.winner === null ? 'draw' : `${record.players[end.winner]} wins`;
  return end.reason === 'score' ? `${who} ${end.score?.join('-') ?? ''}`.trim() : `${who} (${end.reason})`;
}

function summarize(key: string, student: string, finishedAt: string, text: string): WatchedGame | null {
  try {
    const record = JSON.parse(text) as GameRecord;
    return {
      key,
      student,
      game: record.game,
      players: record.players,
      plies: record.turns.length,
      result: describeResult(record),
      finishedAt,
    };
  } catch {
    return null;
  }
}

export class WatchSource {
  private db: Database.Database | null = null;

  constructor(readonly dir: string) {}

  /** A one-line problem with the folder, or null (an empty folder is fine: a batch may be about to start). */
  static problem(dir: string): string | null {
    if (!existsSync(dir) || !statSync(dir).isDirectory()) return `--watch ${dir}: no such folder; pass the --out folder of a batch or grade`;
    return null;
  }

  private journal(): Database.Database | null {
    if (this.db) return this.db;
    const path = join(this.dir, BATCH_JOURNAL_FILE);
    if (!existsSync(path)) return null;
    try {
      this.db = new Database(path, { readonly: true, fileMustExist: true, timeout: 5000 });
    } catch {
      return null;
    }
    return this.db;
  }

  overview(): WatchOverview {
    const db = this.journal();
    if (db) {
      try {
        return this.batchOverview(db);
      } catch {
        // A journal being created may not have its tables yet: show it as empty until it does.
        return { source: 'batch', dir: this.dir, students: [], games: [], gamesTotal: 0 };
      }
    }
    const jsonl = join(this.dir, JOURNAL_FILE);
    if (existsSync(jsonl)) return this.gradeOverview(jsonl);
    return { source: 'none', dir: this.dir, students: [], games: [], gamesTotal: 0 };
  }

  private batchOverview(db: Database.Database): WatchOverview {
    const grades = db.prepare('SELECT student, summary FROM grades ORDER BY student').all() as { student: string; summary: string }[];
    const counts = db.prepare('SELECT student, COUNT(*) AS n FROM games GROUP BY student').all() as { student: string; n: number }[];
    const rows = db
      .prepare('SELECT key, student, finished_at, record FROM games ORDER BY finished_at DESC, rowid DESC LIMIT ?')
      .all(MAX_LISTED) as { key: string; student: string; finished_at: string; record: string }[];
    const total = (db.prepare('SELECT COUNT(*) AS n FROM games').get() as { n: number }).n;
    const byStudent = new Map<string, WatchOverview['students'][number]>();
    for (const { student, n } of counts) {
      byStudent.set(student, { id: student, status: 'grading', score: null, maxScore: null, games: n, error: null });
    }
    for (const grade of grades) {
      let summary: StudentSummary | null = null;
      try {
        summary = JSON.parse(grade.summary) as StudentSummary;
      } catch {
        summary = null;
      }
      byStudent.set(grade.student, {
        id: grade.student,
        status: summary?.status ?? 'graded',
        score: summary?.score ?? null,
        maxScore: summary?.maxScore ?? null,
        games: byStudent.get(grade.student)?.games ?? 0,
        error: summary?.error ?? null,
      });
    }
    return {
      source: 'batch',
      dir: this.dir,
      students: [...byStudent.values()].sort((a, b) => a.id.localeCompare(b.id)),
      games: rows.map((row) => summarize(row.key, row.student, row.finished_at, row.record)).filter((g): g is WatchedGame => g !== null),
      gamesTotal: total,
    };
  }

  private gradeLines(path: string): { key: string; record: GameRecord }[] {
    const entries: { key: string; record: GameRecord }[] = [];
    for (const line of readFileSync(path, 'utf8').split('\n')) {
      if (line.trim() === '') continue;
      try {
        const entry = JSON.parse(line) as { key?: unknown; record?: GameRecord };
        if (typeof entry.key === 'string' && entry.record) entries.push({ key: entry.key, record: entry.record });
      } catch {
        // A torn last line: the game is being written.
      }
    }
    return entries;
  }

  private gradeOverview(path: string): WatchOverview {
    const entries = this.gradeLines(path);
    const games = entries
      .map(({ key, record }) => summarize(key, 'this submission', '', JSON.stringify(record)))
      .filter((g): g is WatchedGame => g !== null)
      .reverse();
    return {
      source: 'grade',
      dir: this.dir,
      students: [{ id: 'this submission', status: 'grading', score: null, maxScore: null, games: entries.length, error: null }],
      games: games.slice(0, MAX_LISTED),
      gamesTotal: entries.length,
    };
  }

  record(key: string): GameRecord | null {
    const db = this.journal();
    if (db) {
      const row = db.prepare('SELECT record FROM games WHERE key = ?').get(key) as { record: string } | undefined;
      if (!row) return null;
      try {
        return JSON.parse(row.record) as GameRecord;
      } catch {
        return null;
      }
    }
    const jsonl = join(this.dir, JOURNAL_FILE);
    if (!existsSync(jsonl)) return null;
    return this.gradeLines(jsonl).find((entry) => entry.key === key)?.record ?? null;
  }

  close(): void {
    this.db?.close();
    this.db = null;
  }
}
