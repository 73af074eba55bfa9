/**
 * The student-facing NoGo board, in the style of the Reversi Board: legal actions, move/undo, winner, copy,
 * display. Coordinates: 'E5' is file E (col 4), row 5 (row index 4); row 1 is the bottom; files skip I
 * (A B C D E F G H J). `[row, col]` pairs are accepted too. The stones live in private fields and getters return
 * copies, so only the methods change a board — which is what the tamper check compares.
 */
import { BLACK, CELLS, cellName, EMPTY, hasLegalMove, isLegal, legalCells, parseCell, SIZE, WHITE } from './core.js';
import { renderText } from './render.js';
import type { NoGoState } from './state.js';

export type Color = 'X' | 'O';
/** A cell: 'E5' or [row, col] (0-based, row 0 is row '1'). */
export type Action = string | readonly [number, number];

const SYMBOL = ['.', 'X', 'O'];
const scratch = new Int16Array(CELLS);

function pieceOf(color: unknown): number {
  if (color === 'X') return BLACK;
  if (color === 'O') return WHITE;
  throw new Error(`color must be 'X' (Black, moves first) or 'O' (White), got ${JSON.stringify(color)}`);
}

/** 'E5' or [4, 4] → cell index, or -1 when it names no cell. */
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

/** `new Board()` is the empty 9 x 9 board. */
export class Board {
  readonly empty = '.';
  readonly size = SIZE;
  #cells = new Uint8Array(CELLS);
  #lastMove = -1;
  #history: number[] = [];

  static fromState(state: NoGoState): Board {
    const board = new Board();
    board.#cells = state.cells.slice();
    board.#lastMove = state.lastMove;
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

  /** 9 rows of '.', 'X', 'O', row 0 = row '1' (a fresh copy). */
  get board(): string[][] {
    const rows: string[][] = [];
    for (let r = 0; r < SIZE; r++) rows.push(Array.from(this.#cells.subarray(r * SIZE, (r + 1) * SIZE), (v) => SYMBOL[v]));
    return rows;
  }

  /** The last move, e.g. 'E5', or null before the first. */
  get lastMove(): string | null {
    return this.#lastMove < 0 ? null : cellName(this.#lastMove);
  }

  /** Cells `color` may play (empty, no capture, no suicide), as 'A1', 'B1', … row by row from row 1. */
  getLegalActions(color: Color): string[] {
    const n = legalCells(this.#cells, pieceOf(color), scratch);
    const actions: string[] = [];
    for (let i = 0; i < n; i++) actions.push(cellName(scratch[i]));
    return actions;
  }

  get_legal_actions(color: Color): string[] {
    return this.getLegalActions(color);
  }

  isLegal(action: Action, color: Color): boolean {
    return isLegal(this.#cells, pieceOf(color), toCell(action));
  }

  /** Places a `color` stone: true, or false (and the board unchanged) when the move is not legal. */
  move(action: Action, color: Color): boolean {
    const piece = pieceOf(color);
    const cell = toCell(action);
    if (!isLegal(this.#cells, piece, cell)) return false;
    this.#cells[cell] = piece;
    this.#history.push(this.#lastMove);
    this.#lastMove = cell;
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
  }

  /** board.py's name for undo; extra arguments are accepted for symmetry with Reversi and ignored. */
  backpropagation(action: Action, ..._ignored: unknown[]): void {
    this.undo(action);
  }

  count(color: Color): number {
    const piece = pieceOf(color);
    let n = 0;
    for (const value of this.#cells) if (value === piece) n++;
    return n;
  }

  /**
   * With `toMove` to play: [0 Black wins | 1 White wins, 1] when `toMove` has no legal move (and so has lost),
   * else null. NoGo has no draws.
   */
  getWinner(toMove: Color): [0 | 1, number] | null {
    const piece = pieceOf(toMove);
    if (hasLegalMove(this.#cells, piece)) return null;
    return [piece === BLACK ? 1 : 0, 1];
  }

  get_winner(toMove: Color): [0 | 1, number] | null {
    return this.getWinner(toMove);
  }

  toString(): string {
    return renderText(this.#cells);
  }

  display(): void {
    console.log(this.toString());
  }

  copy(): Board {
    const board = new Board();
    board.#cells = this.#cells.slice();
    board.#lastMove = this.#lastMove;
    board.#history = [...this.#history];
    return board;
  }
}
