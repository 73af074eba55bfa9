/**
 * The student-facing Amazons board, with the names of the other games' Boards: getLegalActions / get_legal_actions,
 * isLegal, move / _move, undo / backpropagation, getWinner / get_winner, get, board, lastMove, count, copy, display.
 * A move is 'C1-C4/F4': the queen on C1 goes to C4 and shoots its arrow to F4. Botzone's six numbers
 * [x0, y0, x1, y1, x2, y2] (x the column, y the row, 0-based from the top-left) are accepted too. Legal actions come
 * by queen, destination, arrow, each row by row from A1 (row 1 is the top).
 */
import { ARROW, CELLS, EMPTY, FIRST, formatMove, hasMove, isLegalMove, legalMoves, packMove, parseMove, playMove, SECOND, startCells, STRIDE, unplayMove } from './core.js';
import { renderText } from './render.js';
import type { AmazonsState } from './state.js';

export type Color = 'X' | 'O';
/** 'C1-C4/F4', or Botzone's [x0, y0, x1, y1, x2, y2]. */
export type Action = string | readonly [number, number, number, number, number, number];

const SYMBOL = ['.', 'X', 'O', '#'];

function pieceOfColor(color: unknown): number {
  if (color === 'X') return FIRST;
  if (color === 'O') return SECOND;
  throw new Error(`color must be 'X' (Black, moves first) or 'O' (White), got ${JSON.stringify(color)}`);
}

/** An action → its move number on a board of `size`, or -1 when it names no move of that board. */
export function toMove(action: unknown, size: number): number {
  if (typeof action === 'string') {
    const move = parseMove(action);
    if (move === null) return -1;
    const cells = [Math.floor(move / 10000), Math.floor(move / 100) % 100, move % 100];
    return cells.every((cell) => Math.floor(cell / STRIDE) < size && cell % STRIDE < size) ? move : -1;
  }
  if (Array.isArray(action) && action.length === 6 && action.every((n) => Number.isInteger(n) && n >= 0 && n < size)) {
    const [x0, y0, x1, y1, x2, y2] = action as number[];
    return packMove(y0 * STRIDE + x0, y1 * STRIDE + x1, y2 * STRIDE + x2);
  }
  return -1;
}

export class Board {
  readonly empty = '.';
  readonly arrow = '#';
  /** 8 (Botzone) or 10. */
  readonly size: number;
  #cells: Uint8Array;
  #history: number[] = [];

  /** `new Board()` is Botzone's 8 x 8 start; `new Board(10)` the standard 10 x 10 one. */
  constructor(size = 8) {
    if (size !== 8 && size !== 10) throw new Error(`an Amazons board is 8 x 8 or 10 x 10, got ${size}`);
    this.size = size;
    this.#cells = startCells(size);
  }

  static fromState(state: AmazonsState): Board {
    const board = new Board(state.size);
    board.#cells = state.cells.slice();
    board.#history = state.lastMove < 0 ? [] : [state.lastMove];
    return board;
  }

  static fingerprint(board: unknown): string {
    if (!(board instanceof Board)) return 'not a Board';
    return `${Array.from(board.#cells).join('')}:${board.#history.join(',')}`;
  }

  /** '.', 'X', 'O' or '#' (an arrow) at (row, col), 0-based, row 0 = row '1' (the top). */
  get(row: number, col: number): string {
    if (!this.isOnBoard(row, col)) throw new RangeError(`(${row}, ${col}) is off the board: row and col go 0..${this.size - 1}`);
    return SYMBOL[this.#cells[row * STRIDE + col]];
  }

  isOnBoard(row: number, col: number): boolean {
    return Number.isInteger(row) && Number.isInteger(col) && row >= 0 && row < this.size && col >= 0 && col < this.size;
  }

  /** The rows of '.', 'X', 'O', '#', row 0 = row '1' (a fresh copy). */
  get board(): string[][] {
    const rows: string[][] = [];
    for (let row = 0; row < this.size; row++) rows.push(Array.from(this.#cells.subarray(row * STRIDE, row * STRIDE + this.size), (v) => SYMBOL[v]));
    return rows;
  }

  /** The last move, e.g. 'C1-C4/F4', or null before the first. */
  get lastMove(): string | null {
    return this.#history.length ? formatMove(this.#history[this.#history.length - 1]) : null;
  }

  /** Every move of `color`: by queen, destination, arrow, each row by row from A1. */
  getLegalActions(color: Color): string[] {
    return legalMoves(this.#cells, this.size, pieceOfColor(color)).map(formatMove);
  }

  get_legal_actions(color: Color): string[] {
    return this.getLegalActions(color);
  }

  isLegal(action: Action, color: Color): boolean {
    const move = toMove(action, this.size);
    return move >= 0 && isLegalMove(this.#cells, this.size, pieceOfColor(color), move);
  }

  is_legal(action: Action, color: Color): boolean {
    return this.isLegal(action, color);
  }

  /** Plays `action` for `color`: true, or false (and the board unchanged) when it is not legal. */
  move(action: Action, color: Color): boolean {
    const move = toMove(action, this.size);
    if (move < 0 || !isLegalMove(this.#cells, this.size, pieceOfColor(color), move)) return false;
    playMove(this.#cells, move);
    this.#history.push(move);
    return true;
  }

  _move(action: Action, color: Color): boolean {
    return this.move(action, color);
  }

  /** Takes `action` back: it must be the move that put its queen and arrow where they are. */
  undo(action: Action): void {
    const move = toMove(action, this.size);
    const from = Math.floor(move / 10000);
    const to = Math.floor(move / 100) % 100;
    const arrow = move % 100;
    const queen = this.#cells[to];
    if (move < 0 || this.#cells[arrow] !== ARROW || (queen !== FIRST && queen !== SECOND) || (from !== arrow && this.#cells[from] !== EMPTY)) {
      throw new Error(`cannot undo ${JSON.stringify(action)}: its queen and arrow are not on the board`);
    }
    unplayMove(this.#cells, move);
    const at = this.#history.lastIndexOf(move);
    if (at >= 0) this.#history.splice(at, 1);
  }

  backpropagation(action: Action, ..._ignored: unknown[]): void {
    this.undo(action);
  }

  /** Queens of `color` (4), or arrows with '#'. */
  count(color: Color | '#'): number {
    const piece = color === '#' ? ARROW : pieceOfColor(color);
    let n = 0;
    for (let cell = 0; cell < CELLS; cell++) if (this.#cells[cell] === piece) n++;
    return n;
  }

  /** With `toMove` to play: [0 Black wins | 1 White wins, 1] when `toMove` cannot move (and so has lost), else null. */
  getWinner(toMove: Color): [0 | 1, number] | null {
    const piece = pieceOfColor(toMove);
    if (hasMove(this.#cells, this.size, piece)) return null;
    return [piece === FIRST ? 1 : 0, 1];
  }

  get_winner(toMove: Color): [0 | 1, number] | null {
    return this.getWinner(toMove);
  }

  toString(): string {
    return renderText({ cells: this.#cells, size: this.size, side: 0, lastMove: -1, arrows: 0 });
  }

  display(): void {
    console.log(this.toString());
  }

  copy(): Board {
    const board = new Board(this.size);
    board.#cells = this.#cells.slice();
    board.#history = this.#history.slice();
    return board;
  }
}

