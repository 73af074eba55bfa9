/**
 * Botzone's side of a game (botzone.org.cn): how its judge names a turn to a bot and how a bot's answer names a
 * move. A bot reads every turn as a "request" (the opponent's move, or the judge's opening) and answers a
 * "response" (its own move); both are JSON values in Botzone's own shape per game, or one text line in its
 * "simple interaction". Each game that Botzone hosts carries its codec (Game.botzone), in its own folder.
 */
import type { Side } from '../game.js';

/** One turn of a game as the referee played it: the move's notation, or null for a pass. */
export interface BotzoneTurn {
  side: Side;
  move: string | null;
}

export interface BotzoneCodec {
  /** Botzone's name of the game, e.g. 'Reversi'. */
  readonly name: string;
  /** Whether Botzone offers this game's bots the simple (text) interaction; Gomoku's judge has none. */
  readonly simpleInteraction: boolean;
  /** The request the side that moves first gets on its first turn ("you move first"). */
  opening(side: Side): unknown;
  /** A move (null: a pass) as Botzone writes it, in a request to the other side or in the mover's responses. */
  encode(move: string | null): unknown;
  /** A bot's response as a move's notation, null for a pass, or why it names no move (the judge's invalid action). */
  decode(response: unknown): { move: string | null } | { invalid: string };
  /** A request or response as the simple interaction's text line. */
  toLine(value: unknown): string;
  /** A simple interaction's response line as the JSON value it stands for (undefined when it is not one). */
  fromLine(line: string): unknown;
}

/**
 * The request/response history a bot of `side` sees before its next turn, from every turn played so far: each
 * opponent turn is a request, each own turn a response; the first mover opens with the codec's opening request.
 */
export function botzoneHistory(codec: BotzoneCodec, side: Side, turns: readonly BotzoneTurn[]): { requests: unknown[]; responses: unknown[] } {
  const requests: unknown[] = [];
  const responses: unknown[] = [];
  let expectRequest = true;
  if (turns.length === 0 || turns[0].side === side) requests.push(codec.opening(side)), (expectRequest = false);
  for (const turn of turns) {
    if (turn.side === side) {
      // Two own turns in a row cannot happen in a two-player alternation; a missing request would be a pass.
      if (expectRequest) requests.push(codec.encode(null));
      responses.push(codec.encode(turn.move));
      expectRequest = true;
    } else {
      if (!expectRequest) responses.push(codec.encode(null));
      requests.push(codec.encode(turn.move));
      expectRequest = false;
    }
  }
  // The bot answers the last request: an own turn last means the opponent passed since.
  if (expectRequest) requests.push(codec.encode(null));
  return { requests, responses };
}

/**
 * The codec of a square-grid game whose cells are `row * size + col`, named file letter + row number, with
 * Botzone's {"x", "y"} requests (x the column, y the row) and {-1, -1} for "you move first" and for a pass.
 */
export function gridCodec(options: {
  name: string;
  size: number;
  simpleInteraction: boolean;
  cellName: (cell: number) => string;
  parseCell: (text: string) => number;
  /** Whether a pass is a move of the game (Reversi); else {-1, -1} from a bot is an invalid action. */
  passes: boolean;
}): BotzoneCodec {
  const { size, cellName, parseCell, passes } = options;
  const none = { x: -1, y: -1 };
  return {
    name: options.name,
    simpleInteraction: options.simpleInteraction,
    opening: () => none,
    encode(move) {
      if (move === null) return none;
      const cell = parseCell(move);
      return { x: cell % size, y: Math.floor(cell / size) };
    },
    decode(response) {
      if (typeof response !== 'object' || response === null || Array.isArray(response)) {
        return { invalid: `the response is ${describe(response)}, not an object like {"x": 2, "y": 3}` };
      }
      const { x, y } = response as { x?: unknown; y?: unknown };
      const xn = typeof x === 'string' && /^-?\d+$/.test(x.trim()) ? Number(x) : x;
      const yn = typeof y === 'string' && /^-?\d+$/.test(y.trim()) ? Number(y) : y;
      if (!Number.isInteger(xn) || !Number.isInteger(yn)) return { invalid: `x and y must be integers (got x=${describe(x)}, y=${describe(y)})` };
      if (xn === -1 && yn === -1) return passes ? { move: null } : { invalid: 'x=-1, y=-1 (a pass) is not a move in this game' };
      if ((xn as number) < 0 || (xn as number) >= size || (yn as number) < 0 || (yn as number) >= size) {
        return { invalid: `(${String(xn)}, ${String(yn)}) is off the ${size}x${size} board` };
      }
      return { move: cellName((yn as number) * size + (xn as number)) };
    },
    toLine(value) {
      const { x, y } = value as { x: number; y: number };
      return `${x} ${y}`;
    },
    fromLine(line) {
      const words = line.trim().split(/\s+/);
      if (words.length !== 2 || !words.every((word) => /^-?\d+$/.test(word))) return undefined;
      return { x: Number(words[0]), y: Number(words[1]) };
    },
  };
}

function describe(value: unknown): string {
  if (value === undefined) return 'missing';
  try {
    const text = JSON.stringify(value);
    return text.length > 60 ? `${text.slice(0, 60)}…` : text;
  } catch {
    return typeof value;
  }
}
