/**
 * Text form of a NoGo state: the 9 rows from row 9 (top) down to row 1, separated by '/', 'x' for Black, 'o' for
 * White and digits for runs of empty cells (as in chess FEN), then a space and the last move ('-' before the
 * first). The empty board is "9/9/9/9/9/9/9/9/9 -". The side to move follows from the stone counts (Black
 * starts; nobody passes).
 */
import type { Side } from '../game.js';
import { allGroupsBreathe, BLACK, CELLS, cellName, EMPTY, parseCell, SIZE, WHITE } from './core.js';
import type { NoGoState } from './state.js';

export function encodeState(state: NoGoState): string {
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

export function decodeState(text: string): NoGoState {
  const fail = (why: string): never => {
    throw new Error(`nogo: cannot decode state ${JSON.stringify(String(text).slice(0, 80))}: ${why}`);
  };
  if (typeof text !== 'string') fail('expected a string');
  const match = /^([1-9xo/]+) (-|[A-HJ][1-9])$/.exec(text);
  if (!match) fail('expected "<9 rows top to bottom, separated by \'/\'> <last move or ->", e.g. "9/9/9/9/9/9/9/9/9 -"');
  const [, gridText, lastText] = match!;
  const rowTexts = gridText.split('/');
  if (rowTexts.length !== SIZE) fail(`expected ${SIZE} rows, got ${rowTexts.length}`);

  const cells = new Uint8Array(CELLS);
  let blacks = 0;
  let whites = 0;
  rowTexts.forEach((rowText, i) => {
    const row = SIZE - 1 - i;
    let col = 0;
    for (const ch of rowText) {
      if (ch === 'x' || ch === 'o') {
        if (col < SIZE) cells[row * SIZE + col] = ch === 'x' ? BLACK : WHITE;
        if (ch === 'x') blacks++;
        else whites++;
        col++;
      } else {
        col += Number(ch);
      }
    }
    if (col !== SIZE) fail(`row ${row + 1} has ${col} cells, not ${SIZE}`);
  });
  if (blacks !== whites && blacks !== whites + 1) fail(`stone counts x=${blacks}, o=${whites} cannot arise (Black moves first, nobody passes)`);
  const side: Side = blacks === whites ? 0 : 1;
  const stones = blacks + whites;

  let lastMove = -1;
  if (lastText === '-') {
    if (stones > 0) fail('the last move is missing ("-" is only for the empty board)');
  } else {
    lastMove = parseCell(lastText);
    if (cells[lastMove] !== (side === 0 ? WHITE : BLACK)) fail(`the last move ${lastText} is not a stone of the side that just moved`);
  }
  if (!allGroupsBreathe(cells)) fail('a group has no liberty, which NoGo play never allows');
  const state: NoGoState = { cells, side, lastMove, stones };
  if (encodeState(state) !== text) fail(`not in canonical form (expected ${JSON.stringify(encodeState(state))})`);
  return state;
}
