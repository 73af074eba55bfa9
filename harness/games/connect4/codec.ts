/**
 * Text form of a Connect Four state: the grid from the top row down, rows separated by '/', 'x' and 'o' for
 * discs, '#' for the no-go cell and digits for runs of empty cells (as in chess FEN), then a space and the
 * column of the last move ('-' before the first). The standard empty board is "7/7/7/7/7/7 -".
 * The side to move follows from the disc counts (the first player, 'x', always starts).
 */
import { encodeGridRows } from '../common/grid-text.js';
import type { Side } from '../game.js';
import { EMPTY, FIRST, NO_GO, SECOND, undrop, drop, winsAt, type Grid } from './core.js';
import { playableCells, type Connect4State } from './state.js';

/** The letter of each cell value (empty runs are digits). */
const LETTERS = ['', 'x', 'o', '#'];

export function encodeState(state: Connect4State): string {
  return `${encodeGridRows(state.cells, state.rows, state.cols, LETTERS)} ${state.lastMove < 0 ? '-' : state.lastMove}`;
}

/** The board shapes a variant accepts: returns why a shape is wrong, or null. */
export type ShapeCheck = (rows: number, cols: number, blocked: number) => string | null;

/** Parses and fully validates a state; `id` prefixes every error. */
export function decodeState(id: string, text: string, checkShape: ShapeCheck): Connect4State {
  const fail = (why: string): never => {
    throw new Error(`${id}: cannot decode state ${JSON.stringify(String(text).slice(0, 80))}: ${why}`);
  };
  if (typeof text !== 'string') fail('expected a string');
  const match = /^([0-9xo#/]+) (-|0|[1-9][0-9]?)$/.exec(text);
  if (!match) fail('expected "<rows top to bottom, separated by \'/\'> <last column or ->", e.g. "7/7/7/7/7/7 -"');
  const [, gridText, lastText] = match!;

  const rowTexts = gridText.split('/');
  const parsedRows = rowTexts.map((rowText) => {
    const values: number[] = [];
    for (const token of rowText.match(/[1-9][0-9]*|[xo#]|0/g) ?? []) {
      if (token === '0') fail('an empty run cannot be 0');
      else if (token === 'x') values.push(FIRST);
      else if (token === 'o') values.push(SECOND);
      else if (token === '#') values.push(NO_GO);
      else for (let i = Number(token); i > 0 && values.length <= 64; i--) values.push(EMPTY);
    }
    return values;
  });
  const rows = parsedRows.length;
  const cols = parsedRows[0].length;
  if (parsedRows.some((r) => r.length !== cols)) fail(`every row must have the same number of cells (${cols})`);

  const cells = new Uint8Array(rows * cols);
  let blocked = -1;
  let firsts = 0;
  let seconds = 0;
  parsedRows.forEach((values, i) => {
    const row = rows - 1 - i;
    values.forEach((value, col) => {
      const cell = row * cols + col;
      cells[cell] = value;
      if (value === FIRST) firsts++;
      if (value === SECOND) seconds++;
      if (value === NO_GO) {
        if (blocked >= 0) fail('at most one no-go cell (#)');
        blocked = cell;
      }
    });
  });
  const shapeError = checkShape(rows, cols, blocked);
  if (shapeError) fail(shapeError);

  const top = new Uint8Array(cols);
  for (let col = 0; col < cols; col++) {
    let height = 0;
    for (let row = 0; row < rows; row++) {
      const value = cells[row * cols + col];
      if (value === NO_GO) {
        if (height === row) height = row + 1;
      } else if (value !== EMPTY) {
        if (row !== height) fail(`column ${col} has a disc floating above an empty cell`);
        height = row + 1;
      }
    }
    top[col] = height;
  }
  if (firsts !== seconds && firsts !== seconds + 1) fail(`disc counts x=${firsts}, o=${seconds} cannot arise (x moves first)`);
  const side: Side = firsts === seconds ? 0 : 1;
  const discs = firsts + seconds;

  const grid: Grid = { rows, cols, cells, top };
  let lastMove = -1;
  let lastCell = -1;
  if (lastText === '-') {
    if (discs > 0) fail('the last move is missing ("-" is only for the empty board)');
  } else {
    lastMove = Number(lastText);
    if (lastMove >= cols) fail(`last move column ${lastMove} is off the board`);
    lastCell = highestDisc(grid, lastMove);
    if (lastCell < 0) fail(`last move column ${lastMove} holds no disc`);
    if (cells[lastCell] !== (side === 0 ? SECOND : FIRST)) fail(`the top disc of column ${lastMove} is not the last mover's`);
  }

  // Four in a line may only exist through the last disc: the game stops at the first one.
  const winner = lastCell >= 0 && winsAt(grid, lastCell) ? ((side ^ 1) as Side) : null;
  if (lastCell >= 0) {
    undrop(grid, lastCell);
    for (let cell = 0; cell < cells.length; cell++) if (winsAt(grid, cell)) fail('the game ended before the last move (four in a line)');
    drop(grid, lastMove, side === 0 ? SECOND : FIRST);
  }
  const state: Connect4State = {
    ...grid,
    blocked,
    side,
    lastMove,
    lastCell,
    discs,
    winner,
    over: winner !== null || discs === playableCells({ rows, cols, blocked }),
  };
  if (encodeState(state) !== text) fail(`not in canonical form (expected ${JSON.stringify(encodeState(state))})`);
  return state;
}

/** The top disc of a column, or -1 when it holds none. */
function highestDisc(grid: Grid, col: number): number {
  for (let row = grid.rows - 1; row >= 0; row--) {
    const cell = row * grid.cols + col;
    if (grid.cells[cell] === FIRST || grid.cells[cell] === SECOND) return cell;
  }
  return -1;
}
