/**
 * The local game pool: up to `size` forked worker processes, each playing one game at a time (grading/batch/
 * worker.ts), kept alive between games so their players stay warm. A worker that dies fails only the game it
 * was playing (PoolWorkerError: the grader's failure, never the student's); a fresh worker takes its place.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { storeArtefact, type Artefact } from '../pool/artefact.js';
import {
  PoolAbortError, PoolWorkerError, type GameJob, type GamePool, type GameProgress, type PlayedGame, type PlayOptions, type WorkerInfo,
} from '../pool/job.js';
import type { FromWorker, ToWorker } from './worker-protocol.js';

/** The workers could not run at all (missing script, dying at start-up): the batch cannot go on. */
export class WorkerStartError extends Error {
  override name = 'WorkerStartError';
}

export interface ForkPoolHandlers {
  /** Lines a worker wrote to stderr (sandbox warnings, say), each once. */
  onWarning?(line: string): void;
}

interface Worker {
  process: ChildProcess;
  stderr: string;
}

interface Waiter {
  resolve(played: PlayedGame): void;
  reject(error: Error): void;
  options: PlayOptions;
}

/** One game and everyone waiting for it. */
class Task {
  readonly waiters: Waiter[];
  private settled = false;

  constructor(
    readonly job: GameJob,
    readonly order: number,
    first: Waiter,
    readonly forget: () => void,
  ) {
    this.waiters = [first];
  }

  /** Stop one waiter waiting; false if it was not waiting (any more). */
  drop(waiter: Waiter): boolean {
    const at = this.waiters.indexOf(waiter);
    if (this.settled || at < 0) return false;
    this.waiters.splice(at, 1);
    return true;
  }

  started(worker: WorkerInfo): void {
    for (const waiter of this.waiters) waiter.options.onStart?.(worker);
  }

  progress(progress: GameProgress): void {
    if (this.settled) return;
    for (const waiter of this.waiters) waiter.options.onProgress?.(progress);
  }

  resolve(played: PlayedGame): void {
    this.settle((waiter) => waiter.resolve(played));
  }

  reject(error: Error): void {
    this.settle((waiter) => waiter.reject(error));
  }

  private settle(each: (waiter: Waiter) => void): void {
    if (this.settled) return;
    this.settled = true;
    this.forget();
    for (const waiter of this.waiters.splice(0)) each(waiter);
  }
}

const STDERR_TAIL = 2000;
/** Workers dying before they say ready, in a row, before we give up. */
const MAX_START_FAILURES = 3;

export class ForkPool implements GamePool {
  private readonly workers = new Set<Worker>();
  private readonly warned = new Set<string>();
  private readonly pending: Task[] = [];
  private readonly inFlight = new Map<string, Task>();
  private wake: (() => void)[] = [];
  private lanes = 0;
  private busy = 0;
  private closed = false;
  private startFailures = 0;

  constructor(
    private readonly script: string,
    readonly size: number,
    private readonly handlers: ForkPoolHandlers = {},
  ) {
    if (!existsSync(script)) throw new WorkerStartError(`the grading worker ${script} is missing: run npm run build first`);
  }

  /** Workers share this machine's artefact cache. */
  async publish(artefact: Artefact): Promise<void> {
    storeArtefact(artefact);
  }

