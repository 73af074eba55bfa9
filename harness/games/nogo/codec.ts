/**
 * Text form of a NoGo state, in the stone games' shared notation (common/stone-codec.ts): the 9 rows from row 9
 * (top) down to row 1, then the last move. The empty board is "9/9/9/9/9/9/9/9/9 -".
 */
import { decodeFailure, decodeStones, encodeStones, type StoneNotation } from '../common/stone-codec.js';
import { allGroupsBreathe, cellName, parseCell, SIZE } from './core.js';
import type { NoGoState } from './state.js';

const NOTATION: StoneNotation = {
  size: SIZE,
  pattern: /^([1-9xo/]+) (-|[A-HJ][1-9])$/,
  example: '9/9/9/9/9/9/9/9/9 -',
  turnRule: 'Black moves first, nobody passes',
  cellName,
  parseCell,
};

export function encodeState(state: NoGoState): string {
  return encodeStones(NOTATION, state.cells, state.lastMove);
}

export function decodeState(text: string): NoGoState {
  const fail = decodeFailure('nogo', text);
  const { cells, side, lastMove, stones } = decodeStones(NOTATION, text, fail);
  if (!allGroupsBreathe(cells)) fail('a group has no liberty, which NoGo play never allows');
  const state: NoGoState = { cells, side, lastMove, stones };
  if (encodeState(state) !== text) fail(`not in canonical form (expected ${JSON.stringify(encodeState(state))})`);
  return state;
}
