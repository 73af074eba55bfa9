/**
 * The flags every queue user shares (batch, grade, tournament as coordinators; worker): where Redis is, its
 * password (from a file or REFEREE_REDIS_PASSWORD, never the command line) and the queue's key file.
 */
import { PASSWORD_IN_ARGV_WARNING, QueueUsageError, queueEndpoint, redactUrl, urlWithoutPassword, type QueueEndpoint } from '../grading/queue/connection.js';
import { QueuePool } from '../grading/queue/pool.js';
import { ensureKeyFile, keyFilePath, KEY_FILE_ENV, readKeyFile } from '../grading/queue/signing.js';
import { UsageError } from './args.js';
import { count } from '../grading/words.js';

export interface QueueFlags {
  queue?: string;
  keyFile?: string;
  redisPasswordFile?: string;
}

/** The endpoint and key for the queue flags, as usage errors (exit 2) when wrong. */
export function queueSetup(flags: QueueFlags & { queue: string }, role: 'coordinator' | 'worker'): { endpoint: QueueEndpoint; key: Buffer } {
  try {
    const endpoint = queueEndpoint(flags.queue, flags.redisPasswordFile);
    if (endpoint.passwordInUrl) console.error(`warning: ${PASSWORD_IN_ARGV_WARNING}`);
    const path = keyFilePath(flags.keyFile);
    if (role === 'worker') return { endpoint, key: readKeyFile(path) };
    const { key, created } = ensureKeyFile(path);
    if (created) console.log(`Created the queue key file ${path}: copy it (mode 600) to every worker machine and pass it with --key-file.`);
    return { endpoint, key };
  } catch (error) {
    if (error instanceof QueueUsageError) throw new UsageError(error.message);
    throw error;
  }
}

/** Open the coordinator's pool (warnings on stderr), or a one-line usage error. */
export async function openQueuePool(flags: QueueFlags & { queue: string }, size: number): Promise<QueuePool> {
  const { endpoint, key } = queueSetup(flags, 'coordinator');
  try {
    return await QueuePool.open(endpoint, { size, key, onWarning: (message) => console.error(`warning: ${message}`) });
  } catch (error) {
    if (error instanceof QueueUsageError) throw new UsageError(error.message);
    throw error;
  }
}

/** The words that bring a run back to the same queue (no password: it stays in its file or variable). */
export function queueResumeWords(flags: QueueFlags): string[] {
  if (!flags.queue) return [];
  return [
    '--queue',
    urlWithoutPassword(flags.queue),
    ...(flags.keyFile ? ['--key-file', flags.keyFile] : []),
    ...(flags.redisPasswordFile ? ['--redis-password-file', flags.redisPasswordFile] : []),
  ];
}

/** The worker command to start on each machine, as the coordinator prints it. */
export function workerHint(flags: QueueFlags & { queue: string }): string {
  const words = ['referee', 'worker', '--queue', redactUrl(urlWithoutPassword(flags.queue)), ...(flags.keyFile ? ['--key-file', flags.keyFile] : [])];
  return words.join(' ');
}

/** What a stopped coordinator did with its queued games (one line). */
export function closeLine(pool: QueuePool | undefined): string | null {
  const summary = pool?.closeSummary;
  if (!summary || summary.removed + summary.inPlay === 0) return null;
  return `referee: took ${count(summary.removed, 'queued game')} off the queue${summary.inPlay > 0 ? `; ${summary.inPlay} already in play finish on their workers and wait in Redis (for hours) for --resume` : ''}.`;
}
