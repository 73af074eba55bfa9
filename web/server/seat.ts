/**
 * The page's view of games the CLI referees (`referee play --black human …`): the series runs in the CLI exactly as
 * for any two players; this only shows its games and passes the person's clicks to their HumanPlayer.
 */
import type { AnyGame, Side } from '../../harness/games/game.js';
import type { GameStart } from '../../harness/referee/player.js';
import type { GameRecord, TurnRecord } from '../../harness/referee/record.js';
import { HumanPlayer } from './human-player.js';
import type { SessionSnapshot } from './protocol.js';
import { newId } from './session.js';

export class SeatSession {
  readonly id = newId();
  private seed = 0;
  private turns: TurnRecord[] = [];
  private end: GameRecord['end'] | null = null;
  private state: unknown;
  /** The game's start position as the series' referee sent it (with its rule switches). */
  private startState: unknown;
  private sides: [HumanPlayer | null, HumanPlayer | null] = [null, null];
  private players: [string, string] = ['?', '?'];
  private listeners = new Set<(snapshot: SessionSnapshot) => void>();
  private readonly humans = new Set<HumanPlayer>();

  /** `opponent`: the name shown for the side no person plays. */
  constructor(
    readonly game: AnyGame,
    public opponent = 'opponent',
  ) {
    this.state = game.initial(0);
    this.startState = this.state;
  }

  /** A human Player for the series; any number of them (human vs human works too). */
  createHuman(): HumanPlayer {
    const human: HumanPlayer = new HumanPlayer(
      'human',
      () => this.broadcast(),
      (start) => this.started(human, start),
    );
    this.humans.add(human);
    return human;
  }

  private started(human: HumanPlayer, start: GameStart): void {
    if (this.turns.length > 0 || this.end !== null || this.seed !== start.seed) {
      this.turns = [];
      this.end = null;
      this.sides = [null, null];
    }
    this.seed = start.seed;
    this.state = this.game.decode(start.initialState);
    this.startState = this.state;
    this.sides[start.side] = human;
    const other = (1 - start.side) as Side;
    this.players[start.side] = 'human';
    this.players[other] = this.sides[other] ? 'human' : this.opponent;
    this.broadcast();
  }

  /** The series' onTurn. */
  turn(turn: TurnRecord, state: unknown): void {
    this.turns.push(turn);
    this.state = state;
    this.broadcast();
  }

  /** The series' onGame (also names the players, which a HumanPlayer cannot know). */
  finished(record: GameRecord): void {
    this.players = record.players;
    this.end = record.end;
    this.broadcast();
  }

  setPlayers(players: [string, string]): void {
    this.players = players;
    this.broadcast();
  }

  subscribe(listener: (snapshot: SessionSnapshot) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private broadcast(): void {
    const snapshot = this.snapshot();
    for (const listener of this.listeners) listener(snapshot);
  }

  move(ply: number, move: string): string | null {
    if (this.end) return 'this game is over: the next game of the series starts by itself';
    if (ply !== this.turns.length + 1) return `that click was for ply ${ply}, but the game is at ply ${this.turns.length + 1}`;
    const side = this.game.toMove(this.state) as Side;
    const human = this.sides[side];
    if (!human?.pending) return `${this.game.sideNames[side]} is not yours to move now`;
    const legal = this.game.legalMoves(this.state).map((m) => this.game.formatMove(m));
    if (!legal.includes(move)) return `${move} is not a legal move for ${this.game.sideNames[side]} here`;
    human.answer(move);
    return null;
  }

  snapshot(): SessionSnapshot {
    let humanToMove: Side | null = null;
    for (const side of [0, 1] as const) if (this.sides[side]?.pending) humanToMove = side;
    const pending = humanToMove === null ? null : this.sides[humanToMove]!.pending!;
    const end = this.end;
    return {
      id: this.id,
      game: this.game.id,
      seed: this.seed,
      initialState: this.game.encode(this.startState),
      players: this.players,
      specs: null,
      turns: this.turns.map((t) => ({ side: t.side, kind: t.kind, move: t.move, wallMs: t.wallMs })),
      end: end && { winner: end.winner, reason: end.reason, resignedBy: end.resignedBy ?? null, message: end.loser?.message ?? null, score: end.score },
      canUndo: false,
      canRedo: false,
      clock: pending && humanToMove !== null ? { side: humanToMove, elapsedMs: Date.now() - pending.since } : null,
      humanToMove,
      humanSides: [this.sides[0] !== null, this.sides[1] !== null],
      paused: false,
      holding: false,
      delayMs: 0,
      moveTimeMs: 0,
      timeBankMs: 0,
      strikeLimit: 0,
      error: null,
      kind: 'seat',
    };
  }

  close(): void {
    for (const human of this.humans) human.cancel('the page was closed');
    this.listeners.clear();
  }
}
