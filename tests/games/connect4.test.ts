import { describe, expect, test } from '@jest/globals';
import { Board, connect4, connect4Nogo, drawLayout, type Connect4State } from '../../harness/games/connect4/index.js';
import { emptyGrid, FIRST, NO_GO, winsAt } from '../../harness/games/connect4/core.js';

const play = (moves: number[], start: Connect4State = connect4.initial()): Connect4State =>
  moves.reduce((s, col) => connect4.apply(s, col), start);

/**
 * A second, deliberately naive Connect Four: nested arrays, gravity by scanning up the column, and a win check
 * that scans the whole board for four in a line. Shares no code with the implementation under test.
 */
function naivePerft(board: number[][], noGo: [number, number] | null, player: number, depth: number): number {
  if (depth === 0) return 1;
  const rows = board.length;
  const cols = board[0].length;
  let leaves = 0;
  for (let col = 0; col < cols; col++) {
    let row = 0;
    while (row < rows && (board[row][col] !== 0 || (noGo && noGo[0] === row && noGo[1] === col))) row++;
    if (row === rows) continue;
    board[row][col] = player;
    // The last move of a line may win; an earlier win ends the line short of `depth`, so it adds no leaf.
    if (depth === 1 || !naiveHasFour(board, player)) leaves += naivePerft(board, noGo, 3 - player, depth - 1);
    board[row][col] = 0;
  }
  return leaves;
}

function naiveHasFour(board: number[][], player: number): boolean {
  const rows = board.length;
  const cols = board[0].length;
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      for (const [dr, dc] of [[0, 1], [1, 0], [1, 1], [1, -1]]) {
        let k = 0;
        while (k < 4) {
          const rr = r + k * dr;
          const cc = c + k * dc;
          if (rr < 0 || rr >= rows || cc < 0 || cc >= cols || board[rr][cc] !== player) break;
          k++;
        }
        if (k === 4) return true;
      }
    }
  }
  return false;
}

/** The naive board for a state (1 = X, 2 = O, the no-go cell left 0 and passed separately). */
function toNaive(s: Connect4State): { board: number[][]; noGo: [number, number] | null; player: number } {
  const board = Array.from({ length: s.rows }, (_, r) =>
    Array.from({ length: s.cols }, (_, c) => {
      const v = s.cells[r * s.cols + c];
      return v === NO_GO ? 0 : v;
    }),
  );
  const noGo: [number, number] | null = s.blocked < 0 ? null : [Math.floor(s.blocked / s.cols), s.blocked % s.cols];
  return { board, noGo, player: s.side + 1 };
}

/** A pseudo-random line of play that avoids ending the game, so perft below it has something to count. */
function randomLine(game: typeof connect4, start: Connect4State, plies: number, seed: number): Connect4State {
  let s = start;
  let x = seed;
  for (let i = 0; i < plies; i++) {
    const moves = game.legalMoves(s).filter((m) => !game.isTerminal(game.apply(s, m)));
    if (moves.length === 0) break;
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    s = game.apply(s, moves[(x >>> 16) % moves.length]);
  }
  return s;
}

describe('connect4 perft', () => {
  test('matches the published table from the empty 7x6 board, depths 1..8', () => {
    const known = [7, 49, 343, 2401, 16807, 117649, 823536, 5673234];
    const s = connect4.initial();
    expect(known.map((_, i) => connect4.perft!(s, i + 1))).toEqual(known);
  });

  test('agrees with a naive implementation from the empty board (depths 1..6)', () => {
    const s = connect4.initial();
    for (let depth = 1; depth <= 6; depth++) {
      const { board, noGo, player } = toNaive(s);
      expect(connect4.perft!(s, depth)).toBe(naivePerft(board, noGo, player, depth));
    }
  });

  test('agrees with the naive implementation on mid-game and no-go positions', () => {
    const positions = [
      ...[1, 2, 3, 4, 5, 6, 7, 8].map((seed) => randomLine(connect4, connect4.initial(), 6 + seed * 3, seed)),
      ...[9, 10, 11, 12, 13, 14].map((seed) => randomLine(connect4Nogo, connect4Nogo.initial(seed), seed * 4, seed)),
    ].filter((s) => !s.over);
    expect(positions.length).toBe(14);
    expect(positions.map((s) => s.discs)).toContain(30);
    for (const s of positions) {
      const { board, noGo, player } = toNaive(s);
      const game = s.blocked < 0 ? connect4 : connect4Nogo;
      expect(game.perft!(s, 4)).toBe(naivePerft(board, noGo, player, 4));
    }
  });

  test('a finished game has no leaves below it', () => {
    const won = play([0, 1, 0, 1, 0, 1, 0]);
    expect(connect4.perft!(won, 0)).toBe(1);
    expect(connect4.perft!(won, 2)).toBe(0);
  });
});

