/**
 * `referee worker`: takes game jobs from the Redis queue and plays them with the same runner, sandbox and limits
 * as local grading — each game in a forked game worker (grading/batch/pool.ts), one game per process, so this
 * process only talks to Redis and its locks are renewed even while a reference AI computes.
 *
 * Every job is checked against the schema first; submissions come only from this machine's artefact cache,
 * filled from Redis and verified by hash. Stopping (SIGTERM, Ctrl-C): no new games; the games in flight finish
 * within the grace period, or are handed back to the queue (another worker replays them from the start).
 */
import { hostname } from 'node:os';
import { Worker, UnrecoverableError, type Job } from 'bullmq';
import type { Redis } from 'ioredis';
import { harnessVersion } from '../package-root.js';
import { cachedArtefact, storeArtefact } from '../pool/artefact.js';
import { PoolAbortError, type GameJob } from '../pool/job.js';
import { ForkPool } from '../batch/pool.js';
import { checkReachable, KEY_PREFIX, QUEUE_NAME, redactUrl, redisConnection } from './connection.js';
import { artefactKey, type QueueResult } from './pool.js';
import { decodeArtefact, InvalidJobError, validateJob } from './schema.js';

export interface QueueWorkerOptions {
  url: string;
  /** Games at once (forked game workers). */
  concurrency: number;
  /** Shown in logs and records' provenance (default host:pid). */
  name?: string;
  /** The compiled game worker (dist/grading/batch/worker.js). */
  workerScript: string;
  /** How long the games in flight may take to finish once asked to stop, before they are handed back. */
  graceMs?: number;
  /** A job's lock: a worker silent this long is presumed dead and its game replayed elsewhere (default 30 s). */
  lockMs?: number;
  log: (line: string) => void;
}

const result = (record: QueueResult['record']): string =>
  record.end.winner === null ? 'draw' : `${record.end.winner === 0 ? 'Black' : 'White'} (${record.players[record.end.winner]}) wins`;

/** Run until `stop` resolves (or the process is signalled by the caller): resolves once everything is let go. */
export async function runQueueWorker(options: QueueWorkerOptions, stop: Promise<unknown>): Promise<void> {
  await checkReachable(options.url);
  const name = options.name ?? `${hostname()}:${process.pid}`;
  const log = (line: string): void => options.log(`[${name}] ${line}`);
  const lockMs = options.lockMs ?? 30_000;
  const games = new ForkPool(options.workerScript, options.concurrency, { onWarning: (line) => log(line) });
  const connection = redisConnection(options.url, `referee-worker ${name}`);
  let down = false;
  connection.on('error', (error: Error) => {
    if (!down) log(`lost Redis (${(error as { code?: string }).code ?? error.message}): reconnecting`);
    down = true;
  });
  connection.on('ready', () => {
    if (down) log('Redis is back');
    down = false;
  });
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

  const worker = new Worker<GameJob, QueueResult>(
    QUEUE_NAME,
    async (job, token) => {
      let data: GameJob;
      try {
        data = validateJob(job.data);
        for (const player of data.players) if (player.kind === 'artefact') await ensureArtefact(connection, player.artefact);
      } catch (error) {
        log(`refused job ${String(job.id).slice(0, 12)}: ${(error as Error).message}`);
        // A malformed job or a forged artefact never gets better: fail it for good.
        if (error instanceof InvalidJobError) throw new UnrecoverableError((error as Error).message);
        throw error;
      }
      if (data.harness !== harnessVersion()) throw new Error(`worker ${name} runs harness ${harnessVersion()}, the coordinator ${data.harness}: run the same version everywhere`);
      active.set(String(job.id), { job, token });
      log(`playing ${data.label} (game ${data.key.slice(0, 12)})`);
      try {
        // Watchers of the coordinator's journal see the game move by move (progress comes at most every 250 ms).
        const played = await games.play(data, { onProgress: (progress) => void job.updateProgress(progress as unknown as object).catch(() => undefined) });
        log(`played ${data.label} in ${played.wallMs} ms: ${result(played.record)}`);
        return { record: played.record, wallMs: played.wallMs, worker: name };
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
      stalledInterval: lockMs,
      // A game is replayed from its start after a stall; give up only if it keeps killing its workers.
      maxStalledCount: 3,
      autorun: false,
    },
  );
  worker.on('error', () => undefined);
  worker.on('failed', (job, error) => {
    if (job && !(error instanceof PoolAbortError)) log(`failed ${(job.data as Partial<GameJob>)?.label ?? job.id}: ${error.message}`);
  });
  log(`waiting for games on ${redactUrl(options.url)} (${options.concurrency} at a time, harness ${harnessVersion()})`);
  const running = worker.run().catch((error: unknown) => log(`worker stopped: ${(error as Error).message}`));

  await stop;
  const graceMs = options.graceMs ?? 10_000;
  if (active.size > 0) log(`stopping: finishing ${active.size} game(s) (up to ${Math.round(graceMs / 1000)} s), then handing back the rest`);
  else log('stopping');
  const closing = worker.close();
  const inTime = await Promise.race([closing.then(() => true), new Promise<boolean>((resolve) => setTimeout(() => resolve(false), graceMs))]);
  if (!inTime) {
    for (const { job, token } of active.values()) {
      await job.moveToWait(token).then(
        () => log(`handed back ${(job.data as GameJob).label}`),
        (error: unknown) => log(`could not hand back ${(job.data as GameJob).label} (${(error as Error).message}): its lock expires and another worker replays it`),
      );
    }
    await games.close();
    await worker.close(true).catch(() => undefined);
  }
  await running;
  await games.close();
  connection.disconnect();
}
