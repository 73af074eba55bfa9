/**
 * The local GameRunner: up to `size` forked game workers, each playing one game at a time (a reference AI
 * computing in a worker never delays another game's sandboxed student). A worker that dies fails only its job,
 * which is retried once on a fresh worker: a dead worker is the grader's failure, never charged to a player.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { validateRecordShape, type GameRecord } from '../../harness/referee/record.js';
import type { GameJob, GameRunner, PlayedGame } from './game-job.js';
import type { FromGameWorker, ToGameWorker } from './game-worker.js';

/** A game could not be played because the grader failed (twice): the tournament stops with its journal intact. */
export class GraderError extends Error {
  override name = 'GraderError';
}

interface Pending {
  job: GameJob;
  attempts: number;
  resolve: (played: PlayedGame) => void;
  reject: (error: Error) => void;
}

interface Worker {
  process: ChildProcess;
  busy: Pending | null;
  stderr: string;
  ready: boolean;
}

export const defaultGameWorker = (): string => fileURLToPath(new URL('./game-worker.js', import.meta.url));

export class LocalGamePool implements GameRunner {
  private readonly queue: Pending[] = [];
  private readonly workers = new Set<Worker>();
  private closed = false;

  constructor(
    private readonly size: number,
    private readonly script: string = defaultGameWorker(),
    private readonly onWarning: (line: string) => void = () => undefined,
  ) {
    if (!existsSync(script)) throw new GraderError(`the game worker ${script} is missing: run npm run build first`);
  }

  play(job: GameJob): Promise<PlayedGame> {
    if (this.closed) return Promise.reject(new GraderError('the game pool is closed'));
    return new Promise((resolve, reject) => {
      this.queue.push({ job, attempts: 0, resolve, reject });
      this.dispatch();
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const pending of this.queue.splice(0)) pending.reject(new GraderError('stopped'));
    await Promise.all(
      [...this.workers].map(
        (worker) =>
          new Promise<void>((resolve) => {
            const child = worker.process;
            if (child.exitCode !== null || child.signalCode !== null) return resolve();
            const force = setTimeout(() => child.kill('SIGKILL'), 3000);
            child.once('exit', () => {
              clearTimeout(force);
              resolve();
            });
            child.kill('SIGTERM');
          }),
      ),
    );
    this.workers.clear();
  }

  private dispatch(): void {
    if (this.closed) return;
    for (const worker of this.workers) {
      if (this.queue.length === 0) return;
      if (worker.ready && worker.busy === null) this.assign(worker, this.queue.shift()!);
    }
    if (this.queue.length > this.idleSlots() && this.workers.size < this.size) {
      this.spawn();
      this.dispatch();
    }
  }

  private idleSlots(): number {
    let idle = 0;
    for (const worker of this.workers) if (!worker.ready) idle += 1;
    return idle;
  }

  private spawn(): void {
    const child = fork(this.script, [], { stdio: ['ignore', 'ignore', 'pipe', 'ipc'], serialization: 'json' });
    const worker: Worker = { process: child, busy: null, stderr: '', ready: false };
    this.workers.add(worker);
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
      worker.stderr = (worker.stderr + chunk).slice(-2000);
      for (const line of chunk.split('\n')) if (line.trim()) this.onWarning(line.trim());
    });
    child.on('message', (message: FromGameWorker) => {
      if (message.type === 'ready') {
        worker.ready = true;
        this.dispatch();
        return;
      }
      const pending = worker.busy;
      if (!pending || pending.job.key !== message.key) return;
      worker.busy = null;
      if (message.type === 'played') {
        try {
          validateRecordShape(message.record);
          pending.resolve({ record: message.record as GameRecord, wallMs: message.wallMs });
        } catch (error) {
          pending.reject(new GraderError(`a game worker sent a malformed record: ${(error as Error).message}`));
        }
      } else {
        pending.reject(new GraderError(`a game could not be played: ${message.message}`));
      }
      this.dispatch();
    });
    child.once('exit', (code, signal) => {
      this.workers.delete(worker);
      const pending = worker.busy;
      worker.busy = null;
      if (this.closed) {
        pending?.reject(new GraderError('stopped'));
        return;
      }
      const why = signal ? `killed by ${signal}` : `exit code ${code}`;
      if (pending) {
        if (pending.attempts < 1) {
          pending.attempts += 1;
          this.queue.unshift(pending);
        } else {
          pending.reject(new GraderError(`a game worker died twice playing one game (${why}): ${worker.stderr.trim().split('\n').slice(-2).join(' ') || 'no output'}`));
        }
      } else if (!worker.ready) {
        for (const each of this.queue.splice(0)) each.reject(new GraderError(`game workers die as they start (${why}): ${worker.stderr.trim() || 'no output'}`));
        return;
      }
      this.dispatch();
    });
  }

  private assign(worker: Worker, pending: Pending): void {
    worker.busy = pending;
    worker.process.send({ type: 'play', job: pending.job } satisfies ToGameWorker);
  }
}
