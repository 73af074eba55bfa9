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
 * Trust: every job is signed by the coordinator (a worker refuses one changed in Redis); a result counts only if it
 * is signed with the queue's key file (grading/queue/signing.ts), names the digest of this coordinator's own job
 * data, and its record is a faithful, replayable record of the job (record-check.ts). A game that comes back bad or
 * failed is played again, avoiding that worker; it becomes a grader error only when two different workers (known by
 * their signatures) failed it, or after MAX_TRIES bad outcomes of any kind (something without the key keeps
 * rewriting it). A game a worker holds past its deadline (the rules' worst case: gameDeadlineMs) is taken back
 * and played again under a new job id, so a lock held forever stalls nothing.
 *
 * A coordinator holds a signed lease in Redis while it runs; its jobs name it, and workers drop a job whose
 * coordinator is gone (stopped, killed) instead of playing games nobody will collect.
 */
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { setTimeout as delay } from 'node:timers/promises';
import { Job, Queue, QueueEvents } from 'bullmq';
import type { Redis } from 'ioredis';
import { getGame } from '../../harness/games/registry.js';
import { configForGame } from '../../harness/referee/config.js';
import { canonicalJson } from '../assignment.js';
import { harnessVersion } from '../package-root.js';
import type { Artefact } from '../pool/artefact.js';
import { PoolAbortError, PoolWorkerError, type GameJob, type GamePool, type PlayedGame, type PlayOptions } from '../pool/job.js';
import { validProgress } from '../pool/progress.js';
import { checkReachable, KEY_PREFIX, queueName, redactUrl, RedisWatch, redisConnection, type QueueEndpoint } from './connection.js';
import { recordMismatch } from './record-check.js';
import { encodeArtefact, validateJob, type QueuedJob } from './schema.js';
import { jobDigest, jobSignature, signLease, unsignedJobsAllowed, verifyFailure, verifyResult } from './signing.js';
import { HEARTBEAT_EVERY_MS, HEARTBEAT_TTL_SECONDS, lastBeat, readWorkers } from './workers.js';
import { count } from '../words.js';

/**
 * How long results nobody collected stay in Redis: a coordinator collects a result within seconds, or on --resume
 * after a crash, so hours are enough (a forgotten run's leftovers do not sit there for days). Compiled submissions
 * go sooner: when the last live coordinator that published one closes (artefactUsersKey), or after this if it died.
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
/** How long close() lets enqueues in flight finish before it counts what it took off the queue. */
const ENQUEUE_SETTLE_MS = 5000;
/**
 * How long a stalled worker's beat must stay gone, counted only while this coordinator ran on time, before it is
 * said to have stopped answering: a worker held up together with the coordinator past its beat's lapse (a loaded
 * machine) beats again within HEARTBEAT_EVERY_MS of running; one whose beat lapsed is not yet one that is dead.
 */
const BEAT_GONE_MS = 2 * HEARTBEAT_EVERY_MS;
/**
 * How long close() waits for a stalled game's worker to show it is alive (a later beat) or gone (its beat lapsed
 * and stayed gone): a beat seen at the stall lapses within HEARTBEAT_TTL_SECONDS, then BEAT_GONE_MS; the margin is
 * for a Redis slow to answer.
 */
const STALL_VERDICT_MS = HEARTBEAT_TTL_SECONDS * 1000 + BEAT_GONE_MS + HEARTBEAT_EVERY_MS;
/** Different workers that may fail a game (a bad record, or an error) before it is a grader error. */
const MAX_FAILING_WORKERS = 2;
/** Bad outcomes of any kind (unsigned results, altered jobs, one worker failing it again and again) before it is one. */
const MAX_TRIES = 4;
/** The per-game deadline's override (ms), for courses (and tests) that want it shorter than the rules' worst case. */
export const GAME_DEADLINE_ENV = 'REFEREE_QUEUE_GAME_DEADLINE_MS';

/**
 * How long a worker may hold a game before the coordinator takes it back: the rules' worst case (both
 * constructions, then every cell of the board played twice over — passes included — at the whole turn limit), plus
 * a minute. Generous for an honest worker, finite for one that holds a lock forever.
 */
export function gameDeadlineMs(job: GameJob): number {
  const override = Number(process.env[GAME_DEADLINE_ENV]);
  if (Number.isFinite(override) && override > 0) return override;
  const game = getGame(job.game);
  const config = configForGame(game, job.config);
  const cells = game.geometry?.cells(game.initial(job.seed)).length ?? 400;
  return 2 * config.constructTimeoutMs + 2 * cells * Math.max(config.turnTimeoutMs, config.moveTimeoutMs) + 60_000;
}

/** The BullMQ job id of a game's nth take (ids stay the game's key until the coordinator takes a game back). */
const jobIdOf = (key: string, take: number): string => (take === 0 ? key : `${key}.${take}`);
const keyOfJobId = (jobId: string): string => jobId.replace(/\.\d+$/, '');

export const artefactKey = (hash: string): string => `${KEY_PREFIX}:artefacts:${hash}`;
export const leaseKey = (coordinator: string): string => `${KEY_PREFIX}:coordinators:${coordinator}`;
/** The coordinators that published an artefact: the last one to close while none of the others is alive deletes it. */
export const artefactUsersKey = (hash: string): string => `${KEY_PREFIX}:artefact-users:${hash}`;

/** Said once when this run's keys vanish from Redis (the lease is the canary: it never lapses while we run). */
export const KEYS_VANISHED_WARNING =
  "Redis lost this run's keys (FLUSHALL/FLUSHDB, a restart without persistence, or eviction under maxmemory): its games are enqueued again from what this coordinator holds and nothing already graded is lost; give the queue a Redis of its own with appendonly yes and maxmemory-policy noeviction, and never flush it during a run";

/** A game BullMQ found stalled, waiting for evidence that its worker died (see judgeStalls). */
interface Stall {
  label: string;
  worker: string;
  /** The worker's last beat when the stall was seen (undefined until read; null: it had none). */
  beatAt?: number | null;
  /** How long this coordinator, running on time, has seen the worker without a beat (ms), and when it last looked. */
  goneMs: number;
  lookedAt: number;
}

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
  /** The look-up of who took it, started by the last 'active' event (a stall waits for it: see lost). */
  naming?: Promise<void>;
  settled: boolean;
  order: number;
  /** Bad outcomes so far: a record that did not check, a failure, an altered job; `worker` null when nobody signed it. */
  /** `own`: the worker's own signed reason for failing the game (not a result this coordinator refused). */
  rejected: { worker: string | null; reason: string; own?: boolean }[];
  /** Times taken back from a worker past its deadline: the current job id is jobIdOf(key, take). */
  take: number;
  /** When a worker took the current job (the deadline runs from here), or 0. */
  startedAt: number;
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
  private checksWithoutWorkers = 0;
  /** Games taken off the queue because their caller withdrew them (a stopped batch aborts each of its games). */
  private withdrawn = 0;
  /** Withdrawals in flight, which close() waits for. */
  private readonly withdrawing = new Set<Promise<void>>();
  private readonly enqueuing = new Set<Promise<void>>();
  private closing: Promise<void> | null = null;
  /** Stalls not yet judged: a worker merely held up by load beats again, a dead one never does. */
  private stalls: Stall[] = [];
  /** When the lease was last written (0: never), and whether its vanishing was said (once until it is back). */
  private leaseWrittenAt = 0;
  private saidVanished = false;

  private constructor(
    private readonly queue: Queue,
    private readonly events: QueueEvents,
    private readonly redis: Redis,
    private readonly eventsConnection: Redis,
    private readonly watch: RedisWatch,
    private readonly options: QueuePoolOptions,
  ) {
    this.size = options.size;
    events.on('active', ({ jobId }) => void this.started(keyOfJobId(jobId)));
    // The completion event carries the result written in the same step that completed the job: no second read.
    events.on('completed', ({ jobId, returnvalue }) => void this.accept(keyOfJobId(jobId), returnvalue));
    events.on('progress', ({ jobId, data }) => this.progress(keyOfJobId(jobId), data));
    events.on('failed', ({ jobId }) => void this.look(keyOfJobId(jobId)));
    events.on('stalled', ({ jobId }) => void this.lost(keyOfJobId(jobId)));
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

  /** The artefact in Redis under its hash, this coordinator among its users (published again if it went missing). */
  async publish(artefact: Artefact): Promise<void> {
    const text = this.artefacts.get(artefact.hash) ?? encodeArtefact(artefact);
    this.artefacts.set(artefact.hash, text);
    await this.storeArtefact(artefact.hash, text, false);
  }

  private async storeArtefact(hash: string, text: string, onlyIfMissing: boolean): Promise<void> {
    const users = artefactUsersKey(hash);
    const write = this.redis.multi();
    if (onlyIfMissing) write.set(artefactKey(hash), text, 'EX', KEEP_SECONDS, 'NX');
    else write.set(artefactKey(hash), text, 'EX', KEEP_SECONDS);
    await write.sadd(users, this.coordinator).expire(users, KEEP_SECONDS).exec();
  }

  /**
   * At close: this coordinator no longer needs its artefacts. One is deleted when no other coordinator that published
   * it is alive (its lease), so a class's compiled code leaves Redis with the run; games still in play have theirs
   * (a worker fetches an artefact before it starts the game), and --resume publishes again.
   */
  private async releaseArtefacts(): Promise<void> {
    for (const hash of this.artefacts.keys()) {
      const users = artefactUsersKey(hash);
      await this.redis.srem(users, this.coordinator);
      const others = await this.redis.smembers(users);
      const alive = others.length === 0 ? [] : await this.redis.mget(...others.map(leaseKey));
      const gone = others.filter((_, index) => alive[index] === null);
      if (gone.length > 0) await this.redis.srem(users, ...gone);
      if (gone.length === others.length) await this.redis.del(artefactKey(hash), users);
    }
  }

  play(job: GameJob, options: PlayOptions = {}): Promise<PlayedGame> {
    if (this.closed) return Promise.reject(new PoolAbortError(`${job.label}: the pool is closed`));
    return new Promise<PlayedGame>((resolve, reject) => {
      const waiter: Waiter = { resolve, reject, options };
      const known = this.outstanding.get(job.key);
      if (known) {
        known.waiters.push(waiter);
      } else {
        this.outstanding.set(job.key, { job, waiters: [waiter], started: false, settled: false, order: options.order ?? 0, rejected: [], accepting: false, take: 0, startedAt: 0 });
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
    // Enqueues in flight now see their game settled and take it off again (bounded: Redis may be down).
    await Promise.race([Promise.allSettled([...this.enqueuing]), delay(ENQUEUE_SETTLE_MS, undefined, { ref: false })]);
    // In play: a worker has it or its result waits in Redis. A game whose enqueue is still talking to Redis is not:
    // it was never on the queue, and its enqueue takes it off again once it sees the game settled.
    const inPlay = await Promise.all(left.map((key) => this.stillInPlay(this.jobIds.get(key) ?? key)));
    const count = inPlay.filter((each) => each).length;
    this.closeSummary = { removed: this.withdrawn + left.length - count, inPlay: count };
    await this.judgeStallsAtClose().catch(() => undefined);
    await this.releaseArtefacts().catch(() => undefined);
    await this.redis.del(leaseKey(this.coordinator)).catch(() => undefined);
    this.watch.close();
    await this.events.close().catch(() => undefined);
    await this.queue.close().catch(() => undefined);
    this.redis.disconnect();
    this.eventsConnection.disconnect();
  }

  /** The current job id of each outstanding game (kept after it settles, for close()). */
  private readonly jobIds = new Map<string, string>();

  private async renewLease(): Promise<void> {
    if (this.closed) return;
    // Signed and dated: a worker believes it only with the key, and only until `until`.
    const value = signLease(this.options.key, this.coordinator, Date.now() + LEASE_SECONDS * 1000);
    const key = leaseKey(this.coordinator);
    const written = await this.redis.multi().exists(key).set(key, value, 'EX', LEASE_SECONDS).exec().catch(() => null);
    if (!written || written.some(([error]) => error)) return;
    const existed = written[0][1] === 1;
    const now = Date.now();
    // Gone well before it could lapse (written less than LEASE_SECONDS - 10 s ago by our clock): Redis lost our keys.
    if (!existed && this.leaseWrittenAt > 0 && now - this.leaseWrittenAt < (LEASE_SECONDS - 10) * 1000 && !this.saidVanished) {
      this.saidVanished = true;
      this.options.onWarning?.(KEYS_VANISHED_WARNING);
    } else if (existed) {
      this.saidVanished = false;
    }
    this.leaseWrittenAt = now;
  }

  /** Add the game (again): a stale copy under its id (another coordinator's, a failed one) is replaced. */
  /** Enqueues, tracked so that close() can let an enqueue in flight see the game settled before counting it. */
  private enqueue(job: GameJob, order: number, avoid: string[] = []): Promise<void> {
    const pending: Promise<void> = this.enqueueOnce(job, order, avoid).finally(() => this.enqueuing.delete(pending));
    this.enqueuing.add(pending);
    return pending;
  }

  private async enqueueOnce(job: GameJob, order: number, avoid: string[] = []): Promise<void> {
    const unsigned = { ...job, coordinator: this.coordinator, ...(avoid.length > 0 ? { avoid } : {}) };
    const data: QueuedJob = { ...unsigned, signature: jobSignature(this.options.key, unsigned) };
    validateJob(data);
    const jobId = jobIdOf(job.key, this.outstanding.get(job.key)?.take ?? 0);
    this.jobIds.set(job.key, jobId);
    await this.renewLease();
    for (const player of job.players) {
      if (player.kind === 'artefact' && this.artefacts.has(player.artefact)) await this.storeArtefact(player.artefact, this.artefacts.get(player.artefact)!, true);
    }
    const add = (): Promise<Job> =>
      this.queue.add('game', data, {
        jobId,
        // BullMQ: 1 is the highest priority; a batch's earlier students first.
        priority: Math.min(MAX_PRIORITY, 1 + Math.max(0, Math.floor(order))),
        // One attempt: a failed game comes back here, which decides (by the signed failures) whether to try again.
        attempts: 1,
        removeOnComplete: { age: KEEP_SECONDS },
        removeOnFail: { age: KEEP_SECONDS },
      });
    // Settled while we talked to Redis (its result accepted just as a FLUSHALL made the poll enqueue it again):
    // added now, a worker would play it again for nobody.
    if (this.settledOrGone(job.key)) return;
    await add();
    if (this.settledOrGone(job.key)) {
      await this.removeIfWaiting(job.key, jobId);
      return;
    }
    // An id already there is an earlier run's job: finished (take it), still in play (wait for it), or waiting
    // or failed under a coordinator that is gone (replace it, so it names us and is played).
    const state = await this.queue.getJobState(jobId);
    if (state === 'completed') {
      await this.look(job.key);
      return;
    }
    if (state === 'active') return;
    const stored = (await Job.fromId(this.queue, jobId)) as Job<QueuedJob> | undefined;
    if (!stored) return; // gone meanwhile: the poll finds it 'unknown' and enqueues it again
    if (state === 'failed') {
      // Failed is final: no worker can take it between these two steps.
      await stored.remove().catch(() => undefined);
      await add();
      return;
    }
    // Waiting under other data (an earlier coordinator's — a killed run being resumed — or rewritten in Redis): its
    // data is replaced in place, never the job removed. A worker may take it at any moment, and removing a job
    // that a worker has just finished deletes its result, so the game would be played again.
    if (stored.data?.signature !== data.signature || canonicalJson(stored.data) !== canonicalJson(data)) {
      await stored.updateData(data).catch(() => undefined);
    }
  }

  private settledOrGone(key: string): boolean {
    const entry = this.outstanding.get(key);
    return !entry || entry.settled;
  }

  /** A worker took the game: the first time, or again after its first worker stalled (then it starts afresh). */
  private started(key: string): Promise<void> {
    const entry = this.outstanding.get(key);
    if (!entry || entry.settled) return Promise.resolve();
    const naming = this.nameWorker(key, entry);
    entry.naming = naming;
    return naming;
  }

  /** Who took the job (BullMQ keeps processedBy until another worker takes it; a stall does not clear it). */
  private async takenBy(key: string): Promise<string | undefined> {
    const job = await Job.fromId(this.queue, this.jobIds.get(key) ?? key).catch(() => undefined);
    return job?.processedBy ?? undefined;
  }

  private async nameWorker(key: string, entry: Outstanding): Promise<void> {
    const name = (await this.takenBy(key)) ?? 'a queue worker';
    if (entry.started && entry.worker === name) return;
    if (!entry.started || !entry.startedAt) entry.startedAt = Date.now();
    entry.started = true;
    entry.worker = name;
    for (const waiter of entry.waiters) waiter.options.onStart?.({ name });
  }

  /**
   * BullMQ found the game's worker silent past its lock (killed, frozen, cut off — or only held up by a loaded
   * machine): watchers see it lost until another takes it; whether to say so waits for evidence (judgeStalls).
   */
  private async lost(key: string): Promise<void> {
    const entry = this.outstanding.get(key);
    if (!entry || entry.settled) return;
    // The 'active' event before this one may still be asking Redis who took the game (a coordinator held up with
    // its worker reads both events at once): its answer names the worker to judge. Said at once of a worker nobody
    // had named yet, "stopped answering" was false of one that was only held up (seen at load 30: tests/queue/faults).
    await entry.naming?.catch(() => undefined);
    if (entry.settled) return;
    // Never named (its start was not seen, as in a resumed run): the job still names the stalled worker unless
    // another has taken it since, whose beat then shows it alive; either way the verdict waits for evidence.
    const named = entry.worker;
    const worker = named ?? (await this.takenBy(key));
    if (entry.settled) return;
    if (worker) {
      const stall: Stall = { label: entry.job.label, worker, goneMs: 0, lookedAt: 0 };
      this.stalls.push(stall);
      void lastBeat(this.redis, this.options.key, worker).then(
        (at) => (stall.beatAt = at),
        () => (stall.beatAt = null),
      );
    }
    // Another worker that took the game again while this looked it up keeps it.
    if (entry.worker !== named) return;
    entry.started = false;
    entry.startedAt = 0;
    entry.worker = undefined;
    for (const waiter of entry.waiters) waiter.options.onStart?.({ name: `${worker ?? 'its worker'} (lost)` });
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
   * if signed, for this coordinator's own job data, and faithful; otherwise played again (see retry).
   */
  private async accept(key: string, returnvalue: unknown): Promise<void> {
    const entry = this.outstanding.get(key);
    if (!entry || entry.settled || entry.accepting || this.closed) return;
    entry.accepting = true;
    try {
      const checked = verifyResult(this.options.key, key, returnvalue);
      let reason = checked.ok ? null : checked.reason;
      if (checked.ok && checked.result.jobDigest !== jobDigest(entry.job) && !unsignedJobsAllowed()) {
        reason = 'it is the record of other job data than this coordinator sent (the job was changed in Redis)';
      }
      if (checked.ok && !reason) reason = recordMismatch(entry.job, checked.result.record);
      if (!checked.ok || reason) {
        // Only a signed result names its worker; an unsigned one is shown by the name its job carries, never counted as it.
        const shown = checked.ok ? checked.result.worker : ((await Job.fromId(this.queue, this.jobIds.get(key) ?? key).catch(() => undefined))?.processedBy ?? 'an unknown writer');
        await this.retry(key, entry, checked.ok ? checked.result.worker : null, `the result of ${entry.job.label} from ${shown}`, reason ?? 'invalid');
        return;
      }
      const { record, wallMs, worker } = checked.result;
      if (!entry.started) for (const waiter of entry.waiters) waiter.options.onStart?.({ name: worker });
      const jobId = this.jobIds.get(key) ?? key;
      this.settle(key, {
        played: { key, record, wallMs, worker, done: () => this.queue.remove(jobId).then(() => undefined, () => undefined) },
      });
    } finally {
      entry.accepting = false;
    }
  }

  /**
   * A bad outcome of the game's current job (`worker`: who signed it, or null): played again, avoiding the workers
   * that failed it; a grader error once MAX_FAILING_WORKERS different workers failed it, or after MAX_TRIES.
   */
  private async retry(key: string, entry: Outstanding, worker: string | null, what: string, reason: string, own = false): Promise<void> {
    entry.rejected.push({ worker, reason, own });
    const failing = new Set(entry.rejected.map((each) => each.worker).filter((name): name is string => name !== null));
    const jobId = this.jobIds.get(key) ?? key;
    if (failing.size >= MAX_FAILING_WORKERS || entry.rejected.length >= MAX_TRIES) {
      // Each worker's reason once (a worker that cannot run a player says the same every time it is asked).
      const from = [...new Set(entry.rejected.map((each) => `${each.worker ?? 'unsigned'}: ${each.reason}`))].join('; ');
      // Failures the workers signed with their own reason are theirs to fix (no JDK for a Java bot); anything else
      // (a refused result, an unsigned failure) is a version or key mismatch, or someone else writing to Redis.
      const advice = entry.rejected.every((each) => each.own === true)
        ? 'fix what the workers said (or start a worker that can play it), then run again with --resume'
        : "check the workers' versions and key files, and who else writes to Redis, then run again with --resume";
      await this.queue.remove(jobId).catch(() => undefined);
      this.settle(key, { error: new PoolWorkerError(`the queue could not play ${entry.job.label} (${from}): ${advice}`) });
      return;
    }
    this.options.onWarning?.(`refused ${what}: ${reason}; playing it again on another worker`);
    await this.queue.remove(jobId).catch(() => undefined);
    entry.started = false;
    entry.startedAt = 0;
    entry.worker = undefined;
    await this.enqueue(entry.job, entry.order, [...failing]);
  }

  /**
   * The game's deadline passed while a worker held it (a frozen worker that keeps its lock, or a lock held on
   * purpose): taken back and played again under a new job id, avoiding that worker.
   */
  private async takeBack(key: string, entry: Outstanding): Promise<void> {
    const old = this.jobIds.get(key) ?? key;
    const holder = ((await Job.fromId(this.queue, old).catch(() => undefined)) as Job | undefined)?.processedBy ?? entry.worker ?? 'a worker';
    this.options.onWarning?.(`${holder} held ${entry.job.label} past its deadline (${Math.round(gameDeadlineMs(entry.job) / 1000)} s): took it back, playing it again`);
    await this.queue.remove(old).catch(() => undefined); // refused while locked: it then expires with KEEP_SECONDS
    entry.take += 1;
    entry.started = false;
    entry.startedAt = 0;
    entry.worker = undefined;
    entry.rejected.push({ worker: null, reason: `held past its deadline by ${holder}` });
    if (entry.rejected.length >= MAX_TRIES) {
      this.settle(key, { error: new PoolWorkerError(`the queue could not play ${entry.job.label}: held past its deadline ${entry.take} times (last by ${holder})`) });
      return;
    }
    await this.enqueue(entry.job, entry.order, [...new Set(entry.rejected.map((each) => each.worker).filter((name): name is string => name !== null))]);
  }

  /** Look at one outstanding job in Redis: its state first, and only a completed job's result (then final). */
  private async look(key: string): Promise<void> {
    const entry = this.outstanding.get(key);
    if (!entry || entry.settled || entry.accepting || this.closed) return;
    const jobId = this.jobIds.get(key) ?? key;
    const state = await this.queue.getJobState(jobId);
    if (!this.outstanding.has(key) || entry.settled) return;
    if (state === 'unknown') {
      // Redis lost it (restarted without persistence, or flushed): enqueue it again from what we hold.
      await this.enqueue(entry.job, entry.order, entry.rejected.map((each) => each.worker).filter((name): name is string => name !== null));
      return;
    }
    if (state === 'completed') {
      const job = (await Job.fromId(this.queue, jobId)) as Job<QueuedJob, unknown> | undefined;
      if (job) await this.accept(key, job.returnvalue);
    } else if (state === 'failed') {
      const job = (await Job.fromId(this.queue, jobId)) as Job<QueuedJob, unknown> | undefined;
      if (!job) return;
      const failure = verifyFailure(this.options.key, jobId, job.failedReason);
      // A worker dropped it because our lease had lapsed (Redis flushed or frozen meanwhile): we are here, so add it again.
      if (failure?.reason.startsWith(COORDINATOR_GONE)) {
        await job.remove().catch(() => undefined);
        await this.enqueue(entry.job, entry.order, entry.rejected.map((each) => each.worker).filter((name): name is string => name !== null));
        return;
      }
      // A worker refused the job as altered or unsigned: Redis was written without the key, not that worker's fault.
      const altered = failure?.reason.startsWith('job refused') ?? false;
      const shown = failure?.worker ?? job.processedBy ?? 'an unknown writer';
      await this.retry(key, entry, failure && !altered ? failure.worker : null, `the failure of ${entry.job.label} from ${shown}`, failure ? failure.reason : `unsigned: ${job.failedReason ?? 'no reason'}`, Boolean(failure && !altered));
    } else if (state === 'active' && entry.startedAt > 0 && Date.now() - entry.startedAt > gameDeadlineMs(entry.job)) {
      await this.takeBack(key, entry);
    } else if (state === 'active' && !entry.startedAt) {
      entry.startedAt = Date.now(); // the deadline runs from when we first see it held
    }
  }

  /**
   * Said only on evidence: a stalled game's worker that has beaten since (a later signed heartbeat) is alive — the
   * machine's load held it past its lock, it says so itself ('lost …'), and the replay elsewhere needs no warning;
   * one whose heartbeat is gone stopped answering. Undecided (`final`, Redis did not answer): said.
   */
  private async judgeStalls(final = false): Promise<void> {
    const pending = this.stalls;
    this.stalls = [];
    const waiting: Stall[] = [];
    for (const stall of pending) {
      if (stall.beatAt === undefined && !final) {
        waiting.push(stall);
        continue;
      }
      const now = await lastBeat(this.redis, this.options.key, stall.worker).catch(() => null);
      // A beat later than the one the stall saw, or any beat where it saw none, was written since: it runs.
      const alive = now !== null && stall.beatAt !== undefined && (stall.beatAt === null || now > stall.beatAt);
      if (alive) continue;
      // A gone beat counts only for the time this coordinator ran on time meanwhile (at most two polls a look): a
      // coordinator held up with the worker wakes to a lapsed beat the worker is about to write again.
      const at = Date.now();
      if (now === null && stall.lookedAt > 0) stall.goneMs += Math.min(at - stall.lookedAt, 2 * POLL_MS);
      stall.lookedAt = at;
      if (final || stall.goneMs >= BEAT_GONE_MS) this.options.onWarning?.(stoppedAnswering(stall.worker, stall.label));
      else waiting.push(stall);
    }
    this.stalls.push(...waiting);
  }

  /**
   * At close every stall is judged on evidence too: a run whose last game was the replay of a held worker's game
   * ends before that worker's next beat, and "stopped answering" was then said of a worker that was only held up
   * (seen at load 30: tests/queue/faults). Waits until each stalled worker has beaten again or its beat has lapsed,
   * at most STALL_VERDICT_MS; what is still undecided after that is said.
   */
  private async judgeStallsAtClose(): Promise<void> {
    const deadline = Date.now() + STALL_VERDICT_MS;
    await this.judgeStalls();
    while (this.stalls.length > 0 && Date.now() < deadline) {
      await delay(Math.min(250, Math.max(0, deadline - Date.now())));
      await this.judgeStalls();
    }
    if (this.stalls.length > 0) await this.judgeStalls(true);
  }

  private async poll(): Promise<void> {
    if (this.polling || this.closed) return;
    this.polling = true;
    try {
      if (this.stalls.length > 0) await this.judgeStalls().catch(() => undefined);
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
    const workers = await readWorkers(this.redis, this.options.key).catch(() => null);
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
    // Absent at two checks in a row (further apart than a heartbeat) before it is said: a FLUSHALL wipes every
    // worker's heartbeat too, and live workers write theirs again within HEARTBEAT_EVERY_MS.
    this.checksWithoutWorkers = ours.length === 0 ? this.checksWithoutWorkers + 1 : 0;
    if (this.checksWithoutWorkers >= 2 && !this.warnedNoWorkers) {
      this.warnedNoWorkers = true;
      this.options.onWarning?.(`${count(this.outstanding.size, 'game')} ${this.outstanding.size === 1 ? 'is' : 'are'} queued and no referee worker of harness ${this.harness} is connected: start \`referee worker --queue …\` on a machine that can reach this Redis`);
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

  /** Off the queue if it is waiting; true if a worker has it or it has finished (its result waits for --resume). */
  private async stillInPlay(jobId: string): Promise<boolean> {
    if (await this.removeIfWaiting(jobId, jobId)) return false;
    const state = await this.queue.getJobState(jobId).catch(() => 'unknown');
    return state === 'active' || state === 'completed';
  }

  /**
   * Take a job off the queue only if no worker has it: one Lua script, so a worker cannot take (and finish) the job
   * between the look and the removal — BullMQ's own remove would delete a just-completed job and its result.
   */
  private async removeIfWaiting(key: string, jobId = this.jobIds.get(key) ?? key): Promise<boolean> {
    const { wait, paused, delayed, prioritized, failed } = this.queue.keys;
    const removed = await this.redis.eval(REMOVE_IF_WAITING, 6, this.queue.toKey(jobId), wait, paused, delayed, prioritized, failed, jobId).catch(() => 0);
    return removed === 1;
  }
}

/**
 * KEYS: the job's hash, then the queue's wait and paused lists and delayed, prioritized and failed sets; ARGV: the
 * job id. Removes the job (its hash and logs) only from those states; 1 if it did, 0 if a worker has it or it is done.
 */
const REMOVE_IF_WAITING = `
local id = ARGV[1]
local found = redis.call('LREM', KEYS[2], 0, id) + redis.call('LREM', KEYS[3], 0, id)
  + redis.call('ZREM', KEYS[4], id) + redis.call('ZREM', KEYS[5], id) + redis.call('ZREM', KEYS[6], id)
if found == 0 then return 0 end
redis.call('DEL', KEYS[1], KEYS[1] .. ':logs')
return 1`;

const stoppedAnswering = (worker: string, label: string): string =>
  `${worker} stopped answering while playing ${label}: the game is played again from its start by another worker`;

/** The failure reason a worker gives a job whose coordinator's lease is gone. */
export const COORDINATOR_GONE = 'dropped: its coordinator stopped';

