export { reversi } from './reversi.js';
export { Board, squareName, toSquare } from './board.js';
export type { Action, Color } from './board.js';
export type { ReversiState } from './state.js';
