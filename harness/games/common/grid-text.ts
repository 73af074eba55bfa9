/**
 * The grid half of the games' FEN-like state text: rows from the top row down, separated by '/', one letter per
 * occupied cell and digits for runs of empty cells (as in chess FEN). Cells hold 0 for empty.
 */

/** `cells` (row 0 at the bottom, `cols` per row) as text; `symbols[value]` is the letter of each non-empty value. */
export function encodeGridRows(cells: ArrayLike<number>, rows: number, cols: number, symbols: readonly string[]): string {
  const lines: string[] = [];
  for (let row = rows - 1; row >= 0; row--) {
    let line = '';
    let run = 0;
    for (let col = 0; col < cols; col++) {
      const value = cells[row * cols + col];
      if (value === 0) {
        run++;
        continue;
      }
      if (run > 0) line += run;
      run = 0;
      line += symbols[value];
    }
    if (run > 0) line += run;
    lines.push(line);
  }
  return lines.join('/');
}
