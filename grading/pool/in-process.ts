/**
 * The pool of one process: games played here, up to `size` at once. `referee grade` uses it (the submission's
 * own Player factory stands in for the artefact cache); batch and tournament use forked workers or a queue.
 */
import { storeArtefact, type Artefact } from './artefact.js';
import { playJob, PlayerProvider, type PlayerFactory } from './play.js';
import { PoolAbortError, type GameJob, type GamePool, type PlayedGame, type PlayOptions } from './job.js';

export class InProcessPool implements GamePool {
  private readonly players: PlayerProvider;
  private readonly waiting: (() => void)[] = [];
  private running = 0;
  private closed = false;

  constructor(
    readonly size: number,
    factory: PlayerFactory,
  ) {
    this.players = new PlayerProvider(factory, Math.max(2, size * 2));
  }

  /** Players here read this machine's artefact cache. */
  async publish(artefact: Artefact): Promise<void> {
    storeArtefact(artefact);
  }

  async play(job: GameJob, options: PlayOptions = {}): Promise<PlayedGame> {
    while (this.running >= this.size && !this.closed) {
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    }
    if (this.closed || options.signal?.aborted) {
      this.waiting.shift()?.();
      throw new PoolAbortError(`${job.label} was withdrawn`);
    }
    this.running += 1;
    try {
      options.onStart?.({ name: `local ${process.pid}`, pid: process.pid });
      const { record, wallMs } = await playJob(job, this.players, { onProgress: options.onProgress });
      return { key: job.key, record, wallMs, worker: `local ${process.pid}` };
    } finally {
      this.running -= 1;
      this.waiting.shift()?.();
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const wake of this.waiting.splice(0)) wake();
    await this.players.close();
  }
}
