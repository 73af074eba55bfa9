/** The fix for a submission that exports its player under the wrong name. */

function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let diagonal = row[0];
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const above = row[j];
      row[j] = Math.min(row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] === b[j - 1] ? 0 : 1));
      diagonal = above;
    }
  }
  return row[b.length];
}

/** A one-line hint naming the export to rename, given what the module exports (Python: the classes it defines). */
export function exportHint(exported: readonly string[], wanted = 'AIPlayer', language?: string): string {
  const near = exported
    .map((name) => ({ name, cost: name.toLowerCase() === wanted.toLowerCase() ? 0 : distance(name, wanted) }))
    .filter(({ cost }) => cost <= 3)
    .sort((a, b) => a.cost - b.cost)[0];
  if (language === 'Python') {
    if (near) return `rename the class ${near.name} to ${wanted} (names are case-sensitive): class ${wanted}: …`;
    if (exported.length > 0) return `name your player class ${wanted} (found ${exported.join(', ')})`;
    return `add class ${wanted} with __init__(self, color) and get_move(self, board)`;
  }
  if (near) return `rename the export ${near.name} to ${wanted} (names are case-sensitive): export class ${wanted} …`;
  if (exported.length === 1) return `export your class as ${wanted}: export class ${wanted} … (found ${exported[0]})`;
  if (exported.length > 1) return `export your class as ${wanted} (found ${exported.join(', ')})`;
  return `add export class ${wanted} { constructor(color) … getMove(board) … } (or export default the class)`;
}
