/**
 * NoGo core on a 9 x 9 typed array: cell = row * 9 + col, row 0 is row '1' (the bottom), col 0 is file 'A'; files
 * skip I as on a Go board (A B C D E F G H J), so the centre is 'E5'.
 *
 * Rule: a move is illegal if it captures (takes an opponent group's last liberty) or if its own group is left
 * without liberties. Since nothing is ever captured, stones never leave the board. Legality of every empty cell
 * comes from one pass that labels groups and counts their liberties, into module scratch arrays (no allocation
 * per call; the functions are synchronous and never re-enter one another while scratch is in use).
 */

export const SIZE = 9;
export const CELLS = SIZE * SIZE;
export const EMPTY = 0;
/** Cells hold 1 for Black's stones (X, moves first), 2 for White's (O). */
export const BLACK = 1;
export const WHITE = 2;

const FILES = 'ABCDEFGHJ';
/** E5, the cell the seed course code's rule keeps Black's first move off ("第一步不可在正中央"). */
export const CENTER = 4 * SIZE + 4;

/** Four neighbour slots per cell, -1 where the board ends. */
const NEIGHBORS = new Int8Array(CELLS * 4).fill(-1);
for (let cell = 0; cell < CELLS; cell++) {
  const row = Math.floor(cell / SIZE);
  const col = cell % SIZE;
  if (row > 0) NEIGHBORS[cell * 4] = cell - SIZE;
  if (row < SIZE - 1) NEIGHBORS[cell * 4 + 1] = cell + SIZE;
  if (col > 0) NEIGHBORS[cell * 4 + 2] = cell - 1;
  if (col < SIZE - 1) NEIGHBORS[cell * 4 + 3] = cell + 1;
}

/** Scratch written by `labelGroups`: group id per cell (-1 empty) and liberties per group id. */
const groupOf = new Int16Array(CELLS);
const liberties = new Int16Array(CELLS);
const stack = new Int16Array(CELLS);
/** Liberty de-duplication: a cell counts once per group when its stamp equals the group's stamp. */
const libertyStamp = new Int32Array(CELLS);
let stamp = 0;

/** Labels every group of `cells` and counts its distinct liberties; returns the number of groups. */
function labelGroups(cells: Uint8Array): number {
  groupOf.fill(-1);
  if (stamp > 0x3fffffff) {
    libertyStamp.fill(0);
    stamp = 0;
  }
  let groups = 0;
  for (let start = 0; start < CELLS; start++) {
    const piece = cells[start];
    if (piece === EMPTY || groupOf[start] >= 0) continue;
    const group = groups++;
    const mark = ++stamp;
    let libs = 0;
    let top = 0;
    stack[top++] = start;
    groupOf[start] = group;
    while (top > 0) {
      const cell = stack[--top];
      for (let k = cell * 4, end = k + 4; k < end; k++) {
        const n = NEIGHBORS[k];
        if (n < 0) continue;
        const value = cells[n];
        if (value === EMPTY) {
          if (libertyStamp[n] !== mark) {
            libertyStamp[n] = mark;
            libs++;
          }
        } else if (value === piece && groupOf[n] < 0) {
          groupOf[n] = group;
          stack[top++] = n;
        }
      }
    }
    liberties[group] = libs;
  }
  return groups;
}

/** Whether `piece` may play the empty `cell`, given groups labelled by `labelGroups(cells)`. */
function legalAfterLabelling(cells: Uint8Array, piece: number, cell: number): boolean {
  let safe = false;
  for (let k = cell * 4, end = k + 4; k < end; k++) {
    const n = NEIGHBORS[k];
    if (n < 0) continue;
    const value = cells[n];
    if (value === EMPTY) safe = true;
    // An own group with a second liberty keeps it after this stone fills `cell`.
    else if (value === piece) safe ||= liberties[groupOf[n]] >= 2;
    // An opponent group whose only liberty is `cell` would be captured: forbidden.
    else if (liberties[groupOf[n]] === 1) return false;
  }
  return safe;
}

/** Legal cells for `piece`, in ascending order, written into `into`; returns how many. */
export function legalCells(cells: Uint8Array, piece: number, into: Int16Array | number[]): number {
  labelGroups(cells);
  let n = 0;
  for (let cell = 0; cell < CELLS; cell++) {
    if (cells[cell] === EMPTY && legalAfterLabelling(cells, piece, cell)) into[n++] = cell;
  }
  return n;
}

