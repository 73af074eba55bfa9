/**
 * Four races of the coordinator (grading/queue/pool.ts) forced against a real redis-server, with BullMQ's own worker
 * API standing in for `referee worker` so the test decides the instant a job is taken and finished:
 *   - a game still on its way to Redis when the pool closes: taken off (never queued), not "in play";
 *   - a stall seen only after its worker ran again, with the run closing before the worker's next beat;
 *   - a job withdrawn (close) at the instant a worker takes and finishes it: its result must stay in Redis for
 *     --resume (BullMQ's remove deletes a completed job with its result);
 *   - a game whose result arrives at the instant a FLUSHALL made the coordinator enqueue it again: it must not be
 *     queued to be played again for nobody, and the journal keeps it once, with its first record.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { Worker, type Job } from 'bullmq';
import { Redis } from 'ioredis';
import { getGame } from '../../harness/games/registry.js';
import { InProcessPlayer } from '../../harness/referee/in-process.js';
import { playGame } from '../../harness/referee/match.js';
import { referenceAgentByName } from '../../reference-ai/budget.js';
import { harnessVersion } from '../../grading/package-root.js';
import type { GameJob } from '../../grading/pool/job.js';
import { queueEndpoint, queueName } from '../../grading/queue/connection.js';
import { QueuePool } from '../../grading/queue/pool.js';
import { jobDigest, readKeyFile, signResult } from '../../grading/queue/signing.js';
import { beat, workerKey } from '../../grading/queue/workers.js';
import { TournamentJournal } from '../../grading/tournament/journal.js';
import { tempDir } from '../batch/helpers.js';
import { freePort, KEY_FILE, RedisServer, sleep } from './helpers.js';

const QUEUE = queueName(harnessVersion());
const rules = { moveTimeoutMs: 1000, turnTimeoutMs: 1000, illegalMoveLimit: 3, constructTimeoutMs: 1000, tamperLoses: true, forcedLossDiff: 0, quitEndsGame: false };
const jobOf = (key: string, seed: number): GameJob => ({
  key,
  harness: harnessVersion(),
  game: 'reversi',
  config: rules,
  seed,
  players: [
    { kind: 'reference', name: 'random', ai: 'random', openingMoves: 0 },
    { kind: 'reference', name: 'greedy', ai: 'greedy', openingMoves: 0 },
  ],
  label: `random vs greedy ${key.slice(0, 6)}`,
});

/** The game played here, signed as a worker signs it. */
async function signedResult(job: GameJob, worker: string): Promise<string> {
  const player = (index: 0 | 1) => new InProcessPlayer(job.players[index].name, referenceAgentByName('reversi', job.players[index].name), getGame);
  const record = await playGame({ game: getGame('reversi'), black: player(0), white: player(1), seed: job.seed, config: rules });
  return JSON.stringify(signResult(readKeyFile(KEY_FILE), { job: job.key, jobDigest: jobDigest(job), record, wallMs: 5, worker }));
}

async function until<T>(what: string, probe: () => Promise<T | null | false> | T | null | false): Promise<T> {
  for (let tries = 0; tries < 1200; tries++) {
    const value = await probe();
    if (value) return value;
    await sleep(100);
  }
  throw new Error(`never: ${what}`);
}

let redis: RedisServer;
let admin: Redis;
beforeAll(async () => {
  redis = new RedisServer(await freePort());
  await redis.start();
  admin = new Redis(redis.adminUrl);
});
afterAll(async () => {
  admin?.disconnect();
  await redis?.stop();
});

const open = (): Promise<QueuePool> => QueuePool.open(queueEndpoint(redis.url, undefined, { REFEREE_REDIS_PASSWORD: redis.password }), { size: 1, key: readKeyFile(KEY_FILE) });
/** The pool's private parts the races go through (the test forces their timing, never their outcome). */
type Inside = { queue: { getJobState(id: string): Promise<string> }; redis: { eval(...args: unknown[]): Promise<unknown> }; renewLease(): Promise<void>; polling: boolean; closed: boolean };

