/**
 * The queue as a game pool (the coordinator's side): every game a BullMQ job on Redis whose id is the game's
 * key, played by `referee worker`s anywhere (grading/queue/worker.ts). Compiled submissions go to Redis as
 * content-addressed artefacts, so workers need no shared filesystem.
 *
 * Nothing lost, nothing doubled: a job id is the game key, so adding a game twice (a resumed coordinator, two
 * students with the same code) plays it once; a finished game waits in Redis until the coordinator has
 * journaled it (PlayedGame.done removes it), so a coordinator killed in between finds it on --resume instead of
 * replaying it; a worker killed mid-game stops renewing its lock and BullMQ's stalled-job check hands the game to
 * another worker, which plays it from the start; a job that vanished (Redis restarted without persistence) is
 * enqueued again, with its artefacts, from what the coordinator holds.
 */
import { Job, Queue, QueueEvents } from 'bullmq';
import type { Redis } from 'ioredis';
import { getGame } from '../../harness/games/registry.js';
import type { GameRecord } from '../../harness/referee/record.js';
import { replayRecord } from '../../harness/referee/replay.js';
import type { Artefact } from '../pool/artefact.js';
import { PoolAbortError, PoolWorkerError, type GameJob, type GamePool, type PlayedGame, type PlayOptions } from '../pool/job.js';
import { validProgress } from '../pool/progress.js';
import { checkReachable, KEY_PREFIX, QUEUE_NAME, redisConnection } from './connection.js';
import { encodeArtefact } from './schema.js';

/** What a worker returns for a game. */
export interface QueueResult {
  record: GameRecord;
  wallMs: number;
  worker: string;
}

/** How long artefacts and unclaimed results stay in Redis. */
const KEEP_SECONDS = 7 * 24 * 3600;
/** Tries per game when a worker fails it (not counting stalls: a killed worker's game is simply replayed). */
export const JOB_ATTEMPTS = 3;
/** The safety net under QueueEvents: every outstanding job's state is looked at this often. */
const POLL_MS = 1000;
/** BullMQ's lowest priority. */
const MAX_PRIORITY = 2_097_152;
/** How often to look whether any worker is connected at all. */
const WORKER_CHECK_MS = 10_000;

export const artefactKey = (hash: string): string => `${KEY_PREFIX}:artefacts:${hash}`;

interface Waiter {
  resolve(played: PlayedGame): void;
  reject(error: Error): void;
  options: PlayOptions;
}

interface Outstanding {
  job: GameJob;
  waiters: Waiter[];
  started: boolean;
  /** Who is playing it (job.processedBy), once started. */
  worker?: string;
  settled: boolean;
  order: number;
}

export interface QueuePoolOptions {
  /** Games at once this coordinator plans for (it checks twice as many students at once). */
  size: number;
  /** Called when the queue has trouble (Redis gone: it reconnects by itself). */
  onWarning?: (message: string) => void;
}

export class QueuePool implements GamePool {
  readonly size: number;
  private readonly outstanding = new Map<string, Outstanding>();
  /** Every artefact published, to publish again if Redis lost it. */
  private readonly artefacts = new Map<string, string>();
  private readonly poller: ReturnType<typeof setInterval>;
  private polling = false;
  private closed = false;
  private lastWorkerCheck = Date.now();
  private warnedNoWorkers = false;

  private constructor(
    private readonly queue: Queue,
    private readonly events: QueueEvents,
    private readonly redis: Redis,
    private readonly eventsConnection: Redis,
    private readonly options: QueuePoolOptions,
  ) {
    this.size = options.size;
    events.on('active', ({ jobId }) => void this.started(jobId));
    events.on('completed', ({ jobId }) => void this.look(jobId));
    events.on('progress', ({ jobId, data }) => this.progress(jobId, data));
    events.on('failed', ({ jobId }) => void this.look(jobId));
    this.poller = setInterval(() => void this.poll(), POLL_MS);
  }