/** Whether `piece` has any legal move. */
export function hasLegalMove(cells: Uint8Array, piece: number): boolean {
  labelGroups(cells);
  for (let cell = 0; cell < CELLS; cell++) {
    if (cells[cell] === EMPTY && legalAfterLabelling(cells, piece, cell)) return true;
  }
  return false;
}

export function isLegal(cells: Uint8Array, piece: number, cell: number): boolean {
  if (!Number.isInteger(cell) || cell < 0 || cell >= CELLS || cells[cell] !== EMPTY) return false;
  labelGroups(cells);
  return legalAfterLabelling(cells, piece, cell);
}

/**
 * Why `piece` may not play `cell`, for people: 'taken'; 'capture' with the opponent stones it would capture (the
 * group whose last liberty it is); 'suicide' with its own stones left without a liberty (the new stone and any
 * group it joins); or null when the move is legal. The centre rule is the state's, not the core's.
 */
export function whyIllegalCell(cells: Uint8Array, piece: number, cell: number): { kind: 'taken' | 'capture' | 'suicide'; stones: number[] } | null {
  if (cells[cell] !== EMPTY) return { kind: 'taken', stones: [cell] };
  labelGroups(cells);
  if (legalAfterLabelling(cells, piece, cell)) return null;
  const inGroup = (group: number): number[] => {
    const stones: number[] = [];
    for (let c = 0; c < CELLS; c++) if (groupOf[c] === group) stones.push(c);
    return stones;
  };
  for (let k = cell * 4, end = k + 4; k < end; k++) {
    const n = NEIGHBORS[k];
    if (n >= 0 && cells[n] !== EMPTY && cells[n] !== piece && liberties[groupOf[n]] === 1) return { kind: 'capture', stones: inGroup(groupOf[n]) };
  }
  const own = [cell];
  for (let k = cell * 4, end = k + 4; k < end; k++) {
    const n = NEIGHBORS[k];
    if (n >= 0 && cells[n] === piece && !own.includes(n)) for (const stone of inGroup(groupOf[n])) if (!own.includes(stone)) own.push(stone);
  }
  return { kind: 'suicide', stones: own.sort((a, b) => a - b) };
}

/** Whether every group has a liberty (true of every position NoGo play can reach). */
export function allGroupsBreathe(cells: Uint8Array): boolean {
  const groups = labelGroups(cells);
  for (let g = 0; g < groups; g++) if (liberties[g] === 0) return false;
  return true;
}

/** Drops `banned` from the first `n` cells of `moves` (kept in order); returns the new count. */
export function withoutCell(moves: Int16Array | number[], n: number, banned: number): number {
  let kept = 0;
  for (let i = 0; i < n; i++) if (moves[i] !== banned) moves[kept++] = moves[i];
  return kept;
}

/**
 * Legal move sequences of exactly `depth` moves from `cells` with `piece` to move (a side without a legal move
 * has lost, so such a line adds no leaf — the chess perft convention). `cells` is played on in place and restored.
 * `rootBanned` is a cell not playable as the first move (NoGo's centre rule), or -1.
 */
export function perftCells(cells: Uint8Array, piece: number, depth: number, rootBanned = -1): number {
  const buffers = Array.from({ length: Math.max(depth, 1) }, () => new Int16Array(CELLS));
  const walk = (p: number, d: number): number => {
    const moves = buffers[d - 1];
    let n = legalCells(cells, p, moves);
    if (d === depth && rootBanned >= 0) n = withoutCell(moves, n, rootBanned);
    if (d === 1) return n;
    let leaves = 0;
    for (let i = 0; i < n; i++) {
      cells[moves[i]] = p;
      leaves += walk(3 - p, d - 1);
      cells[moves[i]] = EMPTY;
    }
    return leaves;
  };
  return depth === 0 ? 1 : walk(piece, depth);
}

/** 0..80 → 'A1'..'J9'. */
export function cellName(cell: number): string {
  return FILES[cell % SIZE] + String(Math.floor(cell / SIZE) + 1);
}

/** Strict notation: 'E5' (capital file A..J without I, row 1..9) → cell, else -1. */
export function parseCell(text: unknown): number {
  if (typeof text !== 'string' || !/^[A-HJ][1-9]$/.test(text)) return -1;
  return (text.charCodeAt(1) - 49) * SIZE + FILES.indexOf(text[0]);
}
