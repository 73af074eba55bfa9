/**
 * Text and SVG pictures of a square board of intersections (Gomoku, NoGo): row N at the top, row 1 at the
 * bottom, as on a Go board. Cells hold 0 (empty), 1 (first side, 'X') or 2 (second side, 'O').
 * SVG stones carry the rendering convention of game.ts (data-square, data-disc, .last-move).
 */
import type { BoardCell, SvgOptions } from '../game.js';

export interface GoBoardSpec {
  /** Lines per side. */
  size: number;
  /** File letters, left to right. */
  files: string;
  /** Star points (hoshi), as cell indexes (row * size + col). */
  stars: readonly number[];
  /** Pixels between lines in the viewBox. */
  unit: number;
  /** aria-label of the picture, e.g. 'Gomoku board'. */
  label: string;
}

const SYMBOL = ['.', 'X', 'O'];

export function goBoardText(spec: GoBoardSpec, cells: ArrayLike<number>): string {
  const { size, files } = spec;
  const lines: string[] = [];
  for (let row = size - 1; row >= 0; row--) {
    let line = String(row + 1).padStart(2);
    for (let col = 0; col < size; col++) line += ' ' + SYMBOL[cells[row * size + col]];
    lines.push(line);
  }
  lines.push('   ' + files.split('').join(' '));
  return lines.join('\n');
}

/** Where the picture puts things, in viewBox units (the same at any pixel size). */
function layout(spec: GoBoardSpec) {
  const { size: lines, unit } = spec;
  // Room for the coordinates outside the outermost stones (a stone's radius is 0.45 of a unit): row-1 stones
  // must not cover the column letters, nor column-A stones the row numbers.
  const margin = Math.max(24, Math.ceil(unit * 0.45) + 16);
  return {
    margin,
    extent: margin * 2 + unit * (lines - 1),
    x: (col: number) => margin + col * unit,
    y: (row: number) => margin + (lines - 1 - row) * unit,
    radius: unit * 0.45,
  };
}

/** Every point of the board as goBoardSvg draws it; a point's move is its own notation. */
export function goBoardCells(spec: GoBoardSpec, cells: ArrayLike<number>): BoardCell[] {
  const { size: lines, files } = spec;
  const { x, y, radius } = layout(spec);
  const list: BoardCell[] = [];
  for (let row = lines - 1; row >= 0; row--) {
    for (let col = 0; col < lines; col++) {
      const name = `${files[col]}${row + 1}`;
      const value = cells[row * lines + col];
      list.push({
        name, row: lines - 1 - row, col, x: x(col), y: y(row), r: radius,
        piece: value === 1 || value === 2 ? SYMBOL[value] : null, move: name, note: null,
      });
    }
  }
  return list;
}

/** `marked` is the cell to mark as the last move, or -1. */
export function goBoardSvg(spec: GoBoardSpec, cells: ArrayLike<number>, marked: number, options: SvgOptions = {}): string {
  const { size: lines, files, stars, unit, label } = spec;
  const size = options.size ?? 320;
  const { extent, x, y, radius } = layout(spec);
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${extent} ${extent}" width="${size}" height="${size}" role="img" aria-label="${label}">`,
    `<rect width="${extent}" height="${extent}" fill="#dcb35c"/>`,
  ];
  for (let i = 0; i < lines; i++) {
    parts.push(
      `<line x1="${x(0)}" y1="${y(i)}" x2="${x(lines - 1)}" y2="${y(i)}" stroke="#3f2d12" stroke-width="1"/>`,
      `<line x1="${x(i)}" y1="${y(0)}" x2="${x(i)}" y2="${y(lines - 1)}" stroke="#3f2d12" stroke-width="1"/>`,
      `<text x="${x(i)}" y="${extent - 6}" font-size="10" font-family="sans-serif" text-anchor="middle" fill="#3f2d12">${files[i]}</text>`,
      `<text x="9" y="${y(i) + 3}" font-size="10" font-family="sans-serif" text-anchor="middle" fill="#3f2d12">${i + 1}</text>`,
    );
  }
  for (const star of stars) parts.push(`<circle cx="${x(star % lines)}" cy="${y(Math.floor(star / lines))}" r="3" fill="#3f2d12"/>`);
  for (let cell = 0; cell < cells.length; cell++) {
    const value = cells[cell];
    if (value !== 1 && value !== 2) continue;
    const col = cell % lines;
    const row = Math.floor(cell / lines);
    const cx = x(col);
    const cy = y(row);
    parts.push(
      `<circle data-square="${files[col]}${row + 1}" data-disc="${SYMBOL[value]}" cx="${cx}" cy="${cy}" ` +
        `r="${radius}" fill="${value === 1 ? '#111' : '#f8f8f8'}" stroke="#111" stroke-width="1"/>`,
    );
    if (cell === marked) parts.push(`<circle class="last-move" cx="${cx}" cy="${cy}" r="${unit * 0.14}" fill="#e11d48"/>`);
  }
  parts.push('</svg>');
  return parts.join('');
}
