/**
 * The student-facing Connect Four board (both variants), in the style of the Reversi Board: legal actions,
 * move/undo, winner, copy, display. It also exposes what the no-go course's players receive every turn: M and N,
 * the `top` array, the board, the opponent's last move and the no-go cell.
 *
 * Coordinates: rows 0..M-1 from the bottom, columns 0..N-1 from the left; an action is a column, written '0',
 * '1', … (a number is accepted too). `top[col]` is the row the next disc in that column lands on, already stepping
 * over the no-go cell; `top[col] === M` means the column is full. The position lives in private fields and every
 * getter returns a copy, so only the methods change a board — which is what the tamper check compares.
 */
import { drop, emptyGrid, EMPTY, FIRST, NO_GO, SECOND, undrop, winsAt, type Grid } from './core.js';
import { renderText } from './render.js';
import type { Connect4State } from './state.js';

export type Color = 'X' | 'O';
/** A column: '3' or 3. */
export type Action = string | number;

const SYMBOL: Record<number, string> = { [EMPTY]: '.', [FIRST]: 'X', [SECOND]: 'O', [NO_GO]: '#' };

function checkColor(color: unknown): Color {
  if (color === 'X' || color === 'O') return color;
  throw new Error(`color must be 'X' (moves first) or 'O', got ${JSON.stringify(color)}`);
}

export class Board {
  readonly empty = '.';
  #grid: Grid;
  #blocked: number;
  #lastCell = -1;
  /** Last cells before each move made on this board, so undo restores `lastMove`. */
  #history: number[] = [];
  #winner: 0 | 1 | null = null;

  /** An empty board: 6 x 7 without a no-go cell by default; `noGo` is [row, col]. */
  constructor(rows = 6, cols = 7, noGo: readonly [number, number] | null = null) {
    if (!Number.isInteger(rows) || !Number.isInteger(cols) || rows < 4 || cols < 4 || rows > 32 || cols > 32) {
      throw new Error(`a board is 4..32 rows by 4..32 columns, got ${rows} x ${cols}`);
    }
    let blocked = -1;
    if (noGo !== null) {
      const [row, col] = noGo;
      if (!Number.isInteger(row) || !Number.isInteger(col) || row < 0 || row >= rows || col < 0 || col >= cols) {
        throw new Error(`the no-go cell [${row}, ${col}] is off a ${rows} x ${cols} board`);
      }
      blocked = row * cols + col;
    }
    this.#grid = emptyGrid(rows, cols, blocked);
    this.#blocked = blocked;
  }

  static fromState(state: Connect4State): Board {
    const board = new Board(state.rows, state.cols);
    board.#grid = { rows: state.rows, cols: state.cols, cells: state.cells.slice(), top: state.top.slice() };
    board.#blocked = state.blocked;
    board.#lastCell = state.lastCell;
    board.#winner = state.winner;
    return board;
  }

