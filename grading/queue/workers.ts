/**
 * Workers announce themselves in Redis: a key per worker with its harness version, refreshed every few seconds
 * and expiring soon after the worker stops (or is killed, or frozen). The coordinator reads them to say which
 * workers of which versions it sees; a worker reads them to know whether another could play a job it should avoid.
 */
import type { Redis } from 'ioredis';
import { KEY_PREFIX } from './connection.js';

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

export async function beat(redis: Redis, worker: WorkerBeat): Promise<void> {
  await redis.set(workerKey(worker.name), JSON.stringify(worker), 'EX', HEARTBEAT_TTL_SECONDS);
}

export async function forget(redis: Redis, name: string): Promise<void> {
  await redis.del(workerKey(name));
}

/** Every live worker (a malformed entry, written by something else, is skipped). */
export async function readWorkers(redis: Redis): Promise<WorkerBeat[]> {
  const keys: string[] = [];
  let cursor = '0';
  do {
    const [next, found] = await redis.scan(cursor, 'MATCH', PATTERN, 'COUNT', 200);
    cursor = next;
    keys.push(...found);
  } while (cursor !== '0' && keys.length < 10_000);
  if (keys.length === 0) return [];
  const values = await redis.mget(...keys);
  const workers: WorkerBeat[] = [];
  for (const value of values) {
    try {
      const parsed = JSON.parse(value ?? '') as Partial<WorkerBeat>;
      if (typeof parsed.name === 'string' && typeof parsed.harness === 'string' && typeof parsed.concurrency === 'number') {
        workers.push({ name: parsed.name, harness: parsed.harness, concurrency: parsed.concurrency });
      }
    } catch {
      // not ours
    }
  }
  return workers;
}