/** Closes the pool and checks the game was taken off the queue (counted so, gone from Redis, its caller told). */
async function closedAndTakenOff(pool: QueuePool, job: GameJob, played: Promise<unknown>): Promise<void> {
  await pool.close();
  expect(pool.closeSummary).toEqual({ removed: 1, inPlay: 0 });
  expect(await admin.exists(`referee:${QUEUE}:${job.key}`)).toBe(0);
  expect(await admin.zscore(`referee:${QUEUE}:prioritized`, job.key)).toBeNull();
  expect(await played).toBeInstanceOf(Error);
}

type StallInside = Inside & { outstanding: Map<string, { worker?: string; started: boolean }>; lost(key: string): void; stalls: { beatAt?: number | null }[] };

/** A queued game its worker (one beat written) is taken to have stalled on, the stall's reference beat read. */
async function stalledGame(keyDigit: string, seed: number, name: string, beatFirst = true) {
  await admin.flushall();
  const warnings: string[] = [];
  const pool = await QueuePool.open(queueEndpoint(redis.url, undefined, { REFEREE_REDIS_PASSWORD: redis.password }), { size: 1, key: readKeyFile(KEY_FILE), onWarning: (line) => warnings.push(line) });
  const inside = pool as unknown as StallInside;
  const job = jobOf(keyDigit.repeat(40), seed);
  const played = pool.play(job).catch((error: Error) => error);
  await until('the job waiting in Redis', async () => (await admin.zscore(`referee:${QUEUE}:prioritized`, job.key)) !== null);
  const worker = { name, harness: harnessVersion(), concurrency: 1 };
  const beats = new Redis(redis.adminUrl);
  if (beatFirst) await beat(beats, readKeyFile(KEY_FILE), worker);
  Object.assign(inside.outstanding.get(job.key)!, { worker: name, started: true });
  inside.lost(job.key);
  await until('the stall read its beat', () => inside.stalls[0]?.beatAt !== undefined);
  return { pool, inside, job, played, warnings, beats, worker };
}

/** The run closes, and the stalled worker's next beat lands just after the closing coordinator's first look at it: no warning. */
async function closeAsItBeatsAgain({ pool, inside, played, warnings, beats, worker }: Awaited<ReturnType<typeof stalledGame>>): Promise<void> {
  const redisInside = inside.redis as unknown as { get(key: string): Promise<string | null> };
  const get = redisInside.get.bind(redisInside);
  let nextBeat: Promise<void> | null = null;
  redisInside.get = async (key: string) => {
    const value = await get(key);
    if (inside.closed && key === workerKey(worker.name)) nextBeat ??= beat(beats, readKeyFile(KEY_FILE), worker);
    return value;
  };
  await pool.close();
  expect(nextBeat).not.toBeNull();
  expect(warnings).toEqual([]);
  expect(await played).toBeInstanceOf(Error);
  beats.disconnect();
}

