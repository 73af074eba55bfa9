/**
 * Text form of a Gomoku state: the 15 rows from row 15 (top) down to row 1, separated by '/', 'x' for Black,
 * 'o' for White and digits for runs of empty cells (as in chess FEN), then a space and the last move ('-' before
 * the first). The empty board is "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 -". The side to move follows
 * from the stone counts (Black starts).
 */
import type { Side } from '../game.js';
import { BLACK, CELLS, cellName, EMPTY, parseCell, SIZE, WHITE, winsAt } from './core.js';
import type { GomokuState } from './state.js';

export function encodeState(state: GomokuState): string {
  const lines: string[] = [];
  for (let row = SIZE - 1; row >= 0; row--) {
    let line = '';
    let run = 0;
    for (let col = 0; col < SIZE; col++) {
      const value = state.cells[row * SIZE + col];
      if (value === EMPTY) {
        run++;
        continue;
      }
      if (run > 0) line += run;
      run = 0;
      line += value === BLACK ? 'x' : 'o';
    }
    if (run > 0) line += run;
    lines.push(line);
  }
  return `${lines.join('/')} ${state.lastMove < 0 ? '-' : cellName(state.lastMove)}`;
}

/** Parses and fully validates a state; `id` prefixes every error. */
export function decodeState(id: string, text: string, exactFive: boolean): GomokuState {
  const fail = (why: string): never => {
    throw new Error(`${id}: cannot decode state ${JSON.stringify(String(text).slice(0, 80))}: ${why}`);
  };
  if (typeof text !== 'string') fail('expected a string');
  const match = /^([0-9xo/]+) (-|[A-O][0-9]{1,2})$/.exec(text);
  if (!match) fail('expected "<15 rows top to bottom, separated by \'/\'> <last move or ->", e.g. "15/15/…/15 -"');
  const [, gridText, lastText] = match!;
  const rowTexts = gridText.split('/');
  if (rowTexts.length !== SIZE) fail(`expected ${SIZE} rows, got ${rowTexts.length}`);

  const cells = new Uint8Array(CELLS);
  let blacks = 0;
  let whites = 0;
  rowTexts.forEach((rowText, i) => {
    const row = SIZE - 1 - i;
    let col = 0;
    for (const token of rowText.match(/[1-9][0-9]*|[xo]|0/g) ?? []) {
      if (token === '0') fail('an empty run cannot be 0');
      if (token === 'x' || token === 'o') {
        if (col < SIZE) cells[row * SIZE + col] = token === 'x' ? BLACK : WHITE;
        if (token === 'x') blacks++;
        else whites++;
        col++;
      } else {
        col += Number(token);
      }
    }
    if (col !== SIZE) fail(`row ${row + 1} has ${col} cells, not ${SIZE}`);
  });
  if (blacks !== whites && blacks !== whites + 1) fail(`stone counts x=${blacks}, o=${whites} cannot arise (Black moves first)`);
  const side: Side = blacks === whites ? 0 : 1;
  const stones = blacks + whites;

  let lastMove = -1;
  if (lastText === '-') {
    if (stones > 0) fail('the last move is missing ("-" is only for the empty board)');
  } else {
    lastMove = parseCell(lastText);
    if (lastMove < 0) fail(`last move ${lastText} is not a cell A1..O15`);
    if (cells[lastMove] !== (side === 0 ? WHITE : BLACK)) fail(`the last move ${lastText} is not a stone of the side that just moved`);
  }

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
