/** Text and SVG pictures of a Gomoku state, drawn by the shared Go-board renderer. */
import { goBoardSvg, goBoardText, type GoBoardSpec } from '../common/go-board.js';
import type { SvgOptions } from '../game.js';
import { parseCell, SIZE } from './core.js';

export const SPEC: GoBoardSpec = {
  size: SIZE,
  files: 'ABCDEFGHIJKLMNO',
  /** Star points: the centre and the four 4-4 points. */
  stars: [3 * SIZE + 3, 3 * SIZE + 11, 7 * SIZE + 7, 11 * SIZE + 3, 11 * SIZE + 11],
  unit: 24,
  label: 'Gomoku board',
};

export function renderText(cells: Uint8Array): string {
  return goBoardText(SPEC, cells);
}

export function renderSvg(cells: Uint8Array, lastMove: number, options: SvgOptions = {}): string {
  const marked = options.lastMove === undefined ? lastMove : parseCell(options.lastMove);
  return goBoardSvg(SPEC, cells, marked, options);
}
