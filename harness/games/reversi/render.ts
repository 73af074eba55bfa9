/** Reversi as text (board.py's display layout) and as a self-contained SVG for the report's replay viewer. */
import type { SvgOptions } from '../game.js';
import { hasSquare } from './core.js';
import { toSquare } from './board.js';
import type { ReversiState } from './state.js';

function cell(s: ReversiState, sq: number): '.' | 'X' | 'O' {
  if (hasSquare(s.bh, s.bl, sq)) return 'X';
  if (hasSquare(s.wh, s.wl, sq)) return 'O';
  return '.';
}

export function renderText(s: ReversiState): string {
  const lines = ['  A B C D E F G H'];
  for (let r = 0; r < 8; r++) {
    const cells: string[] = [];
    for (let c = 0; c < 8; c++) cells.push(cell(s, r * 8 + c));
    lines.push(`${r + 1} ${cells.join(' ')}`);
  }
  return lines.join('\n');
}

/** Where the picture at `size` pixels puts the squares (its viewBox is size x size): margin, square side, disc radius. */
export function boardLayout(size: number): { margin: number; sq: number; radius: number } {
  const margin = 20;
  const sq = (size - margin) / 8;
  return { margin, sq, radius: sq * 0.4 };
}

export function renderSvg(s: ReversiState, options: SvgOptions = {}): string {
  const size = options.size ?? 320;
  const { margin, sq, radius } = boardLayout(size);
  const last = options.lastMove === undefined ? -1 : toSquare(options.lastMove);
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${size} ${size}" width="${size}" height="${size}" ` +
      `role="img" aria-label="Reversi board">`,
    `<rect width="${size}" height="${size}" fill="#f4f1ea"/>`,
    `<rect x="${margin}" y="${margin}" width="${size - margin}" height="${size - margin}" fill="#2e7d32"/>`,
  ];
  for (let i = 0; i < 8; i++) {
    const mid = margin + (i + 0.5) * sq;
    parts.push(`<text x="${mid}" y="14" font-size="12" text-anchor="middle" font-family="sans-serif">` +
      `${'ABCDEFGH'[i]}</text>`);
    parts.push(`<text x="10" y="${mid + 4}" font-size="12" text-anchor="middle" font-family="sans-serif">` +
      `${i + 1}</text>`);
  }
  for (let i = 0; i <= 8; i++) {
    const p = margin + i * sq;
    parts.push(`<line x1="${p}" y1="${margin}" x2="${p}" y2="${size}" stroke="#1b5e20" stroke-width="1"/>`);
    parts.push(`<line x1="${margin}" y1="${p}" x2="${size}" y2="${p}" stroke="#1b5e20" stroke-width="1"/>`);
  }
  for (let r = 0; r < 8; r++) {
    for (let c = 0; c < 8; c++) {
      const v = cell(s, r * 8 + c);
      if (v === '.') continue;
      const cx = margin + (c + 0.5) * sq;
      const cy = margin + (r + 0.5) * sq;
      const fill = v === 'X' ? '#111' : '#fafafa';
      parts.push(`<circle data-square="${'ABCDEFGH'[c]}${r + 1}" data-disc="${v}" cx="${cx}" cy="${cy}" ` +
        `r="${radius}" fill="${fill}" stroke="#333" stroke-width="1"/>`);
    }
  }
  if (last >= 0) {
    const cx = margin + ((last & 7) + 0.5) * sq;
    const cy = margin + ((last >> 3) + 0.5) * sq;
    parts.push(`<circle class="last-move" cx="${cx}" cy="${cy}" r="${sq * 0.12}" fill="#e53935"/>`);
  }
  parts.push('</svg>');
  return parts.join('');
}
