import { describe, expect, test } from '@jest/globals';
import { Board, nogo, type NoGoState } from '../../harness/games/nogo/index.js';

/** The empty board without the centre rule, so positions may start at E5 (the rule has its own tests below). */
const open = (): NoGoState => nogo.initial(0, { centerFirstMoveBanned: false });

const play = (moves: string[], start: NoGoState = open()): NoGoState =>
  moves.reduce((s, m) => nogo.apply(s, nogo.parseMove(m)!), start);

const legalNames = (s: NoGoState) => nogo.legalMoves(s).map(nogo.formatMove);

/**
 * A second, deliberately naive NoGo: a 2D array, and a move is legal when, after placing it, a full flood fill
 * finds no group of either colour without a liberty. Shares no code with the implementation under test.
 */
function naiveLegal(board: number[][], player: number): [number, number][] {
  const moves: [number, number][] = [];
  for (let r = 0; r < 9; r++) {
    for (let c = 0; c < 9; c++) {
      if (board[r][c] !== 0) continue;
      board[r][c] = player;
      if (everyGroupBreathes(board)) moves.push([r, c]);
      board[r][c] = 0;
    }
  }
  return moves;
}

function everyGroupBreathes(board: number[][]): boolean {
  const seen = board.map((row) => row.map(() => false));
  for (let r = 0; r < 9; r++) {
    for (let c = 0; c < 9; c++) {
      if (board[r][c] === 0 || seen[r][c]) continue;
      let breathes = false;
      const todo: [number, number][] = [[r, c]];
      seen[r][c] = true;
      while (todo.length > 0) {
        const [y, x] = todo.pop()!;
        for (const [ny, nx] of [[y - 1, x], [y + 1, x], [y, x - 1], [y, x + 1]]) {
          if (ny < 0 || ny >= 9 || nx < 0 || nx >= 9) continue;
          if (board[ny][nx] === 0) breathes = true;
          else if (board[ny][nx] === board[r][c] && !seen[ny][nx]) {
            seen[ny][nx] = true;
            todo.push([ny, nx]);
          }
        }
      }
      if (!breathes) return false;
    }
  }
  return true;
}

function naivePerft(board: number[][], player: number, depth: number): number {
  if (depth === 0) return 1;
  const moves = naiveLegal(board, player);
  if (depth === 1) return moves.length;
  let leaves = 0;
  for (const [r, c] of moves) {
    board[r][c] = player;
    leaves += naivePerft(board, 3 - player, depth - 1);
    board[r][c] = 0;
  }
  return leaves;
}

/** The naive count from the empty board when Black's first move may not be the centre (row 4, col 4). */
function naivePerftFirstBanned(depth: number): number {
  const board = Array.from({ length: 9 }, () => new Array<number>(9).fill(0));
  let leaves = 0;
  for (const [r, c] of naiveLegal(board, 1)) {
    if (r === 4 && c === 4) continue;
    board[r][c] = 1;
    leaves += naivePerft(board, 2, depth - 1);
    board[r][c] = 0;
  }
  return leaves;
}

const toNaive = (s: NoGoState): number[][] =>
  Array.from({ length: 9 }, (_, r) => Array.from(s.cells.subarray(r * 9, r * 9 + 9)));

/** Pseudo-random legal play for `plies` moves or until the game ends. */
function randomGame(seed: number, plies = Infinity): NoGoState {
  let s = nogo.initial();
  let x = seed;
  for (let i = 0; i < plies && !nogo.isTerminal(s); i++) {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    const moves = nogo.legalMoves(s);
    s = nogo.apply(s, moves[(x >>> 16) % moves.length]);
  }
  return s;
}

