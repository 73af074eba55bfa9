/** Text and SVG pictures of a Connect Four state (both variants). */
import type { SvgOptions } from '../game.js';
import { FIRST, NO_GO, SECOND, type Grid } from './core.js';
import type { Connect4State } from './state.js';

const SYMBOL: Record<number, string> = { 0: '.', [FIRST]: 'X', [SECOND]: 'O', [NO_GO]: '#' };

/** Top row first, row numbers on the left (row 0 is the bottom), column numbers underneath. */
export function renderText(state: Grid): string {
  const { rows, cols, cells } = state;
  const label = (n: number) => String(n).padStart(2);
  // Two-digit column numbers need wider cells to stay under their column.
  const width = cols > 10 ? 3 : 2;
  const lines: string[] = [];
  for (let row = rows - 1; row >= 0; row--) {
    let line = label(row);
    for (let col = 0; col < cols; col++) line += SYMBOL[cells[row * cols + col]].padStart(width);
    lines.push(line);
  }
  lines.push('  ' + Array.from({ length: cols }, (_, col) => String(col).padStart(width)).join(''));
  return lines.join('\n');
}

/** The picture's units (its viewBox is the same at any pixel size): a cell's side, the band of column numbers, a disc's radius. */
export const UNIT = 40;
const LABEL_BAND = 18;
export const DISC_RADIUS = UNIT * 0.4;

/** A cell's name in the picture (data-square): the game's notation names columns, not cells. */
export const cellName = (row: number, col: number): string => `c${col}r${row}`;

/** The cell the marked move landed on: `lastMove` names a column (its top disc), else the state's own last move. */
function markedCell(state: Connect4State, lastMove: string | undefined): number {
  if (lastMove === undefined) return state.lastCell;
  const col = Number(lastMove);
  if (!/^(0|[1-9][0-9]?)$/.test(lastMove) || col >= state.cols) return -1;
  for (let row = state.rows - 1; row >= 0; row--) {
    const value = state.cells[row * state.cols + col];
    if (value === FIRST || value === SECOND) return row * state.cols + col;
  }
  return -1;
}

export function renderSvg(state: Connect4State, options: SvgOptions = {}): string {
  const { rows, cols, cells } = state;
  const size = options.size ?? 320;
  const width = cols * UNIT;
  const height = rows * UNIT + LABEL_BAND;
  const scale = size / Math.max(width, height);
  const marked = markedCell(state, options.lastMove);
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" width="${Math.round(width * scale)}" height="${Math.round(height * scale)}" role="img" aria-label="Connect Four board">`,
    `<rect x="0" y="0" width="${width}" height="${rows * UNIT}" rx="6" fill="#1d4ed8"/>`,
  ];
  for (let row = 0; row < rows; row++) {
    for (let col = 0; col < cols; col++) {
      const cell = row * cols + col;
      const cx = col * UNIT + UNIT / 2;
      const cy = (rows - 1 - row) * UNIT + UNIT / 2;
      const value = cells[cell];
      if (value === NO_GO) {
        const d = UNIT * 0.3;
        parts.push(
          `<rect x="${cx - UNIT / 2 + 2}" y="${cy - UNIT / 2 + 2}" width="${UNIT - 4}" height="${UNIT - 4}" fill="#374151"/>`,
          `<path d="M${cx - d} ${cy - d}L${cx + d} ${cy + d}M${cx + d} ${cy - d}L${cx - d} ${cy + d}" stroke="#f87171" stroke-width="4"/>`,
        );
        continue;
      }
      const fill = value === FIRST ? '#dc2626' : value === SECOND ? '#facc15' : '#ffffff';
      // Discs carry game.ts's rendering convention; a cell has no notation of its own, so it is named c<col>r<row>.
      const disc = value === FIRST ? ' data-disc="X"' : value === SECOND ? ' data-disc="O"' : '';
      parts.push(`<circle data-square="${cellName(row, col)}"${disc} cx="${cx}" cy="${cy}" r="${DISC_RADIUS}" fill="${fill}"/>`);
      if (cell === marked) parts.push(`<circle class="last-move" cx="${cx}" cy="${cy}" r="${UNIT * 0.15}" fill="none" stroke="#111827" stroke-width="3"/>`);
    }
  }
  for (let col = 0; col < cols; col++) {
    parts.push(`<text x="${col * UNIT + UNIT / 2}" y="${rows * UNIT + 14}" font-size="12" font-family="sans-serif" text-anchor="middle" fill="#374151">${col}</text>`);
  }
  parts.push('</svg>');
  return parts.join('');
}
