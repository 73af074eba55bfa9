/**
 * Amazons on Botzone's 8 x 8 board or the standard 10 x 10 one. Cells are `row * 10 + col` on either board (a fixed
 * stride, so a move's number and notation do not depend on the board), row 0 is row '1' at the top (Botzone's y = 0),
 * col 0 is file 'A' (Botzone's x = 0). A move is a queen's step from → to and an arrow shot from `to`, all
 * queen-like over empty cells (the square the queen left is empty for the arrow). Move numbers are
 * from * 10000 + to * 100 + arrow, so their numeric order is the legal-move order: by queen, destination, arrow,
 * each row by row from A1.
 */
export const STRIDE = 10;
export const CELLS = STRIDE * STRIDE;
export const EMPTY = 0;
/** The side that moves first (Botzone's Black, 'X'). */
export const FIRST = 1;
export const SECOND = 2;
export const ARROW = 3;
/** Outside a smaller board's squares. */
export const OFF = 4;
export const FILES = 'ABCDEFGHIJ';

const { floor } = Math;
const DR = [-1, -1, -1, 0, 0, 1, 1, 1];
const DC = [-1, 0, 1, -1, 1, -1, 0, 1];

/** Botzone's 8 x 8 start: Black (first) on (0,2) (2,0) (5,0) (7,2), White on (0,5) (2,7) (5,7) (7,5), as (x, y). */
const START_8 = { first: ['A3', 'C1', 'F1', 'H3'], second: ['A6', 'C8', 'F8', 'H6'] };
/** The standard 10 x 10 start (first mover on a4 d1 g1 j4, second on a7 d10 g10 j7). */
const START_10 = { first: ['A4', 'D1', 'G1', 'J4'], second: ['A7', 'D10', 'G10', 'J7'] };

export const cellName = (cell: number): string => `${FILES[cell % STRIDE]}${floor(cell / STRIDE) + 1}`;

/** 'C1' → its cell on a board of `size`, or -1 (strict: upper-case file, no leading zero). */
export function parseCell(text: unknown, size = STRIDE): number {
  if (typeof text !== 'string') return -1;
  const match = /^([A-J])(10|[1-9])$/.exec(text);
  if (!match) return -1;
  const col = match[1].charCodeAt(0) - 65;
  const row = Number(match[2]) - 1;
  return row < size && col < size ? row * STRIDE + col : -1;
}

export const packMove = (from: number, to: number, arrow: number): number => from * 10000 + to * 100 + arrow;
export const moveFrom = (move: number): number => floor(move / 10000);
export const moveTo = (move: number): number => floor(move / 100) % 100;
export const moveArrow = (move: number): number => move % 100;

export const formatMove = (move: number): string => `${cellName(moveFrom(move))}-${cellName(moveTo(move))}/${cellName(moveArrow(move))}`;

/** 'C1-C4/F4' → its move number, or null (canonical notation only; legality is not checked). */
export function parseMove(text: unknown): number | null {
  if (typeof text !== 'string') return null;
  const parts = /^([A-J](?:10|[1-9]))-([A-J](?:10|[1-9]))\/([A-J](?:10|[1-9]))$/.exec(text);
  if (!parts) return null;
  return packMove(parseCell(parts[1]), parseCell(parts[2]), parseCell(parts[3]));
}

/** An empty board of `size` (8 or 10) with the queens on their start squares. */
export function startCells(size: number): Uint8Array {
  const cells = new Uint8Array(CELLS).fill(OFF);
  for (let row = 0; row < size; row++) for (let col = 0; col < size; col++) cells[row * STRIDE + col] = EMPTY;
  const start = size === 10 ? START_10 : START_8;
  for (const name of start.first) cells[parseCell(name)] = FIRST;
  for (const name of start.second) cells[parseCell(name)] = SECOND;
  return cells;
}

/**
 * The neighbour of each cell in each direction on a board of `size`, or -1 off it: NEXT[size][d * 100 + cell].
 * A table walk instead of row/column arithmetic: move generation, perft and the evaluations walk rays all the time.
 */
export const NEXT: Record<number, Int16Array> = {};
for (const size of [8, 10]) {
  const table = new Int16Array(8 * CELLS).fill(-1);
  for (let cell = 0; cell < CELLS; cell++) {
    for (let d = 0; d < 8; d++) {
      const row = floor(cell / STRIDE) + DR[d];
      const col = (cell % STRIDE) + DC[d];
      const inside = floor(cell / STRIDE) < size && cell % STRIDE < size && row >= 0 && row < size && col >= 0 && col < size;
      table[d * CELLS + cell] = inside ? row * STRIDE + col : -1;
    }
  }
  NEXT[size] = table;
}

/** The empty cells a queen (or arrow) on `from` reaches, appended to `out` from `n`; returns the new length. */
export function reach(cells: Uint8Array, size: number, from: number, out: Int16Array, n: number): number {
  const next = NEXT[size];
  for (let d = 0; d < 8 * CELLS; d += CELLS) {
    for (let cell = next[d + from]; cell >= 0 && cells[cell] === EMPTY; cell = next[d + cell]) out[n++] = cell;
  }
  return n;
}

