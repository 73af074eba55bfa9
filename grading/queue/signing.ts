/**
 * Queue results are signed: a worker signs each result with HMAC-SHA256 under a key held in a file on the
 * coordinator's and workers' machines (never in Redis), and the coordinator accepts only results whose signature
 * verifies. Write access to Redis alone then cannot forge a grade: a rogue writer lacks the key.
 *
 * The signed text is the result's exact JSON (the payload string), so no re-serialisation can change what was signed.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import type { GameRecord } from '../../harness/referee/record.js';
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
  const payload = JSON.stringify({ format: RESULT_FORMAT, job: result.job, record: result.record, wallMs: result.wallMs, worker: result.worker });
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
  if (typeof result.wallMs !== 'number' || typeof result.worker !== 'string' || !result.record || typeof result.record !== 'object') return { ok: false, reason: 'its payload is incomplete' };
  return { ok: true, result };
}