describe('connect4 win detection', () => {
  /** Every line of four on an R x C board, as cell lists. */
  function allLines(rows: number, cols: number): number[][] {
    const lines: number[][] = [];
    for (let r = 0; r < rows; r++) {
      for (let c = 0; c < cols; c++) {
        for (const [dr, dc] of [[0, 1], [1, 0], [1, 1], [1, -1]]) {
          const cells: number[] = [];
          for (let k = 0; k < 4; k++) {
            const rr = r + k * dr;
            const cc = c + k * dc;
            if (rr >= 0 && rr < rows && cc >= 0 && cc < cols) cells.push(rr * cols + cc);
          }
          if (cells.length === 4) lines.push(cells);
        }
      }
    }
    return lines;
  }

  test.each([
    [6, 7, 69],
    [9, 12, 0],
    [12, 9, 0],
  ])('on a %i x %i board every line of four wins from each of its cells, and three never do', (rows, cols, count) => {
    const lines = allLines(rows, cols);
    if (count) expect(lines).toHaveLength(count);
    for (const line of lines) {
      const grid = emptyGrid(rows, cols, -1);
      for (const cell of line) grid.cells[cell] = FIRST;
      for (const cell of line) expect(winsAt(grid, cell)).toBe(true);
      for (const missing of line) {
        grid.cells[missing] = 0;
        for (const cell of line) if (cell !== missing) expect(winsAt(grid, cell)).toBe(false);
        grid.cells[missing] = FIRST;
      }
    }
  });

  test('the no-go cell breaks a line', () => {
    const grid = emptyGrid(9, 9, 2);
    for (const cell of [0, 1, 3, 4]) grid.cells[cell] = FIRST;
    expect(winsAt(grid, 1)).toBe(false);
    expect(winsAt(grid, 3)).toBe(false);
  });

  test.each([
    ['horizontal on the bottom row, left edge', [0, 0, 1, 1, 2, 2, 3], 0],
    ['horizontal on the bottom row, right edge', [6, 6, 5, 5, 4, 4, 3], 0],
    ['vertical in the rightmost column up to the top row', [6, 6, 6, 0, 6, 0, 6, 0, 6], 0],
    ['diagonal up-right from the corner', [0, 1, 1, 2, 2, 3, 2, 3, 3, 6, 3], 0],
    ['diagonal up-left from the right corner', [6, 5, 5, 4, 4, 3, 4, 3, 3, 0, 3], 0],
    ['five in a row (a disc dropped into the gap)', [0, 0, 1, 1, 3, 3, 4, 4, 2], 0],
  ])('%s', (_name, moves, winner) => {
    const before = play(moves.slice(0, -1));
    expect(before.over).toBe(false);
    const after = connect4.apply(before, moves[moves.length - 1]);
    expect(connect4.isTerminal(after)).toBe(true);
    expect(connect4.legalMoves(after)).toEqual([]);
    expect(connect4.outcome(after)).toEqual({
      winner,
      score: winner === 0 ? [1, 0] : [0, 1],
      diff: 1,
    });
  });

  test('the vertical case really ends on the top row', () => {
    const won = play([6, 6, 6, 0, 6, 0, 6, 0, 6]);
    expect(won.lastCell).toBe(5 * 7 + 6);
    expect(connect4.renderText(won).split('\n')[0]).toBe(' 5 . . . . . . X');
  });

  test('a full board without four in a line is a draw', () => {
    // Rows alternate "xxooxxo" and its inverse: runs of two at most in every direction.
    const full = connect4.decode('ooxxoox/xxooxxo/ooxxoox/xxooxxo/ooxxoox/xxooxxo 0');
    expect(full.over).toBe(true);
    expect(connect4.isTerminal(full)).toBe(true);
    expect(connect4.legalMoves(full)).toEqual([]);
    expect(connect4.outcome(full)).toEqual({ winner: null, score: [0, 0], diff: 0 });
    expect(() => connect4.pass(full)).toThrow(/no passing/);
  });
});

