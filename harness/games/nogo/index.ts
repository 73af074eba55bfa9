export { nogo } from './nogo.js';
export { Board, toCell } from './board.js';
export type { Action, Color } from './board.js';
export type { NoGoState } from './state.js';
export { cellName, parseCell, SIZE } from './core.js';
