/**
 * Text form of a Gomoku state, in the stone games' shared notation (common/stone-codec.ts): the 15 rows from
 * row 15 (top) down to row 1, then the last move. The empty board is
 * "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 -".
 */
import { decodeFailure, decodeStones, encodeStones, type StoneNotation } from '../common/stone-codec.js';
import type { Side } from '../game.js';
import { CELLS, cellName, EMPTY, parseCell, SIZE, winsAt } from './core.js';
import type { GomokuState } from './state.js';

const NOTATION: StoneNotation = {
  size: SIZE,
  pattern: /^([0-9xo/]+) (-|[A-O][0-9]{1,2})$/,
  example: '15/15/…/15 -',
  turnRule: 'Black moves first',
  cellName,
  parseCell,
};

export function encodeState(state: GomokuState): string {
  return encodeStones(NOTATION, state.cells, state.lastMove);
}

/** Parses and fully validates a state; `id` prefixes every error. */
export function decodeState(id: string, text: string, exactFive: boolean): GomokuState {
  const fail = decodeFailure(id, text);
  const { cells, side, lastMove, stones } = decodeStones(NOTATION, text, fail);

  // A winning line may only exist through the last stone: the game stops at the first one.
  const winner = lastMove >= 0 && winsAt(cells, lastMove, exactFive) ? ((side ^ 1) as Side) : null;
  if (lastMove >= 0) {
    const piece = cells[lastMove];
    cells[lastMove] = EMPTY;
    for (let cell = 0; cell < CELLS; cell++) if (winsAt(cells, cell, exactFive)) fail('the game ended before the last move (a winning line)');
    cells[lastMove] = piece;
  }
  const state: GomokuState = { cells, side, lastMove, stones, winner, over: winner !== null || stones === CELLS };
  if (encodeState(state) !== text) fail(`not in canonical form (expected ${JSON.stringify(encodeState(state))})`);
  return state;
}
