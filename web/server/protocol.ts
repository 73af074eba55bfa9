/**
 * The websocket protocol between the page and the server. Every message from a browser is hostile input: it is
 * size-capped by the socket, rate-limited per connection, and validated here against a JSON Schema (ajv) before
 * anything reads it. The browser names players and moves; it never sends code.
 */
import { Ajv, type ErrorObject } from 'ajv';

/** Largest message accepted from a browser (a loaded GameRecord is the biggest legitimate one). */
export const MAX_MESSAGE_BYTES = 2 * 1024 * 1024;

/** Who plays a side: a person at the page, a reference AI of the game's ladder, or a submission named on the CLI. */
export type SideSpec = { kind: 'human' } | { kind: 'reference'; name: string } | { kind: 'submission'; index: number };

export type ClientMessage =
  /** `control`: the key the page was given when it created the game (kept per tab); without it the tab watches. */
  | { type: 'hello'; session?: string; control?: string }
  | {
      type: 'new';
      game: string;
      black: SideSpec;
      white: SideSpec;
      seed?: number;
      moveTimeMs?: number;
    } & TimePolicy
  | { type: 'move'; ply: number; move: string }
  | { type: 'undo' }
  | { type: 'redo' }
  | { type: 'restart' }
  | { type: 'resign' }
  | { type: 'pause' }
  | { type: 'resume' }
  | { type: 'step' }
  | { type: 'speed'; delayMs: number }
  | ({ type: 'load'; record: unknown; ply?: number; black: SideSpec; white: SideSpec; moveTimeMs?: number } & TimePolicy)
  | { type: 'watch'; key?: string }
  /**
   * The server lost the game (it restarted): the page that played it sends back what it holds — the moves, the
   * sides, the time per move, a resignation — and the server referees the moves again and goes on from there.
   */
  | ({ type: 'restore'; record: unknown; black: SideSpec; white: SideSpec; moveTimeMs?: number; resignedBy?: 0 | 1; paused?: boolean } & TimePolicy);

/**
 * The page's time policies (the assignment's timeBankMs and strikeLimit, RefereeConfig): absent keeps the rules'
 * own, 0 switches the policy off.
 */
export interface TimePolicy {
  timeBankMs?: number;
  strikeLimit?: number;
}

const sideSpec = {
  oneOf: [
    { type: 'object', properties: { kind: { const: 'human' } }, required: ['kind'], additionalProperties: false },
    {
      type: 'object',
      properties: { kind: { const: 'reference' }, name: { type: 'string', minLength: 1, maxLength: 64 } },
      required: ['kind', 'name'],
      additionalProperties: false,
    },
    {
      type: 'object',
      properties: { kind: { const: 'submission' }, index: { type: 'integer', minimum: 0, maximum: 63 } },
      required: ['kind', 'index'],
      additionalProperties: false,
    },
  ],
};

const noFields = (type: string) => ({
  type: 'object',
  properties: { type: { const: type } },
  required: ['type'],
  additionalProperties: false,
});

const moveTimeMs = { type: 'integer', minimum: 100, maximum: 600_000 };
const timeBankMs = { type: 'integer', minimum: 0, maximum: 3_600_000 };
const strikeLimit = { type: 'integer', minimum: 0, maximum: 100 };

export const CLIENT_MESSAGE_SCHEMA = {
  $id: 'https://referee.dev/schemas/web-client-message.json',
  type: 'object',
  required: ['type'],
  discriminator: { propertyName: 'type' },
  oneOf: [
    {
      type: 'object',
      properties: {
        type: { const: 'hello' },
        session: { type: 'string', pattern: '^[A-Za-z0-9_-]{1,32}$' },
        control: { type: 'string', pattern: '^[A-Za-z0-9_-]{1,32}$' },
      },
      required: ['type'],
      additionalProperties: false,
    },
    {
      type: 'object',
      properties: {
        type: { const: 'new' },
        game: { type: 'string', minLength: 1, maxLength: 64 },
        black: sideSpec,
        white: sideSpec,
        seed: { type: 'integer', minimum: 0, maximum: 2 ** 31 - 1 },
        moveTimeMs,
        timeBankMs,
        strikeLimit,
      },
      required: ['type', 'game', 'black', 'white'],
      additionalProperties: false,
    },
    {
      type: 'object',
      properties: {
        type: { const: 'move' },
        ply: { type: 'integer', minimum: 1, maximum: 100_000 },
        move: { type: 'string', minLength: 1, maxLength: 16 },
      },
      required: ['type', 'ply', 'move'],
      additionalProperties: false,
    },
    noFields('undo'),
    noFields('redo'),
    noFields('restart'),
    noFields('resign'),
    noFields('pause'),
    noFields('resume'),
    noFields('step'),
    {
      type: 'object',
      properties: { type: { const: 'speed' }, delayMs: { type: 'integer', minimum: 0, maximum: 10_000 } },
      required: ['type', 'delayMs'],
      additionalProperties: false,
    },
    {
      type: 'object',
      properties: {
        type: { const: 'load' },
        record: { type: 'object' },
        ply: { type: 'integer', minimum: 0, maximum: 100_000 },
        black: sideSpec,
        white: sideSpec,
        moveTimeMs,
        timeBankMs,
        strikeLimit,
      },
      required: ['type', 'record', 'black', 'white'],
      additionalProperties: false,
    },
    {
      type: 'object',
      properties: { type: { const: 'watch' }, key: { type: 'string', maxLength: 200 } },
      required: ['type'],
      additionalProperties: false,
    },
    {
      type: 'object',
      properties: {
        type: { const: 'restore' },
        record: { type: 'object' },
        black: sideSpec,
        white: sideSpec,
        moveTimeMs,
        timeBankMs,
        strikeLimit,
        resignedBy: { enum: [0, 1] },
        paused: { type: 'boolean' },
      },
      required: ['type', 'record', 'black', 'white'],
      additionalProperties: false,
    },
  ],
} as const;

