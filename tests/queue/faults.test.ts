/**
 * The queue under faults, end to end with a real redis-server and real CLI processes: a worker of another
 * harness version beside a current one, an endpoint that never answers, an HTTP server where Redis should be,
 * a Redis frozen mid-run (SIGSTOP), a rogue Redis writer returning forged results, and a coordinator stopped by
 * SIGTERM. Each is named in one line and changes no grade. (The slow soak — ten batches under CPU load, kill -9
 * timings — is `npm run soak:queue`.)
 */
import { createServer as createHttpServer } from 'node:http';
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { DelayedError, Queue, Worker } from 'bullmq';
import { harnessVersion } from '../../grading/package-root.js';
import { queueName } from '../../grading/queue/connection.js';
import { tempDir } from '../batch/helpers.js';
import { Redis } from 'ioredis';
import { KEYS_VANISHED_WARNING } from '../../grading/queue/pool.js';
import { Cli, freePort, journalStats, makeQueueClass, playsByLabel, RedisServer, sleep, startWorker, unexplainedReplays, waitForGames, writeQueueConfig } from './helpers.js';

let redis: RedisServer;
beforeAll(async () => {
  redis = new RedisServer(await freePort());
  await redis.start();
});

afterAll(async () => {
  redis.thaw();
  await redis.stop();
});

const batch = (classDir: string, config: string, out: string, extra: string[] = []): Cli =>
  new Cli(['batch', classDir, '--config', config, '--out', out, '--quiet', '--queue', redis.url, ...extra]);

/** Games of this run's version sitting in Redis, by state. */
async function queued(): Promise<{ waiting: number; active: number; all: number }> {
  const queue = new Queue(queueName(harnessVersion()), { connection: { url: redis.adminUrl }, prefix: 'referee' });
  queue.on('error', () => undefined);
  try {
    const counts = await queue.getJobCounts('waiting', 'prioritized', 'delayed', 'active', 'completed', 'failed');
    const waiting = counts.waiting + counts.prioritized + counts.delayed;
    return { waiting, active: counts.active, all: waiting + counts.active + counts.completed + counts.failed };
  } finally {
    await queue.close();
  }
}

async function until(check: () => Promise<boolean> | boolean, what: string, timeoutMs = 60_000): Promise<void> {
  for (let waited = 0; waited < timeoutMs; waited += 100) {
    if (await check()) return;
    await sleep(100);
  }
  throw new Error(`never: ${what}`);
}

