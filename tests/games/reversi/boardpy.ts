/**
 * A line-by-line port of the course platform's board.py (arrays of '.', 'X', 'O'), deliberately naive: the
 * oracle the bitboard engine and the student Board are checked against.
 */
export class BoardPy {
  empty = '.';
  _board: string[][];

  constructor() {
    this._board = Array.from({ length: 8 }, () => Array<string>(8).fill('.'));
    this._board[3][4] = 'X';
    this._board[4][3] = 'X';
    this._board[3][3] = 'O';
    this._board[4][4] = 'O';
  }

  is_on_board(x: number, y: number): boolean {
    return x >= 0 && x <= 7 && y >= 0 && y <= 7;
  }

  board_num(action: string): [number, number] | undefined {
    const row = action[1].toUpperCase();
    const col = action[0].toUpperCase();
    if ('12345678'.includes(row) && 'ABCDEFGH'.includes(col)) return ['12345678'.indexOf(row), 'ABCDEFGH'.indexOf(col)];
    return undefined;
  }

  num_board(action: [number, number]): string {
    return String.fromCharCode(65 + action[1]) + String(action[0] + 1);
  }

  _can_fliped(action: [number, number], color: string): string[] | false {
    const [xs, ys] = action;
    if (!this.is_on_board(xs, ys) || this._board[xs][ys] !== this.empty) return false;
    this._board[xs][ys] = color;
    const op = color === 'X' ? 'O' : 'X';
    const flipped: [number, number][] = [];
    for (const [dx, dy] of [[0, 1], [1, 1], [1, 0], [1, -1], [0, -1], [-1, -1], [-1, 0], [-1, 1]]) {
      let x = xs + dx;
      let y = ys + dy;
      if (this.is_on_board(x, y) && this._board[x][y] === op) {
        x += dx;
        y += dy;
        if (!this.is_on_board(x, y)) continue;
        while (this._board[x][y] === op) {
          x += dx;
          y += dy;
          if (!this.is_on_board(x, y)) break;
        }
        if (!this.is_on_board(x, y)) continue;
        if (this._board[x][y] === color) {
          for (;;) {
            x -= dx;
            y -= dy;
            if (x === xs && y === ys) break;
            flipped.push([x, y]);
          }
        }
      }
    }
    this._board[xs][ys] = this.empty;
    if (flipped.length === 0) return false;
    return flipped.map((p) => this.num_board(p));
  }

  get_legal_actions(color: string): string[] {
    const dirs = [[-1, 0], [-1, 1], [0, 1], [1, 1], [1, 0], [1, -1], [0, -1], [-1, -1]];
    const op = color === 'X' ? 'O' : 'X';
    const near: [number, number][] = [];
    for (let i = 0; i < 8; i++) {
      for (let j = 0; j < 8; j++) {
        if (this._board[i][j] !== op) continue;
        for (const [dx, dy] of dirs) {
          const x = i + dx;
          const y = j + dy;
          if (x >= 0 && x <= 7 && y >= 0 && y <= 7 && this._board[x][y] === this.empty &&
              !near.some(([a, b]) => a === x && b === y)) {
            near.push([x, y]);
          }
        }
      }
    }
    return near.filter((p) => this._can_fliped(p, color)).map((p) => this.num_board(p));
  }

  _move(action: string, color: string): string[] | false {
    const a = this.board_num(action)!;
    const flipped = this._can_fliped(a, color);
    if (!flipped) return false;
    for (const f of flipped) {
      const [x, y] = this.board_num(f)!;
      this._board[x][y] = color;
    }
    this._board[a[0]][a[1]] = color;
    return flipped;
  }

  get_winner(): [number, number] {
    let b = 0;
    let w = 0;
    for (const row of this._board) for (const c of row) { if (c === 'X') b++; if (c === 'O') w++; }
    if (b > w) return [0, b - w];
    if (b < w) return [1, w - b];
    return [2, 0];
  }
}

/** A tiny seeded generator for test games (mulberry32). */
export function testRng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
