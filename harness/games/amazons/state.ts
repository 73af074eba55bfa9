/** The immutable Amazons state and its text form; `applyMove` copies the 100-byte board and plays on the copy. */
import type { Side } from '../game.js';
import { ARROW, CELLS, cellName, EMPTY, FIRST, formatMove, isLegalMove, moveArrow, moveFrom, moveTo, OFF, parseCell, parseMove, playMove, SECOND, startCells, STRIDE } from './core.js';

export interface AmazonsState {
  /** 100 cells, row * 10 + col: 0 empty, 1 first mover's queen (X), 2 second's (O), 3 arrow, 4 off an 8 x 8 board. */
  readonly cells: Uint8Array;
  /** 8 (Botzone) or 10 (the standard board). */
  readonly size: number;
  readonly side: Side;
  /** The last move's number (core.ts), -1 before the first. */
  readonly lastMove: number;
  /** Arrows on the board: the number of moves played. */
  readonly arrows: number;
}

export const pieceOf = (side: Side): number => (side === 0 ? FIRST : SECOND);

export function startState(size: number): AmazonsState {
  return { cells: startCells(size), size, side: 0, lastMove: -1, arrows: 0 };
}

export function applyMove(state: AmazonsState, move: number): AmazonsState {
  const cells = state.cells.slice();
  if (!Number.isInteger(move) || move < 0 || move >= 1_000_000 || !isLegalMove(cells, state.size, pieceOf(state.side), move)) {
    throw new Error(`amazons: ${Number.isInteger(move) && move >= 0 && move < 1_000_000 ? formatMove(move) : String(move)} is not a legal move`);
  }
  playMove(cells, move);
  return { cells, size: state.size, side: (state.side ^ 1) as Side, lastMove: move, arrows: state.arrows + 1 };
}

const SYMBOL = ['.', 'x', 'o', '#'];

/**
 * Rows from row 1 (the top) to the last, '/'-separated: 'x' and 'o' queens, '#' arrows, a number for a run of empty
 * squares; then a space and the last move or '-'. Botzone's start is "2x2x2/8/x6x/8/8/o6o/8/2o2o2 -" (8 rows).
 */
export function encodeState(state: AmazonsState): string {
  const rows: string[] = [];
  for (let row = 0; row < state.size; row++) {
    let text = '';
    let run = 0;
    for (let col = 0; col < state.size; col++) {
      const value = state.cells[row * STRIDE + col];
      if (value === EMPTY) run++;
      else {
        if (run) text += run;
        run = 0;
        text += SYMBOL[value];
      }
    }
    rows.push(run ? text + run : text);
  }
  return `${rows.join('/')} ${state.lastMove < 0 ? '-' : formatMove(state.lastMove)}`;
}

export function decodeState(text: string): AmazonsState {
  const fail = (why: string): never => {
    throw new Error(`amazons: cannot read the state ${JSON.stringify(String(text).slice(0, 120))}: ${why}`);
  };
  if (typeof text !== 'string') fail('a state is a string');
  const parts = /^([0-9xo#/]+) (-|[A-J0-9/-]+)$/.exec(text);
  if (!parts) fail('expected rows of x o # and digits, then a space and the last move (or -), e.g. "2x2x2/8/x6x/8/8/o6o/8/2o2o2 -"');
  const rows = parts![1].split('/');
  const size = rows.length;
  if (size !== 8 && size !== 10) fail(`the board has 8 or 10 rows, got ${size}`);
  const cells = new Uint8Array(CELLS).fill(OFF);
  const count = [0, 0, 0, 0];
  rows.forEach((rowText, row) => {
    let col = 0;
    for (const token of rowText.match(/[0-9]+|[xo#]/g) ?? []) {
      if (/^[0-9]/.test(token)) {
        const run = Number(token);
        if (run === 0 || token.startsWith('0')) fail(`row ${row + 1}: a run of empty squares is 1..${size}`);
        for (let i = 0; i < run; i++, col++) if (col < size) cells[row * STRIDE + col] = EMPTY;
      } else {
        const value = SYMBOL.indexOf(token);
        if (col < size) cells[row * STRIDE + col] = value;
        count[value]++;
        col++;
      }
    }
    if (col !== size) fail(`row ${row + 1} has ${col} squares, not ${size}`);
  });
  if (count[FIRST] !== 4 || count[SECOND] !== 4) fail(`each side has 4 queens, got ${count[FIRST]} x and ${count[SECOND]} o`);
  const arrows = count[ARROW];
  const side = (arrows % 2) as Side;
  let lastMove = -1;
  if (parts![2] !== '-') {
    const move = parseMove(parts![2]);
    if (move === null) fail(`the last move '${parts![2]}' is not a move (e.g. C1-C4/F4)`);
    lastMove = move!;
    const mover = side === 0 ? SECOND : FIRST;
    const from = moveFrom(lastMove);
    const to = moveTo(lastMove);
    const arrow = moveArrow(lastMove);
    const onBoard = [from, to, arrow].every((cell) => parseCell(cellName(cell), size) === cell);
    if (!onBoard || cells[to] !== mover || cells[arrow] !== ARROW || (from !== arrow && cells[from] !== EMPTY)) {
      fail(`the last move ${parts![2]} does not match the board (its queen on ${cellName(to)}, its arrow on ${cellName(arrow)})`);
    }
  }
  if ((arrows === 0) !== (lastMove < 0)) fail(arrows === 0 ? 'no arrow is on the board, so there is no last move' : 'arrows are on the board, so the last move is named');
  const state: AmazonsState = { cells, size, side, lastMove, arrows };
  if (encodeState(state) !== text) fail(`not in canonical form (expected ${JSON.stringify(encodeState(state))})`);
  return state;
}

