/**
 * What the student-facing boards of the stone games (Gomoku, NoGo) share, in the style of the Reversi Board:
 * a square grid where a placed stone stays put, cells named like 'H8' (row 1 at the bottom) or given as
 * [row, col] pairs, move/undo with a last-move history, copies and display. Each game's Board extends this with
 * its own rules: which cells may be played, who has won. The stones live in private fields and getters return
 * copies, so only the methods change a board — which is what the tamper check compares.
 */

export type Color = 'X' | 'O';
/** A cell: a name like 'H8' or [row, col] (0-based, row 0 is row '1'). */
export type Action = string | readonly [number, number];

/** Cells hold 0 (empty), 1 (Black, 'X', moves first) or 2 (White, 'O'). */
const EMPTY = 0;
const BLACK = 1;
const WHITE = 2;
const SYMBOL = ['.', 'X', 'O'];

export interface StoneGeometry {
  /** Lines per side. */
  size: number;
  cellName(cell: number): string;
  /** A cell name → its index, or -1 when it names no cell. */
  parseCell(text: unknown): number;
  renderText(cells: Uint8Array): string;
}

/** 'X' → 1 (Black), 'O' → 2 (White); anything else is the student's error. */
export function pieceOfColor(color: unknown): number {
  if (color === 'X') return BLACK;
  if (color === 'O') return WHITE;
  throw new Error(`color must be 'X' (Black, moves first) or 'O' (White), got ${JSON.stringify(color)}`);
}

/** A cell name or [row, col] on a `size` x `size` board → cell index, or -1 when it names no cell. */
export function actionCell(action: unknown, size: number, parseCell: (text: unknown) => number): number {
  if (typeof action === 'string') return parseCell(action);
  if (Array.isArray(action) && action.length === 2) {
    const [row, col] = action as unknown[];
    if (Number.isInteger(row) && Number.isInteger(col) && (row as number) >= 0 && (row as number) < size &&
        (col as number) >= 0 && (col as number) < size) {
      return (row as number) * size + (col as number);
    }
  }
  return -1;
}

export abstract class StoneBoard {
  readonly empty = '.';
  readonly size: number;
  readonly #geometry: StoneGeometry;
  #cells: Uint8Array;
  #lastMove = -1;
  #history: number[] = [];

  protected constructor(geometry: StoneGeometry) {
    this.size = geometry.size;
    this.#geometry = geometry;
    this.#cells = new Uint8Array(geometry.size * geometry.size);
  }

  /** The position as a short string, for the tamper check; reads private fields, so overrides cannot fool it. */
  static fingerprint(board: unknown): string {
    if (typeof board !== 'object' || board === null || !(#cells in board)) return 'not-a-board';
    return `${board.#cells.join('')}:${board.#lastMove}`;
  }

  /** The board's own cells, for the game's rules in a subclass: read them, never hand them out. */
  protected liveCells(): Uint8Array {
    return this.#cells;
  }

  /** Sets up a decoded position (a copy of `cells`), with no history to undo. */
  protected load(cells: Uint8Array, lastMove: number): void {
    this.#cells = cells.slice();
    this.#lastMove = lastMove;
  }

  /** Whether `piece` may go on `cell` (-1 when the action named no cell). */
  protected abstract mayPlay(piece: number, cell: number): boolean;

  /** After a stone is placed: what the game tracks beyond the stones (e.g. a winner). */
  protected afterMove(_piece: number, _cell: number): void {}

  /** A board of this game with no stones, ready for `copy` to fill in. */
  protected abstract blank(): this;

  #cellOf(action: unknown): number {
    return actionCell(action, this.#geometry.size, this.#geometry.parseCell);
  }

  /** '.', 'X' or 'O' at (row, col), 0-based. */
  get(row: number, col: number): string {
    const size = this.#geometry.size;
    if (!this.isOnBoard(row, col)) throw new Error(`(${row}, ${col}) is off the board: row and col go 0..${size - 1}`);
    return SYMBOL[this.#cells[row * size + col]];
  }

  isOnBoard(row: number, col: number): boolean {
    const size = this.#geometry.size;
    return Number.isInteger(row) && Number.isInteger(col) && row >= 0 && row < size && col >= 0 && col < size;
  }

  /** The rows of '.', 'X', 'O', row 0 = row '1' (a fresh copy). */
  get board(): string[][] {
    const size = this.#geometry.size;
    const rows: string[][] = [];
    for (let r = 0; r < size; r++) rows.push(Array.from(this.#cells.subarray(r * size, (r + 1) * size), (v) => SYMBOL[v]));
    return rows;
  }

  /** The last move, e.g. 'H8', or null before the first. */
  get lastMove(): string | null {
    return this.#lastMove < 0 ? null : this.#geometry.cellName(this.#lastMove);
  }

  /** Places a `color` stone: true, or false (and the board unchanged) when the game's rules forbid it. */
  move(action: Action, color: Color): boolean {
    const piece = pieceOfColor(color);
    const cell = this.#cellOf(action);
    if (!this.mayPlay(piece, cell)) return false;
    this.#cells[cell] = piece;
    this.#history.push(this.#lastMove);
    this.#lastMove = cell;
    this.afterMove(piece, cell);
    return true;
  }

  _move(action: Action, color: Color): boolean {
    return this.move(action, color);
  }

  /** Takes the stone on `action` back off the board. */
  undo(action: Action): void {
    const cell = this.#cellOf(action);
    if (cell < 0 || this.#cells[cell] === EMPTY) throw new Error(`cannot undo ${JSON.stringify(action)}: no stone there`);
    this.#cells[cell] = EMPTY;
    this.#lastMove = this.#history.pop() ?? -1;
  }

  /** board.py's name for undo; extra arguments are accepted for symmetry with Reversi and ignored. */
  backpropagation(action: Action, ..._ignored: unknown[]): void {
    this.undo(action);
  }

  count(color: Color): number {
    const piece = pieceOfColor(color);
    let n = 0;
    for (const value of this.#cells) if (value === piece) n++;
    return n;
  }

  toString(): string {
    return this.#geometry.renderText(this.#cells);
  }

  display(): void {
    console.log(this.toString());
  }

  copy(): this {
    const board = this.blank();
    board.#cells = this.#cells.slice();
    board.#lastMove = this.#lastMove;
    board.#history = [...this.#history];
    return board;
  }
}
