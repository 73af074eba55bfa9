/**
 * Workers announce themselves in Redis: a key per worker with its harness version, refreshed every few seconds
 * and expiring soon after the worker stops (or is killed, or frozen). The coordinator reads them to say which
 * workers of which versions it sees; a worker reads them to know whether another could play a job it should avoid.
 * Each beat is signed with the queue's key and dated: a beat written without the key, or copied from an old one,
 * is not a worker (it would hide "no worker connected").
 */
import type { Redis } from 'ioredis';
import { KEY_PREFIX } from './connection.js';
import { beatIsSigned, beatSignature, unsignedJobsAllowed } from './signing.js';

export const HEARTBEAT_EVERY_MS = 2000;
/** A worker whose heartbeat is older than this is gone. */
export const HEARTBEAT_TTL_SECONDS = 8;

export interface WorkerBeat {
  name: string;
  harness: string;
  /** Games at once. */
  concurrency: number;
}

const PATTERN = `${KEY_PREFIX}:workers:*`;
export const workerKey = (name: string): string => `${KEY_PREFIX}:workers:${name}`;

/** How far a beat's date may be from this machine's clock (machines' clocks differ a little). */
const CLOCK_SKEW_MS = 30_000;

export async function beat(redis: Redis, key: Buffer, worker: WorkerBeat): Promise<void> {
  const at = Date.now();
  const signed = { name: worker.name, harness: worker.harness, concurrency: worker.concurrency, at };
  await redis.set(workerKey(worker.name), JSON.stringify({ ...signed, signature: beatSignature(key, signed) }), 'EX', HEARTBEAT_TTL_SECONDS);
}

export async function forget(redis: Redis, name: string): Promise<void> {
  await redis.del(workerKey(name));
}

/** Every live worker (a malformed, unsigned or stale entry, written by something else, is skipped). */
export async function readWorkers(redis: Redis, key: Buffer): Promise<WorkerBeat[]> {
  const keys: string[] = [];
  let cursor = '0';
  do {
    const [next, found] = await redis.scan(cursor, 'MATCH', PATTERN, 'COUNT', 200);
    cursor = next;
    keys.push(...found);
  } while (cursor !== '0' && keys.length < 10_000);
  if (keys.length === 0) return [];
  const values = await redis.mget(...keys);
  return values.map((value) => signedBeat(value, key)).filter((each): each is WorkerBeat & { at: number } => each !== null).map(({ name, harness, concurrency }) => ({ name, harness, concurrency }));
}

/**
 * The date (the worker's own clock) of one worker's last signed beat, or null when it has none: it stopped, was
 * killed, or has been frozen past HEARTBEAT_TTL_SECONDS. A later date than one seen before is proof it still runs.
 */
export async function lastBeat(redis: Redis, key: Buffer, name: string): Promise<number | null> {
  return signedBeat(await redis.get(workerKey(name)), key)?.at ?? null;
}

function signedBeat(value: string | null, key: Buffer): (WorkerBeat & { at: number }) | null {
  try {
    const parsed = JSON.parse(value ?? '') as Partial<WorkerBeat> & { at?: unknown; signature?: unknown };
    if (typeof parsed.name !== 'string' || typeof parsed.harness !== 'string' || typeof parsed.concurrency !== 'number') return null;
    const at = typeof parsed.at === 'number' ? parsed.at : Number.NaN;
    const fresh = unsignedJobsAllowed() || Math.abs(Date.now() - at) <= HEARTBEAT_TTL_SECONDS * 1000 + CLOCK_SKEW_MS;
    if (!fresh || !beatIsSigned(key, { name: parsed.name, harness: parsed.harness, concurrency: parsed.concurrency, at, signature: parsed.signature })) return null;
    return { name: parsed.name, harness: parsed.harness, concurrency: parsed.concurrency, at };
  } catch {
    return null; // not ours
  }
}
