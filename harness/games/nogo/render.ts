/** Text and SVG pictures of a NoGo state: row 9 at the top, row 1 at the bottom, as on a Go board. */
import type { SvgOptions } from '../game.js';
import { BLACK, parseCell, SIZE, WHITE } from './core.js';

const FILES = 'ABCDEFGHJ';
const SYMBOL = ['.', 'X', 'O'];
/** Star points (hoshi) of a 9 x 9 board: the centre and the four 3-3 points. */
const STARS = [2 * SIZE + 2, 2 * SIZE + 6, 4 * SIZE + 4, 6 * SIZE + 2, 6 * SIZE + 6];

export function renderText(cells: Uint8Array): string {
  const lines: string[] = [];
  for (let row = SIZE - 1; row >= 0; row--) {
    let line = String(row + 1).padStart(2);
    for (let col = 0; col < SIZE; col++) line += ' ' + SYMBOL[cells[row * SIZE + col]];
    lines.push(line);
  }
  lines.push('   ' + FILES.split('').join(' '));
  return lines.join('\n');
}

export function renderSvg(cells: Uint8Array, lastMove: number, options: SvgOptions = {}): string {
  const size = options.size ?? 320;
  const unit = 32;
  const margin = 24;
  const extent = margin * 2 + unit * (SIZE - 1);
  const marked = options.lastMove === undefined ? lastMove : parseCell(options.lastMove);
  const x = (col: number) => margin + col * unit;
  const y = (row: number) => margin + (SIZE - 1 - row) * unit;
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${extent} ${extent}" width="${size}" height="${size}" role="img" aria-label="NoGo board">`,
    `<rect width="${extent}" height="${extent}" fill="#dcb35c"/>`,
  ];
  for (let i = 0; i < SIZE; i++) {
    parts.push(
      `<line x1="${x(0)}" y1="${y(i)}" x2="${x(SIZE - 1)}" y2="${y(i)}" stroke="#3f2d12" stroke-width="1"/>`,
      `<line x1="${x(i)}" y1="${y(0)}" x2="${x(i)}" y2="${y(SIZE - 1)}" stroke="#3f2d12" stroke-width="1"/>`,
      `<text x="${x(i)}" y="${extent - 6}" font-size="10" font-family="sans-serif" text-anchor="middle" fill="#3f2d12">${FILES[i]}</text>`,
      `<text x="9" y="${y(i) + 3}" font-size="10" font-family="sans-serif" text-anchor="middle" fill="#3f2d12">${i + 1}</text>`,
    );
  }
  for (const star of STARS) parts.push(`<circle cx="${x(star % SIZE)}" cy="${y(Math.floor(star / SIZE))}" r="3" fill="#3f2d12"/>`);
  for (let cell = 0; cell < cells.length; cell++) {
    const value = cells[cell];
    if (value !== BLACK && value !== WHITE) continue;
    const cx = x(cell % SIZE);
    const cy = y(Math.floor(cell / SIZE));
    parts.push(`<circle cx="${cx}" cy="${cy}" r="${unit * 0.45}" fill="${value === BLACK ? '#111' : '#f8f8f8'}" stroke="#111" stroke-width="1"/>`);
    if (cell === marked) parts.push(`<circle cx="${cx}" cy="${cy}" r="${unit * 0.14}" fill="#e11d48"/>`);
  }
  parts.push('</svg>');
  return parts.join('');
}
