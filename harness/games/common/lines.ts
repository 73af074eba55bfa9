/**
 * The winning line through a cell of a rows x cols grid (Gomoku's five, Connect Four's four), for the board's
 * highlight: found from the cells, so a game's own win check and this never need to agree on anything but the rule.
 */

/** Steps (dRow, dCol) of the four line directions: horizontal, vertical, both diagonals. */
const DIRECTIONS: readonly (readonly [number, number])[] = [
  [0, 1],
  [1, 0],
  [1, 1],
  [1, -1],
];

/**
 * The cells of a run of equal pieces through `cell` that `wins(length)` accepts (the first such direction), in
 * order along the line; empty when none does. Row 0 is the grid's first row (cell = row * cols + col).
 */
export function lineThrough(cells: ArrayLike<number>, rows: number, cols: number, cell: number, wins: (length: number) => boolean): number[] {
  const piece = cells[cell];
  const row = Math.floor(cell / cols);
  const col = cell % cols;
  const inside = (r: number, c: number): boolean => r >= 0 && r < rows && c >= 0 && c < cols && cells[r * cols + c] === piece;
  for (const [dr, dc] of DIRECTIONS) {
    let r = row;
    let c = col;
    while (inside(r - dr, c - dc)) {
      r -= dr;
      c -= dc;
    }
    const line: number[] = [];
    for (; inside(r, c); r += dr, c += dc) line.push(r * cols + c);
    if (wins(line.length)) return line;
  }
  return [];
}
