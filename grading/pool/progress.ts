/**
 * A game in play as watchers see it (`referee serve --watch`): the reporter that turns a game's turns into
 * GameProgress messages, and the schema every GameProgress read back (from Redis, from a journal) must meet
 * before a watcher draws it.
 */
import { performance } from 'node:perf_hooks';
import { getGame } from '../../harness/games/registry.js';
import { configForGame } from '../../harness/referee/config.js';
import type { TurnRecord } from '../../harness/referee/record.js';
import type { GameJob, GameProgress } from './job.js';
import { schemaValidator, type SchemaSpec } from '../../harness/schema/validator.js';

/**
 * Follows a game's turns into GameProgress for `deliver`: at once when the game starts, then at most every
 * `everyMs` (a turn inside the interval is sent by a timer at its end, so the last moves always arrive).
 */
export class ProgressReporter {
  private readonly progress: GameProgress;
  private last = 0;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private stopped = false;

  constructor(
    job: GameJob,
    private readonly deliver: (progress: GameProgress) => void,
    private readonly everyMs: number,
  ) {
    const game = getGame(job.game);
    const rules = configForGame(game, job.config).gameRules;
    this.progress = {
      game: job.game,
      players: [job.players[0].name, job.players[1].name],
      seed: job.seed,
      initialState: game.encode(game.initial(job.seed, rules)),
      moves: [],
      ms: [],
    };
    this.send();
  }

  turn(turn: TurnRecord): void {
    this.progress.moves.push(turn.kind === 'move' ? turn.move! : null);
    this.progress.ms.push(turn.wallMs ?? 0);
    // Checked here, not only by the timer: a reference AI searching in this process keeps timers from running.
    const wait = this.last + this.everyMs - performance.now();
    if (wait <= 0) {
      if (this.timer) clearTimeout(this.timer);
      this.send();
    } else {
      this.timer ??= setTimeout(() => this.send(), wait);
    }
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
  }

  private send(): void {
    this.timer = null;
    if (this.stopped) return;
    this.last = performance.now();
    try {
      this.deliver({ ...this.progress, moves: [...this.progress.moves], ms: [...this.progress.ms] });
    } catch {
      // A watcher's trouble never stops a game.
    }
  }
}


/** Longest game a watcher is sent (Gomoku's 225 cells and NoGo's 81 with passes fit many times over). */
const MAX_PLIES = 2000;

export const GAME_PROGRESS_SCHEMA = {
  $id: 'referee.game-progress/1',
  type: 'object',
  additionalProperties: false,
  required: ['game', 'players', 'seed', 'initialState', 'moves', 'ms'],
  properties: {
    game: { type: 'string', pattern: '^[a-z0-9][a-z0-9-]{0,63}$' },
    players: { type: 'array', minItems: 2, maxItems: 2, items: { type: 'string', maxLength: 200 } },
    seed: { type: 'integer' },
    initialState: { type: 'string', maxLength: 4096 },
    moves: { type: 'array', maxItems: MAX_PLIES, items: { anyOf: [{ type: 'string', pattern: '^[A-Za-z0-9]{1,8}$' }, { type: 'null' }] } },
    ms: { type: 'array', maxItems: MAX_PLIES, items: { type: 'number', minimum: 0 } },
  },
} as const;

export const PROGRESS_SCHEMA: SchemaSpec = { name: 'game-progress', schema: () => GAME_PROGRESS_SCHEMA, options: { strict: true } };

/** The progress if it has the right shape and names a game this harness knows; otherwise null (never drawn). */
export function validProgress(data: unknown): GameProgress | null {
  if (!schemaValidator(PROGRESS_SCHEMA)(data)) return null;
  const progress = data as unknown as GameProgress;
  try {
    getGame(progress.game);
  } catch {
    return null;
  }
  return progress.ms.length === progress.moves.length ? progress : null;
}
