export { connect4, connect4Nogo } from './connect4.js';
export { Board, toColumn } from './board.js';
export type { Action, Color } from './board.js';
export type { Connect4State } from './state.js';
export { drawLayout, type Layout } from './layout.js';
