/**
 * A person at a browser as a Player like any other: the referee asks for a move, the page answers it. The human is
 * untimed (trusted: a person is never ruled late), but every move is still checked by the referee, and by the
 * session before it is passed on, so a mis-click is refused instead of counting as an illegal answer.
 */
import type { GameStart, MoveRequest, Player, PlayerAnswer } from '../../harness/referee/player.js';

export interface PendingAsk {
  request: MoveRequest;
  /** When the ask began (Date.now()), for the page's running clock. */
  since: number;
}

export class HumanPlayer implements Player {
  readonly trusted = true;
  private waiting: { ask: PendingAsk; resolve: (answer: PlayerAnswer) => void } | null = null;

  /** `onAsk` tells whoever shows the page that this side is to move (or no longer is, with null). */
  constructor(
    readonly name: string,
    private readonly onAsk: (ask: PendingAsk | null) => void = () => {},
    private readonly onStart: (start: GameStart) => void = () => {},
  ) {}

  get pending(): PendingAsk | null {
    return this.waiting?.ask ?? null;
  }

  async startGame(start: GameStart): Promise<PlayerAnswer> {
    this.onStart(start);
    return { kind: 'ready' };
  }

  requestMove(request: MoveRequest): Promise<PlayerAnswer> {
    this.cancel('a new request replaced the old one');
    return new Promise((resolve) => {
      const ask = { request, since: Date.now() };
      this.waiting = { ask, resolve };
      this.onAsk(ask);
    });
  }

  /** The page's answer (already checked legal by the caller). False when nothing was asked. */
  answer(move: string): boolean {
    const waiting = this.waiting;
    if (waiting === null) return false;
    this.waiting = null;
    this.onAsk(null);
    waiting.resolve({ kind: 'move', value: move });
    return true;
  }

  /** Withdraw the ask (undo, restart, closed game): the referee sees an error and that run is discarded. */
  cancel(reason: string): void {
    const waiting = this.waiting;
    this.waiting = null;
    if (waiting) {
      this.onAsk(null);
      waiting.resolve({ kind: 'error', message: `the move was withdrawn: ${reason}` });
    }
  }

  async abort(reason: string): Promise<void> {
    this.cancel(reason);
  }

  async endGame(): Promise<void> {
    this.cancel('the game ended');
  }

  async close(): Promise<void> {
    this.cancel('the player was closed');
  }
}
