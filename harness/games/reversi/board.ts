/**
 * The student-facing Reversi board: the course platform's board.py, method for method, in camelCase with the
 * Python names as aliases, backed by the bitboard core so a student's MCTS can call it millions of times.
 *
 * Coordinates as board.py: 'D3' is column D, row 3 → [row 2, col 3]; `_board[row][col]` is '.', 'X' or 'O'.
 * The discs live in private fields, so the only way to change a board is through its methods — which is what
 * the tamper check (game.py: "changing the board it was handed loses") compares.
 */
import { DIRECTION_OF_STEP, hasSquare, legalInOrder, NEAR_HI, NEAR_LO, popcount, RAY_HI, RAY_LO, SQUARE_OF_RANK, START } from './core.js';

export type Color = 'X' | 'O';
/** A square as board.py accepts it: 'D3' (either case, like board_num) or [row, col]. */
export type Action = string | readonly [number, number];

const FILES = 'ABCDEFGH';
const { fromCharCode } = String;
const { clz32 } = Math;

/** 'A1'..'H8', built once: every name the Board returns is one of these strings, so nothing is built per call. */
const NAMES: readonly string[] = Array.from({ length: 64 }, (_, sq) => FILES[sq & 7] + String((sq >> 3) + 1));
/** NAME_OF_RANK[rank]: the name of the square a legal-move rank names (core's legalInOrder). */
const NAME_OF_RANK: readonly string[] = Array.from(SQUARE_OF_RANK, (sq) => NAMES[sq]);
/** The flips of the last flipNames call, as a 64-bit set (hi, lo). */
const flipped = { hi: 0, lo: 0 };

/** board.py's _can_fliped directions as square steps: E, SE, S, SW, W, NW, N, NE (core's DIRECTION_OF_STEP order). */
const STEP = Int8Array.of(1, 9, 8, 7, -1, -9, -8, -7);
/** CLOSER[d]: during one flipNames call, the square that closes the run in direction d. */
const CLOSER = new Int8Array(8);

/**
 * The discs the player (ph, pl) flips by playing the empty square `sq`, as names in board.py's _can_fliped order
 * (per direction E, SE, S, SW, W, NW, N, NE, each from the far end back towards the move), or null when it flips
 * nothing; the same set is left in `flipped`. Only directions whose first square is the opponent's can flip, so
 * those are taken from the neighbour set (one to three on most moves). Per such direction, the ray's first square that
 * is not the opponent's (its lowest bit towards higher squares, its highest towards lower ones) closes the run when it
 * is the player's; the run is the ray's bits on the near side of it, and its names are walked back from it by the
 * direction's step. Only small tables (rays, neighbours, 64 names) are read: the per-pair tables of names and runs
 * this replaced (70 KB) compete for the cache with everything else in a playout (interleaved in one process, 150
 * rounds at load 42: 1.03x the playouts without them). The returned array is the only allocation.
 */
