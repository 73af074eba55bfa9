/**
 * The text form the stone games (Gomoku, NoGo) share: the rows from the top row down to row 1, separated by '/',
 * 'x' for Black, 'o' for White and digits for runs of empty cells (as in chess FEN), then a space and the last
 * move ('-' before the first). The side to move follows from the stone counts (Black starts). Each game checks
 * its own rules on the decoded position and that the text is canonical.
 */
import type { Side } from '../game.js';
import { encodeGridRows } from './grid-text.js';

/** Cells hold 0 (empty), 1 (Black, 'x') or 2 (White, 'o'). */
const BLACK = 1;
const WHITE = 2;
const LETTERS = ['', 'x', 'o'];

export interface StoneNotation {
  /** Lines per side. */
  size: number;
  /** The whole text: group 1 the rows, group 2 the last move or '-'. */
  pattern: RegExp;
  /** The empty board's text as shown in errors, e.g. '9/9/9/9/9/9/9/9/9 -'. */
  example: string;
  /** Why only those stone counts arise, e.g. 'Black moves first'. */
  turnRule: string;
  cellName(cell: number): string;
  /** A cell name → its index, or -1 when it names no cell. */
  parseCell(text: string): number;
}

export interface StonePosition {
  cells: Uint8Array;
  side: Side;
  /** Cell of the last move, -1 on the empty board. */
  lastMove: number;
  stones: number;
}

export type DecodeFailure = (why: string) => never;

/** The thrower for errors about decoding `text`, each naming the game `id` and the text. */
export function decodeFailure(id: string, text: unknown): DecodeFailure {
  return (why) => {
    throw new Error(`${id}: cannot decode state ${JSON.stringify(String(text).slice(0, 80))}: ${why}`);
  };
}

export function encodeStones(notation: StoneNotation, cells: Uint8Array, lastMove: number): string {
  return `${encodeGridRows(cells, notation.size, notation.size, LETTERS)} ${lastMove < 0 ? '-' : notation.cellName(lastMove)}`;
}

/** Parses the rows, the stone counts and the last move; the game's own rules are the caller's to check. */
export function decodeStones(notation: StoneNotation, text: string, fail: DecodeFailure): StonePosition {
  const { size } = notation;
  const cellCount = size * size;
  if (typeof text !== 'string') fail('expected a string');
  const match = notation.pattern.exec(text);
  if (!match) fail(`expected "<${size} rows top to bottom, separated by '/'> <last move or ->", e.g. "${notation.example}"`);
  const [, gridText, lastText] = match!;
  const rowTexts = gridText.split('/');
  if (rowTexts.length !== size) fail(`expected ${size} rows, got ${rowTexts.length}`);

  const cells = new Uint8Array(cellCount);
  let blacks = 0;
  let whites = 0;
  rowTexts.forEach((rowText, i) => {
    const row = size - 1 - i;
    let col = 0;
    for (const token of rowText.match(/[1-9][0-9]*|[xo]|0/g) ?? []) {
      if (token === '0') fail('an empty run cannot be 0');
      if (token === 'x' || token === 'o') {
        if (col < size) cells[row * size + col] = token === 'x' ? BLACK : WHITE;
        if (token === 'x') blacks++;
        else whites++;
        col++;
      } else {
        col += Number(token);
      }
    }
    if (col !== size) fail(`row ${row + 1} has ${col} cells, not ${size}`);
  });
  if (blacks !== whites && blacks !== whites + 1) fail(`stone counts x=${blacks}, o=${whites} cannot arise (${notation.turnRule})`);
  const side: Side = blacks === whites ? 0 : 1;
  const stones = blacks + whites;

  let lastMove = -1;
  if (lastText === '-') {
    if (stones > 0) fail('the last move is missing ("-" is only for the empty board)');
  } else {
    lastMove = notation.parseCell(lastText);
    if (lastMove < 0) fail(`last move ${lastText} is not a cell ${notation.cellName(0)}..${notation.cellName(cellCount - 1)}`);
    if (cells[lastMove] !== (side === 0 ? WHITE : BLACK)) fail(`the last move ${lastText} is not a stone of the side that just moved`);
  }
  return { cells, side, lastMove, stones };
}
