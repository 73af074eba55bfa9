/**
 * The queue end to end: a real redis-server, `referee batch --queue` as the coordinator and two `referee worker`
 * processes, all separate processes. Kills are real (kill -9, redis-server stopped and started again).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from '@jest/globals';
import { Job, Queue } from 'bullmq';
import { isAlive } from '../../harness/sandbox/process-tree.js';
import { escapeRegExp } from '../../harness/sandbox/student-stack.js';
import { harnessVersion } from '../../grading/package-root.js';
import Database from 'better-sqlite3';
import { BATCH_JOURNAL_FILE } from '../../grading/batch/journal-db.js';
import { validProgress } from '../../grading/pool/progress.js';
import { tempDir } from '../batch/helpers.js';
import { queueName } from '../../grading/queue/connection.js';
import { Cli, freePort, journalStats, makeQueueClass, playsByLabel, RedisServer, sleep, startWorker, unexplainedReplays, waitForGames, writeQueueConfig } from './helpers.js';

let redis: RedisServer;
const workers: Cli[] = [];
const logs = (): string[] => workers.map((worker) => worker.stdout);

beforeAll(async () => {
  redis = new RedisServer(await freePort());
  await redis.start();
  workers.push(startWorker(redis.url, 'wa'), startWorker(redis.url, 'wb'));
  await Promise.all(workers.map((worker) => worker.waitFor(/waiting for games/)));
});

afterAll(async () => {
  await Promise.all(workers.map((worker) => worker.stop()));
  await redis.stop();
});

// --quiet: progress lines go to stderr, which these tests keep for warnings and errors only.
const batch = (classDir: string, config: string, out: string, extra: string[] = []): Cli =>
  new Cli(['batch', classDir, '--config', config, '--out', out, '--quiet', ...extra]);

/** A grade without what differs between runs (timings, paths of the output folder). */
function comparable(outDir: string, student: string): unknown {
  const result = JSON.parse(readFileSync(join(outDir, 'students', student, 'grade.json'), 'utf8')) as { games: unknown; items: unknown; score: number };
  const strip = (value: unknown): unknown =>
    Array.isArray(value)
      ? value.map(strip)
      : value && typeof value === 'object'
        ? Object.fromEntries(Object.entries(value).filter(([key]) => key !== 'wallMs' && key !== 'cpuMs' && key !== 'loadMs').map(([key, inner]) => [key, strip(inner)]))
        : value;
  return strip({ games: result.games, items: result.items, score: result.score });
}

/** The worker the batch journal's live table shows for the game whose key starts with `prefix` ('' if none). */
function liveWorkerOf(outDir: string, prefix: string): string {
  try {
    const db = new Database(join(outDir, BATCH_JOURNAL_FILE), { readonly: true, fileMustExist: true });
    try {
      return (db.prepare('SELECT worker FROM live WHERE key LIKE ?').get(`${prefix}%`) as { worker: string } | undefined)?.worker ?? '';
    } finally {
      db.close();
    }
  } catch {
    return '';
  }
}