function flipNames(sq: number, ph: number, pl: number, oh: number, ol: number): string[] | null {
  let ah = NEAR_HI[sq] & oh;
  let al = NEAR_LO[sq] & ol;
  let dirs = 0;
  let fh = 0;
  let fl = 0;
  while ((ah | al) !== 0) {
    let d: number;
    if (al !== 0) {
      const bit = al & -al;
      al ^= bit;
      d = DIRECTION_OF_STEP[31 - clz32(bit) - sq + 9];
    } else {
      const bit = ah & -ah;
      ah ^= bit;
      d = DIRECTION_OF_STEP[63 - clz32(bit) - sq + 9];
    }
    const i = sq * 8 + d;
    if (d < 4) {
      const rl = RAY_LO[i];
      const stopL = rl & ~ol;
      if (stopL !== 0) {
        const f = stopL & -stopL;
        if ((pl & f) === 0) continue;
        fl |= rl & (f - 1);
        CLOSER[d] = 31 - clz32(f);
      } else {
        const rh = RAY_HI[i];
        const stopH = rh & ~oh;
        const f = stopH & -stopH;
        if ((ph & f) === 0) continue;
        fl |= rl;
        fh |= rh & (f - 1);
        CLOSER[d] = 63 - clz32(f);
      }
    } else {
      const rh = RAY_HI[i];
      const stopH = rh & ~oh;
      if (stopH !== 0) {
        const t = 31 - clz32(stopH);
        if (((ph >>> t) & 1) === 0) continue;
        fh |= rh & -(2 << t); // the ray's bits above t (none when t is 31: 2 << 31 is 0)
        CLOSER[d] = t + 32;
      } else {
        const rl = RAY_LO[i];
        const stopL = rl & ~ol;
        if (stopL === 0) continue;
        const t = 31 - clz32(stopL);
        if (((pl >>> t) & 1) === 0) continue;
        fh |= rh;
        fl |= rl & -(2 << t);
        CLOSER[d] = t;
      }
    }
    dirs |= 1 << d;
  }
  flipped.hi = fh;
  flipped.lo = fl;
  if (dirs === 0) return null;
  // One array of the exact length, in direction order, each run walked back from its closing square.
  const names = new Array<string>(popcount(fh, fl));
  let k = 0;
  for (; dirs !== 0; dirs &= dirs - 1) {
    const d = 31 - clz32(dirs & -dirs);
    const step = STEP[d];
    for (let s = CLOSER[d] - step; s !== sq; s -= step) names[k++] = NAMES[s];
  }
  return names;
}

/**
 * A square from an action: a name 'A1'..'H8' or 'a1'..'h8' from its two character codes (only those eight letters
 * either case reach 0..7 through `| 32`), anything else through toSquare.
 */
function squareOf(action: unknown): number {
  if (typeof action === 'string') {
    if (action.length !== 2) return -1;
    const col = (action.charCodeAt(0) | 32) - 97;
    const row = action.charCodeAt(1) - 49;
    return col >= 0 && col < 8 && row >= 0 && row < 8 ? row * 8 + col : -1;
  }
  return toSquare(action);
}

function checkColor(color: unknown): Color {
  if (color === 'X' || color === 'O') return color;
  throw colorError(color);
}

function colorError(color: unknown): Error {
  return new Error(`color must be 'X' (Black) or 'O' (White), got ${JSON.stringify(color)}`);
}

export class Board {
  /** The empty-square marker, as board.py's `empty`. */
  readonly empty = '.';
  #bh: number;
  #bl: number;
  #wh: number;
  #wl: number;

  /** The start position: D4 = O, E4 = X, D5 = X, E5 = O. */
  constructor() {
    this.#bh = START.bh;
    this.#bl = START.bl;
    this.#wh = START.wh;
    this.#wl = START.wl;
  }

  /** A board holding the given bitboards (black and white, high and low halves). */
  static fromBits(bh: number, bl: number, wh: number, wl: number): Board {
    const b = new Board();
    b.#bh = bh | 0;
    b.#bl = bl | 0;
    b.#wh = wh | 0;
    b.#wl = wl | 0;
    return b;
  }