  /** The position as a short string, for the tamper check; reads private fields, so overrides cannot fool it. */
  static fingerprint(board: unknown): string {
    if (typeof board !== 'object' || board === null || !(#grid in board)) return 'not-a-board';
    const g = board.#grid;
    return `${g.rows}x${g.cols}:${g.cells.join('')}:${board.#lastCell}`;
  }

  /** Rows. */
  get M(): number {
    return this.#grid.rows;
  }

  /** Columns. */
  get N(): number {
    return this.#grid.cols;
  }

  /** Next landing row per column (M when full), as a fresh array. */
  get top(): number[] {
    return Array.from(this.#grid.top);
  }

  /** M rows of N cells, row 0 the bottom: '.', 'X', 'O', or '#' for the no-go cell (a fresh copy). */
  get board(): string[][] {
    const rows: string[][] = [];
    for (let r = 0; r < this.M; r++) {
      const row: string[] = [];
      for (let c = 0; c < this.N; c++) row.push(SYMBOL[this.#grid.cells[r * this.N + c]]);
      rows.push(row);
    }
    return rows;
  }

  /** Column of the last move, or null before the first. */
  get lastMove(): number | null {
    return this.#lastCell < 0 ? null : this.#lastCell % this.N;
  }

  /** [row, col] of the last disc played, or null before the first. */
  get lastCell(): [number, number] | null {
    return this.#lastCell < 0 ? null : [Math.floor(this.#lastCell / this.N), this.#lastCell % this.N];
  }

  /** [row, col] of the no-go cell, or null on a board without one. */
  get noGo(): [number, number] | null {
    return this.#blocked < 0 ? null : [Math.floor(this.#blocked / this.N), this.#blocked % this.N];
  }

  /** '.', 'X', 'O' or '#' at (row, col). */
  get(row: number, col: number): string {
    if (!this.isOnBoard(row, col)) throw new Error(`(${row}, ${col}) is off the board: rows 0..${this.M - 1}, cols 0..${this.N - 1}`);
    return SYMBOL[this.#grid.cells[row * this.N + col]];
  }

  isOnBoard(row: number, col: number): boolean {
    return Number.isInteger(row) && Number.isInteger(col) && row >= 0 && row < this.M && col >= 0 && col < this.N;
  }

  /** Columns with room, as '0', '1', …; empty once the game is over. `color` is checked but does not matter. */
  getLegalActions(color?: Color): string[] {
    if (color !== undefined) checkColor(color);
    if (this.#winner !== null) return [];
    const actions: string[] = [];
    for (let col = 0; col < this.N; col++) if (this.#grid.top[col] < this.M) actions.push(String(col));
    return actions;
  }

  /** Drops a `color` disc into column `action`: returns the row it landed on, or false (full, off the board, game over). */
  move(action: Action, color: Color): number | false {
    const piece = checkColor(color) === 'X' ? FIRST : SECOND;
    const col = toColumn(action, this.N);
    if (col < 0 || this.#grid.top[col] >= this.M || this.#winner !== null) return false;
    this.#history.push(this.#lastCell);
    const cell = drop(this.#grid, col, piece);
    this.#lastCell = cell;
    if (winsAt(this.#grid, cell)) this.#winner = piece === FIRST ? 0 : 1;
    return (cell - col) / this.N;
  }

  _move(action: Action, color: Color): number | false {
    return this.move(action, color);
  }

  /** Takes back the top disc of column `action` (the last move made there). */
  undo(action: Action): void {
    const col = toColumn(action, this.N);
    if (col < 0) throw new Error(`cannot undo ${JSON.stringify(action)}: not a column 0..${this.N - 1}`);
    const top = this.#grid.top[col];
    let row = top - 1;
    if (row >= 0 && row * this.N + col === this.#blocked) row--;
    if (row < 0) throw new Error(`cannot undo column ${col}: it holds no disc`);
    undrop(this.#grid, row * this.N + col);
    this.#lastCell = this.#history.pop() ?? -1;
    this.#winner = null;
  }

  /** board.py's name for undo; the extra arguments are accepted for symmetry with Reversi and ignored. */
  backpropagation(action: Action, ..._ignored: unknown[]): void {
    this.undo(action);
  }

  /** Discs of `color` on the board. */
  count(color: Color): number {
    const piece = checkColor(color) === 'X' ? FIRST : SECOND;
    let n = 0;
    for (const value of this.#grid.cells) if (value === piece) n++;
    return n;
  }

  /** [0 X connected four | 1 O did | 2 draw (full board), 1 for a win or 0 for a draw], or null while playing. */
  getWinner(): [0 | 1 | 2, number] | null {
    if (this.#winner !== null) return [this.#winner, 1];
    return this.#grid.top.every((t) => t >= this.M) ? [2, 0] : null;
  }

  get_winner(): [0 | 1 | 2, number] | null {
    return this.getWinner();
  }

  isOver(): boolean {
    return this.getWinner() !== null;
  }

  /** Top row first, row numbers on the left, column numbers underneath. */
  toString(): string {
    return renderText(this.#grid);
  }

  display(): void {
    console.log(this.toString());
  }

  /** An independent copy. */
  copy(): Board {
    const board = new Board(this.M, this.N);
    board.#grid = { rows: this.M, cols: this.N, cells: this.#grid.cells.slice(), top: this.#grid.top.slice() };
    board.#blocked = this.#blocked;
    board.#lastCell = this.#lastCell;
    board.#history = [...this.#history];
    board.#winner = this.#winner;
    return board;
  }
}

/** '3' or 3 → 3 when it names a column of a board `cols` wide, else -1. */
export function toColumn(action: unknown, cols: number): number {
  const col = typeof action === 'string' && /^(0|[1-9][0-9]?)$/.test(action) ? Number(action) : action;
  return typeof col === 'number' && Number.isInteger(col) && col >= 0 && col < cols ? col : -1;
}
