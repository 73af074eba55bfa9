export { amazons } from './amazons.js';
export { Board, toMove } from './board.js';
export type { Action, Color } from './board.js';
export type { AmazonsState } from './state.js';
export { cellName, formatMove, parseCell, parseMove } from './core.js';
