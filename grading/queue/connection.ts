/**
 * Redis connections for the queue (ioredis, which BullMQ drives). `redis://[user@]host:port/db` or `rediss://…`
 * (TLS); the password comes from REFEREE_REDIS_PASSWORD or a file (--redis-password-file), never the command line,
 * where any process on the machine (a student's code included) can read it in /proc/<pid>/cmdline.
 *
 * The first contact has a deadline — an unreachable Redis, a silent endpoint or something that is not Redis is a
 * one-line usage error — and from then on every connection reconnects forever with backoff, so a restarted Redis
 * is waited for; a RedisWatch reports within seconds a Redis that stops answering and again when it answers.
 */
import { readFileSync, statSync } from 'node:fs';
import { connect } from 'node:net';
import { Redis, type RedisOptions } from 'ioredis';

/** BullMQ queue names: one queue per harness version (see queueName). */
export const QUEUE_NAME = 'games';
/** Every key Referee writes starts with this, so one Redis can hold other things too. */
export const KEY_PREFIX = 'referee';
/** The environment variable holding the Redis password (read by batch, grade and worker). */
export const PASSWORD_ENV = 'REFEREE_REDIS_PASSWORD';

/**
 * The queue a harness version's games go to: a worker of another version never sees them, so it can neither
 * refuse them (spending their attempts) nor play them under other rules.
 */
export const queueName = (harness: string): string => `${QUEUE_NAME}-v${harness}`;

/** --queue names no Redis we can reach or parse: fix the URL or start Redis. */
export class QueueUsageError extends Error {
  override name = 'QueueUsageError';
}

/** The URL with its password replaced by ***, for messages and logs. */
export function redactUrl(url: string): string {
  return url.replace(/^(rediss?:\/\/)([^@/]*)@/, (_all, scheme: string, auth: string) => `${scheme}${auth.includes(':') ? `${auth.split(':')[0]}:***` : '***'}@`);
}

/** The URL without any password in it (what a resume line or a log may show). */
export function urlWithoutPassword(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.password = '';
    return parsed.toString().replace(/\/$/, '');
  } catch {
    return redactUrl(url);
  }
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

/** Where the queue is and how to log in: the URL (no password in it, ideally) and the password read from env or file. */
export interface QueueEndpoint {
  url: string;
  password?: string;
  /** True when the password came in the URL itself (a command-line argument): the caller warns. */
  passwordInUrl: boolean;
}

/**
 * The endpoint for `--queue url` with the password from `passwordFile` (first line), else REFEREE_REDIS_PASSWORD,
 * else the URL. A password file others can read is refused (chmod 600 fixes it).
 */
export function queueEndpoint(url: string, passwordFile?: string, env: NodeJS.ProcessEnv = process.env): QueueEndpoint {
  checkQueueUrl(url);
  const passwordInUrl = new URL(url).password !== '';
  if (passwordFile) {
    let text: string;
    try {
      if ((statSync(passwordFile).mode & 0o077) !== 0) throw new QueueUsageError(`--redis-password-file ${passwordFile} can be read by others: chmod 600 ${passwordFile}`);
      text = readFileSync(passwordFile, 'utf8');
    } catch (error) {
      if (error instanceof QueueUsageError) throw error;
      throw new QueueUsageError(`cannot read --redis-password-file ${passwordFile} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}): give the path of a file holding the Redis password`);
    }
    const password = text.split(/\r?\n/)[0];
    if (!password) throw new QueueUsageError(`--redis-password-file ${passwordFile} is empty: write the Redis password on its first line`);
    return { url: urlWithoutPassword(url), password, passwordInUrl };
  }
  const fromEnv = env[PASSWORD_ENV];
  if (fromEnv) return { url: urlWithoutPassword(url), password: fromEnv, passwordInUrl };
  return { url, passwordInUrl };
}

