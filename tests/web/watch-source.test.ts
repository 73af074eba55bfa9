/**
 * What `referee serve --watch` reads, on journals written by the real writers (BatchJournal's live sink, a grade's
 * live.json): games in play and their workers, a grader that stopped writing, and rows that are torn or hostile.
 */
import { afterEach, describe, expect, test } from '@jest/globals';
import Database from 'better-sqlite3';
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BATCH_JOURNAL_FILE, BatchJournal } from '../../grading/batch/journal-db.js';
import { LIVE_FILE, LiveFile, LiveGames } from '../../grading/live.js';
import type { GameProgress } from '../../grading/pool/job.js';
import { TOURNAMENT_JOURNAL_FILE, TournamentJournal } from '../../grading/tournament/journal.js';
import { WatchSource } from '../../web/server/watch.js';
import { tempDir } from '../batch/helpers.js';

const progress = (moves: (string | null)[]): GameProgress => ({
  game: 'reversi',
  players: ['alice', 'greedy'],
  seed: 3,
  initialState: 'ignored-by-the-reader',
  moves,
  ms: moves.map(() => 5),
});

const open: { close(): void }[] = [];
afterEach(() => {
  for (const each of open.splice(0)) each.close();
});

function batchDir(): { dir: string; journal: BatchJournal; live: LiveGames; watch: WatchSource } {
  const dir = tempDir('watch-source');
  const journal = BatchJournal.open(join(dir, BATCH_JOURNAL_FILE));
  const live = new LiveGames(journal.liveSink());
  const watch = new WatchSource(dir);
  open.push(watch, { close: () => live.close('done') }, journal);
  return { dir, journal, live, watch };
}

describe('a batch journal', () => {
  test('games in play, their moves and their workers; a finished game leaves the live view at the next write', () => {
    const { live, watch } = batchDir();
    live.start('g1', 'alice', 'local 101');
    live.progress('g1', progress(['D3', 'C5', null]));
    live.start('g2', 'bob', 'wa');
    live.flush();
    const overview = watch.overview();
    expect(overview.run.state).toBe('running');
    expect(overview.live.map((game) => [game.key, game.student, game.worker, game.plies, game.lastMove])).toEqual([
      ['g1', 'alice', 'local 101', 3, 'pass'],
      ['g2', 'bob', 'wa', 0, null],
    ]);
    expect(overview.workers.map((worker) => [worker.name, worker.playing.map((game) => game.label)])).toEqual([
      ['local 101', ['alice vs greedy']],
      ['wa', ['bob (starting)']],
    ]);
    expect(overview.students.find((student) => student.id === 'alice')?.playing).toBe(1);
    expect(watch.liveGame('g1')?.progress.moves).toEqual(['D3', 'C5', null]);
    expect(watch.liveGame('g2')).toBeNull(); // nothing to draw yet

    live.end('g1');
    expect(watch.liveGame('g1')).not.toBeNull(); // until the next write
    live.flush();
    expect(watch.liveGame('g1')).toBeNull();
    expect(watch.overview().live.map((game) => game.key)).toEqual(['g2']);
  });

  test("the run's plan: every student listed from the start, waiting until reached; games as done / planned", () => {
    const { journal, live, watch } = batchDir();
    journal.savePlan({ students: ['ann', 'bob', 'cy'], gamesPerStudent: 8 });
    live.start('g1', 'bob', 'local 9');
    live.flush();
    const students = watch.overview().students;
    expect(students.map((student) => [student.id, student.status, student.planned, student.playing])).toEqual([
      ['ann', 'waiting', 8, 0],
      ['bob', 'grading', 8, 1],
      ['cy', 'waiting', 8, 0],
    ]);
  });

  test('a grader that stopped writing (killed): its games are not shown as in play; a finished run says so', () => {
    const { dir, live, watch } = batchDir();
    live.start('g1', 'alice', 'local 101');
    live.progress('g1', progress(['D3']));
    live.flush();
    expect(watch.overview().live).toHaveLength(1);
    // As a kill -9 leaves it: rows in place, the heartbeat getting old.
    const db = new Database(join(dir, BATCH_JOURNAL_FILE));
    db.prepare("UPDATE meta SET value = ? WHERE key = 'live-heartbeat'").run(new Date(Date.now() - 60_000).toISOString());
    db.close();
    expect(watch.overview()).toMatchObject({ run: { state: 'stopped' }, live: [] });
    expect(watch.liveGame('g1')).toBeNull();
    live.close('interrupted');
    expect(watch.overview()).toMatchObject({ run: { state: 'interrupted' }, live: [] });
  });

  test('torn or hostile rows are skipped, not drawn: bad JSON, a wrong shape, an unknown game, mismatched lengths, markup as a move', () => {
    const { dir, live, watch } = batchDir();
    live.start('good', 'alice', 'w1');
    live.progress('good', progress(['D3']));
    live.flush();
    const db = new Database(join(dir, BATCH_JOURNAL_FILE));
    const insert = db.prepare("INSERT INTO live (key, student, worker, progress, started_at, updated_at) VALUES (?, 's', 'w2', ?, '2026-01-01', '2026-01-01')");
    insert.run('torn', '{"game":"reversi","play');
    insert.run('shape', JSON.stringify({ ...progress(['D3']), moves: 'D3' }));
    insert.run('unknown', JSON.stringify({ ...progress([]), game: 'chess' }));
    insert.run('script', JSON.stringify(progress(['<img src=x onerror=alert(1)>'])));
    insert.run('lengths', JSON.stringify({ ...progress(['D3', 'C5']), ms: [1] }));
    db.prepare("INSERT INTO games (key, student, wall_ms, record, finished_at) VALUES ('broken', 's', 1, 'not json', '2026-01-01')").run();
    db.close();
    const overview = watch.overview();
    // Listed (the worker is playing something), but with nothing drawn from the unreadable progress.
    expect(overview.live.map((game) => game.key).sort()).toEqual(['good', 'lengths', 'script', 'shape', 'torn', 'unknown']);
    expect(overview.live.find((game) => game.key === 'good')).toMatchObject({ plies: 1, players: ['alice', 'greedy'] });
    for (const key of ['torn', 'shape', 'unknown', 'script', 'lengths']) {
      expect(overview.live.find((game) => game.key === key)).toMatchObject({ plies: 0, players: null, game: null });
      expect(watch.liveGame(key)).toBeNull();
    }
    expect(overview.games).toEqual([]); // the unreadable record is not listed
    expect(watch.record('broken')).toBeNull();
  });

  test('a journal from before live watching (no live table, no worker column) is read without error', () => {
    const dir = tempDir('watch-old');
    const db = new Database(join(dir, BATCH_JOURNAL_FILE));
    db.exec(`CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
      CREATE TABLE games (key TEXT PRIMARY KEY, student TEXT NOT NULL, wall_ms INTEGER NOT NULL, record TEXT NOT NULL, plays INTEGER NOT NULL DEFAULT 1, finished_at TEXT NOT NULL);
      CREATE TABLE grades (student TEXT PRIMARY KEY, cache_key TEXT, status TEXT NOT NULL, summary TEXT NOT NULL, finished_at TEXT NOT NULL);
      INSERT INTO meta VALUES ('format', 'referee.batch/1');`);
    db.close();
    const watch = new WatchSource(dir);
    open.push(watch);
    expect(watch.overview()).toMatchObject({ source: 'batch', run: { state: 'unknown' }, live: [], workers: [], games: [] });
    // The writer brings it up to date when a batch resumes it.
    BatchJournal.open(join(dir, BATCH_JOURNAL_FILE)).close();
    const columns = new Database(join(dir, BATCH_JOURNAL_FILE), { readonly: true });
    expect((columns.prepare("SELECT name FROM pragma_table_info('games')").all() as { name: string }[]).map((row) => row.name)).toContain('worker');
    columns.close();
  });
});

