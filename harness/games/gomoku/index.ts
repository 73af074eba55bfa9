export { gomoku, gomokuExact5, makeGomoku } from './gomoku.js';
export { Board, toCell } from './board.js';
export type { Action, Color } from './board.js';
export type { GomokuState } from './state.js';
export { cellName, parseCell, SIZE } from './core.js';