/** Said once when the password is on the command line. */
export const PASSWORD_IN_ARGV_WARNING =
  `the Redis password is on the command line, where every process on this machine can read it (/proc/*/cmdline): put it in ${PASSWORD_ENV} or a file named by --redis-password-file (chmod 600)`;

const backoff = (times: number): number => Math.min(200 * times, 5000);

/** The connection options for an endpoint (the password never travels in a URL string we keep). */
const endpointOptions = (endpoint: QueueEndpoint): RedisOptions => (endpoint.password ? { password: endpoint.password } : {});

/** A connection that waits out Redis restarts (BullMQ needs maxRetriesPerRequest null for its blocking calls). */
export function redisConnection(endpoint: QueueEndpoint, name: string, extra: RedisOptions = {}): Redis {
  return new Redis(endpoint.url, { maxRetriesPerRequest: null, retryStrategy: backoff, connectionName: name, ...endpointOptions(endpoint), ...extra });
}

/** How long the first contact (connect, AUTH, PING) may take before it is a usage error. */
export const FIRST_CONTACT_MS = 5000;

/** What answered on the port when it was not Redis, from the first bytes it sent (or null when it looks like Redis). */
function notRedis(error: Error): string | null {
  const match = /Unknown RESP type (\d+)/.exec(error.message) ?? /Protocol error, got "(.)"/.exec(error.message);
  if (!match) return null;
  return notRedisByte(/^\d+$/.test(match[1]) ? String.fromCharCode(Number(match[1])) : match[1]);
}

function notRedisByte(first: string): string {
  if (first === 'H' || first === '<') return 'an HTTP server';
  if (first === '\u0015' || first === '\u0016') return 'a TLS server (use rediss://)';
  if (first === 'S') return 'an SSH server';
  return `a server that is not Redis (its first byte was ${JSON.stringify(first)})`;
}

/**
 * What speaks on a plain-TCP endpoint, from the first bytes it sends back to a PING (an HTTP server answers
 * 'HTTP/1.1 400', an SSH server greets first): null when it answers like Redis (RESP) or says nothing in time.
 */
function probeProtocol(url: string, timeoutMs: number): Promise<string | null> {
  const parsed = new URL(url);
  if (parsed.protocol !== 'redis:') return Promise.resolve(null);
  return new Promise((resolve) => {
    const socket = connect({ host: parsed.hostname.replace(/^\[|\]$/g, ''), port: Number(parsed.port || 6379) });
    const done = (answer: string | null): void => {
      clearTimeout(timer);
      socket.destroy();
      resolve(answer);
    };
    const timer = setTimeout(() => done(null), timeoutMs);
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.once('data', (chunk: Buffer) => {
      const first = chunk.toString('latin1', 0, 1);
      if ('+-$*:_,#!=(%~>|'.includes(first)) done(null);
      else done(notRedisByte(first));
    });
    socket.once('error', () => done(null));
    socket.once('close', () => done(null));
  });
}

/**
 * Reach Redis once, within `timeoutMs` for the whole exchange (connect, AUTH, PING), or throw QueueUsageError
 * naming the endpoint (password hidden), what answered and the fix.
 */