describe('queue races against a real redis-server', () => {
  test('a job withdrawn at the instant a worker takes and finishes it keeps its result in Redis', async () => {
    await admin.flushall();
    const pool = await open();
    const inside = pool as unknown as Inside;
    const job = jobOf('a'.repeat(40), 5);
    const played = pool.play(job).catch((error: Error) => error);
    const jobKey = `referee:${QUEUE}:${job.key}`;
    await until('the job waiting in Redis', async () => (await admin.zscore(`referee:${QUEUE}:prioritized`, job.key)) !== null);
    const connection = new Redis(redis.adminUrl, { maxRetriesPerRequest: null });
    const worker = new Worker(QUEUE, null, { connection, prefix: 'referee', autorun: false });
    worker.on('error', () => undefined);
    let took: Job | undefined;
    // The worker takes the job and finishes it right after the coordinator's last look at it, whatever that look is:
    // a state read (then a removal) or the removal itself.
    const takeAndFinish = async (): Promise<void> => {
      if (took || !inside.closed) return;
      took = (await worker.getNextJob('race-token')) as Job;
      await took.moveToCompleted('the-posted-result', 'race-token', false);
    };
    const getJobState = inside.queue.getJobState.bind(inside.queue);
    inside.queue.getJobState = async (id: string) => {
      const state = await getJobState(id);
      if (id === job.key) await takeAndFinish();
      return state;
    };
    const evaluate = inside.redis.eval.bind(inside.redis);
    inside.redis.eval = async (...args: unknown[]) => {
      await takeAndFinish();
      return evaluate(...args);
    };
    await pool.close();
    expect(took?.id).toBe(job.key);
    expect(pool.closeSummary).toEqual({ removed: 0, inPlay: 1 });
    expect(await admin.hget(jobKey, 'returnvalue')).toBe(JSON.stringify('the-posted-result'));
    expect(await admin.zscore(`referee:${QUEUE}:completed`, job.key)).not.toBeNull();
    expect(await played).toBeInstanceOf(Error);
    await worker.close();
    connection.disconnect();
  });

  test('a job withdrawn while it waits leaves the queue at once (the control: the script does remove)', async () => {
    await admin.flushall();
    const pool = await open();
    const job = jobOf('b'.repeat(40), 6);
    const played = pool.play(job).catch((error: Error) => error);
    await until('the job waiting in Redis', async () => (await admin.zscore(`referee:${QUEUE}:prioritized`, job.key)) !== null);
    await closedAndTakenOff(pool, job, played);
  });

  test('a game still being enqueued when the pool closes is counted as taken off the queue, not in play, and never queued', async () => {
    await admin.flushall();
    const pool = await open();
    const inside = pool as unknown as Inside;
    const job = jobOf('e'.repeat(40), 7);
    // The enqueue's first talk to Redis waits until close() has begun: the CI run where a SIGTERM came while a
    // class's later games were still on their way to Redis (they were reported "already in play").
    const renew = inside.renewLease.bind(inside);
    inside.renewLease = async () => {
      await until('close() begun', () => inside.closed);
      return renew();
    };
    const played = pool.play(job).catch((error: Error) => error);
    await closedAndTakenOff(pool, job, played);
  });

  test('a stall seen only after its worker ran again, and the run closing before that worker beats again: no "stopped answering"', async () => {
    // The machine held the worker and the coordinator up together: BullMQ's stall is seen after the worker's first
    // beat since (so that beat is the stall's reference), and the run closes before its next one.
    const stalled = await stalledGame('f', 8, 'held-w');
    // Beats carry milliseconds: the next one must be later than the reference.
    await sleep(5);
    await closeAsItBeatsAgain(stalled);
  });

  test("a stall read in the same breath as its game's start, while the coordinator still asks who took it: judged on that worker's beats, no false warning", async () => {
    // A coordinator held up with its worker reads the 'active' and 'stalled' events together: the look-up of who
    // took the game (job.processedBy) is still on its way to Redis when the stall is handled. Said at once of a
    // worker nobody had named, "its worker stopped answering" was false of one only held up (tests/queue/faults at
    // load 30). Forced here: the pool's own 'active' handling is held back, then both run in one turn.
    await admin.flushall();
    const warnings: string[] = [];
    const pool = await QueuePool.open(queueEndpoint(redis.url, undefined, { REFEREE_REDIS_PASSWORD: redis.password }), { size: 1, key: readKeyFile(KEY_FILE), onWarning: (line) => warnings.push(line) });
    const inside = pool as unknown as StallInside & { started(key: string): Promise<void>; stalls: { worker: string; beatAt?: number | null }[] };
    const started = inside.started.bind(inside);
    inside.started = () => Promise.resolve();
    const job = jobOf('d'.repeat(40), 10);
    const played = pool.play(job).catch((error: Error) => error);
    await until('the job waiting in Redis', async () => (await admin.zscore(`referee:${QUEUE}:prioritized`, job.key)) !== null);
    const connection = new Redis(redis.adminUrl, { maxRetriesPerRequest: null });
    const taker = new Worker(QUEUE, null, { connection, prefix: 'referee', autorun: false, name: 'held-w' });
    taker.on('error', () => undefined);
    expect((await taker.getNextJob('held-token'))?.id).toBe(job.key);
    const worker = { name: 'held-w', harness: harnessVersion(), concurrency: 1 };
    const beats = new Redis(redis.adminUrl);
    await beat(beats, readKeyFile(KEY_FILE), worker);
    inside.started = started;
    void inside.started(job.key);
    void inside.lost(job.key);
    expect(warnings).toEqual([]);
    const stall = await until('the stall read its beat', () => inside.stalls[0]?.beatAt !== undefined && inside.stalls[0]);
    expect(stall.worker).toBe('held-w');
    // The worker runs again: its next beat (beats carry milliseconds) is the evidence the run closes on.
    while (Date.now() <= stall.beatAt!) await new Promise((resolve) => setImmediate(resolve));
    await beat(beats, readKeyFile(KEY_FILE), worker);
    await pool.close();
    expect(warnings).toEqual([]);
    expect(await played).toBeInstanceOf(Error);
    await taker.close();
    connection.disconnect();
    beats.disconnect();
  });

  test('a stall seen after its worker\'s beat lapsed (held up with the coordinator past the beat\'s life), the worker beating again as the run closes: no "stopped answering"', async () => {
    // tests/queue/faults at load 40: a worker and its coordinator stopped 6.5 s, the beat (8 s life) written 2 s
    // before; both woke, and the coordinator judged the lapsed beat before the worker wrote its next one.
    const stalled = await stalledGame('7', 11, 'lapsed-w', false);
    expect(stalled.inside.stalls[0].beatAt).toBeNull();
    await closeAsItBeatsAgain(stalled);
  });

  test('a stalled worker that never beats again is said to have stopped answering when the run closes (the control)', async () => {
    const { pool, job, played, warnings, beats } = await stalledGame('9', 9, 'gone-w');
    await pool.close();
    expect(warnings).toEqual([`gone-w stopped answering while playing ${job.label}: the game is played again from its start by another worker`]);
    expect(await played).toBeInstanceOf(Error);
    beats.disconnect();
  });

  test('a result arriving as a FLUSHALL makes the coordinator enqueue its game again: not queued again, journaled once', async () => {
    await admin.flushall();
    const pool = await open();
    const inside = pool as unknown as Inside;
    const job = jobOf('c'.repeat(40), 7);
    const journal = TournamentJournal.open(join(tempDir('qrace'), 'tournament.sqlite'));
    const played = pool.play(job);
    await until('the job waiting in Redis', async () => (await admin.zscore(`referee:${QUEUE}:prioritized`, job.key)) !== null);
    const result = await signedResult(job, 'race-worker');
    let delivered = false;
    const renewLease = inside.renewLease.bind(pool);
    // The instant: the coordinator saw the game gone (FLUSHALL) and is enqueueing it again when the worker's
    // completion, written just before the flush, reaches it (a blocked XREAD is served as the event is added).
    inside.renewLease = async () => {
      if (!delivered && /\benqueue\b/.test(new Error().stack ?? '')) {
        delivered = true;
        await admin.xadd(`referee:${QUEUE}:events`, '*', 'event', 'completed', 'jobId', job.key, 'returnvalue', result, 'prev', 'active');
        const game = await played;
        journal.save(job.key, game.record, game.wallMs, game.worker);
        await game.done?.();
      }
      return renewLease();
    };
    await admin.flushall();
    await until('the result delivered during the re-enqueue', () => delivered);
    await until('the poll that enqueued it to end', () => !inside.polling);
    // Not queued again: no worker would play it for nobody.
    expect(await admin.exists(`referee:${QUEUE}:${job.key}`)).toBe(0);
    expect(await admin.zscore(`referee:${QUEUE}:prioritized`, job.key)).toBeNull();
    // Had it been played again, its second record is not kept over the first.
    const first = journal.find(job.key, job.seed)!;
    const again = JSON.parse(result) as { payload: string };
    const replay = { ...(JSON.parse(again.payload) as { record: typeof first.record }).record, players: ['random (replayed)', 'greedy'] as [string, string] };
    journal.save(job.key, replay, 999, 'another-worker');
    expect(journal.find(job.key, job.seed)).toEqual(first);
    expect(journal.stats()).toEqual({ games: 1, maxPlays: 2 });
    journal.close();
    await pool.close();
  });
});