/** Whether `to` is reachable queen-like from `from` over empty cells (the line between them empty, `to` empty). */
export function inLine(cells: Uint8Array, size: number, from: number, to: number): boolean {
  if (from === to || cells[to] !== EMPTY) return false;
  const dRow = floor(to / STRIDE) - floor(from / STRIDE);
  const dCol = (to % STRIDE) - (from % STRIDE);
  if (dRow !== 0 && dCol !== 0 && Math.abs(dRow) !== Math.abs(dCol)) return false;
  const stride = Math.sign(dRow) * STRIDE + Math.sign(dCol);
  for (let cell = from + stride; cell !== to; cell += stride) if (cells[cell] !== EMPTY) return false;
  return true;
}

/** The queens of `piece`, in cell order. */
export function queensOf(cells: Uint8Array, piece: number): number[] {
  const queens: number[] = [];
  for (let cell = 0; cell < CELLS; cell++) if (cells[cell] === piece) queens.push(cell);
  return queens;
}

/** A side can move exactly when one of its queens has an empty neighbour (it can always shoot back where it was). */
export function hasMove(cells: Uint8Array, size: number, piece: number): boolean {
  const next = NEXT[size];
  for (let cell = 0; cell < CELLS; cell++) {
    if (cells[cell] !== piece) continue;
    for (let d = 0; d < 8 * CELLS; d += CELLS) {
      const neighbour = next[d + cell];
      if (neighbour >= 0 && cells[neighbour] === EMPTY) return true;
    }
  }
  return false;
}

/** Sorts out[0..n) ascending in place (at most a few dozen cells: insertion sort). */
function sortCells(out: Int16Array, n: number): void {
  for (let i = 1; i < n; i++) {
    const value = out[i];
    let j = i - 1;
    while (j >= 0 && out[j] > value) {
      out[j + 1] = out[j];
      j--;
    }
    out[j + 1] = value;
  }
}

const LIST_TARGETS = new Int16Array(CELLS);
const LIST_ARROWS = new Int16Array(CELLS);

/** Legal moves of `piece` in order (queen, destination, arrow, each by cell). `cells` is used as scratch and restored. */
export function legalMoves(cells: Uint8Array, size: number, piece: number): number[] {
  const moves: number[] = [];
  const targets = LIST_TARGETS;
  const arrows = LIST_ARROWS;
  for (let from = 0; from < CELLS; from++) {
    if (cells[from] !== piece) continue;
    const nTargets = reach(cells, size, from, targets, 0);
    sortCells(targets, nTargets);
    cells[from] = EMPTY;
    for (let t = 0; t < nTargets; t++) {
      const to = targets[t];
      cells[to] = piece;
      const nArrows = reach(cells, size, to, arrows, 0);
      sortCells(arrows, nArrows);
      const head = from * 10000 + to * 100;
      for (let a = 0; a < nArrows; a++) moves.push(head + arrows[a]);
      cells[to] = EMPTY;
    }
    cells[from] = piece;
  }
  return moves;
}

/** Whether `move` is legal for `piece` (notation-level checks included: every cell on the board). */
export function isLegalMove(cells: Uint8Array, size: number, piece: number, move: number): boolean {
  const from = moveFrom(move);
  const to = moveTo(move);
  const arrow = moveArrow(move);
  if (cells[from] !== piece || !inLine(cells, size, from, to)) return false;
  cells[from] = EMPTY;
  cells[to] = piece;
  const ok = inLine(cells, size, to, arrow);
  cells[to] = EMPTY;
  cells[from] = piece;
  return ok;
}

/** Plays a legal `move` on `cells` in place. */
export function playMove(cells: Uint8Array, move: number): void {
  const from = moveFrom(move);
  const to = moveTo(move);
  cells[to] = cells[from];
  cells[from] = EMPTY;
  cells[moveArrow(move)] = ARROW;
}

/** Takes `move` back on `cells` in place. */
export function unplayMove(cells: Uint8Array, move: number): void {
  const from = moveFrom(move);
  const to = moveTo(move);
  cells[moveArrow(move)] = EMPTY;
  cells[from] = cells[to];
  cells[to] = EMPTY;
}

const SCRATCH_TARGETS: Int16Array[] = [];
const SCRATCH_ARROWS: Int16Array[] = [];

/**
 * Leaves `depth` plies below, `piece` to move, on `cells` in place (restored). A side without a move has lost:
 * the finished game contributes no leaf below it (as Connect Four's and NoGo's perft count it).
 */
export function perftCells(cells: Uint8Array, size: number, piece: number, depth: number): number {
  if (depth === 0) return 1;
  const targets = (SCRATCH_TARGETS[depth] ??= new Int16Array(CELLS));
  const arrows = (SCRATCH_ARROWS[depth] ??= new Int16Array(CELLS));
  const next = piece === FIRST ? SECOND : FIRST;
  let leaves = 0;
  for (let from = 0; from < CELLS; from++) {
    if (cells[from] !== piece) continue;
    const nTargets = reach(cells, size, from, targets, 0);
    cells[from] = EMPTY;
    for (let t = 0; t < nTargets; t++) {
      const to = targets[t];
      cells[to] = piece;
      const nArrows = reach(cells, size, to, arrows, 0);
      if (depth === 1) leaves += nArrows;
      else {
        for (let a = 0; a < nArrows; a++) {
          cells[arrows[a]] = ARROW;
          leaves += perftCells(cells, size, next, depth - 1);
          cells[arrows[a]] = EMPTY;
        }
      }
      cells[to] = EMPTY;
    }
    cells[from] = piece;
  }
  return leaves;
}
