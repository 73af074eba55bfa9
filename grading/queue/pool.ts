/**
 * The queue as a game pool (the coordinator's side): every game a BullMQ job on Redis whose id is the game's
 * key, played by `referee worker`s anywhere (grading/queue/worker.ts). Compiled submissions go to Redis as
 * content-addressed artefacts, so workers need no shared filesystem.
 *
 * Nothing lost, nothing doubled: a job id is the game key, so adding a game twice (a resumed coordinator, two
 * students with the same code) plays it once; a finished game waits in Redis until the coordinator has
 * journaled it (PlayedGame.done removes it), so a coordinator killed in between finds it on --resume instead of
 * replaying it; a worker killed or frozen mid-game stops renewing its lock and BullMQ's stalled-job check hands
 * the game to another worker within seconds, which plays it from the start; a job that vanished (Redis restarted
 * without persistence) is enqueued again, with its artefacts, from what the coordinator holds.
 *
 * Trust: a result counts only if it is signed with the queue's key file (grading/queue/signing.ts) and its record
 * is a faithful, replayable record of the job (record-check.ts). One that is not is played again on another
 * worker; only a second bad record makes the game a grader error.
 *
 * A coordinator holds a lease in Redis while it runs; its jobs name it, and workers drop a job whose coordinator
 * is gone (stopped, killed) instead of playing games nobody will collect.
 */
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { Job, Queue, QueueEvents } from 'bullmq';
import type { Redis } from 'ioredis';
import { harnessVersion } from '../package-root.js';
import type { Artefact } from '../pool/artefact.js';
import { PoolAbortError, PoolWorkerError, type GameJob, type GamePool, type PlayedGame, type PlayOptions } from '../pool/job.js';
import { validProgress } from '../pool/progress.js';
import { checkReachable, KEY_PREFIX, queueName, redactUrl, RedisWatch, redisConnection, type QueueEndpoint } from './connection.js';
import { recordMismatch } from './record-check.js';
import { encodeArtefact, validateJob, type QueuedJob } from './schema.js';
import { verifyResult } from './signing.js';
import { readWorkers } from './workers.js';

/**
 * How long artefacts and results nobody collected stay in Redis: a coordinator collects a result within seconds,
 * or on --resume after a crash, so hours are enough (a forgotten run's leftovers do not sit there for days).
 */
export const KEEP_SECONDS = 6 * 3600;
/** Tries per game when a worker fails it (not counting stalls: a killed worker's game is simply replayed). */
export const JOB_ATTEMPTS = 3;
/** The safety net under QueueEvents: every outstanding job's state is looked at this often. */
const POLL_MS = 1000;
/** BullMQ's lowest priority. */
const MAX_PRIORITY = 2_097_152;
/** How often to look at which workers are connected. */
const WORKER_CHECK_MS = 5000;
/** The coordinator's lease: refreshed every LEASE_REFRESH_MS, gone LEASE_SECONDS after the coordinator stopped. */
export const LEASE_SECONDS = 30;
const LEASE_REFRESH_MS = 5000;
/** Bad records a game may come back with (each from another worker) before it is a grader error. */
const MAX_BAD_RECORDS = 2;

export const artefactKey = (hash: string): string => `${KEY_PREFIX}:artefacts:${hash}`;
export const leaseKey = (coordinator: string): string => `${KEY_PREFIX}:coordinators:${coordinator}`;

interface Waiter {
  resolve(played: PlayedGame): void;
  reject(error: Error): void;
  options: PlayOptions;
  detach?: () => void;
}

interface Outstanding {
  job: GameJob;
  waiters: Waiter[];
  started: boolean;
  /** Who is playing it (job.processedBy), once started. */
  worker?: string;
  settled: boolean;
  order: number;
  /** Workers whose record for this game did not check, with why. */
  rejected: { worker: string; reason: string }[];
  /** A settle from the completion event and one from the poll must not both run. */
  accepting: boolean;
}

export interface QueuePoolOptions {
  /** Games at once this coordinator plans for (it checks twice as many students at once). */
  size: number;
  /** The queue's key (signing.ts): only results signed with it are accepted. */
  key: Buffer;
  /** Called when the queue has trouble (Redis gone: it reconnects by itself; a bad record; stale workers). */
  onWarning?: (message: string) => void;
}

/** What close() did, for the coordinator's last lines. */
export interface QueueCloseSummary {
  /** Queued games taken off the queue. */
  removed: number;
  /** Games a worker had started: they finish and wait in Redis (KEEP_SECONDS) for --resume. */
  inPlay: number;
}