describe("a grade's live.json", () => {
  test('games in play while the grade runs; none once it is done; a corrupt file shows none', () => {
    const dir = tempDir('watch-grade');
    const live = new LiveGames(new LiveFile(join(dir, LIVE_FILE)));
    const watch = new WatchSource(dir);
    open.push(watch);
    live.start('g1', 'me', 'local 7');
    live.progress('g1', progress(['D3', 'C5']));
    live.flush();
    expect(watch.overview()).toMatchObject({ source: 'grade', run: { state: 'running' }, live: [{ key: 'g1', plies: 2, worker: 'local 7' }] });
    expect(watch.liveGame('g1')?.progress.moves).toEqual(['D3', 'C5']);
    live.close('done');
    expect(watch.overview()).toMatchObject({ run: { state: 'done' }, live: [] });
    writeFileSync(join(dir, LIVE_FILE), '{"format":"referee.live/1","state":"running","heartbeat":');
    expect(watch.overview()).toMatchObject({ run: { state: 'unknown' }, live: [] });
  });
});

describe('a tournament journal', () => {
  test('players by points from the finished games, the games in play and their workers', () => {
    const dir = tempDir('watch-tournament');
    const run = spawnSync(process.execPath, ['dist/cli/index.js', 'tournament', 'random', 'greedy', 'weighted', '--format', 'round-robin', '--seed', '5', '--jobs', '2', '--out', dir], { encoding: 'utf8' });
    expect(run.status).toBe(0);
    const watch = new WatchSource(dir);
    open.push(watch);
    const done = watch.overview();
    expect(done).toMatchObject({ source: 'tournament', run: { state: 'done' }, gamesTotal: 6, live: [] });
    // Round robin of three, two games a pair: each plays four, and the points add up to the games.
    expect(done.students.map((player) => player.id).sort()).toEqual(['greedy', 'random', 'weighted']);
    expect(done.students.every((player) => player.games === 4)).toBe(true);
    expect(done.students.reduce((sum, player) => sum + (player.score ?? 0), 0)).toBe(6);
    expect(done.students.map((player) => player.score)).toEqual([...done.students.map((player) => player.score)].sort((a, b) => (b ?? 0) - (a ?? 0)));
    expect(done.students.map((player) => player.status)).toEqual(['finished', 'finished', 'finished']);
    expect(done.workers.reduce((sum, worker) => sum + worker.finished, 0)).toBe(6);
    expect(done.workers.every((worker) => /^local \d+$/.test(worker.name))).toBe(true);

    // Resumed, as the runner does: a game in play shows with its label and worker.
    const journal = TournamentJournal.open(join(dir, TOURNAMENT_JOURNAL_FILE));
    const live = new LiveGames(journal.liveSink());
    open.push({ close: () => live.close('done') }, journal);
    live.start('next', 'random vs greedy #3', 'wa');
    live.progress('next', { ...progress(['D3']), players: ['random', 'greedy'] });
    live.flush();
    const running = watch.overview();
    expect(running).toMatchObject({ run: { state: 'running' }, live: [{ key: 'next', student: 'random vs greedy #3', worker: 'wa', plies: 1 }] });
    expect(running.students.filter((player) => player.playing === 1).map((player) => player.id).sort()).toEqual(['greedy', 'random']);
    expect(Object.fromEntries(running.students.map((player) => [player.id, player.status]))).toEqual({ random: 'playing', greedy: 'playing', weighted: 'waiting for its next game' });
    expect(watch.liveGame('next')?.progress.moves).toEqual(['D3']);
  });
});
