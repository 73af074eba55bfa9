/**
 * A game the page plays, kept on the server under an id (a reload or a second tab finds it again). The referee's
 * playGame decides every rule: each change (a move, undo, redo, restart) ends the current run and starts a new one
 * whose first plies are answered from the history (instantly), so the record is always one the referee produced.
 */
import { randomBytes } from 'node:crypto';
import type { AnyGame, Side } from '../../harness/games/game.js';
import { configForGame, type RefereeConfig } from '../../harness/referee/config.js';
import { playGame, type PlayerClocks } from '../../harness/referee/match.js';
import type { GameStart, MoveRequest, Player, PlayerAnswer, PlayerScheduling } from '../../harness/referee/player.js';
import type { GameEnd, GameRecord, TurnRecord } from '../../harness/referee/record.js';
import { HumanPlayer } from './human-player.js';
import type { SessionSnapshot, SideSpec } from './protocol.js';

export const newId = (): string => randomBytes(12).toString('base64url');

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** What a run needs from the session around each ask. */
interface RunHooks {
  current(): boolean;
  thinking(side: Side | null): void;
}

/**
 * One side of one run: answers its first moves from the history, then hands over to the real player. The referee
 * times every player exactly as in grading (per-language limits, first-turn factor, time bank, strikes); AI vs AI
 * pacing (pause, step, speed) waits before a turn's clock starts (playGame's beforeTurn), never inside an ask.
 */
class RunPlayer implements Player {
  readonly name: string;

  constructor(
    private readonly inner: Player,
    private readonly side: Side,
    private readonly script: readonly string[],
    private readonly hooks: RunHooks,
    private readonly history: readonly TurnRecord[] = [],
  ) {
    this.name = inner.name;
  }

  get trusted(): boolean | undefined {
    return this.inner.trusted;
  }

  /** A player that keeps its own deadline (a restarted Botzone bot: the spawner) is ruled from its clock here too. */
  get keepsTime(): boolean | undefined {
    return this.inner.keepsTime;
  }

  /** The language scales the player's limits (a Botzone bot's multiplier). */
  get language(): string | undefined {
    return this.inner.language;
  }

  get isolation(): Player['isolation'] {
    return this.inner.isolation;
  }

  /** The scheduler's word on the process: the referee does not count a busy server's wait against construction. */
  scheduling(withState?: boolean): PlayerScheduling | null {
    return this.inner.scheduling?.(withState) ?? null;
  }

  /** Loading is the inner player's own (the sandbox times it against start.loadTimeLimitMs too). */
  load(start: GameStart): Promise<PlayerAnswer> {
    // The turns this run goes on from: a player that keeps state between turns (a kept Botzone bot) is brought up to them.
    const history = this.history.map((turn) => ({ side: turn.side, kind: turn.kind, ...(turn.move !== undefined ? { move: turn.move } : {}) }));
    return this.inner.load ? this.inner.load(history.length > 0 ? { ...start, history } : start) : Promise.resolve({ kind: 'ready' });
  }

  startGame(start: GameStart): Promise<PlayerAnswer> {
    return this.inner.startGame(start);
  }

  /** Whether the side's `moveNumber`-th turn is answered from the history (no pacing, no thinking). */
  scripted(moveNumber: number): boolean {
    return this.script[moveNumber - 1] !== undefined;
  }

  async requestMove(request: MoveRequest): Promise<PlayerAnswer> {
    const scripted = this.script[request.info.moveNumber - 1];
    if (scripted !== undefined && request.info.attempt === 1) return { kind: 'move', value: scripted };
    if (!this.hooks.current()) return { kind: 'error', message: 'the run was replaced' };
    this.hooks.thinking(this.side);
    try {
      return await this.inner.requestMove(request);
    } finally {
      this.hooks.thinking(null);
    }
  }

  abort(reason: string): Promise<PlayerAnswer | void> {
    return this.inner.abort(reason);
  }

  endGame(): Promise<void> {
    return this.inner.endGame();
  }

  async close(): Promise<void> {
    // The session owns the inner player and closes it when the game is closed.
  }
}

/**
 * Each side's clocks after `history`: the moves it answers from the history take no time in the new run, so the
 * time they took, the bank they drew on and the strikes they cost are carried in (undo, redo, a restored game).
 */
