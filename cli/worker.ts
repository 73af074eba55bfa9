/**
 * `referee worker --queue redis://host:6379/0`: play games from a Redis queue until stopped (see docs/instructor-guide.md
 * "Grading on many machines"). Run one per machine; it plays --concurrency games at once, one per core by default.
 * Exit codes: 0 stopped cleanly (SIGTERM or Ctrl-C), 2 usage error (bad URL, Redis unreachable at start).
 */
import { availableParallelism } from 'node:os';
import type { Command } from 'commander';
import { defaultGameWorker } from '../grading/batch/pool.js';
import { QueueUsageError } from '../grading/queue/connection.js';
import { runQueueWorker } from '../grading/queue/worker.js';
import { positiveInt, UsageError } from './args.js';
import { WORKER_ENV } from './batch.js';

interface WorkerFlags {
  queue: string;
  concurrency: number;
  name?: string;
  graceSeconds: number;
}

/** Tuning for tests and slow networks: a job's lock in ms (a worker silent this long is presumed dead). */
export const LOCK_ENV = 'REFEREE_QUEUE_LOCK_MS';

export function register(program: Command): void {
  program
    .command('worker')
    .description('play games from a Redis queue for `referee batch --queue` / `referee grade --queue`, until stopped')
    .requiredOption('--queue <url>', 'the Redis holding the queue: redis://[:password@]host:6379/0, or rediss:// for TLS')
    .option('--concurrency <n>', 'games at once, one process each (default: the number of cores)', positiveInt, availableParallelism())
    .option('--name <id>', 'this worker in logs and in the coordinator (default: host:pid)')
    .option('--grace-seconds <s>', 'on SIGTERM/Ctrl-C, let the games in flight finish this long before handing them back', positiveInt, 10)
    .action(async (flags: WorkerFlags) => {
      const lockEnv = process.env[LOCK_ENV];
      const lockMs = lockEnv && /^\d+$/.test(lockEnv) && Number(lockEnv) >= 500 ? Number(lockEnv) : undefined;
      let signalled = 0;
      const stop = new Promise<void>((resolve) => {
        const onSignal = (): void => {
          signalled += 1;
          // A second signal: leave at once; the games' locks expire and other workers replay them.
          if (signalled > 1) process.exit(0);
          resolve();
        };
        process.on('SIGTERM', onSignal);
        process.on('SIGINT', onSignal);
      });
      try {
        await runQueueWorker(
          {
            url: flags.queue,
            concurrency: flags.concurrency,
            name: flags.name,
            workerScript: process.env[WORKER_ENV] || defaultGameWorker(),
            graceMs: flags.graceSeconds * 1000,
            lockMs,
            log: (line) => console.log(line),
          },
          stop,
        );
      } catch (error) {
        if (error instanceof QueueUsageError) throw new UsageError(error.message);
        throw error;
      }
      process.exit(0);
    });
}
