/**
 * `referee worker --queue redis://host:6379/0 --key-file queue.key`: play games from a Redis queue until stopped
 * (see docs/instructor-guide.md "Grading on many machines"). Run one per machine; it plays --concurrency games at
 * once, one per core by default. It refuses to run without OS isolation (bubblewrap) unless --allow-unisolated:
 * a worker runs every student's code of a class, and a result it signs is trusted by the coordinator.
 * Exit codes: 0 stopped cleanly (SIGTERM or Ctrl-C), 2 usage error (bad URL, Redis unreachable or silent at
 * start, no key file, no isolation).
 */
import { availableParallelism } from 'node:os';
import type { Command } from 'commander';
import { defaultGameWorker } from '../grading/batch/pool.js';
import { QueueUsageError } from '../grading/queue/connection.js';
import { runQueueWorker } from '../grading/queue/worker.js';
import { detectLayers, isHardened, warnNotIsolatedOnce } from '../harness/sandbox/layers.js';
import { positiveInt, UsageError } from './args.js';
import { WORKER_ENV } from './batch.js';
import { queueSetup } from './queue-flags.js';

interface WorkerFlags {
  queue: string;
  keyFile?: string;
  redisPasswordFile?: string;
  concurrency: number;
  name?: string;
  graceSeconds: number;
  allowUnisolated?: boolean;
}

/** Tuning for tests and slow networks: a job's lock in ms (a worker silent this long is presumed dead). */
export const LOCK_ENV = 'REFEREE_QUEUE_LOCK_MS';

export function register(program: Command): void {
  program
    .command('worker')
    .description('play games from a Redis queue for `referee batch --queue` / `referee grade --queue`, until stopped')
    .requiredOption('--queue <url>', 'the Redis holding the queue: redis://host:6379/0, or rediss:// for TLS (the password from --redis-password-file or $REFEREE_REDIS_PASSWORD)')
    .option('--key-file <path>', "the key that signs results: a copy of the coordinator's key file, mode 600 (default: $REFEREE_QUEUE_KEY_FILE)")
    .option('--redis-password-file <path>', "a file (mode 600) whose first line is Redis's password (default: $REFEREE_REDIS_PASSWORD; never put it in the URL)")
    .option('--concurrency <n>', 'games at once, one process each (default: the number of cores)', positiveInt, availableParallelism())
    .option('--name <id>', 'this worker in logs and in the coordinator (default: host:pid)')
    .option('--grace-seconds <s>', 'on SIGTERM/Ctrl-C, let the games in flight finish this long before handing them back', positiveInt, 10)
    .option('--allow-unisolated', 'run even where the sandbox has no OS isolation (no working bubblewrap): only for code you trust')
    .action(async (flags: WorkerFlags) => {
      const { endpoint, key } = queueSetup(flags, 'worker');
      const layers = detectLayers();
      if (!isHardened(layers)) {
        if (!flags.allowUnisolated) {
          const why = [layers.bwrapProblem ?? 'no bubblewrap (apt-get install bubblewrap)', layers.landlock?.problem ? `no Landlock+seccomp stand-in: ${layers.landlock.problem}` : null].filter(Boolean).join('; ');
          throw new UsageError(`this machine cannot isolate submissions (${why}): a worker plays every student's code, so it refuses to run; fix that, or pass --allow-unisolated for code you trust`);
        }
        warnNotIsolatedOnce(layers);
      }
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
            endpoint,
            key,
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
