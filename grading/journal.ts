/**
 * The per-game results file that makes a grade resumable: one JSON line per finished game, appended and fsync'd
 * before the next game is counted, so a grade killed at any moment (SIGKILL included) leaves every finished game
 * on disk. Each line is keyed by everything that decides the game, so a changed config, submission or harness
 * never reuses a stale game.
 */
import { closeSync, existsSync, fsyncSync, openSync, readFileSync, writeSync } from 'node:fs';
import { getGame } from '../harness/games/registry.js';
import type { GameRecord } from '../harness/referee/record.js';
import { replayRecord } from '../harness/referee/replay.js';
import { canonicalJson, sha256 } from './assignment.js';

export const JOURNAL_FILE = 'games.jsonl';

export interface JournalEntry {
  key: string;
  item: number;
  index: number;
  wallMs: number;
  record: GameRecord;
  /** Who played it ('local 12345', a queue worker's name); absent in older journals. */
  worker?: string;
}

/** What decides one game: the resolved assignment, the submission's content, the harness, the game's slot and seed. */
export function gameKey(parts: {
  assignmentHash: string;
  submissionHash: string;
  harnessVersion: string;
  item: number;
  index: number;
  seed: number;
}): string {
  return sha256(canonicalJson(parts));
}

/**
 * The games a journal holds, by key. A torn last line (the process died mid-write), a line that is not a game
 * record, or a record whose moves do not replay is skipped: that game is simply played again.
 */
export function readJournal(path: string): Map<string, JournalEntry> {
  const entries = new Map<string, JournalEntry>();
  if (!existsSync(path)) return entries;
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    if (line.trim() === '') continue;
    let entry: JournalEntry;
    try {
      entry = JSON.parse(line) as JournalEntry;
    } catch {
      continue;
    }
    if (typeof entry !== 'object' || entry === null || typeof entry.key !== 'string') continue;
    if (!Number.isInteger(entry.item) || !Number.isInteger(entry.index) || typeof entry.wallMs !== 'number') continue;
    if (!replayRecord(entry.record, getGame).ok) continue;
    entries.set(entry.key, entry);
  }
  return entries;
}

/** An open journal: each append is one line written and fsync'd before it returns. */
export class Journal {
  private fd: number | null;

  /** `resume`: keep the lines already there; otherwise start an empty file. */
  constructor(
    readonly path: string,
    resume: boolean,
  ) {
    const torn = resume && existsSync(path) && !/(^|\n)$/.test(readFileSync(path, 'utf8'));
    this.fd = openSync(path, resume ? 'a' : 'w');
    // A run killed mid-write leaves a line without its newline; end it so the next entry starts a line of its own.
    if (torn) writeSync(this.fd, '\n');
  }

  append(entry: JournalEntry): void {
    if (this.fd === null) throw new Error(`journal ${this.path} is closed`);
    const bytes = Buffer.from(`${JSON.stringify(entry)}\n`);
    let written = 0;
    while (written < bytes.length) written += writeSync(this.fd, bytes, written);
    fsyncSync(this.fd);
  }

  close(): void {
    if (this.fd === null) return;
    closeSync(this.fd);
    this.fd = null;
  }
}