export function clocksAfter(history: readonly TurnRecord[]): PlayerClocks {
  const clocks: PlayerClocks = { timeUsedMs: [0, 0], bankLeftMs: [null, null], strikes: [0, 0] };
  for (const turn of history) {
    clocks.timeUsedMs[turn.side] += turn.wallMs ?? 0;
    if (turn.bankLeftMs !== undefined) clocks.bankLeftMs[turn.side] = turn.bankLeftMs;
    if (turn.strikes !== undefined) clocks.strikes[turn.side] = turn.strikes;
  }
  return clocks;
}

export interface SessionOptions {
  game: AnyGame;
  seed: number;
  /** null for a side a person plays from the page. */
  players: [Player | null, Player | null];
  specs: [SideSpec, SideSpec];
  config: RefereeConfig;
  /** Turns to start from (a loaded record), and turns to offer for redo after them. */
  history?: TurnRecord[];
  future?: TurnRecord[];
  /**
   * Makes the AI sides again (same specs) for a finished game whose players were released: undo, redo or restart
   * after the end brings them back. Without it such a change is refused.
   */
  remakePlayers?: () => Promise<[Player | null, Player | null]>;
  /** Called when the game ends (the server applies its cap on finished games then). */
  onFinished?: () => void;
}

export class GameSession {
  readonly id = newId();
  /**
   * The key that lets a page change this game (move, undo, restart …): given only to the socket that created it,
   * which keeps it in its tab. Any other tab that opens the game's URL watches it.
   */
  readonly controlKey = newId();
  readonly game: AnyGame;
  readonly seed: number;
  readonly specs: [SideSpec, SideSpec];
  readonly config: RefereeConfig;
  private players: [Player, Player];
  private readonly humans: [HumanPlayer | null, HumanPlayer | null];
  private readonly playerNames: [string, string];
  private readonly remakePlayers: SessionOptions['remakePlayers'];
  private readonly onFinished: SessionOptions['onFinished'];
  /**
   * A finished game keeps its record, not its players: the AI workers and sandboxes (tens of MB each) are closed
   * when the game ends, and made again only if someone takes a move back or restarts.
   */
  private released = false;
  /** When the game ended (ms since the epoch), null while it is on; the server's cap and age for finished games. */
  finishedAt: number | null = null;
  private turns: TurnRecord[] = [];
  /** Undone groups of turns, the latest last. */
  private redoStack: TurnRecord[][] = [];
  private end: GameEnd | null = null;
  private record: GameRecord | null = null;
  private state: unknown;
  private generation = 0;
  private running: Promise<void> = Promise.resolve();
  private queue: Promise<void> = Promise.resolve();
  private clockSide: Side | null = null;
  private clockSince = 0;
  private error: string | null = null;
  /** The moves a Restart discarded, until the next move: Undo brings them back (a stray R loses nothing). */
  private beforeRestart: TurnRecord[] | null = null;
  paused = false;
  delayMs = 300;
  private steps = 0;
  /** AI vs AI: the next move waits at the gate for Play or Step. */
  private holding = false;
  private gateWaiters: (() => void)[] = [];
  private listeners = new Set<(snapshot: SessionSnapshot) => void>();
  lastUsed = Date.now();
  closed = false;

  constructor(options: SessionOptions) {
    this.game = options.game;
    this.seed = options.seed;
    this.specs = options.specs;
    this.config = options.config;
    const human = (): HumanPlayer => new HumanPlayer('human', () => this.broadcast());
    this.humans = [options.players[0] ? null : human(), options.players[1] ? null : human()];
    this.players = [options.players[0] ?? this.humans[0]!, options.players[1] ?? this.humans[1]!];
    this.playerNames = [this.players[0].name, this.players[1].name];
    this.remakePlayers = options.remakePlayers;
    this.onFinished = options.onFinished;
    // The moves it starts from are the game's at once (the first snapshot a page gets shows them), before the run
    // replays them through the referee.
    this.turns = (options.history ?? []).slice();
    this.state = this.positionAfter(this.turns);
    if (options.future && options.future.length > 0) {
      // Redo walks forward one ply at a time through a loaded game.
      this.redoStack = options.future.map((turn) => [turn]).reverse();
    }
    this.enqueue(() => this.runFrom(options.history ?? []));
  }

