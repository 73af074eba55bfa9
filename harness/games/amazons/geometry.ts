/**
 * Amazons' board as data (web board, report viewer). A move takes three touches — a queen, its destination, the
 * square its arrow lands on — so the geometry also says which cells the next touch may name (`touches`).
 */
import type { BoardCell, BoardGeometry, TouchStep } from '../game.js';
import { ARROW, cellName, EMPTY, FIRST, formatMove, hasMove, inLine, isLegalMove, moveTo, packMove, parseCell, parseMove, reach, SECOND, STRIDE } from './core.js';
import { boardLayout } from './render.js';
import { pieceOf, type AmazonsState } from './state.js';

const SIDES = ['Black', 'White'];
const scratch = new Int16Array(100);

/** The cells a queen on `from` (or an arrow from `from`) reaches, by name in cell order. */
function reachable(cells: Uint8Array, size: number, from: number): string[] {
  const n = reach(cells, size, from, scratch, 0);
  return Array.from(scratch.subarray(0, n)).sort((a, b) => a - b).map(cellName);
}

/** The queens of the side to move that can move, by name. */
function movableQueens(s: AmazonsState): string[] {
  const piece = pieceOf(s.side);
  const names: string[] = [];
  for (let cell = 0; cell < 100; cell++) if (s.cells[cell] === piece && reach(s.cells, s.size, cell, scratch, 0) > 0) names.push(cellName(cell));
  return names;
}

function whyQueen(s: AmazonsState, name: string, from: number): string | null {
  const piece = pieceOf(s.side);
  if (s.cells[from] === piece) return reach(s.cells, s.size, from, scratch, 0) > 0 ? null : `the queen on ${name} is walled in: it has no empty square next to it`;
  if (s.cells[from] === ARROW) return `${name} holds an arrow: touch one of ${SIDES[s.side]}'s queens first`;
  if (s.cells[from] === (piece === FIRST ? SECOND : FIRST)) return `the queen on ${name} is ${SIDES[1 - s.side]}'s: touch one of ${SIDES[s.side]}'s queens`;
  return `${name} is empty: a move starts with one of ${SIDES[s.side]}'s queens`;
}

const lineWhy = (cells: Uint8Array, from: number, to: number, what: string): string => {
  if (cells[to] !== EMPTY) return `${cellName(to)} is not empty: ${what} only onto an empty square`;
  const dRow = Math.floor(to / STRIDE) - Math.floor(from / STRIDE);
  const dCol = (to % STRIDE) - (from % STRIDE);
  if (from === to) return `${what} at least one square`;
  if (dRow !== 0 && dCol !== 0 && Math.abs(dRow) !== Math.abs(dCol)) return `${cellName(to)} is not in a straight line from ${cellName(from)}: ${what} like a chess queen`;
  return `the way from ${cellName(from)} to ${cellName(to)} is blocked: nothing passes over a queen or an arrow`;
};

export const amazonsGeometry: BoardGeometry<AmazonsState> = {
  cells(s, size = 320) {
    const { margin, sq, radius } = boardLayout(size, s.size);
    const cells: BoardCell[] = [];
    for (let row = 0; row < s.size; row++) {
      for (let col = 0; col < s.size; col++) {
        const cell = row * STRIDE + col;
        const value = s.cells[cell];
        const name = cellName(cell);
        const arrow = value === ARROW;
        cells.push({
          name, row, col, x: margin + (col + 0.5) * sq, y: margin + (row + 0.5) * sq, r: radius,
          piece: value === FIRST ? 'X' : value === 2 ? 'O' : null,
          move: arrow ? null : name,
          note: arrow ? 'an arrow: blocked for the rest of the game' : null,
        });
      }
    }
    return cells;
  },
  /** Where the queen lands. */
  landing: (s, move) => {
    const parsed = parseMove(move);
    return parsed !== null && amazonsGeometry.whyIllegal(s, move) === null ? cellName(moveTo(parsed)) : null;
  },
  whyIllegal(s, move) {
    const parsed = parseMove(move);
    if (parsed === null) return `${move} is not an Amazons move: name the queen, its destination and the arrow's square, e.g. C1-C4/F4`;
    const piece = pieceOf(s.side);
    if (!hasMove(s.cells, s.size, piece)) return `the game is over: ${SIDES[s.side]} cannot move`;
    const [fromName, toName, arrowName] = move.split(/[-/]/);
    const [from, to, arrow] = [fromName, toName, arrowName].map((name) => parseCell(name, s.size));
    for (const [name, cell] of [[fromName, from], [toName, to], [arrowName, arrow]] as const) {
      if (cell < 0) return `${name} is not a square of the ${s.size}x${s.size} board`;
    }
    const queen = whyQueen(s, fromName, from);
    if (queen) return queen;
    if (!inLine(s.cells, s.size, from, to)) return lineWhy(s.cells, from, to, 'a queen moves');
    if (isLegalMove(s.cells.slice(), s.size, piece, packMove(from, to, arrow))) return null;
    const after = s.cells.slice();
    after[from] = EMPTY;
    after[to] = piece;
    return lineWhy(after, to, arrow, 'the arrow flies');
  },
  ending(s) {
    return { reason: `${SIDES[s.side]} cannot move: every ${SIDES[s.side]} queen is walled in`, line: [], score: null };
  },
  touches(s, picked): TouchStep {
    const piece = pieceOf(s.side);
    if (picked.length === 0) return { next: movableQueens(s), move: null, why: null };
    const from = parseCell(picked[0], s.size);
    const queen = from < 0 ? `${picked[0]} is not a square of the board` : whyQueen(s, picked[0], from);
    if (queen) return { next: [], move: null, why: queen };
    if (picked.length === 1) return { next: reachable(s.cells, s.size, from), move: null, why: null };
    const to = parseCell(picked[1], s.size);
    if (to < 0 || !inLine(s.cells, s.size, from, to)) return { next: [], move: null, why: to < 0 ? `${picked[1]} is not a square of the board` : lineWhy(s.cells, from, to, 'a queen moves') };
    const after = s.cells.slice();
    after[from] = EMPTY;
    after[to] = piece;
    if (picked.length === 2) return { next: reachable(after, s.size, to), move: null, why: null };
    const arrow = parseCell(picked[2], s.size);
    if (picked.length > 3 || arrow < 0 || !inLine(after, s.size, to, arrow)) {
      return { next: [], move: null, why: arrow < 0 || picked.length > 3 ? 'a move is three touches: queen, destination, arrow' : lineWhy(after, to, arrow, 'the arrow flies') };
    }
    return { next: [], move: formatMove(packMove(from, to, arrow)), why: null };
  },
};
