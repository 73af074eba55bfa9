/**
 * The immutable Connect Four state both variants share. A state owns its typed arrays and never changes them;
 * `applyColumn` copies (at most 144 + 12 bytes) and plays on the copy with the core.
 */
import type { Side } from '../game.js';
import { drop, emptyGrid, FIRST, SECOND, winsAt, type Grid } from './core.js';

export interface Connect4State extends Grid {
  /** The no-go cell's index (row * cols + col), or -1 on the standard board. */
  readonly blocked: number;
  readonly side: Side;
  /** Column of the last move, -1 before the first. */
  readonly lastMove: number;
  /** Cell the last disc landed on, -1 before the first. */
  readonly lastCell: number;
  readonly discs: number;
  /** The side with four in a line, or null. */
  readonly winner: Side | null;
  /** Someone won or the board is full. */
  readonly over: boolean;
}

export const pieceOf = (side: Side): number => (side === 0 ? FIRST : SECOND);

/** Cells a disc can ever occupy. */
export const playableCells = (state: Pick<Connect4State, 'rows' | 'cols' | 'blocked'>): number =>
  state.rows * state.cols - (state.blocked >= 0 ? 1 : 0);

export function emptyState(rows: number, cols: number, blocked: number): Connect4State {
  const grid = emptyGrid(rows, cols, blocked);
  return { ...grid, blocked, side: 0, lastMove: -1, lastCell: -1, discs: 0, winner: null, over: false };
}

/** Whether `col` names a column of this board with room left. */
export function isOpenColumn(state: Connect4State, col: number): boolean {
  return Number.isInteger(col) && col >= 0 && col < state.cols && state.top[col] < state.rows;
}

export function applyColumn(state: Connect4State, col: number): Connect4State {
  if (state.over) throw new Error('connect4: the game is over; no move can be applied');
  if (!isOpenColumn(state, col)) throw new Error(`connect4: column ${col} is not a legal move here`);
  const grid: Grid = { rows: state.rows, cols: state.cols, cells: state.cells.slice(), top: state.top.slice() };
  const cell = drop(grid, col, pieceOf(state.side));
  const discs = state.discs + 1;
  const winner = winsAt(grid, cell) ? state.side : null;
  return {
    ...grid,
    blocked: state.blocked,
    side: (state.side ^ 1) as Side,
    lastMove: col,
    lastCell: cell,
    discs,
    winner,
    over: winner !== null || discs === playableCells(state),
  };
}
