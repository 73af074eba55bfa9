/**
 * What every SQLite journal (batch, tournament, ladder) does on opening: a writer sets WAL with synchronous=FULL
 * (a finished game survives a power cut), creates its tables and stamps its format once; every opener then reads
 * the format back, so the caller can refuse a file that belongs to another command in its own words.
 */
import type Database from 'better-sqlite3';
import { getGame } from '../harness/games/registry.js';
import type { GameRecord } from '../harness/referee/record.js';
import { replayRecord } from '../harness/referee/replay.js';

/** Prepares `db` (when `writable`) and returns the format stamped in its meta table, if any. */
export function prepareJournal(db: Database.Database, schema: string, format: string, writable: boolean): string | undefined {
  if (writable) {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = FULL');
    db.exec(schema);
    db.prepare('INSERT OR IGNORE INTO meta (key, value) VALUES (?, ?)').run('format', format);
  }
  return (db.prepare('SELECT value FROM meta WHERE key = ?').get('format') as { value: string } | undefined)?.value;
}

/** A stored game's record if it is a faithful one of the game with `seed`: a damaged row is none (played again). */
export function faithfulRecord(text: string, seed: number): GameRecord | undefined {
  let record: GameRecord;
  try {
    record = JSON.parse(text) as GameRecord;
  } catch {
    return undefined;
  }
  return record.seed === seed && replayRecord(record, getGame).ok ? record : undefined;
}
