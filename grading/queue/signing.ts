/**
 * Everything that crosses Redis and decides a grade is signed with HMAC-SHA256 under a key held in a file on the
 * coordinator's and workers' machines (never in Redis). Write access to Redis alone (its password) then cannot
 * forge a grade, redirect a game or fake a fleet: a rogue writer lacks the key.
 *   - jobs: the coordinator signs each job's canonical data (seats, artefact hashes, reference AIs and budgets,
 *     opening, seed, rules, its own id, the workers to avoid); a worker refuses a job whose signature does not verify;
 *   - results: a worker signs each result's exact JSON (the payload string, so no re-serialisation changes what was
 *     signed), which names the game and carries the digest of the job data it played; the coordinator compares that
 *     digest with its own job's;
 *   - the coordinator's lease (it is alive until `until`), the workers' heartbeats, and a worker's failure reasons.
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import type { GameRecord } from '../../harness/referee/record.js';
import { canonicalJson } from '../assignment.js';
import type { GameJob } from '../pool/job.js';
import { QueueUsageError } from './connection.js';

export const KEY_FILE_ENV = 'REFEREE_QUEUE_KEY_FILE';
const MIN_KEY_BYTES = 32;
const RESULT_FORMAT = 'referee.queue-result/1';

/** What a worker returns for a game: the result as JSON text and its signature (hex). */
export interface SignedResult {
  payload: string;
  signature: string;
}

/** The result inside the payload. */
export interface QueueResult {
  format: typeof RESULT_FORMAT;
  /** The job's key: a result signed for one game cannot be replayed as another's. */
  job: string;
  /** jobDigest of the job data the worker played: the coordinator compares it with its own job's. */
  jobDigest: string;
  record: GameRecord;
  wallMs: number;
  worker: string;
}

/** The key file named by the flag or REFEREE_QUEUE_KEY_FILE (null when neither names one). */
export function keyFilePath(flag: string | undefined, env: NodeJS.ProcessEnv = process.env): string | null {
  return flag ?? (env[KEY_FILE_ENV] || null);
}

const NO_KEY = `the queue needs a key file shared by the coordinator and its workers (results are signed with it): pass --key-file PATH or set ${KEY_FILE_ENV}; \`referee batch --queue … --key-file PATH\` creates one if PATH does not exist, then copy it to each worker machine (chmod 600)`;

/** Read a key file: at least 32 bytes, readable by its owner only. */
export function readKeyFile(path: string | null): Buffer {
  if (!path) throw new QueueUsageError(NO_KEY);
  let key: Buffer;
  try {
    if ((statSync(path).mode & 0o077) !== 0) throw new QueueUsageError(`the queue key file ${path} can be read by others: chmod 600 ${path}`);
    key = readFileSync(path);
  } catch (error) {
    if (error instanceof QueueUsageError) throw error;
    throw new QueueUsageError(`cannot read the queue key file ${path} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}): copy the coordinator's key file there (chmod 600)`);
  }
  const trimmed = Buffer.from(key.toString('latin1').trim(), 'latin1');
  if (trimmed.length < MIN_KEY_BYTES) throw new QueueUsageError(`the queue key file ${path} holds ${trimmed.length} bytes, fewer than ${MIN_KEY_BYTES}: create one with \`openssl rand -hex 32 > ${path} && chmod 600 ${path}\``);
  return trimmed;
}

/** The coordinator's key: read it, or create it (64 hex characters, mode 600) when the file does not exist. Returns whether it was created. */
export function ensureKeyFile(path: string | null): { key: Buffer; created: boolean } {
  if (path && !existsSync(path)) {
    writeFileSync(path, `${randomBytes(32).toString('hex')}\n`, { mode: 0o600, flag: 'wx' });
    return { key: readKeyFile(path), created: true };
  }
  return { key: readKeyFile(path), created: false };
}

const hmac = (key: Buffer, payload: string): string => createHmac('sha256', key).update(payload, 'utf8').digest('hex');

export function signResult(key: Buffer, result: Omit<QueueResult, 'format'>): SignedResult {
  const payload = JSON.stringify({ format: RESULT_FORMAT, job: result.job, jobDigest: result.jobDigest, record: result.record, wallMs: result.wallMs, worker: result.worker });
  return { payload, signature: hmac(key, payload) };
}

/** The result if `value` is a result signed with `key` for job `jobKey`; otherwise why not (one line). */
export function verifyResult(key: Buffer, jobKey: string, value: unknown): { ok: true; result: QueueResult } | { ok: false; reason: string } {
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch {
      return { ok: false, reason: 'the result is not JSON' };
    }
  }
  const signed = value as Partial<SignedResult> | null;
  if (!signed || typeof signed !== 'object' || typeof signed.payload !== 'string' || typeof signed.signature !== 'string') return { ok: false, reason: 'the result is not a signed result (no payload and signature)' };
  const expected = Buffer.from(hmac(key, signed.payload), 'hex');
  const given = Buffer.from(signed.signature, 'hex');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { ok: false, reason: 'its signature does not verify with this key file (a forged result, or a worker with another key)' };
  let result: QueueResult;
  try {
    result = JSON.parse(signed.payload) as QueueResult;
  } catch {
    return { ok: false, reason: 'its payload is not JSON' };
  }
  if (result?.format !== RESULT_FORMAT || result.job !== jobKey) return { ok: false, reason: 'it was signed for another game' };
  if (typeof result.wallMs !== 'number' || typeof result.worker !== 'string' || typeof result.jobDigest !== 'string' || !result.record || typeof result.record !== 'object') return { ok: false, reason: 'its payload is incomplete' };
  return { ok: true, result };
}

