/**
 * A reference AI as a Player whose search runs in a worker thread (./ai-worker.ts): the same agents as
 * harness/referee/in-process.ts, but the server keeps answering other tabs while the AI thinks. A search that is
 * no longer wanted (undo, restart, closed game) is stopped by terminating the worker; the next call starts one.
 */
import { Worker } from 'node:worker_threads';
import type { GameStart, MoveRequest, Player, PlayerAnswer } from '../../harness/referee/player.js';
import type { WorkerReply, WorkerRequest } from './ai-worker.js';

const WORKER_URL = new URL('./ai-worker.js', import.meta.url);

/** A request before its id is assigned (Omit over each member of the union). */
type WorkerRequestBody = WorkerRequest extends infer R ? (R extends WorkerRequest ? Omit<R, 'id'> : never) : never;

type Pending = { id: number; resolve: (answer: PlayerAnswer) => void };

export class WorkerPlayer implements Player {
  /** Reference AIs budget by nodes: timed but never ruled late (see Player.trusted). */
  readonly trusted = true;
  private worker: Worker | null = null;
  private pending: Pending | null = null;
  private nextId = 1;
  private started: GameStart | null = null;

  constructor(readonly name: string) {}

  private spawn(): Worker {
    const worker = new Worker(WORKER_URL);
    worker.on('message', (reply: WorkerReply) => {
      const pending = this.pending;
      if (pending === null || pending.id !== reply.id) return;
      this.pending = null;
      if (reply.kind === 'error') pending.resolve({ kind: 'error', message: reply.message, stack: reply.stack });
      else if (reply.kind === 'ready') pending.resolve({ kind: 'ready' });
      else pending.resolve({ kind: 'move', value: reply.value });
    });
    const failed = (message: string): void => {
      if (this.worker === worker) this.worker = null;
      const pending = this.pending;
      this.pending = null;
      pending?.resolve({ kind: 'crash', message });
    };
    worker.on('error', (error) => failed(`reference AI worker failed: ${error.message}`));
    worker.on('exit', (code) => failed(`reference AI worker exited (code ${code})`));
    worker.unref();
    return worker;
  }

  private call(request: WorkerRequestBody): Promise<PlayerAnswer> {
    if (this.pending) this.stop('a new request replaced it');
    const id = this.nextId++;
    return new Promise((resolve) => {
      this.pending = { id, resolve };
      this.worker ??= this.spawn();
      this.worker.postMessage({ ...request, id } as WorkerRequest);
    });
  }

  /** Stop any search in flight: its caller gets an error answer at once. */
  private stop(reason: string): void {
    const pending = this.pending;
    this.pending = null;
    if (pending) {
      const worker = this.worker;
      this.worker = null;
      void worker?.terminate();
      pending.resolve({ kind: 'error', message: `search stopped: ${reason}` });
    }
  }

  async startGame(start: GameStart): Promise<PlayerAnswer> {
    this.started = start;
    return this.call({ kind: 'start', game: start.game, name: this.name, side: start.side, seed: start.seed });
  }

  async requestMove(request: MoveRequest): Promise<PlayerAnswer> {
    if (this.started === null) return { kind: 'protocol', message: `${this.name} was asked for a move outside a game` };
    if (this.worker === null) {
      // The worker was stopped (an abandoned search): rebuild the agent for this side first.
      const ready = await this.startGame(this.started);
      if (ready.kind !== 'ready') return ready;
    }
    return this.call({ kind: 'move', state: request.state, info: request.info });
  }

  async abort(reason: string): Promise<void> {
    this.stop(reason);
  }

  async endGame(): Promise<void> {
    this.stop('the game ended');
  }

  async close(): Promise<void> {
    this.stop('the player was closed');
    const worker = this.worker;
    this.worker = null;
    this.started = null;
    await worker?.terminate();
  }
}