describe('nogo legality', () => {
  test('taking the last liberty of an opponent group (a capture) is illegal', () => {
    // X B1, O A1: O's stone on A1 has one liberty left, A2.
    const s = play(['B1', 'A1']);
    expect(legalNames(s)).not.toContain('A2');
    expect(legalNames(s)).toHaveLength(78);
    expect(() => nogo.apply(s, nogo.parseMove('A2')!)).toThrow(/not a legal move/);
    // Putting a group in atari (down to one liberty) is fine.
    const big = play(['E5', 'D5', 'E4', 'D4']);
    expect(legalNames(big)).toContain('C5');
  });

  test('a capture is illegal even when it would fill the stone\'s last liberty (no Go-style capture rescue)', () => {
    // O's A1–A2 group has one liberty, A3: X may not take it, while O may extend there.
    const s = play(['B1', 'A1', 'B2', 'A2']);
    expect(legalNames(s)).not.toContain('A3');
    const white = play(['J9'], s);
    expect(legalNames(white)).toContain('A3');
  });

  test('suicide is illegal; the same point is fine for the other side', () => {
    // O on A2 and B1 (with liberties elsewhere): A1 would leave an X stone without liberties.
    const s = play(['E5', 'A2', 'E6', 'B1']);
    expect(legalNames(s)).not.toContain('A1');
    const white = play(['E7'], s);
    expect(legalNames(white)).toContain('A1');
  });

  test('filling an own liberty is legal while the joined group keeps another one', () => {
    // X on A2 and B1; X at A1 joins them and the group still breathes.
    const s = play(['A2', 'E5', 'B1', 'E6']);
    expect(legalNames(s)).toContain('A1');
    const after = nogo.apply(s, nogo.parseMove('A1')!);
    expect(after.cells[0]).toBe(1);
  });

  test('a move that fills its group\'s last liberty is suicide even with own stones around', () => {
    // X: A2, B1. O: A3, B2, C1 — the X group's liberties are only A1.
    const s = play(['A2', 'A3', 'B1', 'B2', 'J9', 'C1']);
    expect(legalNames(s)).not.toContain('A1');
    // And O may not play A1 either: it would capture the X group.
    const white = play(['J8'], s);
    expect(legalNames(white)).not.toContain('A1');
  });

  test('taken cells and off-board cells are never legal', () => {
    const s = play(['E5']);
    expect(() => nogo.apply(s, nogo.parseMove('E5')!)).toThrow(/not a legal move/);
    expect(() => nogo.apply(s, 81)).toThrow(/not a legal move/);
    expect(() => nogo.apply(s, -1)).toThrow(/not a legal move/);
  });

  test('legal moves agree with the naive rules in random games, move by move', () => {
    for (const seed of [1, 2, 3]) {
      let s = nogo.initial();
      let x = seed;
      while (!nogo.isTerminal(s)) {
        // The naive rules plus the centre rule on the first move.
        const expected = naiveLegal(toNaive(s), s.side + 1)
          .map(([r, c]) => r * 9 + c)
          .filter((cell) => s.stones > 0 || cell !== 40);
        expect(nogo.legalMoves(s)).toEqual(expected);
        x = (Math.imul(x, 1103515245) + 12345) >>> 0;
        s = nogo.apply(s, expected[(x >>> 16) % expected.length]);
      }
      expect(naiveLegal(toNaive(s), s.side + 1)).toEqual([]);
    }
  });
});

describe('nogo end of game', () => {
  test('the side to move without a legal move loses; there are no draws and no passes', () => {
    for (const seed of [4, 5, 6, 7]) {
      const end = randomGame(seed);
      expect(nogo.isTerminal(end)).toBe(true);
      expect(nogo.legalMoves(end)).toEqual([]);
      const loser = end.side;
      expect(nogo.outcome(end)).toEqual({ winner: 1 - loser, score: loser === 0 ? [0, 1] : [1, 0], diff: 1 });
      const board = nogo.studentBoard.create(end) as Board;
      expect(board.getWinner(loser === 0 ? 'X' : 'O')).toEqual([1 - loser, 1]);
      expect(() => nogo.pass(end)).toThrow(/no passing/);
      expect(nogo.decode(nogo.encode(end))).toEqual(end);
    }
    expect(() => nogo.outcome(nogo.initial())).toThrow(/in progress/);
  });
});

