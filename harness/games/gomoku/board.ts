/**
 * The student-facing Gomoku board (the shared stone board of common/stone-board.ts with Gomoku's rules): legal
 * actions, move/undo, winner, copy, display. Coordinates: 'H8' is file H (col 7), row 8 (row index 7); row 1 is
 * the bottom; files A..O do not skip I. `[row, col]` pairs are accepted too.
 */
import { actionCell, pieceOfColor, StoneBoard, type Action, type Color } from '../common/stone-board.js';
import { BLACK, CELLS, cellName, EMPTY, parseCell, SIZE, winsAt } from './core.js';
import { renderText } from './render.js';
import type { GomokuState } from './state.js';

export type { Action, Color } from '../common/stone-board.js';

const GEOMETRY = { size: SIZE, cellName, parseCell, renderText };

/** 'H8' or [7, 7] → cell index, or -1 when it names no cell. */
export function toCell(action: unknown): number {
  return actionCell(action, SIZE, parseCell);
}

export class Board extends StoneBoard {
  /** True when only a line of exactly five wins (the gomoku-exact5 variant). */
  readonly exactFive: boolean;
  #winner: 0 | 1 | null = null;

  /** The empty 15 x 15 board. */
  constructor(exactFive = false) {
    super(GEOMETRY);
    this.exactFive = exactFive;
  }

  static fromState(state: GomokuState, exactFive: boolean): Board {
    const board = new Board(exactFive);
    board.load(state.cells, state.lastMove);
    board.#winner = state.winner;
    return board;
  }

  /** Empty cells as 'A1', 'B1', … 'O15' (row by row from row 1); empty once the game is over. */
  getLegalActions(color?: Color): string[] {
    if (color !== undefined) pieceOfColor(color);
    const actions: string[] = [];
    if (this.#winner !== null) return actions;
    const cells = this.liveCells();
    for (let cell = 0; cell < CELLS; cell++) if (cells[cell] === EMPTY) actions.push(cellName(cell));
    return actions;
  }

  /** A stone may go on any empty cell until someone has won. */
  protected override mayPlay(_piece: number, cell: number): boolean {
    return cell >= 0 && this.liveCells()[cell] === EMPTY && this.#winner === null;
  }

  protected override afterMove(piece: number, cell: number): void {
    if (winsAt(this.liveCells(), cell, this.exactFive)) this.#winner = piece === BLACK ? 0 : 1;
  }

  override undo(action: Action): void {
    super.undo(action);
    this.#winner = null;
  }

  /** [0 Black made five | 1 White did | 2 draw (full board), 1 for a win or 0 for a draw], or null while playing. */
  getWinner(): [0 | 1 | 2, number] | null {
    if (this.#winner !== null) return [this.#winner, 1];
    return this.liveCells().every((v) => v !== EMPTY) ? [2, 0] : null;
  }

  get_winner(): [0 | 1 | 2, number] | null {
    return this.getWinner();
  }

  isOver(): boolean {
    return this.getWinner() !== null;
  }

  protected override blank(): this {
    return new Board(this.exactFive) as this;
  }

  override copy(): this {
    const board = super.copy();
    board.#winner = this.#winner;
    return board;
  }
}
