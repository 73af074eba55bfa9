/**
 * `referee worker`: takes game jobs from the Redis queue and plays them with the same runner, sandbox and limits
 * as local grading — each game in a forked game worker (grading/batch/pool.ts), one game per process, so this
 * process only talks to Redis and its locks are renewed even while a reference AI computes.
 *
 * It listens only to its own harness version's queue (connection.ts queueName), so a stale worker never takes
 * a current coordinator's games. Every job is checked against the schema, the queue's caps and the coordinator's
 * signature first (a job changed in Redis, or written there without the key, is refused); a job whose coordinator's
 * signed lease is gone is dropped, not played; submissions come only from this machine's artefact cache, filled
 * from Redis and verified by hash; every result is signed with the queue's key file and names the digest of the
 * job data it played; a failure's reason is signed too, so the coordinator knows which worker failed a game. Stopping (SIGTERM, Ctrl-C):
 * no new games; the games in flight finish within the grace period, or are handed back to the queue (another
 * worker replays them from the start).
 */
import { hostname } from 'node:os';
import { DelayedError, Worker, UnrecoverableError, type Job } from 'bullmq';
import type { Redis } from 'ioredis';
import type { GameRecord } from '../../harness/referee/record.js';
import { harnessVersion } from '../package-root.js';
import { cachedArtefact, storeArtefact } from '../pool/artefact.js';
import { PoolAbortError } from '../pool/job.js';
import { missingRuntime } from '../pool/play.js';
import { ForkPool } from '../batch/pool.js';
import { checkReachable, KEY_PREFIX, queueName, redactUrl, RedisWatch, redisConnection, type QueueEndpoint } from './connection.js';
import { artefactKey, COORDINATOR_GONE, leaseKey } from './pool.js';
import { decodeArtefact, InvalidJobError, printable, validateJob, type QueuedJob } from './schema.js';
import { jobDigest, jobSignatureProblem, leaseIsLive, signFailure, signResult, TEST_UNSIGNED_JOBS_ENV, unsignedJobsAllowed, type SignedResult } from './signing.js';
import { beat, forget, HEARTBEAT_EVERY_MS, readWorkers } from './workers.js';
import { count } from '../words.js';

/** Only for tests of a mixed fleet: the harness version this worker claims (its queue and its heartbeat). */
export const TEST_HARNESS_ENV = 'REFEREE_TEST_HARNESS_VERSION';


/** A job's lock by default: a worker silent this long is presumed dead (BullMQ renews it every half). */
export const DEFAULT_LOCK_MS = 6000;

export interface QueueWorkerOptions {
  endpoint: QueueEndpoint;
  /** The queue's key (signing.ts): every result is signed with it. */
  key: Buffer;
  /** Games at once (forked game workers). */
  concurrency: number;
  /** Shown in logs and records' provenance (default host:pid). */
  name?: string;
  /** The compiled game worker (dist/grading/batch/worker.js). */
  workerScript: string;
  /** How long the games in flight may take to finish once asked to stop, before they are handed back. */
  graceMs?: number;
  /**
   * A job's lock: a worker silent this long is presumed dead and its game replayed elsewhere (default
   * DEFAULT_LOCK_MS; stalled jobs are looked for every half of it, so a dead worker's game restarts within ~1.5×).
   */
  lockMs?: number;
  log: (line: string) => void;
}

const result = (record: GameRecord): string =>
  record.end.winner === null ? 'draw' : `${record.end.winner === 0 ? 'Black' : 'White'} (${printable(record.players[record.end.winner], 80)}) wins`;

