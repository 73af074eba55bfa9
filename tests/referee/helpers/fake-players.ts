/** Scripted Players for referee tests: each records every call it gets. */
import type { AnyGame } from '../../../harness/games/game.js';
import type { GameStart, MoveRequest, Player, PlayerAnswer } from '../../../harness/referee/player.js';

export type MoveScript = (request: MoveRequest, call: number) => PlayerAnswer | Promise<PlayerAnswer>;

export class ScriptedPlayer implements Player {
  readonly starts: GameStart[] = [];
  readonly requests: MoveRequest[] = [];
  readonly aborts: string[] = [];
  endGames = 0;
  closes = 0;

  constructor(
    readonly name: string,
    private readonly script: MoveScript,
    private readonly onStart: (start: GameStart) => PlayerAnswer | Promise<PlayerAnswer> = () => ({ kind: 'ready' }),
  ) {}

  async startGame(start: GameStart): Promise<PlayerAnswer> {
    this.starts.push(start);
    return this.onStart(start);
  }

  async requestMove(request: MoveRequest): Promise<PlayerAnswer> {
    this.requests.push(request);
    return this.script(request, this.requests.length);
  }

  async abort(reason: string): Promise<void> {
    this.aborts.push(reason);
  }

  async endGame(): Promise<void> {
    this.endGames += 1;
  }

  async close(): Promise<void> {
    this.closes += 1;
  }
}

/** Answers the values in `answers` in order, then `fallback` for every later call. */
export function answering(answers: unknown[], fallback: (request: MoveRequest) => unknown): MoveScript {
  return (request, call) => ({ kind: 'move', value: call <= answers.length ? answers[call - 1] : fallback(request) });
}

/** A promise that never settles: a player that hangs. */
export const never = <T>(): Promise<T> => new Promise<T>(() => undefined);

/** A record's content without measured times, for comparing runs. */
export function withoutTimes(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value, (key, item) => (key === 'wallMs' || key === 'cpuMs' ? undefined : item)));
}


/** A script that always answers the first legal move of the state it is sent. */
export function firstLegal(game: AnyGame): MoveScript {
  return (request) => ({ kind: 'move', value: game.formatMove(game.legalMoves(game.decode(request.state))[0]) });
}