  play(job: GameJob, options: PlayOptions = {}): Promise<PlayedGame> {
    if (this.closed) return Promise.reject(new PoolAbortError(`${job.label}: the pool is closed`));
    if (options.signal?.aborted) return Promise.reject(new PoolAbortError(`${job.label} was withdrawn`));
    return new Promise<PlayedGame>((settleResolve, settleReject) => {
      // The abort listener lives as long as this caller waits: a run of thousands of games on one signal must not
      // pile up a listener per finished game.
      let onAbort: (() => void) | null = null;
      const done = (): void => {
        if (onAbort) options.signal?.removeEventListener('abort', onAbort);
      };
      const resolve = (played: PlayedGame): void => {
        done();
        settleResolve(played);
      };
      const reject = (error: unknown): void => {
        done();
        settleReject(error);
      };
      const waiter: Waiter = { resolve, reject, options };
      // The same game asked for twice (two students with the same code): played once, for both.
      let task = this.inFlight.get(job.key);
      if (task) {
        task.waiters.push(waiter);
      } else {
        task = new Task(job, options.order ?? 0, waiter, () => this.inFlight.delete(job.key));
        this.inFlight.set(job.key, task);
        // Lower orders first, first come first served within an order.
        const at = this.pending.findIndex((other) => other.order > task!.order);
        if (at < 0) this.pending.push(task);
        else this.pending.splice(at, 0, task);
        this.wake.shift()?.();
        if (this.lanes < this.size && this.lanes - this.busy < this.pending.length) {
          this.lanes += 1;
          void this.lane();
        }
      }
      const queued = task;
      onAbort = () => {
        // Withdrawn before it started: this caller stops waiting, and the game leaves the queue once nobody
        // waits for it. A game already playing finishes and is delivered (finished work is kept).
        const at = this.pending.indexOf(queued);
        if (at < 0 || !queued.drop(waiter)) return;
        reject(new PoolAbortError(`${job.label} was withdrawn`));
        if (queued.waiters.length === 0) {
          this.pending.splice(at, 1);
          queued.forget();
        }
      };
      options.signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  /** Stop: queued jobs reject with PoolAbortError, workers are killed (their games are dropped). */
  async close(): Promise<void> {
    this.closed = true;
    for (const task of this.pending.splice(0)) task.reject(new PoolAbortError(`${task.job.label}: the pool was closed`));
    for (const wake of this.wake.splice(0)) wake();
    await Promise.all([...this.workers].map((worker) => this.kill(worker)));
  }

  private async next(): Promise<Task | null> {
    while (!this.closed) {
      const task = this.pending.shift();
      if (task) return task;
      await new Promise<void>((resolve) => this.wake.push(resolve));
    }
    return null;
  }

  /** One worker's life: take the next job, play it, repeat; a dead worker is replaced at the next job. */
  private async lane(): Promise<void> {
    let worker: Worker | null = null;
    try {
      for (let task = await this.next(); task; task = await this.next()) {
        if (!worker) {
          try {
            worker = await this.spawn();
          } catch (error) {
            task.reject(error as Error);
            for (const other of this.pending.splice(0)) other.reject(error as Error);
            continue;
          }
          if (!worker) {
            task.reject(new PoolAbortError(`${task.job.label}: the pool was closed`));
            break;
          }
        }
        this.busy += 1;
        const alive = await this.run(worker, task);
        this.busy -= 1;
        if (!alive) worker = null;
      }
    } finally {
      this.lanes -= 1;
      if (worker) await this.dismiss(worker);
    }
  }

  private spawn(): Promise<Worker | null> {
    return new Promise((resolve, reject) => {
      const child = fork(this.script, [], { stdio: ['ignore', 'ignore', 'pipe', 'ipc'], serialization: 'json' });
      const worker: Worker = { process: child, stderr: '' };
      this.workers.add(worker);
      child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
        worker.stderr = (worker.stderr + chunk).slice(-STDERR_TAIL);
        for (const line of chunk.split('\n').map((each) => each.trim())) {
          if (line && !this.warned.has(line)) {
            this.warned.add(line);
            this.handlers.onWarning?.(line);
          }
        }
      });
      const early = (code: number | null, signal: NodeJS.Signals | null): void => {
        this.workers.delete(worker);
        if (this.closed) return resolve(null);
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
    });
  }

  /** Play one task on a worker; false when the worker died doing it. */
  private run(worker: Worker, task: Task): Promise<boolean> {
    const { job } = task;
    return new Promise((resolve) => {
      const onMessage = (message: FromWorker): void => {
        if (message.type === 'ready' || message.key !== job.key) return;
        if (message.type === 'progress') return task.progress(message.progress);
        cleanUp();
        if (message.type === 'played') {
          task.resolve({ key: job.key, record: message.record, wallMs: message.wallMs, worker: `local ${worker.process.pid}` });
        } else {
          task.reject(new PoolWorkerError(message.message));
        }
        resolve(true);
      };
      const onExit = (code: number | null, signal: NodeJS.Signals | null): void => {
        cleanUp();
        this.workers.delete(worker);
        if (this.closed) {
          task.reject(new PoolAbortError(`${job.label}: the pool was closed`));
        } else {
          const tail = worker.stderr.trim().split('\n').slice(-2).join(' ');
          task.reject(new PoolWorkerError(`the grading worker died (${describeExit(code, signal)}${tail ? `: ${tail}` : ''})`));
        }
        resolve(false);
      };
      const cleanUp = (): void => {
        worker.process.off('message', onMessage);
        worker.process.off('exit', onExit);
      };
      worker.process.on('message', onMessage);
      worker.process.once('exit', onExit);
      task.started({ name: `local ${worker.process.pid}`, pid: worker.process.pid });
      // A worker that died since its last game (kill -9) fails the send (EPIPE) instead of throwing it: its game
      // goes the way of any worker death, whether its exit is still to come or has already been reported.
      worker.process.send({ type: 'play', job } satisfies ToWorker, (error) => {
        if (!error) return;
        const { exitCode, signalCode } = worker.process;
        if (exitCode !== null || signalCode !== null) onExit(exitCode, signalCode);
        else worker.process.kill('SIGKILL');
      });
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

/** The compiled game worker beside this module (dist/grading/batch/worker.js). */
export const defaultGameWorker = (): string => fileURLToPath(new URL('./worker.js', import.meta.url));