/** Run until `stop` resolves (or the process is signalled by the caller): resolves once everything is let go. */
export async function runQueueWorker(options: QueueWorkerOptions, stop: Promise<unknown>): Promise<void> {
  await checkReachable(options.endpoint);
  const harness = process.env[TEST_HARNESS_ENV] || harnessVersion();
  const name = printable(options.name ?? `${hostname()}:${process.pid}`, 100);
  const log = (line: string): void => options.log(`[${name}] ${line}`);
  const lockMs = options.lockMs ?? DEFAULT_LOCK_MS;
  const games = new ForkPool(options.workerScript, options.concurrency, { onWarning: (line) => log(line) });
  const connection = redisConnection(options.endpoint, `referee-worker ${name}`);
  let down = false;
  connection.on('error', (error: Error) => {
    if (!down) log(`lost Redis (${(error as { code?: string }).code ?? error.message}): reconnecting`);
    down = true;
  });
  connection.on('ready', () => {
    if (down) log('Redis is back');
    down = false;
  });
  const watch = new RedisWatch(options.endpoint, `referee-worker-watch ${name}`, log);
  const fetching = new Map<string, Promise<void>>();
  const ensureArtefact = (client: Redis, hash: string): Promise<void> => {
    if (cachedArtefact(hash)) return Promise.resolve();
    let pending = fetching.get(hash);
    if (!pending) {
      pending = (async () => {
        const text = await client.get(artefactKey(hash));
        if (text === null) throw new Error(`the compiled submission ${hash.slice(0, 12)} is not in Redis (the coordinator publishes it again when it re-enqueues)`);
        storeArtefact(decodeArtefact(text, hash));
      })().finally(() => fetching.delete(hash));
      fetching.set(hash, pending);
    }
    return pending;
  };
  const active = new Map<string, { job: Job; token?: string }>();
  /** Label of each job this worker started, until its result is posted or it is known lost (for the "lost" line). */
  const inPlay = new Map<string, string>();
  // BullMQ gave the game to another worker because this one did not renew its lock in time (its event loop or Redis
  // stalled past the lock): said once, so a replay elsewhere is never unexplained; this play's result is refused.
  const lost = (jobId: string, why = `this worker's lock on it lapsed (it did not renew it within ${lockMs} ms); the next free worker, perhaps this one, plays it from its start`): void => {
    const label = inPlay.get(jobId);
    if (label === undefined) return;
    inPlay.delete(jobId);
    log(`lost ${label}: ${why}`);
  };
  const heartbeat = (): Promise<void> => beat(connection, options.key, { name, harness, concurrency: options.concurrency }).catch(() => undefined);
  if (unsignedJobsAllowed()) log(`WARNING: ${TEST_UNSIGNED_JOBS_ENV}=1: jobs are played without checking their signature (a test's control only)`);
  // A failure's reason, signed: which worker failed which job (anybody can write a reason into Redis).
  const fail = (job: Job, reason: string): UnrecoverableError => new UnrecoverableError(signFailure(options.key, String(job.id), name, reason));
  await heartbeat();
  const beating = setInterval(() => void heartbeat(), HEARTBEAT_EVERY_MS);

  const worker = new Worker<QueuedJob, SignedResult>(
    queueName(harness),
    async (job, token) => {
      let data: QueuedJob;
      try {
        data = validateJob(job.data);
        const unsigned = unsignedJobsAllowed() ? null : jobSignatureProblem(options.key, data);
        if (unsigned) throw new InvalidJobError(`job refused: ${unsigned}`);
        if (data.harness !== harness) throw new InvalidJobError(`job refused: it is for harness ${printable(data.harness, 64)}, on the queue of ${harness}`);
      } catch (error) {
        log(`refused job ${printable(job.id, 24)}: ${printable((error as Error).message, 300)}`);
        // A malformed or altered job never gets better: fail it for good (the coordinator enqueues its own again).
        throw fail(job, (error as Error).message);
      }
      const label = printable(data.label);
      if (!leaseIsLive(options.key, data.coordinator, await connection.get(leaseKey(data.coordinator)))) {
        log(`dropped ${label}: its coordinator stopped (nobody would collect the result)`);
        throw fail(job, `${COORDINATOR_GONE} (${data.coordinator})`);
      }
      if (data.avoid?.includes(name)) {
        // This worker's record of the game did not check: leave it to another worker of this version, if any is there.
        const others = (await readWorkers(connection, options.key).catch(() => [])).filter((each) => each.harness === harness && each.name !== name && !data.avoid!.includes(each.name));
        if (others.length > 0 && token) {
          await job.moveToDelayed(Date.now() + 1000, token);
          throw new DelayedError();
        }
      }
      let missing: string | null = null;
      try {
        for (const player of data.players) if (player.kind === 'artefact') await ensureArtefact(connection, player.artefact);
        missing = data.players.map((player) => missingRuntime(player)).find((why) => why !== null) ?? null;
      } catch (error) {
        log(`refused job ${printable(job.id, 24)}: ${printable((error as Error).message, 300)}`);
        throw fail(job, (error as Error).message);
      }
      // This machine cannot run a player (no JDK for a Java bot): refused before it starts; the coordinator plays
      // it on another worker, and says this line if none can.
      if (missing) throw fail(job, `worker ${name} cannot play it: ${missing}`);
      active.set(String(job.id), { job, token });
      inPlay.set(String(job.id), label);
      log(`playing ${label} (game ${data.key.slice(0, 12)})`);
      try {
        const { coordinator: _coordinator, avoid: _avoid, signature: _signature, ...game } = data;
        // Watchers of the coordinator's journal see the game move by move (progress comes at most every 250 ms).
        let played;
        try {
          played = await games.play(game, { onProgress: (progress) => void job.updateProgress(progress as unknown as object).catch(() => undefined) });
        } catch (error) {
          if (error instanceof PoolAbortError) throw error; // stopping: handed back, nobody failed it
          throw fail(job, (error as Error).message);
        }
        log(`played ${label} in ${played.wallMs} ms: ${result(played.record)}`);
        return signResult(options.key, { job: data.key, jobDigest: jobDigest(game), record: played.record, wallMs: played.wallMs, worker: name });
      } finally {
        active.delete(String(job.id));
      }
    },
    {
      connection,
      prefix: KEY_PREFIX,
      concurrency: options.concurrency,
      name,
      lockDuration: lockMs,
      stalledInterval: Math.max(250, Math.round(lockMs / 2)),
      // Renewed four times a lock (BullMQ's default is twice): a worker late by up to three quarters of the lock
      // (a loaded machine, a slow fsync in Redis) keeps its game instead of having it replayed elsewhere.
      lockRenewTime: Math.max(100, Math.round(lockMs / 4)),
      // A game is replayed from its start after a stall; give up only if it keeps killing its workers.
      maxStalledCount: 3,
      autorun: false,
    },
  );
  worker.on('error', (error: Error) => {
    const taken = /^(Missing lock|Lock mismatch|Missing key) for job (\S+?)\.? /.exec(error.message);
    if (taken?.[1] === 'Missing key') lost(taken[2], 'its job vanished from Redis (flushed, or restarted without persistence); its coordinator enqueues it again');
    else if (taken) lost(taken[2]);
  });
  worker.on('lockRenewalFailed', (jobIds: string[]) => jobIds.forEach((jobId) => lost(jobId)));
  worker.on('completed', (job) => inPlay.delete(String(job.id)));
  worker.on('failed', (job, error) => {
    if (job) inPlay.delete(String(job.id));
    if (job && !(error instanceof PoolAbortError) && !(error instanceof DelayedError) && !error.message.startsWith(COORDINATOR_GONE) && !error.message.startsWith('job refused')) {
      log(`failed ${printable((job.data as Partial<QueuedJob>)?.label ?? job.id)}: ${printable(error.message.replace(/ \[signed [0-9a-f ]+\]$/, ''), 300)}`);
    }
  });
  log(`waiting for games on ${redactUrl(options.endpoint.url)} (${options.concurrency} at a time, harness ${harness})`);
  const running = worker.run().catch((error: unknown) => log(`worker stopped: ${(error as Error).message}`));

  await stop;
  clearInterval(beating);
  const graceMs = options.graceMs ?? 10_000;
  if (active.size > 0) log(`stopping: finishing ${count(active.size, 'game')} (up to ${Math.round(graceMs / 1000)} s), then handing back the rest`);
  else log('stopping');
  const closing = worker.close();
  const inTime = await Promise.race([closing.then(() => true), new Promise<boolean>((resolve) => setTimeout(() => resolve(false), graceMs))]);
  if (!inTime) {
    for (const { job, token } of active.values()) {
      const label = printable((job.data as QueuedJob).label);
      await within(job.moveToWait(token), 2000).then(
        () => log(`handed back ${label}`),
        // A late answer may still have handed it back: say only what is known, true either way.
        (error: unknown) => log(error instanceof NoAnswerError
          ? `no answer from Redis on handing back ${label} within 2 s: handed back or not, another worker plays it from its start`
          : `could not hand back ${label} (${printable((error as Error).message, 300)}): its lock expires and another worker replays it`),
      );
    }
    await games.close();
    await within(worker.close(true), 2000).catch(() => undefined);
  }
  // With Redis gone every command waits for it: leave after a bounded wait (the heartbeat expires by itself).
  await within(running, inTime ? 60_000 : 2000).catch(() => undefined);
  await games.close();
  await within(forget(connection, name), 2000).catch(() => undefined);
  watch.close();
  connection.disconnect();
}

/** Redis did not answer in time: the command may still have been carried out. */
class NoAnswerError extends Error {}

/** `promise`, or a rejection after `ms` (stopping must not wait forever on a Redis that is gone). */
function within<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  return Promise.race([
    promise,
    new Promise<T>((_resolve, reject) => {
      timer = setTimeout(() => reject(new NoAnswerError(`no answer from Redis within ${ms} ms`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}
