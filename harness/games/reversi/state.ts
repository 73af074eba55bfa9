import type { Side } from '../game.js';

/**
 * An immutable Reversi position: black and white bitboards (high half = squares 32..63, low half = 0..31, int32)
 * and the side to move (0 = Black "X").
 */
export interface ReversiState {
  readonly bh: number;
  readonly bl: number;
  readonly wh: number;
  readonly wl: number;
  readonly side: Side;
}