  /** The start position under this game's rule switches (the referee's playGame starts from the same). */
  private startPosition(): unknown {
    return this.game.initial(this.seed, configForGame(this.game, this.config).gameRules);
  }

  get aiVsAi(): boolean {
    return this.humans[0] === null && this.humans[1] === null;
  }

  get listenerCount(): number {
    return this.listeners.size;
  }

  subscribe(listener: (snapshot: SessionSnapshot) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private broadcast(): void {
    const snapshot = this.snapshot();
    for (const listener of this.listeners) listener(snapshot);
  }

  /** Changes happen one at a time, in the order they arrived. */
  private enqueue(change: () => Promise<void> | void): Promise<void> {
    this.lastUsed = Date.now();
    const next = this.queue.then(change).catch((error: unknown) => {
      this.error = `internal error: ${error instanceof Error ? error.message : String(error)}`;
      this.broadcast();
    });
    this.queue = next;
    return next;
  }

  private setClock(side: Side | null): void {
    this.clockSide = side;
    this.clockSince = Date.now();
    this.broadcast();
  }

  /** End the current run: withdraw asks, stop searches, release the pacing gate, and wait for it to finish. */
  private async stopRun(): Promise<void> {
    this.generation++;
    for (const human of this.humans) human?.cancel('the game changed');
    // Only a search in flight is stopped: an idle submission keeps its warm process.
    const thinking = this.clockSide;
    if (thinking !== null && this.humans[thinking] === null) await this.players[thinking].abort('the game changed');
    this.clockSide = null;
    this.releaseGate();
    await this.running;
  }

  private releaseGate(): void {
    const waiters = this.gateWaiters;
    this.gateWaiters = [];
    for (const wake of waiters) wake();
  }

  private async gate(generation: number): Promise<void> {
    if (!this.aiVsAi) return;
    if (this.paused) {
      while (this.paused && this.steps === 0 && generation === this.generation) {
        this.holding = true;
        this.broadcast();
        await new Promise<void>((resolve) => this.gateWaiters.push(resolve));
        this.holding = false;
      }
      if (this.steps > 0) this.steps--;
      return;
    }
    if (this.delayMs > 0) await sleep(this.delayMs);
  }

  private async runFrom(history: TurnRecord[]): Promise<void> {
    await this.stopRun();
    if (this.released) await this.revive();
    this.finishedAt = null;
    const generation = this.generation;
    this.turns = history.slice();
    this.end = null;
    this.record = null;
    this.error = null;
    this.state = this.positionAfter(this.turns);
    const scripts: [string[], string[]] = [[], []];
    for (const turn of history) if (turn.kind === 'move') scripts[turn.side].push(turn.move!);
    const hooks: RunHooks = {
      current: () => generation === this.generation,
      thinking: (side) => {
        if (generation === this.generation) this.setClock(side);
      },
    };
    const runPlayers = ([0, 1] as const).map(
      (side) => new RunPlayer(this.players[side], side, scripts[side], hooks, history),
    ) as [RunPlayer, RunPlayer];
    this.broadcast();
    this.running = playGame({
      game: this.game,
      black: runPlayers[0],
      white: runPlayers[1],
      seed: this.seed,
      config: this.config,
      clocks: clocksAfter(history),
      // AI vs AI pacing, before the clock starts; moves answered from the history are not paced.
      beforeTurn: (side, moveNumber) => (runPlayers[side].scripted(moveNumber) ? undefined : this.gate(generation)),
      onTurn: (turn, state) => {
        if (generation !== this.generation || turn.ply <= history.length) return;
        this.turns.push(turn);
        this.state = state;
        this.broadcast();
      },
    }).then(
      (record) => {
        if (generation !== this.generation) return;
        this.record = { ...record, turns: this.turns.slice() };
        this.end = record.end;
        this.clockSide = null;
        this.broadcast();
        this.finished();
      },
      (error: unknown) => {
        if (generation !== this.generation) return;
        this.error = `the referee failed: ${error instanceof Error ? error.message : String(error)}`;
        this.broadcast();
      },
    );
  }

  /** The game is over: note when, and let its AI players go (in the queue of changes, so a restart waits for it). */
  private finished(): void {
    this.finishedAt = Date.now();
    void this.enqueue(() => this.releasePlayers());
    this.onFinished?.();
  }

  private async releasePlayers(): Promise<void> {
    if (this.released || this.end === null || this.closed) return;
    this.released = true;
    await Promise.all(([0, 1] as const).map((side) => (this.humans[side] ? Promise.resolve() : this.players[side].close().catch(() => {}))));
  }

  private async revive(): Promise<void> {
    if (!this.remakePlayers) throw new Error('this finished game can no longer be continued: start a new game');
    const made = await this.remakePlayers();
    this.players = [made[0] ?? this.humans[0]!, made[1] ?? this.humans[1]!];
    this.released = false;
  }

  private positionAfter(turns: readonly TurnRecord[]): unknown {
    let state = this.startPosition();
    for (const turn of turns) {
      if (turn.kind === 'pass') state = this.game.pass(state);
      else {
        // The legal move object itself: a game may compare moves by identity.
        const move = this.game.legalMoves(state).find((m) => this.game.formatMove(m) === turn.move);
        if (move === undefined) throw new Error(`ply ${turn.ply}: ${turn.move} is not legal here`);
        state = this.game.apply(state, move);
      }
    }
    return state;
  }

  /** A person's move from the page. Returns a one-line refusal, or null when the move was passed to the referee. */
  move(ply: number, move: string): string | null {
    this.lastUsed = Date.now();
    if (this.end) return 'the game is over: press R to restart, or undo';
    if (ply !== this.turns.length + 1) return `that click was for ply ${ply}, but the game is at ply ${this.turns.length + 1}`;
    const side = this.game.toMove(this.state);
    const human = this.humans[side];
    if (!human) return `${this.game.sideNames[side]} is not played from this page`;
    if (!human.pending) return 'wait a moment: the referee has not asked for this move yet';
    const legal = this.game.legalMoves(this.state).map((m) => this.game.formatMove(m));
    if (!legal.includes(move)) return `${move} is not a legal move for ${this.game.sideNames[side]} here`;
    this.redoStack = [];
    this.beforeRestart = null;
    human.answer(move);
    return null;
  }

  /** The index where undo cuts the history: before the last human move (taking back the AI's reply with it). */
  private undoCut(): number {
    if (this.aiVsAi) return this.turns.length - 1;
    for (let i = this.turns.length - 1; i >= 0; i--) {
      const turn = this.turns[i];
      if (turn.kind === 'move' && this.humans[turn.side] !== null) return i;
    }
    return -1;
  }

  /**
   * Undo: after a resignation it takes back the resignation only (the same position, the same side to move); right
   * after a Restart it brings back the game the Restart discarded; otherwise it takes back the last human move with
   * the replies after it.
   */
  undo(): Promise<void> {
    return this.enqueue(async () => {
      if (this.end?.reason === 'resign') {
        await this.runFrom(this.turns.slice());
        return;
      }
      if (this.beforeRestart) {
        const turns = this.beforeRestart;
        this.beforeRestart = null;
        this.redoStack = [];
        await this.runFrom(turns);
        return;
      }
      const cut = this.undoCut();
      if (cut < 0) return;
      this.redoStack.push(this.turns.slice(cut));
      if (this.aiVsAi) this.paused = true;
      await this.runFrom(this.turns.slice(0, cut));
    });
  }

  redo(): Promise<void> {
    return this.enqueue(async () => {
      if (this.end?.reason === 'resign') return;
      const group = this.redoStack.pop();
      if (!group) return;
      if (this.aiVsAi) this.paused = true;
      await this.runFrom([...this.turns, ...group]);
    });
  }

  /**
   * A person resigns (the course GUI's G key): the person to move, else the page's only human side. The run stops and
   * the game ends as 'resign', a record `referee replay` accepts. Returns a one-line refusal, or null.
   */
  resign(): string | null {
    if (this.end) return 'the game is over already: press R to restart';
    let side: Side | null = null;
    for (const s of [0, 1] as const) if (this.humans[s]?.pending) side = s;
    if (side === null && this.humans[0] !== null && this.humans[1] === null) side = 0;
    if (side === null && this.humans[1] !== null && this.humans[0] === null) side = 1;
    if (side === null) {
      return this.aiVsAi ? 'nobody plays a side from this page: Pause stops the AIs, New game starts another' : 'wait until the referee asks a side to move, then resign';
    }
    this.resignAs(side);
    return null;
  }

  /** End the game as resigned by `resignedBy` (a person's resignation, or one restored after a server restart). */
  resignAs(resignedBy: Side): void {
    if (this.humans[resignedBy] === null) return;
    void this.enqueue(async () => {
      if (this.end) return;
      await this.stopRun();
      const state = this.positionAfter(this.turns);
      const end: GameEnd = {
        winner: (1 - resignedBy) as Side,
        reason: 'resign',
        resignedBy,
        score: null,
        diff: this.config.forcedLossDiff,
        finalState: this.game.encode(state),
      };
      this.record = { ...(this.saveRecord() as Omit<GameRecord, 'end'>), config: configForGame(this.game, this.config), end };
      this.end = end;
      this.redoStack = [];
      this.beforeRestart = null;
      this.broadcast();
      this.finished();
    });
  }

  restart(): Promise<void> {
    return this.enqueue(async () => {
      this.redoStack = [];
      if (this.turns.length > 0) this.beforeRestart = this.turns.slice();
      await this.runFrom([]);
    });
  }

  setPaused(paused: boolean): void {
    this.paused = paused;
    if (!paused) this.releaseGate();
    this.broadcast();
  }

  step(): void {
    this.steps++;
    this.releaseGate();
  }

  setDelay(delayMs: number): void {
    this.delayMs = delayMs;
    this.broadcast();
  }

  /** The game as a GameRecord: the referee's own when it is over; otherwise the moves so far with no end. */
  saveRecord(): GameRecord | Omit<GameRecord, 'end'> {
    if (this.record) return this.record;
    return {
      format: 'referee.game/1',
      game: this.game.id,
      players: [...this.playerNames],
      seed: this.seed,
      config: this.config,
      initialState: this.game.encode(this.startPosition()),
      start: [{ wallMs: 0 }, { wallMs: 0 }],
      turns: this.turns.slice(),
    };
  }

  snapshot(): SessionSnapshot {
    const end = this.end;
    let humanToMove: Side | null = null;
    for (const side of [0, 1] as const) if (this.humans[side]?.pending) humanToMove = side;
    const clockSide = humanToMove ?? this.clockSide;
    const since = humanToMove !== null ? this.humans[humanToMove]!.pending!.since : this.clockSince;
    return {
      id: this.id,
      game: this.game.id,
      seed: this.seed,
      initialState: this.game.encode(this.startPosition()),
      players: [...this.playerNames],
      specs: this.specs,
      turns: this.turns.map((t) => ({
        side: t.side,
        kind: t.kind,
        move: t.move,
        wallMs: t.wallMs,
        ...(t.debug !== undefined ? { debug: t.debug } : {}),
        ...(t.bankLeftMs !== undefined ? { bankLeftMs: t.bankLeftMs } : {}),
        ...(t.strikes !== undefined ? { strikes: t.strikes } : {}),
      })),
      end: end && {
        winner: end.winner,
        reason: end.reason,
        resignedBy: end.resignedBy ?? null,
        message: end.loser?.message ?? null,
        score: end.score,
      },
      canUndo: end?.reason === 'resign' || this.beforeRestart !== null || this.undoCut() >= 0,
      canRedo: end?.reason !== 'resign' && this.redoStack.length > 0,
      discardedPlies: this.beforeRestart?.length ?? 0,
      clock: end || clockSide === null ? null : { side: clockSide, elapsedMs: Date.now() - since },
      humanToMove,
      humanSides: [this.humans[0] !== null, this.humans[1] !== null],
      paused: this.paused,
      holding: this.holding,
      delayMs: this.delayMs,
      moveTimeMs: this.config.moveTimeoutMs,
      timeBankMs: this.config.timeBankMs ?? 0,
      strikeLimit: this.config.strikeLimit ?? 0,
      error: this.error,
      kind: 'play',
    };
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.error = 'this game was closed on the server (idle, or too many games): start a new one';
    this.broadcast();
    this.listeners.clear();
    await this.stopRun().catch(() => {});
    if (!this.released) await Promise.all(this.players.map((player) => player.close().catch(() => {})));
    this.released = true;
  }
}