describe('endpoints that are not a working Redis: one line within the deadline, exit 2', () => {
  let silent: Server;
  const silentSockets = new Set<Socket>();
  let silentPort: number;
  const http = createHttpServer((_request, response) => response.end('hello'));
  let httpPort: number;
  beforeAll(async () => {
    // Port 0: a port chosen first and bound later can be taken in between by another jest worker's connection.
    // Accepts, never writes. Its sockets are kept to be destroyed at the end: one nobody reads never sees its peer's
    // close, and four such sockets kept this jest worker alive after the file ('failed to exit gracefully').
    silent = createServer((socket) => void silentSockets.add(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    silentPort = (silent.address() as AddressInfo).port;
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    httpPort = (http.address() as AddressInfo).port;
  });
  afterAll(async () => {
    silent.close();
    for (const socket of silentSockets) socket.destroy();
    http.closeAllConnections();
    await new Promise((resolve) => http.close(resolve));
  });

  test('a TCP endpoint that accepts and never answers (batch and worker)', async () => {
    const classDir = makeQueueClass(['f1ann']);
    const url = `redis://127.0.0.1:${silentPort}/0`;
    const runs = [new Cli(['worker', '--queue', url]), new Cli(['batch', classDir, '--config', writeQueueConfig(1100), '--out', join(tempDir('f1'), 'out'), '--queue', url])];
    for (const run of runs) {
      expect((await run.exited).code).toBe(2);
      expect(run.stderr.trim().split('\n')).toEqual([
        expect.stringMatching(/^referee: redis:\/\/127\.0\.0\.1:\d+\/0 accepted the connection but did not answer a Redis PING within 5 s: is it Redis/),
      ]);
    }
  });

  test('an HTTP server on the port is named as such', async () => {
    const run = new Cli(['worker', '--queue', `redis://127.0.0.1:${httpPort}/0`]);
    expect((await run.exited).code).toBe(2);
    expect(run.stderr.trim().split('\n')).toEqual([`referee: redis://127.0.0.1:${httpPort}/0 is not Redis: an HTTP server answered there; fix the host:port in --queue`]);
  });
});

test('a worker without OS isolation refuses to start (one line, exit 2) unless --allow-unisolated', async () => {
  // No bubblewrap and Landlock refused: nothing below the language isolates the players.
  const unisolated = { REFEREE_SANDBOX_NO_BWRAP: '1', REFEREE_SANDBOX_NO_LANDLOCK: '1' };
  const refused = new Cli(['worker', '--queue', redis.url], unisolated);
  expect((await refused.exited).code).toBe(2);
  expect(refused.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^referee: this machine cannot isolate submissions \(.*\): a worker plays every student's code, so it refuses to run; fix that, or pass --allow-unisolated for code you trust$/)]);
  const allowed = new Cli(['worker', '--queue', redis.url, '--allow-unisolated', '--name', 'unisolated'], unisolated);
  try {
    await allowed.waitFor(/waiting for games/);
    expect(allowed.stderr).toMatch(/WARNING: .*guards against accidents, not attacks/);
  } finally {
    await allowed.stop();
  }
});

test('without bubblewrap, Landlock and seccomp isolate the players: a worker starts without --allow-unisolated', async () => {
  const worker = new Cli(['worker', '--queue', redis.url, '--name', 'landlocked'], { REFEREE_SANDBOX_NO_BWRAP: '1' });
  try {
    await worker.waitFor(/waiting for games/);
    expect(worker.stderr).not.toMatch(/guards against accidents/);
  } finally {
    await worker.stop();
  }
});

describe('a fleet under faults', () => {
  test('a worker of another harness version beside a current one: every student graded, the coordinator names the stale one', async () => {
    const stale = startWorker(redis.url, 'stale', { REFEREE_TEST_HARNESS_VERSION: '0.0.1-stale' });
    const current = startWorker(redis.url, 'current');
    try {
      await Promise.all([stale.waitFor(/waiting for games/), current.waitFor(/waiting for games/)]);
      expect(stale.stdout).toMatch(/harness 0\.0\.1-stale/);
      const ids = ['f2ann', 'f2ben', 'f2cat'];
      const run = batch(makeQueueClass(ids), writeQueueConfig(1200), join(tempDir('f2'), 'out'), ['--jobs', '2']);
      const exit = await run.exited;
      expect({ code: exit.code, stderr: run.stderr }).toMatchObject({ code: 0 });
      expect(run.stdout).toMatch(/Graded 3 students .*: 3 graded now, 0 unchanged from the journal, 0 not graded/);
      expect(run.stderr).toMatch(new RegExp(`queue workers: 1 of harness ${harnessVersion().replace(/\./g, '\\.')} \\(this run's\\); 1 of harness 0\\.0\\.1-stale, which do not take this run's games`));
      expect(stale.stdout).not.toMatch(/playing|failed|refused/);
      expect(current.stdout.match(/\] played f2/g)?.length).toBeGreaterThan(0);
    } finally {
      await Promise.all([stale.stop(), current.stop()]);
    }
  });

  test('forged results from a rogue Redis writer are refused and the game is played again by a real worker', async () => {
    const dir = tempDir('f3');
    const classDir = makeQueueClass(['f3ann']);
    const grade = new Cli(['grade', join(classDir, 'f3ann', 'AIPlayer.ts'), '--config', writeQueueConfig(1300), '--out', join(dir, 'out'), '--queue', redis.url, '--json', '--quiet']);
    // The rogue: anyone with Redis's password, taking the games and returning a made-up win for the student.
    const forged: string[] = [];
    const rogue = new Worker(
      queueName(harnessVersion()),
      async (job, token) => {
        // One forgery: any other game it takes goes back untouched (as if the rogue never took it).
        if (forged.length > 0) {
          await job.moveToDelayed(Date.now() + 300, token);
          throw new DelayedError();
        }
        forged.push(String(job.id));
        return { payload: JSON.stringify({ format: 'referee.queue-result/1', job: job.id, record: { players: ['f3ann', 'x'] }, wallMs: 1, worker: 'rogue' }), signature: 'ab'.repeat(32) };
      },
      { connection: { url: redis.adminUrl }, prefix: 'referee', name: 'rogue', concurrency: 1 },
    );
    rogue.on('error', () => undefined);
    await until(() => forged.length >= 1, 'the rogue took a game');
    await until(() => /refused the result/.test(grade.stderr), 'the coordinator refused the forgery');
    await rogue.close();
    const real = startWorker(redis.url, 'honest');
    try {
      const exit = await grade.exited;
      expect({ code: exit.code, stderr: grade.stderr }).toMatchObject({ code: 0 });
      expect(grade.stderr).toMatch(/warning: refused the result of \S*f3ann\S* vs \S+ #\d+ from rogue: its signature does not verify with this key file .*; playing it again on another worker/);
      const summary = JSON.parse(grade.stdout) as { status: string };
      expect(summary.status).toBe('graded');
      expect(real.stdout.match(/\] played \S*f3ann/g)).toHaveLength(4);
    } finally {
      await real.stop();
    }
  });

  test('Redis frozen (SIGSTOP) mid-run: the coordinator and the worker say so within seconds and again when it answers; the batch completes', async () => {
    const worker = startWorker(redis.url, 'frozen-w');
    try {
      await worker.waitFor(/waiting for games/);
      const run = batch(makeQueueClass(['f4ann', 'f4ben'], 40), writeQueueConfig(1400), join(tempDir('f4'), 'out'), ['--jobs', '2']);
      await worker.waitFor(/\] playing f4/);
      redis.freeze();
      await until(() => /Redis at redis:\/\/127\.0\.0\.1:\d+\/0 has not answered for \d+ s/.test(run.stderr) && /has not answered for/.test(worker.stdout), 'both said Redis is silent');
      redis.thaw();
      await until(() => /Redis at \S+ answers again \(silent for \d+ s\)/.test(run.stderr) && /answers again/.test(worker.stdout), 'both said Redis is back');
      const exit = await run.exited;
      expect({ code: exit.code, stderr: run.stderr }).toMatchObject({ code: 0 });
      expect(run.stdout).toMatch(/0 not graded/);
    } finally {
      redis.thaw();
      await worker.stop();
    }
  });

  test('a coordinator and a worker held up by the machine (SIGSTOP for longer than the silence and lock limits): no false warning; the held game is played again once, said by its worker', async () => {
    const held = startWorker(redis.url, 'held-w');
    const other = startWorker(redis.url, 'other-w');
    try {
      await Promise.all([held.waitFor(/waiting for games/), other.waitFor(/waiting for games/)]);
      const out = join(tempDir('f8'), 'out');
      const run = batch(makeQueueClass(['f8ann', 'f8ben'], 40), writeQueueConfig(1800), out, ['--jobs', '2']);
      const label = (await held.waitFor(/\] playing (f8\S+ vs \S+ #\d+)/))[1];
      // Redis answers all along; the coordinator's own loop stands still past the watch's 5 s, and the worker past its
      // 3 s lock: BullMQ gives its game to the other worker, but it beats again afterwards.
      run.process.kill('SIGSTOP');
      held.process.kill('SIGSTOP');
      await sleep(6500);
      held.process.kill('SIGCONT');
      run.process.kill('SIGCONT');
      const exit = await run.exited;
      expect({ code: exit.code, stderr: run.stderr }).toEqual({ code: 0, stderr: '' });
      expect(journalStats(out)).toEqual({ games: 8, maxPlays: 1, grades: 2 });
      expect(held.stdout).toContain(`lost ${label}: this worker's lock on it lapsed`);
      // Played again once, by whichever worker was free first: at load the held one, back and done with its lost play,
      // can be (the other may still be in its own game when BullMQ hands the held game back).
      expect(playsByLabel([held.stdout, other.stdout], 'f8').get(label)).toBe(2);
      expect(unexplainedReplays([held.stdout, other.stdout], 'f8')).toEqual([]);
    } finally {
      for (const worker of [held, other]) worker.process.kill('SIGCONT');
      await Promise.all([held.stop(), other.stop()]);
    }
  });

  test("FLUSHALL mid-run: one line with the fix, the lost games enqueued again, nothing graded lost; the run's compiled submissions leave Redis when it ends", async () => {
    const worker = startWorker(redis.url, 'flush-w');
    const admin = new Redis(redis.adminUrl);
    try {
      await worker.waitFor(/waiting for games/);
      const out = join(tempDir('f9'), 'out');
      const run = batch(makeQueueClass(['f9ann', 'f9ben'], 30), writeQueueConfig(1900), out, ['--jobs', '2']);
      await waitForGames(out, 2);
      expect(await admin.keys('referee:artefacts:*')).not.toEqual([]);
      await admin.flushall();
      const exit = await run.exited;
      expect({ code: exit.code, stderr: run.stderr }).toEqual({ code: 0, stderr: `warning: ${KEYS_VANISHED_WARNING}\n` });
      expect(run.stdout).toMatch(/0 not graded/);
      expect(journalStats(out)).toEqual({ games: 8, maxPlays: 1, grades: 2 });
      expect(await admin.keys('referee:artefact*')).toEqual([]);
    } finally {
      admin.disconnect();
      await worker.stop();
    }
  });

  test('SIGTERM stops the coordinator: its queued games leave the queue, it says so, and the resume line keeps --queue and works', async () => {
    const before = (await queued()).all;
    const classDir = makeQueueClass(['f5ann', 'f5ben', 'f5cat']);
    const out = join(tempDir('f5'), 'out');
    const config = writeQueueConfig(1500);
    const run = batch(classDir, config, out, ['--jobs', '4']);
    // No worker runs: the games wait in Redis.
    await until(async () => (await queued()).waiting >= 4, 'games queued');
    run.process.kill('SIGTERM');
    const exit = await run.exited;
    expect(exit.code).toBe(143);
    expect(run.stderr).toMatch(/referee: took \d+ queued games? off the queue\./);
    const resume = /Resume with: (.*)/.exec(run.stderr)?.[1] ?? '';
    expect(resume).toContain(`--queue ${redis.url}`);
    expect(resume).toMatch(/--jobs 4 .*--resume$/);
    expect((await queued()).all).toBe(before);
    // Pasting the line grades the rest on the queue (it needs a worker), not locally.
    const worker = startWorker(redis.url, 'resumer');
    try {
      const words = resume.split(' ').slice(1).map((word) => word.replace(/^'(.*)'$/, '$1'));
      const resumed = new Cli([...words]);
      const done = await resumed.exited;
      expect({ code: done.code, stderr: resumed.stderr }).toMatchObject({ code: 0 });
      expect(worker.stdout).toMatch(/\] played f5/);
    } finally {
      await worker.stop();
    }
  });

  test('grade --queue and tournament --queue stop on SIGTERM as batch does: queued games withdrawn, said, and a resume line that works', async () => {
    const before = (await queued()).all;
    const classDir = makeQueueClass(['f6ann', 'f6ben']);
    const config = writeQueueConfig(1600);
    const work = tempDir('f6');
    // No worker runs: the games wait in Redis until the coordinators are stopped.
    const grade = new Cli(['grade', join(classDir, 'f6ann'), '--config', config, '--out', join(work, 'grade'), '--quiet', '--queue', redis.url]);
    await until(async () => (await queued()).waiting >= 4, 'grade games queued');
    grade.process.kill('SIGTERM');
    expect((await grade.exited).code).toBe(143);
    expect(grade.stderr).toMatch(/referee: took 4 queued games? off the queue\./);
    const gradeResume = /Resume with: (.*)/.exec(grade.stderr)?.[1] ?? '';
    expect(gradeResume).toMatch(new RegExp(`^referee grade .*--out \\S+ --queue ${redis.url.replace(/[/.]/g, '\\$&')} --resume$`));
    expect((await queued()).all).toBe(before);

    const tournament = new Cli(['tournament', join(classDir, 'f6ann'), join(classDir, 'f6ben'), 'random', '--game', 'reversi', '--openings', '0', '--out', join(work, 'tournament'), '--queue', redis.url, '--jobs', '4']);
    await until(async () => (await queued()).waiting >= 4, 'tournament games queued');
    tournament.process.kill('SIGTERM');
    expect((await tournament.exited).code).toBe(143);
    expect(tournament.stderr).toMatch(/referee: took \d+ queued games? off the queue\./);
    const tournamentResume = /Resume with: (.*)/.exec(tournament.stderr)?.[1] ?? '';
    expect(tournamentResume).toContain(`--queue ${redis.url}`);
    expect(tournamentResume).toMatch(/--resume$/);
    expect((await queued()).all).toBe(before);

    // Pasting the lines finishes both on the queue.
    const worker = startWorker(redis.url, 'resumer6');
    try {
      for (const line of [gradeResume, tournamentResume]) {
        const words = line.split(' ').slice(1).map((word) => word.replace(/^'(.*)'$/, '$1'));
        const resumed = new Cli(words);
        const done = await resumed.exited;
        // (the resume line leaves out --quiet: progress lines are fine, warnings and errors are not)
        expect({ code: done.code, problems: resumed.stderr.split('\n').filter((line) => /warning|error|referee:/i.test(line)) }).toEqual({ code: 0, problems: [] });
      }
      expect(worker.stdout).toMatch(/\] played f6ann vs/);
    } finally {
      await worker.stop();
    }
  }, 300_000);
});