  /** Connect (QueueUsageError when Redis cannot be reached at all). */
  static async open(url: string, options: QueuePoolOptions): Promise<QueuePool> {
    await checkReachable(url);
    const warn = options.onWarning ?? (() => undefined);
    let down = false;
    const redis = redisConnection(url, 'referee-coordinator');
    redis.on('error', (error: Error) => {
      if (!down) warn(`lost Redis (${(error as { code?: string }).code ?? error.message}): waiting for it to come back`);
      down = true;
    });
    redis.on('ready', () => {
      if (down) warn('Redis is back: carrying on');
      down = false;
    });
    const quiet = (client: { on(event: 'error', listener: (error: Error) => void): unknown }) => client.on('error', () => undefined);
    const queue = new Queue(QUEUE_NAME, { connection: redis, prefix: KEY_PREFIX });
    quiet(queue);
    const eventsConnection = redisConnection(url, 'referee-coordinator-events');
    eventsConnection.on('error', () => undefined);
    const events = new QueueEvents(QUEUE_NAME, { connection: eventsConnection, prefix: KEY_PREFIX });
    quiet(events);
    await queue.waitUntilReady();
    return new QueuePool(queue, events, redis, eventsConnection, options);
  }

  /** The artefact in Redis under its hash (kept a week; published again if it went missing). */
  async publish(artefact: Artefact): Promise<void> {
    const text = this.artefacts.get(artefact.hash) ?? encodeArtefact(artefact);
    this.artefacts.set(artefact.hash, text);
    await this.redis.set(artefactKey(artefact.hash), text, 'EX', KEEP_SECONDS);
  }

  play(job: GameJob, options: PlayOptions = {}): Promise<PlayedGame> {
    if (this.closed) return Promise.reject(new PoolAbortError(`${job.label}: the pool is closed`));
    return new Promise<PlayedGame>((resolve, reject) => {
      const waiter: Waiter = { resolve, reject, options };
      const known = this.outstanding.get(job.key);
      if (known) {
        known.waiters.push(waiter);
      } else {
        this.outstanding.set(job.key, { job, waiters: [waiter], started: false, settled: false, order: options.order ?? 0 });
        this.enqueue(job, options.order ?? 0).catch((error: unknown) => this.settle(job.key, { error: new PoolWorkerError(`could not enqueue ${job.label}: ${(error as Error).message}`) }));
      }
      options.signal?.addEventListener('abort', () => void this.withdraw(job.key, waiter), { once: true });
    });
  }

  /** Stop waiting: games not started leave the queue (--resume enqueues them again); started ones finish in Redis. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.poller);
    const left = [...this.outstanding.keys()];
    for (const key of left) this.settle(key, { error: new PoolAbortError('the pool was closed') });
    await Promise.allSettled(left.map((key) => this.removeIfWaiting(key)));
    await this.events.close().catch(() => undefined);
    await this.queue.close().catch(() => undefined);
    this.redis.disconnect();
    this.eventsConnection.disconnect();
  }

  private async enqueue(job: GameJob, order: number): Promise<void> {
    for (const player of job.players) {
      if (player.kind === 'artefact' && this.artefacts.has(player.artefact)) {
        await this.redis.set(artefactKey(player.artefact), this.artefacts.get(player.artefact)!, 'EX', KEEP_SECONDS, 'NX');
      }
    }
    const added = await this.queue.add('game', job, {
      jobId: job.key,
      // BullMQ: 1 is the highest priority; a batch's earlier students first.
      priority: Math.min(MAX_PRIORITY, 1 + Math.max(0, Math.floor(order))),
      attempts: JOB_ATTEMPTS,
      backoff: { type: 'fixed', delay: 1000 },
      removeOnComplete: { age: KEEP_SECONDS },
      removeOnFail: { age: KEEP_SECONDS },
    });
    // An id already there is an earlier run's job: finished (take it), failed (try again), or still going.
    const state = await added.getState();
    if (state === 'failed') await added.retry('failed');
    else if (state === 'completed') await this.look(job.key);
  }

  /** A worker took the game: the first time, or again after its first worker stalled (then it starts afresh). */
  private async started(key: string): Promise<void> {
    const entry = this.outstanding.get(key);
    if (!entry || entry.settled) return;
    const job = await Job.fromId(this.queue, key).catch(() => undefined);
    const name = job?.processedBy ?? 'a queue worker';
    if (entry.started && entry.worker === name) return;
    entry.started = true;
    entry.worker = name;
    for (const waiter of entry.waiters) waiter.options.onStart?.({ name });
  }

  /** A worker's report of a game in play: passed to watchers only if it has the shape of one (Redis is not trusted). */
  private progress(key: string, data: unknown): void {
    const entry = this.outstanding.get(key);
    if (!entry || entry.settled) return;
    const progress = validProgress(data);
    if (!progress || progress.game !== entry.job.game || progress.seed !== entry.job.seed) return;
    if (!entry.started) void this.started(key);
    for (const waiter of entry.waiters) waiter.options.onProgress?.(progress);
  }