export async function checkReachable(endpoint: QueueEndpoint, timeoutMs = FIRST_CONTACT_MS): Promise<void> {
  checkQueueUrl(endpoint.url);
  const where = redactUrl(endpoint.url);
  const probe = new Redis(endpoint.url, {
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
    connectTimeout: timeoutMs,
    commandTimeout: timeoutMs,
    enableOfflineQueue: false,
    ...endpointOptions(endpoint),
  });
  // The socket's own error (ECONNREFUSED, ENOTFOUND, a TLS failure) says more than ioredis's 'Connection is closed'.
  let first: Error | null = null;
  const errors: Error[] = [];
  probe.on('error', (error: Error) => {
    first ??= error;
    errors.push(error);
  });
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(Object.assign(new Error('deadline'), { code: 'SILENT' })), timeoutMs);
  });
  try {
    await Promise.race([
      (async () => {
        await probe.connect();
        await probe.ping();
      })(),
      deadline,
    ]);
  } catch (error) {
    const seen = (first ?? error) as Error & { code?: string };
    // The client's own error can be a side effect (EPIPE: an HTTP server closed on it); the protocol says what is there.
    const other = errors.map(notRedis).find((each) => each !== null) ?? notRedis(error as Error) ?? (seen.code === 'ECONNREFUSED' ? null : await probeProtocol(endpoint.url, 2000));
    if (other) throw new QueueUsageError(`${where} is not Redis: ${other} answered there; fix the host:port in --queue`);
    if (seen.code === 'SILENT' || /timed? ?out/i.test(seen.message)) {
      throw new QueueUsageError(`${where} accepted the connection but did not answer a Redis PING within ${Math.round(timeoutMs / 1000)} s: is it Redis (frozen, or another service on that port)? Fix --queue or restart redis-server`);
    }
    const cause = seen.code ?? seen.message;
    const fix = /CERT|SSL|TLS|SELF_SIGNED/i.test(cause)
      ? "Redis's TLS certificate is not trusted here: point NODE_EXTRA_CA_CERTS at its CA file (PEM)"
      : /NOAUTH|WRONGPASS|invalid password|AUTH/i.test(cause)
        ? `Redis refused the password: set ${PASSWORD_ENV} or --redis-password-file to the right one`
        : 'start redis-server there, or fix --queue';
    throw new QueueUsageError(`cannot reach Redis at ${where} (${cause}): ${fix}`);
  } finally {
    clearTimeout(timer);
    probe.disconnect();
  }
}

/**
 * A Redis that stops answering (frozen, a network partition) raises no socket error: ioredis's commands just
 * wait. The watch PINGs on its own connection every `everyMs` and says once when Redis has been silent for
 * `silentMs`, and once when it answers again (with how long it was gone).
 *
 * Silence is counted only while this process was running on time: each tick adds at most two intervals, so when this
 * process itself was held up (a loaded machine, a long synchronous step) the hold-up is not blamed on Redis — its
 * answer may be waiting unread in the socket. The verdict is taken after the socket has been read (setImmediate),
 * so an answer that arrived during the hold-up counts first.
 */
export class RedisWatch {
  private readonly connection: Redis;
  private readonly timer: ReturnType<typeof setInterval>;
  private pending = false;
  /** Time a PING has gone unanswered while this process ran on time (ms). */
  private unanswered = 0;
  private lastTick = Date.now();
  private silent = false;

  constructor(endpoint: QueueEndpoint, name: string, onLine: (line: string) => void, options: { everyMs?: number; silentMs?: number } = {}) {
    const everyMs = options.everyMs ?? 1000;
    const silentMs = options.silentMs ?? 5000;
    const where = redactUrl(endpoint.url);
    this.connection = redisConnection(endpoint, name, { maxRetriesPerRequest: 1, enableOfflineQueue: true });
    this.connection.on('error', () => undefined);
    this.timer = setInterval(() => {
      const now = Date.now();
      const gap = now - this.lastTick;
      this.lastTick = now;
      if (this.pending) {
        this.unanswered += Math.min(gap, 2 * everyMs);
        if (!this.silent && this.unanswered >= silentMs) {
          setImmediate(() => {
            if (!this.pending || this.silent) return;
            this.silent = true;
            onLine(`Redis at ${where} has not answered for ${Math.round(this.unanswered / 1000)} s (frozen, or the network is down): games wait until it answers`);
          });
        }
        return;
      }
      this.pending = true;
      this.connection.ping().then(
        () => {
          this.pending = false;
          if (this.silent) onLine(`Redis at ${where} answers again (silent for ${Math.round(this.unanswered / 1000)} s): carrying on`);
          this.silent = false;
          this.unanswered = 0;
        },
        () => {
          this.pending = false;
        },
      );
    }, everyMs);
    this.timer.unref();
  }

  close(): void {
    clearInterval(this.timer);
    this.connection.disconnect();
  }
}
