/** Amazons as text and as a self-contained SVG (reports, the replay viewer, `serve`). Row 1 is drawn at the top. */
import type { SvgOptions } from '../game.js';
import { ARROW, cellName, FILES, FIRST, moveArrow, moveFrom, moveTo, parseMove, SECOND, STRIDE } from './core.js';
import type { AmazonsState } from './state.js';

const TEXT = ['.', 'X', 'O', '#'];

export function renderText(s: AmazonsState): string {
  const lines = [`   ${FILES.slice(0, s.size).split('').join(' ')}`];
  for (let row = 0; row < s.size; row++) {
    const cells: string[] = [];
    for (let col = 0; col < s.size; col++) cells.push(TEXT[s.cells[row * STRIDE + col]]);
    lines.push(`${String(row + 1).padStart(2)} ${cells.join(' ')}`);
  }
  return lines.join('\n');
}

/** Where the picture at `size` pixels puts the squares: margin, square side, queen radius. */
export function boardLayout(size: number, squares: number): { margin: number; sq: number; radius: number } {
  const margin = 20;
  const sq = (size - margin) / squares;
  return { margin, sq, radius: sq * 0.36 };
}

export function renderSvg(s: AmazonsState, options: SvgOptions = {}): string {
  const size = options.size ?? 320;
  const n = s.size;
  const { margin, sq, radius } = boardLayout(size, n);
  const centre = (cell: number): [number, number] => [margin + ((cell % STRIDE) + 0.5) * sq, margin + (Math.floor(cell / STRIDE) + 0.5) * sq];
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${size} ${size}" width="${size}" height="${size}" role="img" aria-label="Amazons board, ${n}x${n}">`,
    `<rect width="${size}" height="${size}" fill="#f4f1ea"/>`,
  ];
  for (let i = 0; i < n; i++) {
    const mid = margin + (i + 0.5) * sq;
    parts.push(`<text x="${mid}" y="14" font-size="12" text-anchor="middle" font-family="sans-serif">${FILES[i]}</text>`);
    parts.push(`<text x="10" y="${mid + 4}" font-size="12" text-anchor="middle" font-family="sans-serif">${i + 1}</text>`);
  }
  for (let row = 0; row < n; row++) {
    for (let col = 0; col < n; col++) {
      const fill = (row + col) % 2 === 0 ? '#f0d9b5' : '#b58863';
      parts.push(`<rect x="${margin + col * sq}" y="${margin + row * sq}" width="${sq}" height="${sq}" fill="${fill}"/>`);
    }
  }
  const last = options.lastMove === undefined ? null : parseMove(options.lastMove);
  if (last !== null) {
    const [fx, fy] = centre(moveFrom(last));
    const [tx, ty] = centre(moveTo(last));
    const [ax, ay] = centre(moveArrow(last));
    parts.push(`<line class="last-move-path" x1="${fx}" y1="${fy}" x2="${tx}" y2="${ty}" stroke="#e53935" stroke-width="${sq * 0.08}" stroke-opacity="0.6"/>`);
    parts.push(`<line class="last-move-path" x1="${tx}" y1="${ty}" x2="${ax}" y2="${ay}" stroke="#1e88e5" stroke-width="${sq * 0.05}" stroke-dasharray="${sq * 0.12}" stroke-opacity="0.7"/>`);
  }
  for (let row = 0; row < n; row++) {
    for (let col = 0; col < n; col++) {
      const cell = row * STRIDE + col;
      const value = s.cells[cell];
      const [cx, cy] = centre(cell);
      if (value === FIRST || value === SECOND) {
        const symbol = value === FIRST ? 'X' : 'O';
        parts.push(`<circle data-square="${cellName(cell)}" data-disc="${symbol}" cx="${cx}" cy="${cy}" r="${radius}" fill="${value === FIRST ? '#111' : '#fafafa'}" stroke="#333" stroke-width="1.5"/>`);
        // A crown mark: the piece is a queen, not a stone.
        parts.push(`<path d="M${cx - radius * 0.5} ${cy + radius * 0.3} L${cx - radius * 0.55} ${cy - radius * 0.35} L${cx - radius * 0.2} ${cy} L${cx} ${cy - radius * 0.5} L${cx + radius * 0.2} ${cy} L${cx + radius * 0.55} ${cy - radius * 0.35} L${cx + radius * 0.5} ${cy + radius * 0.3} Z" fill="${value === FIRST ? '#fafafa' : '#111'}" pointer-events="none"/>`);
      } else if (value === ARROW) {
        const h = sq * 0.42;
        parts.push(`<rect data-square="${cellName(cell)}" data-arrow="#" x="${cx - h}" y="${cy - h}" width="${2 * h}" height="${2 * h}" fill="#5d4037" rx="${sq * 0.08}"/>`);
      }
    }
  }
  if (last !== null) {
    const [tx, ty] = centre(moveTo(last));
    parts.push(`<circle class="last-move" cx="${tx}" cy="${ty}" r="${sq * 0.1}" fill="#e53935"/>`);
    const [ax, ay] = centre(moveArrow(last));
    parts.push(`<rect class="last-arrow" x="${ax - sq * 0.46}" y="${ay - sq * 0.46}" width="${sq * 0.92}" height="${sq * 0.92}" fill="none" stroke="#1e88e5" stroke-width="2"/>`);
  }
  parts.push('</svg>');
  return parts.join('');
}
