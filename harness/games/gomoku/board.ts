/**
 * The student-facing Gomoku board, in the style of the Reversi Board: legal actions, move/undo, winner, copy,
 * display. Coordinates: 'H8' is file H (col 7), row 8 (row index 7); row 1 is the bottom; files A..O do not skip I.
 * `[row, col]` pairs are accepted too. The stones live in private fields and getters return copies, so only the
 * methods change a board — which is what the tamper check compares.
 */
import { BLACK, CELLS, cellName, EMPTY, parseCell, SIZE, WHITE, winsAt } from './core.js';
import { renderText } from './render.js';
import type { GomokuState } from './state.js';

export type Color = 'X' | 'O';
/** A cell: 'H8' or [row, col] (0-based, row 0 is row '1'). */
export type Action = string | readonly [number, number];

const SYMBOL = ['.', 'X', 'O'];

function checkColor(color: unknown): Color {
  if (color === 'X' || color === 'O') return color;
  throw new Error(`color must be 'X' (Black, moves first) or 'O' (White), got ${JSON.stringify(color)}`);
}

/** 'H8' or [7, 7] → cell index, or -1 when it names no cell. */
export function toCell(action: unknown): number {
  if (typeof action === 'string') return parseCell(action);
  if (Array.isArray(action) && action.length === 2) {
    const [row, col] = action as unknown[];
    if (Number.isInteger(row) && Number.isInteger(col) && (row as number) >= 0 && (row as number) < SIZE &&
        (col as number) >= 0 && (col as number) < SIZE) {
      return (row as number) * SIZE + (col as number);
    }
  }
  return -1;
}

export class Board {
  readonly empty = '.';
  readonly size = SIZE;
  /** True when only a line of exactly five wins (the gomoku-exact5 variant). */
  readonly exactFive: boolean;
  #cells = new Uint8Array(CELLS);
  #lastMove = -1;
  #history: number[] = [];
  #winner: 0 | 1 | null = null;

  /** The empty 15 x 15 board. */
  constructor(exactFive = false) {
    this.exactFive = exactFive;
  }

  static fromState(state: GomokuState, exactFive: boolean): Board {
    const board = new Board(exactFive);
    board.#cells = state.cells.slice();
    board.#lastMove = state.lastMove;
    board.#winner = state.winner;
    return board;
  }

  /** The position as a short string, for the tamper check; reads private fields, so overrides cannot fool it. */
  static fingerprint(board: unknown): string {
    if (typeof board !== 'object' || board === null || !(#cells in board)) return 'not-a-board';
    return `${board.#cells.join('')}:${board.#lastMove}`;
  }

  /** '.', 'X' or 'O' at (row, col), 0-based. */
  get(row: number, col: number): string {
    if (!this.isOnBoard(row, col)) throw new Error(`(${row}, ${col}) is off the board: row and col go 0..${SIZE - 1}`);
    return SYMBOL[this.#cells[row * SIZE + col]];
  }

  isOnBoard(row: number, col: number): boolean {
    return Number.isInteger(row) && Number.isInteger(col) && row >= 0 && row < SIZE && col >= 0 && col < SIZE;
  }

  /** 15 rows of '.', 'X', 'O', row 0 = row '1' (a fresh copy). */
  get board(): string[][] {
    const rows: string[][] = [];
    for (let r = 0; r < SIZE; r++) rows.push(Array.from(this.#cells.subarray(r * SIZE, (r + 1) * SIZE), (v) => SYMBOL[v]));
    return rows;
  }

  /** The last move, e.g. 'H8', or null before the first. */
  get lastMove(): string | null {
    return this.#lastMove < 0 ? null : cellName(this.#lastMove);
  }

  /** Empty cells as 'A1', 'B1', … 'O15' (row by row from row 1); empty once the game is over. */
  getLegalActions(color?: Color): string[] {
    if (color !== undefined) checkColor(color);
    const actions: string[] = [];
    if (this.#winner !== null) return actions;
    for (let cell = 0; cell < CELLS; cell++) if (this.#cells[cell] === EMPTY) actions.push(cellName(cell));
    return actions;
  }

  /** Places a `color` stone: true, or false when the cell is off the board, taken, or the game is over. */
  move(action: Action, color: Color): boolean {
    const piece = checkColor(color) === 'X' ? BLACK : WHITE;
    const cell = toCell(action);
    if (cell < 0 || this.#cells[cell] !== EMPTY || this.#winner !== null) return false;
    this.#cells[cell] = piece;
    this.#history.push(this.#lastMove);
    this.#lastMove = cell;
    if (winsAt(this.#cells, cell, this.exactFive)) this.#winner = piece === BLACK ? 0 : 1;
    return true;
  }

  _move(action: Action, color: Color): boolean {
    return this.move(action, color);
  }

  /** Takes the stone on `action` back off the board. */
  undo(action: Action): void {
    const cell = toCell(action);
    if (cell < 0 || this.#cells[cell] === EMPTY) throw new Error(`cannot undo ${JSON.stringify(action)}: no stone there`);
    this.#cells[cell] = EMPTY;
    this.#lastMove = this.#history.pop() ?? -1;
    this.#winner = null;
  }

  /** board.py's name for undo; extra arguments are accepted for symmetry with Reversi and ignored. */
  backpropagation(action: Action, ..._ignored: unknown[]): void {
    this.undo(action);
  }

  count(color: Color): number {
    const piece = checkColor(color) === 'X' ? BLACK : WHITE;
    let n = 0;
    for (const value of this.#cells) if (value === piece) n++;
    return n;
  }

  /** [0 Black made five | 1 White did | 2 draw (full board), 1 for a win or 0 for a draw], or null while playing. */
  getWinner(): [0 | 1 | 2, number] | null {
    if (this.#winner !== null) return [this.#winner, 1];
    return this.#cells.every((v) => v !== EMPTY) ? [2, 0] : null;
  }

  get_winner(): [0 | 1 | 2, number] | null {
    return this.getWinner();
  }

  isOver(): boolean {
    return this.getWinner() !== null;
  }

  toString(): string {
    return renderText(this.#cells);
  }

  display(): void {
    console.log(this.toString());
  }

  copy(): Board {
    const board = new Board(this.exactFive);
    board.#cells = this.#cells.slice();
    board.#lastMove = this.#lastMove;
    board.#history = [...this.#history];
    board.#winner = this.#winner;
    return board;
  }
}