/**
 * Only for the tests' control, never on a real queue: jobs, leases and heartbeats are believed without their
 * signatures (and the coordinator does not compare the played job's digest), to show what the checks stop.
 */
export const TEST_UNSIGNED_JOBS_ENV = 'REFEREE_TEST_QUEUE_UNSIGNED_JOBS';
export const unsignedJobsAllowed = (): boolean => process.env[TEST_UNSIGNED_JOBS_ENV] === '1';

const equalHex = (given: unknown, expected: string): boolean => {
  if (typeof given !== 'string' || !/^[0-9a-f]{64}$/.test(given)) return false;
  return timingSafeEqual(Buffer.from(given, 'hex'), Buffer.from(expected, 'hex'));
};

/**
 * The digest of what decides a game: everything of the GameJob (seats with their artefact hashes and reference AIs
 * with budgets, opening, seed, rules, game, key, label), canonical so field order does not matter.
 */
export function jobDigest(job: GameJob): string {
  const { key, harness, game, config, seed, players, label, opening } = job;
  return createHash('sha256').update(canonicalJson({ key, harness, game, config, seed, players, label, opening })).digest('hex');
}

const JOB_FORMAT = 'referee.queue-job/1';

/** The signature over a queued job's canonical data (every field but the signature itself). */
export function jobSignature(key: Buffer, job: object): string {
  const { signature: _signature, ...data } = job as { signature?: unknown };
  return hmac(key, `${JOB_FORMAT}\n${canonicalJson(data)}`);
}

/** Null when `job` carries the signature of its own data under `key`; else why not (one line). */
export function jobSignatureProblem(key: Buffer, job: { signature?: unknown }): string | null {
  if (typeof job.signature !== 'string') return 'it is not signed (a job written by something without the queue key)';
  if (!equalHex(job.signature, jobSignature(key, job))) return 'its signature does not verify: its data was changed after the coordinator signed it, or it was signed with another key file';
  return null;
}

/** What a coordinator writes as its lease: alive until `until` (ms since the epoch), signed. */
export function signLease(key: Buffer, coordinator: string, until: number): string {
  return JSON.stringify({ coordinator, until, signature: hmac(key, `referee.queue-lease/1\n${coordinator}\n${until}`) });
}

/** Whether a lease value read from Redis is `coordinator`'s, signed, and not past its `until` (plus clock skew). */
export function leaseIsLive(key: Buffer, coordinator: string, value: string | null, now = Date.now(), skewMs = 60_000): boolean {
  if (value === null) return false;
  try {
    const lease = JSON.parse(value) as { coordinator?: unknown; until?: unknown; signature?: unknown };
    if (unsignedJobsAllowed()) return true;
    if (lease.coordinator !== coordinator || typeof lease.until !== 'number' || lease.until + skewMs < now) return false;
    return equalHex(lease.signature, hmac(key, `referee.queue-lease/1\n${coordinator}\n${lease.until}`));
  } catch {
    return false;
  }
}

/** A heartbeat's signature: over its fields and the time it was written (a copied beat goes stale). */
export function beatSignature(key: Buffer, beat: { name: string; harness: string; concurrency: number; at: number }): string {
  return hmac(key, `referee.queue-beat/1\n${canonicalJson({ name: beat.name, harness: beat.harness, concurrency: beat.concurrency, at: beat.at })}`);
}

export function beatIsSigned(key: Buffer, beat: { name: string; harness: string; concurrency: number; at: number; signature?: unknown }): boolean {
  return unsignedJobsAllowed() || equalHex(beat.signature, beatSignature(key, beat));
}

const FAILURE_MARK = ' [signed ';

/**
 * A worker's reason for failing a job, with its name and a signature, so the coordinator can tell which worker failed
 * a game (a failure reason in Redis is otherwise anybody's text).
 */
export function signFailure(key: Buffer, jobKey: string, worker: string, reason: string): string {
  return `${reason}${FAILURE_MARK}${Buffer.from(worker, 'utf8').toString('hex')} ${hmac(key, `referee.queue-failure/1\n${jobKey}\n${worker}\n${reason}`)}]`;
}

/** The failing worker and its reason when `text` is a failure signed for `jobKey`; null otherwise. */
export function verifyFailure(key: Buffer, jobKey: string, text: string | undefined): { worker: string; reason: string } | null {
  const match = /^([\s\S]*) \[signed ([0-9a-f]{2,400}) ([0-9a-f]{64})\]$/.exec(text ?? '');
  if (!match) return null;
  const worker = Buffer.from(match[2], 'hex').toString('utf8');
  return equalHex(match[3], hmac(key, `referee.queue-failure/1\n${jobKey}\n${worker}\n${match[1]}`)) ? { worker, reason: match[1] } : null;
}