export class QueuePool implements GamePool {
  readonly size: number;
  /** This coordinator's id (its lease in Redis; its jobs carry it). */
  readonly coordinator = `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  private readonly harness = harnessVersion();
  private readonly outstanding = new Map<string, Outstanding>();
  /** Every artefact published, to publish again if Redis lost it. */
  private readonly artefacts = new Map<string, string>();
  private readonly poller: ReturnType<typeof setInterval>;
  private readonly leaseTimer: ReturnType<typeof setInterval>;
  private polling = false;
  private closed = false;
  private lastWorkerCheck = 0;
  private workersSeen = '';
  private warnedNoWorkers = false;
  /** Games taken off the queue because their caller withdrew them (a stopped batch aborts each of its games). */
  private withdrawn = 0;
  /** Withdrawals in flight, which close() waits for. */
  private readonly withdrawing = new Set<Promise<void>>();
  private closing: Promise<void> | null = null;

  private constructor(
    private readonly queue: Queue,
    private readonly events: QueueEvents,
    private readonly redis: Redis,
    private readonly eventsConnection: Redis,
    private readonly watch: RedisWatch,
    private readonly options: QueuePoolOptions,
  ) {
    this.size = options.size;
    events.on('active', ({ jobId }) => void this.started(jobId));
    // The completion event carries the result written in the same step that completed the job: no second read.
    events.on('completed', ({ jobId, returnvalue }) => void this.accept(jobId, returnvalue));
    events.on('progress', ({ jobId, data }) => this.progress(jobId, data));
    events.on('failed', ({ jobId }) => void this.look(jobId));
    events.on('stalled', ({ jobId }) => this.lost(jobId));
    this.poller = setInterval(() => void this.poll(), POLL_MS);
    this.leaseTimer = setInterval(() => void this.renewLease(), LEASE_REFRESH_MS);
  }

  /** Connect (QueueUsageError when Redis cannot be reached at all, answers nothing, or is not Redis). */
  static async open(endpoint: QueueEndpoint, options: QueuePoolOptions): Promise<QueuePool> {
    await checkReachable(endpoint);
    const warn = options.onWarning ?? (() => undefined);
    let down = false;
    const redis = redisConnection(endpoint, 'referee-coordinator');
    redis.on('error', (error: Error) => {
      if (!down) warn(`lost Redis at ${redactUrl(endpoint.url)} (${(error as { code?: string }).code ?? error.message}): waiting for it to come back`);
      down = true;
    });
    redis.on('ready', () => {
      if (down) warn('Redis is back: carrying on');
      down = false;
    });
    const quiet = (client: { on(event: 'error', listener: (error: Error) => void): unknown }) => client.on('error', () => undefined);
    const name = queueName(harnessVersion());
    const queue = new Queue(name, { connection: redis, prefix: KEY_PREFIX });
    quiet(queue);
    const eventsConnection = redisConnection(endpoint, 'referee-coordinator-events');
    eventsConnection.on('error', () => undefined);
    const events = new QueueEvents(name, { connection: eventsConnection, prefix: KEY_PREFIX });
    quiet(events);
    await queue.waitUntilReady();
    const watch = new RedisWatch(endpoint, 'referee-coordinator-watch', warn);
    const pool = new QueuePool(queue, events, redis, eventsConnection, watch, options);
    await pool.renewLease();
    return pool;
  }

  /** The artefact in Redis under its hash (kept KEEP_SECONDS; published again if it went missing). */
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
        this.outstanding.set(job.key, { job, waiters: [waiter], started: false, settled: false, order: options.order ?? 0, rejected: [], accepting: false });
        this.enqueue(job, options.order ?? 0).catch((error: unknown) => this.settle(job.key, { error: new PoolWorkerError(`could not enqueue ${job.label}: ${(error as Error).message}`) }));
      }
      const signal = options.signal;
      if (signal) {
        // Detached once the game settles: one grade's signal is shared by all its games.
        const onAbort = (): void => {
          const withdrawal = this.withdraw(job.key, waiter).finally(() => this.withdrawing.delete(withdrawal));
          this.withdrawing.add(withdrawal);
        };
        signal.addEventListener('abort', onAbort, { once: true });
        waiter.detach = () => signal.removeEventListener('abort', onAbort);
      }
    });
  }

  /** The summary of the last close() (null before). */
  closeSummary: QueueCloseSummary | null = null;

  /**
   * Stop: games not started leave the queue (--resume enqueues them again); started ones finish in Redis. The
   * lease goes too, so a worker drops any game of ours it still finds instead of playing it for nobody.
   */
  close(): Promise<void> {
    // One close for every caller: the batch runner and the CLI both close the pool, and the CLI reads closeSummary
    // after its own call, which must not return before the first one has finished.
    this.closing ??= this.shutDown();
    return this.closing;
  }

  private async shutDown(): Promise<void> {
    this.closed = true;
    clearInterval(this.poller);
    clearInterval(this.leaseTimer);
    // Withdrawals still talking to Redis (an aborted batch withdraws each game) finish first, so each game is
    // counted once: removed by its withdrawal, or left to the loop below.
    await Promise.allSettled([...this.withdrawing]);
    const left = [...this.outstanding.keys()];
    for (const key of left) this.settle(key, { error: new PoolAbortError('the pool was closed') });
    const removed = await Promise.allSettled(left.map((key) => this.removeIfWaiting(key)));
    const count = removed.filter((each) => each.status === 'fulfilled' && each.value).length;
    this.closeSummary = { removed: this.withdrawn + count, inPlay: left.length - count };
    await this.redis.del(leaseKey(this.coordinator)).catch(() => undefined);
    this.watch.close();
    await this.events.close().catch(() => undefined);
    await this.queue.close().catch(() => undefined);
    this.redis.disconnect();
    this.eventsConnection.disconnect();
  }

  private async renewLease(): Promise<void> {
    if (this.closed) return;
    await this.redis.set(leaseKey(this.coordinator), this.harness, 'EX', LEASE_SECONDS).catch(() => undefined);
  }

  /** Add the game (again): a stale copy under its id (another coordinator's, a failed one) is replaced. */
  private async enqueue(job: GameJob, order: number, avoid: string[] = []): Promise<void> {
    const data: QueuedJob = { ...job, coordinator: this.coordinator, ...(avoid.length > 0 ? { avoid } : {}) };
    validateJob(data);
    await this.renewLease();
    for (const player of job.players) {
      if (player.kind === 'artefact' && this.artefacts.has(player.artefact)) {
        await this.redis.set(artefactKey(player.artefact), this.artefacts.get(player.artefact)!, 'EX', KEEP_SECONDS, 'NX');
      }
    }
    const add = (): Promise<Job> =>
      this.queue.add('game', data, {
        jobId: job.key,
        // BullMQ: 1 is the highest priority; a batch's earlier students first.
        priority: Math.min(MAX_PRIORITY, 1 + Math.max(0, Math.floor(order))),
        attempts: JOB_ATTEMPTS,
        backoff: { type: 'fixed', delay: 1000 },
        removeOnComplete: { age: KEEP_SECONDS },
        removeOnFail: { age: KEEP_SECONDS },
      });
    await add();
    // An id already there is an earlier run's job: finished (take it), still in play (wait for it), or waiting
    // or failed under a coordinator that is gone (replace it, so it names us and is played).
    const state = await this.queue.getJobState(job.key);
    if (state === 'completed') {
      await this.look(job.key);
      return;
    }
    if (state === 'active') return;
    const stored = (await Job.fromId(this.queue, job.key)) as Job<QueuedJob> | undefined;
    if (stored && (state === 'failed' || stored.data.coordinator !== this.coordinator || canonicalAvoid(stored.data.avoid) !== canonicalAvoid(data.avoid))) {
      await stored.remove().catch(() => undefined);
      await add();
    }
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

  /** BullMQ found the game's worker silent (killed, frozen, cut off): watchers see it lost until another takes it. */
  private lost(key: string): void {
    const entry = this.outstanding.get(key);
    if (!entry || entry.settled) return;
    const was = entry.worker ?? 'its worker';
    this.options.onWarning?.(`${was} stopped answering while playing ${entry.job.label}: the game is played again from its start by another worker`);
    entry.started = false;
    entry.worker = undefined;
    for (const waiter of entry.waiters) waiter.options.onStart?.({ name: `${was} (lost)` });
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

  /**
   * A finished game's result (from the completion event, or read once from a job known to be completed): accepted
   * if signed and faithful; otherwise played again on another worker, and a grader error the second time.
   */
  private async accept(key: string, returnvalue: unknown): Promise<void> {
    const entry = this.outstanding.get(key);
    if (!entry || entry.settled || entry.accepting || this.closed) return;
    entry.accepting = true;
    try {
      const checked = verifyResult(this.options.key, key, returnvalue);
      const reason = checked.ok ? recordMismatch(entry.job, checked.result.record) : checked.reason;
      const worker = checked.ok ? checked.result.worker : ((await Job.fromId(this.queue, key).catch(() => undefined))?.processedBy ?? entry.worker ?? 'an unknown worker');
      if (!checked.ok || reason) {
        entry.rejected.push({ worker, reason: reason ?? 'invalid' });
        if (entry.rejected.length >= MAX_BAD_RECORDS) {
          const from = entry.rejected.map((each) => `${each.worker}: ${each.reason}`).join('; ');
          await this.queue.remove(key).catch(() => undefined);
          this.settle(key, { error: new PoolWorkerError(`the queue returned ${entry.rejected.length} bad records for ${entry.job.label} (${from}): check the workers' versions and key files, then run again with --resume`) });
          return;
        }
        this.options.onWarning?.(`refused the result of ${entry.job.label} from ${worker}: ${reason}; playing it again on another worker`);
        await this.queue.remove(key).catch(() => undefined);
        entry.started = false;
        entry.worker = undefined;
        await this.enqueue(entry.job, entry.order, entry.rejected.map((each) => each.worker));
        return;
      }
      const { record, wallMs } = checked.result;
      if (!entry.started) for (const waiter of entry.waiters) waiter.options.onStart?.({ name: worker });
      this.settle(key, {
        played: { key, record, wallMs, worker, done: () => this.queue.remove(key).then(() => undefined, () => undefined) },
      });
    } finally {
      entry.accepting = false;
    }
  }

  /** Look at one outstanding job in Redis: its state first, and only a completed job's result (then final). */
  private async look(key: string): Promise<void> {
    const entry = this.outstanding.get(key);
    if (!entry || entry.settled || entry.accepting || this.closed) return;
    const state = await this.queue.getJobState(key);
    if (!this.outstanding.has(key) || entry.settled) return;
    if (state === 'unknown') {
      // Redis lost it (restarted without persistence, or flushed): enqueue it again from what we hold.
      await this.enqueue(entry.job, entry.order, entry.rejected.map((each) => each.worker));
      return;
    }
    if (state === 'completed') {
      const job = (await Job.fromId(this.queue, key)) as Job<QueuedJob, unknown> | undefined;
      if (job) await this.accept(key, job.returnvalue);
    } else if (state === 'failed') {
      const job = (await Job.fromId(this.queue, key)) as Job<QueuedJob, unknown> | undefined;
      if (!job) return;
      // A worker dropped it because our lease had lapsed (Redis flushed or frozen meanwhile): we are here, so add it again.
      if (job.failedReason?.startsWith(COORDINATOR_GONE)) {
        await job.remove().catch(() => undefined);
        await this.enqueue(entry.job, entry.order, entry.rejected.map((each) => each.worker));
        return;
      }
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

  /**
   * Which workers are there, by harness version (their heartbeats): said when it changes, so a run with games
   * waiting and no worker of this version (or only workers of another) never looks merely slow.
   */
  private async checkWorkers(): Promise<void> {
    if (this.outstanding.size === 0 || Date.now() - this.lastWorkerCheck < WORKER_CHECK_MS) return;
    this.lastWorkerCheck = Date.now();
    const workers = await readWorkers(this.redis).catch(() => null);
    if (!workers) return;
    const ours = workers.filter((worker) => worker.harness === this.harness);
    const others = new Map<string, number>();
    for (const worker of workers) if (worker.harness !== this.harness) others.set(worker.harness, (others.get(worker.harness) ?? 0) + 1);
    const otherText = [...others].map(([version, count]) => `${count} of harness ${version}`).join(', ');
    const seen = `${ours.length}|${otherText}`;
    // Said when there is something to know: workers of another version beside ours (ours alone is the normal case).
    if (seen !== this.workersSeen && others.size > 0) {
      this.workersSeen = seen;
      const line = `queue workers: ${ours.length} of harness ${this.harness} (this run's)${others.size > 0 ? `; ${otherText}, which do not take this run's games (run harness ${this.harness} there)` : ''}`;
      this.options.onWarning?.(line);
    }
    if (ours.length === 0 && !this.warnedNoWorkers) {
      this.warnedNoWorkers = true;
      this.options.onWarning?.(`${this.outstanding.size} game(s) are queued and no referee worker of harness ${this.harness} is connected: start \`referee worker --queue …\` on a machine that can reach this Redis`);
    } else if (ours.length > 0) {
      this.warnedNoWorkers = false;
    }
  }

  private settle(key: string, outcome: { played: PlayedGame } | { error: Error }): void {
    const entry = this.outstanding.get(key);
    if (!entry || entry.settled) return;
    entry.settled = true;
    this.outstanding.delete(key);
    for (const waiter of entry.waiters) {
      waiter.detach?.();
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
      this.withdrawn += 1;
    }
  }

  private async removeIfWaiting(key: string): Promise<boolean> {
    const state = await this.queue.getJobState(key).catch(() => 'unknown');
    if (state !== 'waiting' && state !== 'delayed' && state !== 'prioritized' && state !== 'failed') return false;
    return this.queue.remove(key).then(
      (removed) => removed === 1,
      () => false,
    );
  }
}

/** The failure reason a worker gives a job whose coordinator's lease is gone. */
export const COORDINATOR_GONE = 'dropped: its coordinator stopped';

const canonicalAvoid = (avoid: string[] | undefined): string => (avoid ?? []).join('\n');
