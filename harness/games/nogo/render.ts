/** Text and SVG pictures of a NoGo state, drawn by the shared Go-board renderer. */
import { goBoardSvg, goBoardText, type GoBoardSpec } from '../common/go-board.js';
import type { SvgOptions } from '../game.js';
import { parseCell, SIZE } from './core.js';

export const SPEC: GoBoardSpec = {
  size: SIZE,
  files: 'ABCDEFGHJ',
  /** Star points: the centre and the four 3-3 points. */
  stars: [2 * SIZE + 2, 2 * SIZE + 6, 4 * SIZE + 4, 6 * SIZE + 2, 6 * SIZE + 6],
  unit: 32,
  label: 'NoGo board',
};

export function renderText(cells: Uint8Array): string {
  return goBoardText(SPEC, cells);
}

export function renderSvg(cells: Uint8Array, lastMove: number, options: SvgOptions = {}): string {
  const marked = options.lastMove === undefined ? lastMove : parseCell(options.lastMove);
  return goBoardSvg(SPEC, cells, marked, options);
}