describe('nogo perft', () => {
  test('without the centre rule, from the empty board: 81, 81·80, 81·80·79 − 8 (the eight corner captures)', () => {
    const s = open();
    expect([1, 2, 3].map((d) => nogo.perft!(s, d))).toEqual([81, 6480, 511912]);
  });

  test('with the centre rule (the default): perft(1) is 80, and each reply to the 80 openings still has 80', () => {
    const s = nogo.initial();
    expect(nogo.perft!(s, 1)).toBe(80);
    expect(nogo.perft!(s, 2)).toBe(80 * 80);
    expect(nogo.perft!(s, 3)).toBe(511912 - 80 * 79);
    expect(nogo.perft!(s, 3)).toBe(naivePerftFirstBanned(3));
  });

  test('agrees with the naive implementation from mid-game positions', () => {
    for (const [seed, plies] of [[11, 20], [12, 30], [13, 40], [14, 50]]) {
      const s = randomGame(seed, plies);
      expect(nogo.isTerminal(s)).toBe(false);
      expect(nogo.perft!(s, 2)).toBe(naivePerft(toNaive(s), s.side + 1, 2));
      expect(nogo.perft!(s, 3)).toBe(naivePerft(toNaive(s), s.side + 1, 3));
    }
  });
});

describe('nogo centre rule (centerFirstMoveBanned, "legal(): 第一步不可在正中央")', () => {
  test("Black's first move may not be E5: legalMoves, apply, the student Board and its copy agree", () => {
    const s = nogo.initial();
    expect(legalNames(s)).not.toContain('E5');
    expect(legalNames(s)).toHaveLength(80);
    expect(() => nogo.apply(s, 40)).toThrow(/E5 is not a legal first move/);
    const board = nogo.studentBoard.create(s) as Board;
    expect(board.getLegalActions('X')).not.toContain('E5');
    expect(board.isLegal('E5', 'X')).toBe(false);
    expect(board.move('E5', 'X')).toBe(false);
    expect(board.copy().getLegalActions('X')).toHaveLength(80);
    expect(new Board().getLegalActions('X')).toHaveLength(80);
    expect(new Board(false).getLegalActions('X')).toHaveLength(81);
  });

  test('after the first move E5 is an ordinary cell again, for White and later for Black', () => {
    const s = play(['A1'], nogo.initial());
    expect(legalNames(s)).toContain('E5');
    const board = nogo.studentBoard.create(s) as Board;
    expect(board.getLegalActions('O')).toContain('E5');
    expect(nogo.apply(s, 40).lastMove).toBe(40);
  });

  test('the switch comes from the config (gameRules) and defaults on; other games have no switches', async () => {
    const { configForGame } = await import('../../harness/referee/config.js');
    expect(configForGame(nogo).gameRules).toEqual({ centerFirstMoveBanned: true });
    expect(configForGame(nogo, { gameRules: { centerFirstMoveBanned: false } }).gameRules).toEqual({ centerFirstMoveBanned: false });
    expect(() => configForGame(nogo, { gameRules: { centreBan: true } })).toThrow(/not a rule of nogo; its rules are centerFirstMoveBanned/);
  });
});