const ajv = new Ajv({ allErrors: false, discriminator: true, strict: true, strictRequired: false });
const validate = ajv.compile(CLIENT_MESSAGE_SCHEMA);

function describe(errors: ErrorObject[] | null | undefined): string {
  const first = errors?.[0];
  if (!first) return 'invalid message';
  return `${first.instancePath || 'message'} ${first.message ?? 'is invalid'}`;
}

/** The message, or a one-line reason it was refused. */
export function parseClientMessage(text: string): { ok: true; message: ClientMessage } | { ok: false; error: string } {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { ok: false, error: 'message is not JSON: send one JSON object per websocket message' };
  }
  if (!validate(json)) return { ok: false, error: `message refused: ${describe(validate.errors)}` };
  return { ok: true, message: json as ClientMessage };
}

/** A token bucket per connection: `rate` messages a second on average, bursts up to `burst`. */
export class RateLimiter {
  private tokens: number;
  private last = Date.now();

  constructor(
    private readonly rate = 20,
    private readonly burst = 60,
  ) {
    this.tokens = burst;
  }

  allow(): boolean {
    const now = Date.now();
    this.tokens = Math.min(this.burst, this.tokens + ((now - this.last) / 1000) * this.rate);
    this.last = now;
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }
}

/** One ply as the page needs it. */
export interface TurnView {
  side: 0 | 1;
  kind: 'move' | 'pass';
  move?: string;
  wallMs?: number;
  /** A Botzone bot's debug for this turn (1 KB at most), shown under the board as the report's replay shows it. */
  debug?: string;
  /** The side's time bank and strikes after this turn, where the rules have them (a restored game carries them on). */
  bankLeftMs?: number;
  strikes?: number;
}

/** A game's whole visible state, sent after every change; the page redraws positions from it with the game's code. */
export interface SessionSnapshot {
  id: string;
  game: string;
  seed: number;
  /** game.encode of the start position: it carries the game's rule switches (NoGo's centre rule), so the page's copy of the rules agrees with the referee's. */
  initialState: string;
  players: [string, string];
  specs: [SideSpec, SideSpec] | null;
  turns: TurnView[];
  end: null | {
    winner: 0 | 1 | null;
    reason: string;
    /** reason 'resign': the side that resigned. */
    resignedBy: 0 | 1 | null;
    /** The forfeit message (timeout, illegal answers, crash …), or null for a normal end. */
    message: string | null;
    score: [number, number] | null;
  };
  /** Undo / redo available (false in a seat that the CLI drives). */
  canUndo: boolean;
  canRedo: boolean;
  /** Plies an Undo brings back (the game a Restart discarded, until the next move); 0 when none. */
  discardedPlies?: number;
  /** The side whose clock runs, and how long it has run. */
  clock: { side: 0 | 1; elapsedMs: number } | null;
  /** The side a person must move now, or null. */
  humanToMove: 0 | 1 | null;
  humanSides: [boolean, boolean];
  paused: boolean;
  /** AI vs AI: paused, and the next move is waiting for Play or Step (nothing is being computed). */
  holding: boolean;
  delayMs: number;
  moveTimeMs: number;
  /** The game's time policies (0: none), so a restore keeps them. */
  timeBankMs: number;
  strikeLimit: number;
  /** A server-side problem with this game (a submission that would not start …). */
  error: string | null;
  /** 'play': a game of the page's; 'seat': a game the CLI (`referee play`) referees. */
  kind: 'play' | 'seat';
}

export type ServerMessage =
  | {
      type: 'welcome';
      games: { id: string; title: string; symbols: [string, string]; sideNames: [string, string]; levels: string[]; seeded: boolean; moveTimeMs: number; timeBankMs: number; strikeLimit: number }[];
      /** The name each submission (by index) plays under, for the menus: never the server's path to it. */
      submissions: string[];
      defaultGame: string;
      watch: boolean;
      seat: string | null;
    }
  /**
   * `control`: sent once, to the page that created the game (it keeps it for reloads of that tab); `watching`: this
   * page may only watch (another tab created the game): moves, undo, restart and pacing are refused.
   */
  | { type: 'session'; snapshot: SessionSnapshot; control?: string; watching?: boolean }
  | { type: 'error'; message: string }
  /**
   * The game asked for (`session`) is not on this server: closed, or the server restarted; `reason` says why when
   * the server removed it itself (a finished game past the cap or age).
   */
  | { type: 'gone'; session?: string; reason?: string }
  | { type: 'watch'; data: unknown }
  | { type: 'watch-game'; key: string; record: unknown }
  /** A game in play, its moves so far (sent again as it advances, while the page follows it). */
  | { type: 'watch-live'; key: string; game: unknown };