  /**
   * The contents as a short string, for the tamper check. Reads the private fields, so it cannot be fooled by
   * a student overriding methods; anything that is not a real Board has no fingerprint.
   */
  static fingerprint(board: unknown): string {
    if (typeof board !== 'object' || board === null || !(#bh in board)) return 'not-a-board';
    // Eight 16-bit halves as one 8-character string: no number-to-decimal conversion (the host takes two a move).
    const bh = board.#bh;
    const bl = board.#bl;
    const wh = board.#wh;
    const wl = board.#wl;
    return fromCharCode(bh & 0xffff, bh >>> 16, bl & 0xffff, bl >>> 16, wh & 0xffff, wh >>> 16, wl & 0xffff, wl >>> 16);
  }

  /** The four bitboards [bh, bl, wh, wl], for code that works on the core directly. */
  bits(): [number, number, number, number] {
    return [this.#bh, this.#bl, this.#wh, this.#wl];
  }

  /** '.', 'X' or 'O' at (row, col), 0-based. */
  get(row: number, col: number): string {
    if (!this.isOnBoard(row, col)) throw new Error(`(${row}, ${col}) is off the board: row and col go 0..7`);
    const sq = row * 8 + col;
    if (hasSquare(this.#bh, this.#bl, sq)) return 'X';
    if (hasSquare(this.#wh, this.#wl, sq)) return 'O';
    return '.';
  }

  /** An 8x8 copy of the board as rows of '.', 'X', 'O' (board.py's `_board`; editing it changes nothing). */
  get rows(): string[][] {
    const rows: string[][] = [];
    for (let r = 0; r < 8; r++) {
      const row: string[] = [];
      for (let c = 0; c < 8; c++) row.push(this.get(r, c));
      rows.push(row);
    }
    return rows;
  }

  get _board(): string[][] {
    return this.rows;
  }

  /** Legal squares for `color` in board.py's order, as 'A1'..'H8'. */
  getLegalActions(color: Color): string[] {
    if (color === 'X') return legalInOrder(this.#bh, this.#bl, this.#wh, this.#wl, NAME_OF_RANK);
    if (color === 'O') return legalInOrder(this.#wh, this.#wl, this.#bh, this.#bl, NAME_OF_RANK);
    throw colorError(color);
  }

  get_legal_actions(color: Color): string[] {
    return this.getLegalActions(color);
  }

  /**
   * The discs `color` would flip by playing `action`, in board.py's order, or false when the square is off the
   * board, taken, or flips nothing. Does not change the board.
   */
  canFlipped(action: Action, color: Color): string[] | false {
    const sq = squareOf(action);
    if (sq < 0 || hasSquare(this.#bh | this.#wh, this.#bl | this.#wl, sq)) return false;
    const names = checkColor(color) === 'X' ? flipNames(sq, this.#bh, this.#bl, this.#wh, this.#wl)
      : flipNames(sq, this.#wh, this.#wl, this.#bh, this.#bl);
    return names === null ? false : names;
  }

  _can_fliped(action: Action, color: Color): string[] | false {
    return this.canFlipped(action, color);
  }

  /** Play `action` for `color`: returns the flipped squares (board.py order), or false and leaves the board. */
  move(action: Action, color: Color): string[] | false {
    const black = checkColor(color) === 'X';
    const sq = squareOf(action);
    if (sq < 0 || hasSquare(this.#bh | this.#wh, this.#bl | this.#wl, sq)) return false;
    const bh = sq >= 32 ? 1 << (sq - 32) : 0;
    const bl = sq < 32 ? 1 << sq : 0;
    if (black) {
      const names = flipNames(sq, this.#bh, this.#bl, this.#wh, this.#wl);
      if (names === null) return false;
      this.#bh |= flipped.hi | bh;
      this.#bl |= flipped.lo | bl;
      this.#wh &= ~flipped.hi;
      this.#wl &= ~flipped.lo;
      return names;
    }
    const names = flipNames(sq, this.#wh, this.#wl, this.#bh, this.#bl);
    if (names === null) return false;
    this.#wh |= flipped.hi | bh;
    this.#wl |= flipped.lo | bl;
    this.#bh &= ~flipped.hi;
    this.#bl &= ~flipped.lo;
    return names;
  }

  _move(action: Action, color: Color): string[] | false {
    return this.move(action, color);
  }

  /** Undo a move: empty `action` and give the `flipped` squares back to the opponent (board.py). */
  undo(action: Action, flipped: readonly Action[], color: Color): void {
    const black = checkColor(color) === 'X';
    const sq = squareOf(action);
    if (sq < 0) throw new Error(`cannot undo ${JSON.stringify(action)}: not a square like 'D3' or [2, 3]`);
    let fh = 0;
    let fl = 0;
    for (let i = 0; i < flipped.length; i++) {
      const s = squareOf(flipped[i]);
      if (s < 0) throw new Error(`cannot undo: flipped square ${JSON.stringify(flipped[i])} is not like 'D3' or [2, 3]`);
      if (s >= 32) fh |= 1 << (s - 32);
      else fl |= 1 << s;
    }
    const clearH = sq >= 32 ? ~(1 << (sq - 32)) : -1;
    const clearL = sq < 32 ? ~(1 << sq) : -1;
    if (black) {
      this.#bh = this.#bh & clearH & ~fh;
      this.#bl = this.#bl & clearL & ~fl;
      this.#wh = (this.#wh & clearH) | fh;
      this.#wl = (this.#wl & clearL) | fl;
    } else {
      this.#wh = this.#wh & clearH & ~fh;
      this.#wl = this.#wl & clearL & ~fl;
      this.#bh = (this.#bh & clearH) | fh;
      this.#bl = (this.#bl & clearL) | fl;
    }
  }

  backpropagation(action: Action, flipped: readonly Action[], color: Color): void {
    this.undo(action, flipped, color);
  }

  /** Discs of `color` on the board. */
  count(color: Color): number {
    return checkColor(color) === 'X' ? popcount(this.#bh, this.#bl) : popcount(this.#wh, this.#wl);
  }

  /** [0 Black wins | 1 White wins | 2 draw, disc difference] — board.py's get_winner. */
  getWinner(): [0 | 1 | 2, number] {
    const black = popcount(this.#bh, this.#bl);
    const white = popcount(this.#wh, this.#wl);
    if (black > white) return [0, black - white];
    if (white > black) return [1, white - black];
    return [2, 0];
  }

  get_winner(): [0 | 1 | 2, number] {
    return this.getWinner();
  }

  /** The board as text with coordinates and disc counts, like board.py's display(). */
  toString(): string {
    const lines = ['  A B C D E F G H'];
    for (let r = 0; r < 8; r++) {
      const cells: string[] = [];
      for (let c = 0; c < 8; c++) cells.push(this.get(r, c));
      lines.push(`${r + 1} ${cells.join(' ')}`);
    }
    lines.push(`Black (X): ${this.count('X')}  White (O): ${this.count('O')}`);
    return lines.join('\n');
  }

  /** Print the board (board.py's display; step and total time are shown when given, in seconds). */
  display(stepTime?: Record<string, number> | null, totalTime?: Record<string, number> | null): void {
    let text = this.toString();
    if (stepTime) text += `\nStep time: X ${stepTime.X ?? 0}s  O ${stepTime.O ?? 0}s`;
    if (totalTime) text += `\nTotal time: X ${totalTime.X ?? 0}s  O ${totalTime.O ?? 0}s`;
    console.log(text);
  }

  /** 'D3' → [2, 3] (either case, as board.py); undefined when it names no square. */
  boardNum(action: string): [number, number] | undefined {
    const sq = toSquare(action);
    return sq < 0 ? undefined : [sq >> 3, sq & 7];
  }

  board_num(action: string): [number, number] | undefined {
    return this.boardNum(action);
  }

  /** [2, 3] → 'D3'; undefined when off the board. */
  numBoard(action: readonly [number, number]): string | undefined {
    const sq = toSquare(action);
    return sq < 0 ? undefined : squareName(sq);
  }

  num_board(action: readonly [number, number]): string | undefined {
    return this.numBoard(action);
  }

  isOnBoard(x: number, y: number): boolean {
    return Number.isInteger(x) && Number.isInteger(y) && x >= 0 && x <= 7 && y >= 0 && y <= 7;
  }

  is_on_board(x: number, y: number): boolean {
    return this.isOnBoard(x, y);
  }

  /** An independent copy (what `deepcopy(board)` gives on the platform). */
  copy(): Board {
    return Board.fromBits(this.#bh, this.#bl, this.#wh, this.#wl);
  }
}

/** 0..63 → 'A1'..'H8'. */
export function squareName(sq: number): string {
  return NAMES[sq];
}

/** 'D3' / 'd3' / [2, 3] → square index, or -1 when it names no square. */
export function toSquare(action: unknown): number {
  if (typeof action === 'string') {
    if (action.length !== 2) return -1;
    const col = FILES.indexOf(action[0].toUpperCase());
    const row = action.charCodeAt(1) - 49;
    return col >= 0 && row >= 0 && row < 8 ? row * 8 + col : -1;
  }
  if (Array.isArray(action) && action.length === 2) {
    const [row, col] = action as unknown[];
    if (Number.isInteger(row) && Number.isInteger(col) && (row as number) >= 0 && (row as number) < 8 &&
        (col as number) >= 0 && (col as number) < 8) {
      return (row as number) * 8 + (col as number);
    }
  }
  return -1;
}
