/**
 * Redis connections for the queue (ioredis, which BullMQ drives). `redis://[:password@]host:port/db` or
 * `rediss://…` (TLS). The first contact is checked at once — an unreachable Redis is a one-line usage error —
 * and from then on every connection reconnects forever with backoff, so a restarted Redis is waited for.
 */
import { Redis, type RedisOptions } from 'ioredis';

export const QUEUE_NAME = 'games';
/** Every key Referee writes starts with this, so one Redis can hold other things too. */
export const KEY_PREFIX = 'referee';

/** --queue names no Redis we can reach or parse: fix the URL or start Redis. */
export class QueueUsageError extends Error {
  override name = 'QueueUsageError';
}

/** The URL with its password replaced by ***, for messages and logs. */
export function redactUrl(url: string): string {
  return url.replace(/^(rediss?:\/\/)([^@/]*)@/, (_all, scheme: string, auth: string) => `${scheme}${auth.includes(':') ? `${auth.split(':')[0]}:***` : '***'}@`);
}

export function checkQueueUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new QueueUsageError(`--queue ${JSON.stringify(redactUrl(url))} is not a URL: use redis://host:6379/0 (rediss:// for TLS)`);
  }
  if (parsed.protocol !== 'redis:' && parsed.protocol !== 'rediss:') {
    throw new QueueUsageError(`--queue must be a redis:// or rediss:// URL (got ${parsed.protocol}//…): e.g. redis://host:6379/0`);
  }
  if (parsed.pathname !== '' && parsed.pathname !== '/' && !/^\/\d+$/.test(parsed.pathname)) {
    throw new QueueUsageError(`--queue ${redactUrl(url)}: the path must be a database number, e.g. redis://host:6379/0`);
  }
  return url;
}

const backoff = (times: number): number => Math.min(200 * times, 5000);

/** A connection that waits out Redis restarts (BullMQ needs maxRetriesPerRequest null for its blocking calls). */
export function redisConnection(url: string, name: string, extra: RedisOptions = {}): Redis {
  return new Redis(url, { maxRetriesPerRequest: null, retryStrategy: backoff, connectionName: name, ...extra });
}

/** Reach Redis once, within `timeoutMs`, or throw QueueUsageError naming the URL (password hidden) and the cause. */
export async function checkReachable(url: string, timeoutMs = 5000): Promise<void> {
  checkQueueUrl(url);
  const probe = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null, connectTimeout: timeoutMs, enableOfflineQueue: false });
  // The socket's own error (ECONNREFUSED, ENOTFOUND, a TLS failure) says more than ioredis's 'Connection is closed'.
  let first: Error | null = null;
  probe.on('error', (error: Error) => {
    first ??= error;
  });
  try {
    await probe.connect();
    await probe.ping();
  } catch (error) {
    const seen = (first ?? error) as Error & { code?: string };
    const cause = seen.code ?? seen.message;
    const fix = /CERT|SSL|TLS|SELF_SIGNED/i.test(cause)
      ? "Redis's TLS certificate is not trusted here: point NODE_EXTRA_CA_CERTS at its CA file (PEM)"
      : 'start redis-server there, or fix --queue (password: redis://:PASSWORD@host:6379/0)';
    throw new QueueUsageError(`cannot reach Redis at ${redactUrl(url)} (${cause}): ${fix}`);
  } finally {
    probe.disconnect();
  }
}
