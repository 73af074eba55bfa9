/**
 * The student-facing NoGo board (the shared stone board of common/stone-board.ts with NoGo's rules): legal
 * actions, move/undo, winner, copy, display. Coordinates: 'E5' is file E (col 4), row 5 (row index 4); row 1 is
 * the bottom; files skip I (A B C D E F G H J). `[row, col]` pairs are accepted too.
 */
import { actionCell, pieceOfColor, StoneBoard, type Action, type Color } from '../common/stone-board.js';
import { BLACK, CELLS, CENTER, cellName, hasLegalMove, isLegal, legalCells, parseCell, SIZE, withoutCell } from './core.js';
import { renderText } from './render.js';
import type { NoGoState } from './state.js';

export type { Action, Color } from '../common/stone-board.js';

const GEOMETRY = { size: SIZE, cellName, parseCell, renderText };
const scratch = new Int16Array(CELLS);

/** 'E5' or [4, 4] → cell index, or -1 when it names no cell. */
export function toCell(action: unknown): number {
  return actionCell(action, SIZE, parseCell);
}

/**
 * `new Board()` is the empty 9 x 9 board under the centre rule (第一步不可在正中央: Black's first move may not be
 * E5); `new Board(false)` is the board without it. The board follows the rule of the game it was handed in.
 */
export class Board extends StoneBoard {
  /** Whether a first move (on an empty board) may not be the centre. */
  readonly centerFirstMoveBanned: boolean;

  constructor(centerFirstMoveBanned = true) {
    super(GEOMETRY);
    this.centerFirstMoveBanned = centerFirstMoveBanned;
  }

  static fromState(state: NoGoState): Board {
    const board = new Board(state.centerBanned);
    board.load(state.cells, state.lastMove);
    return board;
  }

  /** Whether `cell` is the centre while the centre rule forbids it: the board is still empty. */
  #bannedNow(cell: number): boolean {
    return cell === CENTER && this.centerFirstMoveBanned && this.liveCells().every((value) => value === 0);
  }

  /**
   * Cells `color` may play (empty, no capture, no suicide; not E5 as the first move under the centre rule), as
   * 'A1', 'B1', … row by row from row 1.
   */
  getLegalActions(color: Color): string[] {
    let n = legalCells(this.liveCells(), pieceOfColor(color), scratch);
    if (this.#bannedNow(CENTER)) n = withoutCell(scratch, n, CENTER);
    const actions: string[] = [];
    for (let i = 0; i < n; i++) actions.push(cellName(scratch[i]));
    return actions;
  }

  get_legal_actions(color: Color): string[] {
    return this.getLegalActions(color);
  }

  isLegal(action: Action, color: Color): boolean {
    const cell = toCell(action);
    return !this.#bannedNow(cell) && isLegal(this.liveCells(), pieceOfColor(color), cell);
  }

  protected override mayPlay(piece: number, cell: number): boolean {
    return !this.#bannedNow(cell) && isLegal(this.liveCells(), piece, cell);
  }

  /**
   * With `toMove` to play: [0 Black wins | 1 White wins, 1] when `toMove` has no legal move (and so has lost),
   * else null. NoGo has no draws.
   */
  getWinner(toMove: Color): [0 | 1, number] | null {
    const piece = pieceOfColor(toMove);
    if (hasLegalMove(this.liveCells(), piece)) return null;
    return [piece === BLACK ? 1 : 0, 1];
  }

  get_winner(toMove: Color): [0 | 1, number] | null {
    return this.getWinner(toMove);
  }

  protected override blank(): this {
    return new Board(this.centerFirstMoveBanned) as this;
  }
}