  /** Look at one outstanding job in Redis and settle it if it is finished (or enqueue it again if it is gone). */
  private async look(key: string): Promise<void> {
    const entry = this.outstanding.get(key);
    if (!entry || entry.settled || this.closed) return;
    const job = (await Job.fromId(this.queue, key)) as Job<GameJob, QueueResult> | undefined;
    if (!this.outstanding.has(key) || entry.settled) return;
    if (!job) {
      // Redis lost it (restarted without persistence, or flushed): enqueue it again from what we hold.
      await this.enqueue(entry.job, entry.order);
      return;
    }
    const state = await job.getState();
    if (state === 'completed') {
      const result = job.returnvalue;
      const replay = result && typeof result === 'object' ? replayRecord(result.record, getGame) : { ok: false as const };
      if (!replay.ok || result.record.seed !== entry.job.seed || typeof result.wallMs !== 'number') {
        await job.remove().catch(() => undefined);
        this.settle(key, { error: new PoolWorkerError(`the queue returned a record for ${entry.job.label} that does not replay: run again with --resume`) });
        return;
      }
      const worker = typeof result.worker === 'string' ? result.worker : (job.processedBy ?? 'queue');
      if (!entry.started) for (const waiter of entry.waiters) waiter.options.onStart?.({ name: worker });
      this.settle(key, {
        played: { key, record: result.record, wallMs: result.wallMs, worker, done: () => job.remove().then(() => undefined, () => undefined) },
      });
    } else if (state === 'failed' && job.attemptsMade >= (job.opts.attempts ?? 1)) {
      this.settle(key, { error: new PoolWorkerError(`the queue workers could not play ${entry.job.label}: ${job.failedReason}`) });
    }
  }

  private async poll(): Promise<void> {
    if (this.polling || this.closed) return;
    this.polling = true;
    try {
      await this.checkWorkers();
      for (const key of [...this.outstanding.keys()]) {
        if (this.closed) break;
        await this.look(key).catch(() => undefined);
      }
    } finally {
      this.polling = false;
    }
  }

  /** Games waiting and nobody to play them: say so (once, until a worker shows up), or the run looks hung. */
  private async checkWorkers(): Promise<void> {
    if (this.outstanding.size === 0 || Date.now() - this.lastWorkerCheck < WORKER_CHECK_MS) return;
    this.lastWorkerCheck = Date.now();
    const count = await this.queue.getWorkersCount().catch(() => -1);
    if (count === 0 && !this.warnedNoWorkers) {
      this.warnedNoWorkers = true;
      this.options.onWarning?.(`${this.outstanding.size} game(s) are queued and no referee worker is connected: start \`referee worker --queue …\` on a machine that can reach this Redis`);
    } else if (count > 0) {
      this.warnedNoWorkers = false;
    }
  }

  private settle(key: string, outcome: { played: PlayedGame } | { error: Error }): void {
    const entry = this.outstanding.get(key);
    if (!entry || entry.settled) return;
    entry.settled = true;
    this.outstanding.delete(key);
    for (const waiter of entry.waiters) {
      if ('played' in outcome) waiter.resolve(outcome.played);
      else waiter.reject(outcome.error);
    }
  }

  /** A withdrawn game leaves the queue unless a worker has it already (then it finishes and is kept). */
  private async withdraw(key: string, waiter: Waiter): Promise<void> {
    const entry = this.outstanding.get(key);
    if (!entry || entry.settled) return;
    entry.waiters = entry.waiters.filter((each) => each !== waiter);
    waiter.reject(new PoolAbortError(`${entry.job.label} was withdrawn`));
    if (entry.waiters.length === 0 && (await this.removeIfWaiting(key))) {
      entry.settled = true;
      this.outstanding.delete(key);
    }
  }

  private async removeIfWaiting(key: string): Promise<boolean> {
    const job = await Job.fromId(this.queue, key).catch(() => undefined);
    if (!job) return false;
    const state = await job.getState().catch(() => 'unknown');
    if (state !== 'waiting' && state !== 'delayed' && state !== 'prioritized') return false;
    return job.remove().then(
      () => true,
      () => false,
    );
  }
}