describe('connect4 notation and codec', () => {
  test('moves are column numbers 0..N-1, strictly', () => {
    expect(connect4.legalMoves(connect4.initial())).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(connect4.formatMove(3)).toBe('3');
    expect(connect4.parseMove('3')).toBe(3);
    for (const bad of ['7', '-1', '03', ' 3', '3 ', '3.0', 'D', '', '1e0']) expect(connect4.parseMove(bad)).toBeNull();
    expect(connect4Nogo.parseMove('11')).toBe(11);
    expect(connect4Nogo.parseMove('12')).toBeNull();
  });

  test('encode is compact and round-trips', () => {
    expect(connect4.encode(connect4.initial())).toBe('7/7/7/7/7/7 -');
    const s = play([3, 3, 4, 2]);
    expect(connect4.encode(s)).toBe('7/7/7/7/3o3/2oxx2 2');
    const back = connect4.decode(connect4.encode(s));
    expect(back).toEqual(s);
    expect(connect4.toMove(back)).toBe(0);
  });

  test.each([
    ['not a state', /expected/],
    ['7/7/7/7/7/7', /expected/],
    ['7/7/7/7/7 -', /6 rows x 7 columns/],
    ['7/7/7/7/7/6 -', /same number of cells/],
    ['7/7/7/7/x6/7 0', /floating/],
    ['7/7/7/7/7/xx5 0', /disc counts/],
    ['7/7/7/7/7/x6 -', /last move is missing/],
    ['7/7/7/7/7/x6 1', /holds no disc/],
    ['7/7/7/7/7/xo5 0', /not the last mover/],
    ['7/7/7/7/7/07 -', /cannot be 0/],
    ['7/7/o6/o6/o6/xxxxo2 4', /game ended before/],
    ['7/7/7/7/7/#6 -', /no no-go cell/],
  ])('decode rejects %j with one line naming the problem', (text, why) => {
    expect(() => connect4.decode(text)).toThrow(why);
    try {
      connect4.decode(text);
    } catch (error) {
      expect((error as Error).message).not.toContain('\n');
      expect((error as Error).message).toMatch(/^connect4: /);
    }
  });

  test('decode accepts a finished game and keeps its winner', () => {
    const won = play([0, 1, 0, 1, 0, 1, 0]);
    const back = connect4.decode(connect4.encode(won));
    expect(back.winner).toBe(0);
    expect(back).toEqual(won);
  });
});

