/**
 * The grading workers: up to `size` forked processes, each grading one student at a time (and so playing one
 * game at a time). A worker that dies fails only the student it was grading; a fresh one takes its place.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import type { Assignment } from '../assignment.js';
import type { FromWorker, ToWorker } from './worker-protocol.js';

export interface PoolTask {
  student: string;
  path: string;
  command: string;
}

export interface PoolHandlers {
  onStart(task: PoolTask, pid: number): void;
  onMessage(task: PoolTask, message: Exclude<FromWorker, { type: 'ready' }>): Promise<void> | void;
  /** The worker died while grading `task` (exit code or signal, and the end of its stderr). */
  onDeath(task: PoolTask, reason: string): void;
  /** Lines a worker wrote to stderr (sandbox warnings, say), each once. */
  onWarning(line: string): void;
}

/** The workers could not run at all (missing script, dying at start-up): the batch cannot go on. */
export class WorkerStartError extends Error {
  override name = 'WorkerStartError';
}

interface Worker {
  process: ChildProcess;
  task: PoolTask | null;
  stderr: string;
}

const STDERR_TAIL = 2000;
/** Workers dying before they say ready, in a row, before we give up. */
const MAX_START_FAILURES = 3;

export class WorkerPool {
  private readonly workers = new Set<Worker>();
  private readonly warned = new Set<string>();
  private stopping = false;
  private startFailures = 0;

  constructor(
    private readonly script: string,
    private readonly init: { journalPath: string; assignment: Assignment; assignmentSource: string },
    private readonly handlers: PoolHandlers,
  ) {
    if (!existsSync(script)) throw new WorkerStartError(`the grading worker ${script} is missing: run npm run build first`);
  }

  /** Grade every task with up to `size` workers; resolves when all are done or stop() was called. */
  async run(tasks: PoolTask[], size: number): Promise<void> {
    const queue = [...tasks];
    const lane = async (): Promise<void> => {
      while (queue.length > 0 && !this.stopping) {
        const worker = await this.spawn();
        if (!worker) return;
        while (queue.length > 0 && !this.stopping) {
          const task = queue.shift()!;
          const alive = await this.grade(worker, task);
          if (!alive) break;
        }
        await this.dismiss(worker);
      }
    };
    await Promise.all(Array.from({ length: Math.min(size, tasks.length) }, lane));
  }

  /** Stop handing out work and kill the workers (their in-flight games are lost; finished ones are journaled). */
  async stop(): Promise<void> {
    this.stopping = true;
    await Promise.all([...this.workers].map((worker) => this.kill(worker)));
  }

  private spawn(): Promise<Worker | null> {
    return new Promise((resolve, reject) => {
      const child = fork(this.script, [], { stdio: ['ignore', 'ignore', 'pipe', 'ipc'], serialization: 'json' });
      const worker: Worker = { process: child, task: null, stderr: '' };
      this.workers.add(worker);
      child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
        worker.stderr = (worker.stderr + chunk).slice(-STDERR_TAIL);
        for (const line of chunk.split('\n').map((each) => each.trim())) {
          if (line && !this.warned.has(line)) {
            this.warned.add(line);
            this.handlers.onWarning(line);
          }
        }
      });
      const early = (code: number | null, signal: NodeJS.Signals | null): void => {
        this.workers.delete(worker);
        if (this.stopping) return resolve(null);
        if (++this.startFailures >= MAX_START_FAILURES) {
          return reject(new WorkerStartError(`grading workers die as they start (${describeExit(code, signal)}): ${worker.stderr.trim() || 'no output'}`));
        }
        resolve(this.spawn());
      };
      child.once('exit', early);
      child.once('message', (message: FromWorker) => {
        if (message.type !== 'ready') return;
        child.off('exit', early);
        this.startFailures = 0;
        resolve(worker);
      });
      child.send({ type: 'init', ...this.init } satisfies ToWorker);
    });
  }

  /** Grade one task; false when the worker died doing it. */
  private grade(worker: Worker, task: PoolTask): Promise<boolean> {
    worker.task = task;
    return new Promise((resolve) => {
      const onMessage = (message: FromWorker): void => {
        if (message.type === 'ready') return;
        if (message.type === 'graded' || message.type === 'failed') cleanUp();
        Promise.resolve(this.handlers.onMessage(task, message)).then(
          () => {
            if (message.type === 'graded' || message.type === 'failed') resolve(true);
          },
          () => resolve(true),
        );
      };
      const onExit = (code: number | null, signal: NodeJS.Signals | null): void => {
        cleanUp();
        this.workers.delete(worker);
        if (!this.stopping) {
          const tail = worker.stderr.trim().split('\n').slice(-2).join(' ');
          this.handlers.onDeath(task, `${describeExit(code, signal)}${tail ? `: ${tail}` : ''}`);
        }
        resolve(false);
      };
      const cleanUp = (): void => {
        worker.task = null;
        worker.process.off('message', onMessage);
        worker.process.off('exit', onExit);
      };
      worker.process.on('message', onMessage);
      worker.process.once('exit', onExit);
      this.handlers.onStart(task, worker.process.pid ?? 0);
      worker.process.send({ type: 'grade', ...task } satisfies ToWorker);
    });
  }

  /** Let an idle worker go (it exits when its channel closes) and wait until it has. */
  private dismiss(worker: Worker): Promise<void> {
    this.workers.delete(worker);
    const child = worker.process;
    if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
    return new Promise((resolve) => {
      child.once('exit', () => resolve());
      if (child.connected) child.disconnect();
    });
  }

  private kill(worker: Worker): Promise<void> {
    const child = worker.process;
    if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
    return new Promise((resolve) => {
      const force = setTimeout(() => child.kill('SIGKILL'), 3000);
      child.once('exit', () => {
        clearTimeout(force);
        resolve();
      });
      // SIGTERM: the worker kills its sandboxes first, then exits.
      child.kill('SIGTERM');
    });
  }
}

function describeExit(code: number | null, signal: NodeJS.Signals | null): string {
  return signal ? `killed by ${signal}` : `exit code ${code}`;
}