describe('referee batch --queue with two referee workers', () => {
  // A test that failed before it started its replacement worker leaves a dead one: the next tests get two live
  // workers again rather than time out one after another waiting for games nobody takes.
  let spare = 'e'.charCodeAt(0);
  beforeEach(async () => {
    for (const [index, worker] of workers.entries()) {
      if (worker.process.exitCode === null && worker.process.signalCode === null) continue;
      workers[index] = startWorker(redis.url, `w${String.fromCharCode(spare++)}`, {}, 'file');
      await workers[index].waitFor(/waiting for games/);
    }
  });

  test('a 4-student batch equals the local batch for the same seed; hostile jobs are refused, not run', async () => {
    // Four students, 16 games: enough for both workers to take part (each game is a job); the batch is played twice.
    const ids = ['q1ann', 'q1ben', 'q1cat', 'q1dan'];
    const classDir = makeQueueClass(ids);
    const config = writeQueueConfig(100);
    const outs = tempDir('q1');
    // Two jobs a worker must refuse: a command and a path outside its cache.
    const queue = new Queue(queueName(harnessVersion()), { connection: { url: redis.adminUrl }, prefix: 'referee' });
    queue.on('error', () => undefined);
    try {
      const rules = { moveTimeoutMs: 1000, illegalMoveLimit: 3, constructTimeoutMs: 1000, tamperLoses: true, forcedLossDiff: 0 };
      const evil = { key: 'evil-path', harness: harnessVersion(), game: 'reversi', config: rules, seed: 1, label: 'evil', players: [{ kind: 'artefact', name: 'x', artefact: 'a'.repeat(64), runtime: 'node', entry: '../../../etc/passwd' }, { kind: 'reference', name: 'r', ai: 'random', openingMoves: 0 }] };
      await queue.add('game', evil, { jobId: 'evil-path', attempts: 3 });
      await queue.add('game', { ...evil, key: 'evil-command', players: [{ kind: 'command', name: 'x', command: 'touch /tmp/referee-pwned' }, evil.players[1]] }, { jobId: 'evil-command', attempts: 3 });

      const local = batch(classDir, config, join(outs, 'local'), ['--jobs', '2']);
      expect((await local.exited).code).toBe(0);
      const queued = batch(classDir, config, join(outs, 'queued'), ['--queue', redis.url, '--jobs', '2']);
      const exit = await queued.exited;
      expect({ exit, stderr: queued.stderr }).toMatchObject({ exit: { code: 0 }, stderr: '' });
      expect(queued.stdout).toMatch(/Graded 4 students.*4 graded now.*16 games played/);
      for (const id of ids) expect(comparable(join(outs, 'queued'), id)).toEqual(comparable(join(outs, 'local'), id));
      expect(readFileSync(join(outs, 'queued', 'grades.csv'), 'utf8')).toBe(readFileSync(join(outs, 'local', 'grades.csv'), 'utf8'));
      expect(journalStats(join(outs, 'queued'))).toEqual({ games: 16, maxPlays: 1, grades: 4 });
      // Both workers took part, and every game was played once (or again only after its worker lost its lock).
      expect(workers.every((worker) => /playing q1/.test(worker.stdout))).toBe(true);
      expect(playsByLabel(logs(), 'q1').size).toBe(16);
      expect(unexplainedReplays(logs(), 'q1')).toEqual([]);

      for (const id of ['evil-path', 'evil-command']) {
        const job = await Job.fromId(queue, id);
        expect(await job!.getState()).toBe('failed');
        expect(job!.failedReason).toMatch(/job refused/);
        expect(job!.attemptsMade).toBe(1);
        await job!.remove();
      }
      expect(logs().join('')).toMatch(/refused job evil-comma/);
    } finally {
      await queue.close();
    }
  });

  test('a worker killed with kill -9 mid-game: another replays that game from its start; it is recorded once', async () => {
    // One student's four games: the first one started is killed with its worker while the other worker is busy too.
    // 150 ms a move (≥ 4.5 s a game): the game cannot end before the kill even when this test reads 'playing' late.
    const classDir = makeQueueClass(['q2slow'], 150);
    const config = writeQueueConfig(200);
    const out = join(tempDir('q2'), 'out');
    const coordinator = batch(classDir, config, out, ['--queue', redis.url, '--jobs', '2']);
    // The first worker to start a game of the class dies with it.
    let victim: Cli | undefined;
    let label = '';
    for (let waited = 0; !victim && waited < 120_000; waited += 10) {
      for (const worker of workers) {
        const match = /\] playing (q2\S+ vs \S+ #\d+)/.exec(worker.stdout);
        if (match) {
          victim = worker;
          label = match[1];
          break;
        }
      }
      if (!victim) await sleep(10);
    }
    expect(victim).toBeDefined();
    const beforeKill = victim!.stdout;
    victim!.process.kill('SIGKILL');
    await victim!.exited;
    expect(beforeKill).not.toContain(`played ${label} `);
    const survivor = workers.find((worker) => worker !== victim)!;
    // The live view moves the game to the worker that replays it (once the stall is noticed).
    const prefix = new RegExp(`\\] playing ${escapeRegExp(label)} \\(game ([0-9a-f]{12})`).exec(beforeKill)![1];
    const survivorName = /^\[(\w+)\]/m.exec(survivor.stdout)![1];
    let movedTo = '';
    for (let waited = 0; !movedTo && coordinator.process.exitCode === null && waited < 60_000; waited += 50) {
      movedTo = liveWorkerOf(out, prefix) === survivorName ? survivorName : '';
      if (!movedTo) await sleep(50);
    }
    const exit = await coordinator.exited;
    // The one line the coordinator says: which worker was lost with which game.
    expect({ exit, stderr: coordinator.stderr }).toMatchObject({ exit: { code: 0 }, stderr: `warning: ${/^\[(\w+)\]/m.exec(beforeKill)![1]} stopped answering while playing ${label}: the game is played again from its start by another worker\n` });
    expect(coordinator.stdout).toMatch(/Graded 1 student.*1 graded now/);
    expect(survivor.stdout).toContain(`playing ${label} `);
    expect(survivor.stdout).toContain(`played ${label} `);
    expect(movedTo).toBe(survivorName);
    expect(journalStats(out)).toEqual({ games: 4, maxPlays: 1, grades: 1 });
    const grades = readFileSync(join(out, 'grades.csv'), 'utf8');
    expect(grades).not.toMatch(/error|not graded/);
    // A fresh worker takes its place for the next tests.
    const replacement = startWorker(redis.url, 'wc', {}, 'file');
    workers[workers.indexOf(victim!)] = replacement;
    await replacement.waitFor(/waiting for games/);
  }, 240_000);

  test('SIGTERM mid-game: the worker hands its game back (exit 0) and another plays it from the start, once', async () => {
    // 150 ms a move: a game lasts 4.5 s or more, so it cannot end within the worker's 1 s of grace even when this
    // test reads the 'playing' line late on a loaded machine.
    const classDir = makeQueueClass(['q8slow'], 150);
    const out = join(tempDir('q8'), 'out');
    const coordinator = batch(classDir, writeQueueConfig(800), out, ['--queue', redis.url, '--jobs', '2']);
    let leaving: Cli | undefined;
    let label = '';
    for (let waited = 0; !leaving && waited < 120_000; waited += 10) {
      for (const worker of workers) {
        const match = /\] playing (q8\S+ vs \S+ #\d+)/.exec(worker.stdout);
        if (match) [leaving, label] = [worker, match[1]];
      }
      if (!leaving) await sleep(10);
    }
    leaving!.process.kill('SIGTERM');
    expect((await leaving!.exited).code).toBe(0);
    // Handed back; only on a machine loaded past the lock may the worker instead have said its lock lapsed (then
    // BullMQ had already given the game away) or that Redis was late to answer: the other worker plays it once either way.
    if (!leaving!.stdout.includes(`handed back ${label}`)) {
      expect(leaving!.stdout).toMatch(new RegExp(`lost ${escapeRegExp(label)}: |no answer from Redis on handing back ${escapeRegExp(label)} `));
    }
    const exit = await coordinator.exited;
    expect({ exit, stderr: coordinator.stderr }).toMatchObject({ exit: { code: 0 }, stderr: '' });
    const other = workers.find((worker) => worker !== leaving)!;
    expect(other.stdout).toContain(`played ${label} `);
    expect(journalStats(out)).toEqual({ games: 4, maxPlays: 1, grades: 1 });
    const replacement = startWorker(redis.url, 'wd', {}, 'file');
    workers[workers.indexOf(leaving!)] = replacement;
    await replacement.waitFor(/waiting for games/);
  }, 240_000);

  test('the coordinator killed mid-run and resumed with --resume: no finished game is played again', async () => {
    const ids = ['q3ann', 'q3ben', 'q3cat'];
    const classDir = makeQueueClass(ids, 25);
    const config = writeQueueConfig(300);
    const out = join(tempDir('q3'), 'out');
    const first = batch(classDir, config, out, ['--queue', redis.url, '--jobs', '2']);
    await waitForGames(out, 3);
    first.process.kill('SIGKILL');
    expect((await first.exited).signal).toBe('SIGKILL');
    const before = journalStats(out).games;
    expect(before).toBeLessThan(12);
    const resumed = batch(classDir, config, out, ['--queue', redis.url, '--jobs', '2', '--resume']);
    const exit = await resumed.exited;
    expect({ exit, stderr: resumed.stderr }).toMatchObject({ exit: { code: 0 }, stderr: '' });
    expect(journalStats(out)).toEqual({ games: 12, maxPlays: 1, grades: 3 });
    // Across all workers each game of the class was started once: the games workers finished while no coordinator
    // was there were collected from Redis, not played again. The only second start allowed is the replay after a
    // worker said it lost that game's lock (a stall of the loaded machine, unrelated to the kill), never after a result.
    expect(playsByLabel(logs(), 'q3').size).toBe(12);
    expect(unexplainedReplays(logs(), 'q3')).toEqual([]);
  });

  test('redis-server stopped and started again mid-run: the batch completes, every game once', async () => {
    const classDir = makeQueueClass(['q4ann', 'q4ben'], 25);
    const config = writeQueueConfig(400);
    const out = join(tempDir('q4'), 'out');
    const coordinator = batch(classDir, config, out, ['--queue', redis.url, '--jobs', '2']);
    await waitForGames(out, 2);
    await redis.stop();
    await sleep(1500);
    await redis.start();
    const exit = await coordinator.exited;
    expect({ exit }).toMatchObject({ exit: { code: 0 } });
    expect(coordinator.stdout).toMatch(/Graded 2 students.*2 graded now/);
    expect(coordinator.stderr).toMatch(/lost Redis/);
    expect(journalStats(out)).toEqual({ games: 8, maxPlays: 1, grades: 2 });
    expect(logs().join('')).toMatch(/Redis is back/);
  });

  test('referee grade --queue gives the grade a local referee grade gives', async () => {
    const classDir = makeQueueClass(['q6ann']);
    const config = writeQueueConfig(600);
    const outs = tempDir('q6');
    const submission = join(classDir, 'q6ann', 'AIPlayer.ts');
    const local = new Cli(['grade', submission, '--config', config, '--out', join(outs, 'local'), '--quiet']);
    const queued = new Cli(['grade', submission, '--config', config, '--out', join(outs, 'queued'), '--queue', redis.url, '--quiet']);
    for (const run of [local, queued]) expect({ exit: await run.exited, stderr: run.stderr }).toMatchObject({ exit: { code: 0 }, stderr: '' });
    const pick = (out: string) => {
      const result = JSON.parse(readFileSync(join(out, 'grade.json'), 'utf8')) as { games: { record: { turns: { move?: string }[]; end: unknown; players: unknown } }[]; score: number };
      return { score: result.score, games: result.games.map((game) => ({ moves: game.record.turns.map((turn) => turn.move), end: game.record.end, players: game.record.players })) };
    };
    expect(pick(join(outs, 'queued'))).toEqual(pick(join(outs, 'local')));
    expect(playsByLabel(logs(), submission).size).toBe(4);
  });

  test('games in play reach the journal through Redis move by move, with the worker playing them; workers are journaled', async () => {
    // 120 ms a move (was 40): a game lasts ~4 s of the wall clock however loaded the machine, while the way to the
    // journal (worker, Redis stream, coordinator, this poll) slows with the load: at load 34 each game of ~1.5 s was
    // seen at one point of its play only.
    const classDir = makeQueueClass(['q9live'], 120);
    const out = join(tempDir('q9'), 'out');
    const coordinator = batch(classDir, writeQueueConfig(900), out, ['--queue', redis.url, '--jobs', '2']);
    const path = join(out, BATCH_JOURNAL_FILE);
    const movesSeen = new Map<string, Set<number>>();
    const liveWorkers = new Set<string>();
    let running = true;
    void coordinator.exited.then(() => (running = false));
    while (running) {
      try {
        const db = new Database(path, { readonly: true, fileMustExist: true });
        try {
          for (const row of db.prepare('SELECT key, worker, progress FROM live').all() as { key: string; worker: string; progress: string | null }[]) {
            liveWorkers.add(row.worker);
            const progress = validProgress(row.progress === null ? null : JSON.parse(row.progress));
            if (progress) movesSeen.set(row.key, (movesSeen.get(row.key) ?? new Set()).add(progress.moves.length));
          }
        } finally {
          db.close();
        }
      } catch {
        // not created yet
      }
      await sleep(50);
    }
    expect({ exit: await coordinator.exited, stderr: coordinator.stderr }).toMatchObject({ exit: { code: 0 }, stderr: '' });
    // Some game was seen at three or more points of its play, each on a named queue worker.
    expect(Math.max(...[...movesSeen.values()].map((lengths) => lengths.size))).toBeGreaterThanOrEqual(3);
    expect([...liveWorkers].every((name) => /^w[a-z]$/.test(name))).toBe(true);
    const db = new Database(path, { readonly: true });
    try {
      expect(db.prepare('SELECT COUNT(*) AS n FROM live').get()).toEqual({ n: 0 });
      expect(db.prepare("SELECT value FROM meta WHERE key = 'live-state'").get()).toEqual({ value: 'done' });
      const playedBy = db.prepare('SELECT worker FROM games').all() as { worker: string }[];
      expect(playedBy).toHaveLength(4);
      expect(playedBy.every((row) => /^w[a-z]$/.test(row.worker))).toBe(true);
    } finally {
      db.close();
    }
  });

  test('Redis unreachable or refusing the password at start: one line naming the fix, exit 2 (batch, grade and worker)', async () => {
    const dead = `redis://127.0.0.1:${await freePort()}/0`;
    const classDir = makeQueueClass(['q5ann']);
    const runs = [
      batch(classDir, writeQueueConfig(500), join(tempDir('q5'), 'out'), ['--queue', dead]),
      new Cli(['grade', join(classDir, 'q5ann', 'AIPlayer.ts'), '--out', join(tempDir('q5g'), 'out'), '--queue', dead]),
      new Cli(['worker', '--queue', dead]),
      new Cli(['worker', '--queue', 'http://127.0.0.1:6379/0']),
      new Cli(['worker', '--queue', redis.url], { REFEREE_REDIS_PASSWORD: 'secret' }),
    ];
    for (const run of runs) {
      const exit = await run.exited;
      expect(exit.code).toBe(2);
      const lines = run.stderr.trim().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/^referee: (cannot reach Redis at redis:\/\/127\.0\.0\.1:\d+\/0 \((ECONNREFUSED\): start redis-server|WRONGPASS[^)]*\): Redis refused the password: set REFEREE_REDIS_PASSWORD)|--queue must be a redis:\/\/ or rediss:\/\/ URL)/);
      expect(run.stderr).not.toContain('secret');
    }
  });
});

test('SIGTERM stops a worker cleanly (exit 0); no worker process outlives the tests', async () => {
  await Promise.all(workers.map((worker) => worker.stop()));
  for (const worker of workers) {
    expect((await worker.exited).code).toBe(0);
    expect(worker.stdout).toMatch(/\] stopping/);
  }
  for (let waited = 0; waited < 5000 && workers.some((worker) => isAlive(worker.pid)); waited += 50) await sleep(50);
  expect(workers.filter((worker) => isAlive(worker.pid))).toEqual([]);
});