describe('connect4-nogo layouts', () => {
  test('a seed always draws the same layout, within 9..12 x 9..12, with the no-go cell on the board', () => {
    const seen = { rows: new Set<number>(), cols: new Set<number>(), noGoRows: new Set<number>() };
    for (let seed = 0; seed < 300; seed++) {
      const a = connect4Nogo.initial(seed);
      expect(connect4Nogo.initial(seed)).toEqual(a);
      expect(a.rows).toBeGreaterThanOrEqual(9);
      expect(a.rows).toBeLessThanOrEqual(12);
      expect(a.cols).toBeGreaterThanOrEqual(9);
      expect(a.cols).toBeLessThanOrEqual(12);
      expect(a.blocked).toBeGreaterThanOrEqual(0);
      expect(a.blocked).toBeLessThan(a.rows * a.cols);
      expect(a.cells[a.blocked]).toBe(NO_GO);
      seen.rows.add(a.rows);
      seen.cols.add(a.cols);
      seen.noGoRows.add(Math.floor(a.blocked / a.cols));
    }
    expect([...seen.rows].sort((a, b) => a - b)).toEqual([9, 10, 11, 12]);
    expect([...seen.cols].sort((a, b) => a - b)).toEqual([9, 10, 11, 12]);
    expect(seen.noGoRows.size).toBeGreaterThanOrEqual(9);
  });

  test('the drawn layouts are pinned (a change to the generator changes recorded games)', () => {
    expect(drawLayout(1463)).toEqual({ rows: 11, cols: 12, noGoRow: 2, noGoCol: 5 });
    expect(connect4Nogo.encode(connect4Nogo.initial(1463))).toBe('12/12/12/12/12/12/12/12/5#6/12/12 -');
    expect(() => drawLayout(Number.NaN)).toThrow(/finite/);
  });

  test('a disc skips over the no-go cell and top[] accounts for it', () => {
    // Seed 1463: 11 x 12, no-go cell at row 2, column 5.
    let s = connect4Nogo.initial(1463);
    expect(Array.from(s.top)).toEqual(new Array(12).fill(0));
    const landed: number[] = [];
    for (let i = 0; i < 10; i++) {
      landed.push(connect4Nogo.moveDetails!(s, 5).row as number);
      s = connect4Nogo.apply(s, 5);
      const board = connect4Nogo.studentBoard.create(s) as Board;
      expect(board.top[5]).toBe(s.top[5]);
    }
    expect(landed).toEqual([0, 1, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(s.top[5]).toBe(11);
    expect(connect4Nogo.legalMoves(s)).not.toContain(5);
    expect(() => connect4Nogo.apply(s, 5)).toThrow(/not a legal move/);
  });

  test('a no-go cell on the bottom row lifts the first landing spot; on the top row it shortens the column', () => {
    const bottom = connect4Nogo.decode('9/9/9/9/9/9/9/9/3#5 -');
    expect(bottom.top[3]).toBe(1);
    expect(connect4Nogo.moveDetails!(bottom, 3)).toEqual({ row: 1 });
    const topRow = connect4Nogo.decode('#8/9/9/9/9/9/9/9/9 -');
    let s = topRow;
    for (let i = 0; i < 8; i++) s = connect4Nogo.apply(s, 0);
    expect(s.top[0]).toBe(9);
    expect(connect4Nogo.legalMoves(s)[0]).toBe(1);
  });

  test('a line through the no-go cell does not win', () => {
    // Bottom row: x x # x with o discs elsewhere; dropping x at column 4 makes x x # x x — no four.
    const s = connect4Nogo.decode('9/9/9/9/9/9/9/9/9/o8/xx#x1oo2 6');
    const after = connect4Nogo.apply(s, 4);
    expect(connect4Nogo.renderText(after).split('\n')[10]).toBe(' 0 X X # X X O O . .');
    expect(after.winner).toBeNull();
  });

  test('codec round-trips the layout and rejects boards that are not the variant', () => {
    const s = randomLine(connect4Nogo, connect4Nogo.initial(77), 40, 9);
    expect(connect4Nogo.decode(connect4Nogo.encode(s))).toEqual(s);
    expect(() => connect4Nogo.decode('9/9/9/9/9/9/9/9/9 -')).toThrow(/no-go cell/);
    expect(() => connect4Nogo.decode('8/8/8/8/8/8/8/8/#7 -')).toThrow(/9\.\.12/);
    expect(() => connect4Nogo.decode('9/9/9/9/9/9/9/9/##7 -')).toThrow(/at most one/);
    expect(() => connect4.decode(connect4Nogo.encode(s))).toThrow(/^connect4: /);
  });
});

describe('connect4 student Board', () => {
  test('exposes M, N, top, board, last move and no-go cell as the course gives them', () => {
    const s = connect4Nogo.apply(connect4Nogo.apply(connect4Nogo.initial(1463), 5), 5);
    const board = connect4Nogo.studentBoard.create(s) as Board;
    expect([board.M, board.N]).toEqual([11, 12]);
    expect(board.noGo).toEqual([2, 5]);
    expect(board.top[5]).toBe(3);
    expect(board.lastMove).toBe(5);
    expect(board.lastCell).toEqual([1, 5]);
    expect(board.board[0][5]).toBe('X');
    expect(board.board[1][5]).toBe('O');
    expect(board.board[2][5]).toBe('#');
    expect(board.get(2, 5)).toBe('#');
    const fresh = new Board();
    expect([fresh.M, fresh.N, fresh.noGo, fresh.lastMove]).toEqual([6, 7, null, null]);
    expect(fresh.getLegalActions('X')).toEqual(['0', '1', '2', '3', '4', '5', '6']);
  });

  test('move and undo restore the position, last move included; copies are independent', () => {
    const s = play([3, 3, 2]);
    const board = connect4.studentBoard.create(s) as Board;
    const before = connect4.studentBoard.fingerprint(board);
    expect(board.move('4', 'O')).toBe(0);
    expect(board.lastMove).toBe(4);
    expect(connect4.studentBoard.fingerprint(board)).not.toBe(before);
    board.undo('4');
    expect(board.lastMove).toBe(2);
    expect(connect4.studentBoard.fingerprint(board)).toBe(before);
    const copy = board.copy();
    copy.move(0, 'O');
    expect(connect4.studentBoard.fingerprint(board)).toBe(before);
    expect(connect4.studentBoard.fingerprint(copy)).not.toBe(before);
  });

  test('editing what the getters return changes nothing; only methods change the board', () => {
    const board = connect4.studentBoard.create(play([3])) as Board;
    const before = connect4.studentBoard.fingerprint(board);
    board.top[0] = 5;
    board.board[0][0] = 'X';
    expect(connect4.studentBoard.fingerprint(board)).toBe(before);
    expect(connect4.studentBoard.fingerprint({ ...board })).toBe('not-a-board');
  });

  test('winner, full columns and bad input', () => {
    const board = new Board();
    for (const [col, color] of [[0, 'X'], [1, 'O'], [0, 'X'], [1, 'O'], [0, 'X'], [1, 'O']] as const) board.move(col, color);
    expect(board.getWinner()).toBeNull();
    expect(board.move(0, 'X')).toBe(3);
    expect(board.getWinner()).toEqual([0, 1]);
    expect(board.getLegalActions('O')).toEqual([]);
    expect(board.move(2, 'O')).toBe(false);
    board.undo(0);
    expect(board.getWinner()).toBeNull();
    expect(board.move(9, 'O')).toBe(false);
    expect(board.move('x', 'O')).toBe(false);
    expect(() => board.move(2, 'B' as 'X')).toThrow(/color must be 'X'/);
    expect(() => board.undo(6)).toThrow(/holds no disc/);
    const full = connect4.studentBoard.create(connect4.decode('ooxxoox/xxooxxo/ooxxoox/xxooxxo/ooxxoox/xxooxxo 0')) as Board;
    expect(full.getWinner()).toEqual([2, 0]);
  });
});

describe('connect4 rendering', () => {
  test('text shows the board top row first with column numbers', () => {
    expect(connect4.renderText(play([3, 3]))).toBe(
      [' 5 . . . . . . .', ' 4 . . . . . . .', ' 3 . . . . . . .', ' 2 . . . . . . .', ' 1 . . . O . . .', ' 0 . . . X . . .', '   0 1 2 3 4 5 6'].join('\n'),
    );
  });

  test('svg is self-contained and marks the last move and the no-go cell', () => {
    const s = connect4Nogo.apply(connect4Nogo.initial(1463), 5);
    const svg = connect4Nogo.renderSvg(s);
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
    expect(svg).not.toMatch(/href|<script|url\(/);
    expect(svg).toContain('stroke="#111827"');
    expect(svg).toContain('fill="#374151"');
    expect(connect4.renderSvg(connect4.initial())).not.toContain('stroke="#111827"');
    expect(connect4.renderSvg(play([3]), { lastMove: '3', size: 200 })).toContain('stroke="#111827"');
  });
});
