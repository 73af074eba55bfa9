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

/** Appended to the empty board when Black's first move may not be the centre (the centre rule). */
const CENTER_BANNED = ' !E5';

export function encodeState(state: NoGoState): string {
  const stones = encodeStones(NOTATION, state.cells, state.lastMove);
  return state.centerBanned && state.stones === 0 ? stones + CENTER_BANNED : stones;
}

export function decodeState(text: string): NoGoState {
  const fail = decodeFailure('nogo', text);
  const centerBanned = typeof text === 'string' && text.endsWith(CENTER_BANNED);
  const board = centerBanned ? text.slice(0, -CENTER_BANNED.length) : text;
  const { cells, side, lastMove, stones } = decodeStones(NOTATION, board, fail);
  if (!allGroupsBreathe(cells)) fail('a group has no liberty, which NoGo play never allows');
  if (centerBanned && stones > 0) fail(`'${CENTER_BANNED.trim()}' (the centre rule) belongs only to the empty board`);
  const state: NoGoState = { cells, side, lastMove, stones, centerBanned };
  if (encodeState(state) !== text) fail(`not in canonical form (expected ${JSON.stringify(encodeState(state))})`);
  return state;
}