describe('nogo notation and codec', () => {
  test('moves are A1..J9 with files skipping I; strict parsing', () => {
    expect(nogo.parseMove('A1')).toBe(0);
    expect(nogo.parseMove('J1')).toBe(8);
    expect(nogo.parseMove('H2')).toBe(16);
    expect(nogo.parseMove('E5')).toBe(40);
    expect(nogo.parseMove('J9')).toBe(80);
    for (const bad of ['I1', 'e5', 'E0', 'E10', 'K1', ' E5', 'E5 ', '']) expect(nogo.parseMove(bad)).toBeNull();
    for (let cell = 0; cell < 81; cell++) expect(nogo.parseMove(nogo.formatMove(cell))).toBe(cell);
  });

  test('encode is compact and round-trips; the centre rule is written on the empty board only', () => {
    expect(nogo.encode(open())).toBe('9/9/9/9/9/9/9/9/9 -');
    expect(nogo.encode(nogo.initial())).toBe('9/9/9/9/9/9/9/9/9 - !E5');
    expect(nogo.decode('9/9/9/9/9/9/9/9/9 - !E5')).toEqual(nogo.initial());
    expect(nogo.encode(play(['A1'], nogo.initial()))).toBe('9/9/9/9/9/9/9/9/x8 A1');
    expect(() => nogo.decode('9/9/9/9/9/9/9/9/x8 A1 !E5')).toThrow(/only to the empty board/);
    const s = play(['E5', 'A1', 'J9']);
    expect(nogo.encode(s)).toBe('8x/9/9/9/4x4/9/9/9/o8 J9');
    expect(nogo.decode(nogo.encode(s))).toEqual(s);
  });

  test.each([
    ['9/9/9/9/9/9/9/9 -', /9 rows/],
    ['9/9/9/9/9/9/9/9/8 -', /row 1 has 8 cells/],
    ['9/9/9/9/9/9/9/9/x8 -', /last move is missing/],
    ['9/9/9/9/9/9/9/9/xx7 A1', /stone counts/],
    ['9/9/9/9/9/9/9/9/xo7 A1', /not a stone of the side that just moved/],
    ['ox7/x8/9/9/9/9/9/9/9 B9', /no liberty/],
    ['9/9/9/9/9/9/9/9/9 I1', /expected/],
    ['9/9/9/9/9/9/9/9/09 -', /expected/],
  ])('decode rejects %j with one line', (text, why) => {
    expect(() => nogo.decode(text)).toThrow(why);
    expect(() => nogo.decode(text)).toThrow(/^nogo: cannot decode state [^\n]*$/);
  });
});

describe('nogo student Board', () => {
  test('legal actions depend on the colour; move and undo restore the fingerprint', () => {
    const board = nogo.studentBoard.create(play(['B1', 'A1'])) as Board;
    expect(board.getLegalActions('X')).not.toContain('A2');
    expect(board.getLegalActions('O')).toContain('A2');
    expect(board.isLegal('A2', 'X')).toBe(false);
    expect(board.lastMove).toBe('A1');
    const before = Board.fingerprint(board);
    expect(board.move('A2', 'X')).toBe(false);
    expect(Board.fingerprint(board)).toBe(before);
    expect(board.move([4, 4], 'X')).toBe(true);
    expect(board.get(4, 4)).toBe('X');
    expect(board.lastMove).toBe('E5');
    board.undo('E5');
    expect(board.lastMove).toBe('A1');
    expect(Board.fingerprint(board)).toBe(before);
    expect(board.getWinner('X')).toBeNull();
    expect(board.count('X')).toBe(1);
  });

  test('getters return copies; copies are independent', () => {
    const board = new Board(false);
    const before = Board.fingerprint(board);
    board.board[0][0] = 'X';
    expect(Board.fingerprint(board)).toBe(before);
    const copy = board.copy();
    copy.move('E5', 'X');
    expect(Board.fingerprint(board)).toBe(before);
    expect(Board.fingerprint(copy)).not.toBe(before);
    expect(() => board.getLegalActions('B' as 'X')).toThrow(/color must be/);
  });
});

describe('nogo rendering', () => {
  test('text has row 9 on top and files A..J without I underneath', () => {
    const lines = nogo.renderText(play(['E5', 'A1'])).split('\n');
    expect(lines[0]).toBe(' 9 . . . . . . . . .');
    expect(lines[4]).toBe(' 5 . . . . X . . . .');
    expect(lines[8]).toBe(' 1 O . . . . . . . .');
    expect(lines[9]).toBe('   A B C D E F G H J');
  });

  test('svg is self-contained and marks the last move', () => {
    const svg = nogo.renderSvg(play(['E5', 'A1']));
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
    expect(svg).not.toMatch(/href|<script|url\(/);
    expect(svg.match(/fill="#e11d48"/g)).toHaveLength(1);
    expect(nogo.renderSvg(play(['E5', 'A1']), { lastMove: 'E5' }).match(/fill="#e11d48"/g)).toHaveLength(1);
  });
});
