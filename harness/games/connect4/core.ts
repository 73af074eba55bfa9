/**
 * Connect Four core on typed arrays: one representation for every board the two variants use (6x7 up to
 * 12x12, with or without a no-go cell), so the Game objects, the student Board and perft share one set of rules.
 *
 * Cell index = row * cols + col; row 0 is the bottom row (discs fall towards it). `top[col]` is the row the next
 * disc in that column lands on, already stepping over the no-go cell; `top[col] === rows` means the column is full.
 */

export const EMPTY = 0;
/** Cells hold 1 for the first player's discs (X), 2 for the second's (O). */
export const FIRST = 1;
export const SECOND = 2;
/** The no-go cell: never holds a disc, so no line can pass through it. */
export const NO_GO = 3;

export const WIN_LENGTH = 4;

/** A board being played on in place (perft, searches); states copy it. */
export interface Grid {
  readonly rows: number;
  readonly cols: number;
  readonly cells: Uint8Array;
  readonly top: Uint8Array;
}

/** The empty grid; `blocked` is the no-go cell's index or -1. */
export function emptyGrid(rows: number, cols: number, blocked: number): Grid {
  const cells = new Uint8Array(rows * cols);
  const top = new Uint8Array(cols);
  if (blocked >= 0) {
    cells[blocked] = NO_GO;
    // A no-go cell on the bottom row lifts that column's first landing spot.
    if (blocked < cols) top[blocked] = 1;
  }
  return { rows, cols, cells, top };
}

/** Where the next disc lands after one landed on (row, col): the cell above, or the one above the no-go cell. */
export function topAfter(grid: Grid, row: number, col: number): number {
  const next = row + 1;
  return next < grid.rows && grid.cells[next * grid.cols + col] === NO_GO ? next + 1 : next;
}

/** Drops `piece` into `col` (which must not be full); returns the cell it landed on. */
export function drop(grid: Grid, col: number, piece: number): number {
  const row = grid.top[col];
  const cell = row * grid.cols + col;
  grid.cells[cell] = piece;
  grid.top[col] = topAfter(grid, row, col);
  return cell;
}

/** Takes back the disc that `drop` put on `cell`. */
export function undrop(grid: Grid, cell: number): void {
  const col = cell % grid.cols;
  grid.cells[cell] = EMPTY;
  grid.top[col] = (cell - col) / grid.cols;
}

/** Steps (dRow, dCol) of the four line directions: horizontal, vertical, both diagonals. */
const DIRECTIONS: readonly (readonly [number, number])[] = [
  [0, 1],
  [1, 0],
  [1, 1],
  [1, -1],
];

/** Length of the longest line of equal discs through `cell` (0 when the cell holds no disc). */
export function lineLengthThrough(grid: Grid, cell: number): number {
  const { rows, cols, cells } = grid;
  const piece = cells[cell];
  if (piece !== FIRST && piece !== SECOND) return 0;
  const row = (cell / cols) | 0;
  const col = cell - row * cols;
  let longest = 0;
  for (const [dr, dc] of DIRECTIONS) {
    let length = 1;
    for (let r = row + dr, c = col + dc; r >= 0 && r < rows && c >= 0 && c < cols && cells[r * cols + c] === piece; r += dr, c += dc) length++;
    for (let r = row - dr, c = col - dc; r >= 0 && r < rows && c >= 0 && c < cols && cells[r * cols + c] === piece; r -= dr, c -= dc) length++;
    if (length > longest) longest = length;
  }
  return longest;
}

/** Whether the disc on `cell` completes four (or more) in a line. */
export function winsAt(grid: Grid, cell: number): boolean {
  return lineLengthThrough(grid, cell) >= WIN_LENGTH;
}

/** Columns that are not full, in ascending order, written into `into`; returns how many. */
export function openColumns(grid: Grid, into: Uint8Array | number[]): number {
  let n = 0;
  for (let col = 0; col < grid.cols; col++) if (grid.top[col] < grid.rows) into[n++] = col;
  return n;
}

/**
 * Leaf count `depth` plies below a position where `piece` moves next and nobody has won yet: the number of
 * legal move sequences of exactly `depth` moves. A game that ends earlier (four in a line, full board) adds no
 * leaf, the chess perft convention the published Connect Four table (7, 49, …, 5673234) uses.
 * The grid is played on in place and restored.
 */
export function perftGrid(grid: Grid, piece: number, depth: number): number {
  if (depth === 0) return 1;
  let leaves = 0;
  const next = piece === FIRST ? SECOND : FIRST;
  for (let col = 0; col < grid.cols; col++) {
    if (grid.top[col] >= grid.rows) continue;
    if (depth === 1) {
      leaves++;
      continue;
    }
    const cell = drop(grid, col, piece);
    if (!winsAt(grid, cell)) leaves += perftGrid(grid, next, depth - 1);
    undrop(grid, cell);
  }
  return leaves;
}
