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
  | { type: 'hello'; session?: string }
  | {
      type: 'new';
      game: string;
      black: SideSpec;
      white: SideSpec;
      seed?: number;
      moveTimeMs?: number;
    }
  | { type: 'move'; ply: number; move: string }
  | { type: 'undo' }
  | { type: 'redo' }
  | { type: 'restart' }
  | { type: 'resign' }
  | { type: 'pause' }
  | { type: 'resume' }
  | { type: 'step' }
  | { type: 'speed'; delayMs: number }
  | { type: 'load'; record: unknown; ply?: number; black: SideSpec; white: SideSpec; moveTimeMs?: number }
  | { type: 'watch'; key?: string };

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

export const CLIENT_MESSAGE_SCHEMA = {
  $id: 'https://referee.dev/schemas/web-client-message.json',
  type: 'object',
  required: ['type'],
  discriminator: { propertyName: 'type' },
  oneOf: [
    {
      type: 'object',
      properties: { type: { const: 'hello' }, session: { type: 'string', pattern: '^[A-Za-z0-9_-]{1,32}$' } },
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
  /** A server-side problem with this game (a submission that would not start …). */
  error: string | null;
  /** 'play': a game of the page's; 'seat': a game the CLI (`referee play`) referees. */
  kind: 'play' | 'seat';
}

export type ServerMessage =
  | {
      type: 'welcome';
      games: { id: string; title: string; symbols: [string, string]; sideNames: [string, string]; levels: string[]; seeded: boolean; moveTimeMs: number }[];
      submissions: string[];
      defaultGame: string;
      watch: boolean;
      seat: string | null;
    }
  | { type: 'session'; snapshot: SessionSnapshot }
  | { type: 'error'; message: string }
  | { type: 'gone'; /** Why the game is no longer on the server (removed by age or cap …), when it is known. */ reason?: string }
  | { type: 'watch'; data: unknown }
  | { type: 'watch-game'; key: string; record: unknown }
  /** A game in play, its moves so far (sent again as it advances, while the page follows it). */
  | { type: 'watch-live'; key: string; game: unknown };
