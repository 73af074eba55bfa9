import { describe, expect, test } from '@jest/globals';
import { Board, gomoku, gomokuExact5, type GomokuState } from '../../harness/games/gomoku/index.js';

type G = typeof gomoku;

/** Plays Black's and White's cells alternately (Black first) from the empty board. */
function playPairs(game: G, black: string[], white: string[]): GomokuState {
  let s = game.initial();
  for (let i = 0; i < black.length; i++) {
    s = game.apply(s, game.parseMove(black[i])!);
    if (i < white.length) s = game.apply(s, game.parseMove(white[i])!);
  }
  return s;
}

/** White's filler stones far from the action, none forming a line with another. */
const FILLER = ['A15', 'C15', 'E15', 'G15', 'I15', 'K15', 'M15', 'O15'];

describe('gomoku five in a row', () => {
  test.each([
    ['horizontal on row 1 from the left edge', ['A1', 'B1', 'C1', 'D1', 'E1']],
    ['horizontal on row 15 to the right edge', ['K14', 'L14', 'M14', 'N14', 'O14']],
    ['vertical on file O from row 1', ['O1', 'O2', 'O3', 'O4', 'O5']],
    ['vertical on file A to row 14', ['A10', 'A11', 'A12', 'A13', 'A14']],
    ['diagonal up-right from A1', ['A1', 'B2', 'C3', 'D4', 'E5']],
    ['diagonal up-left from O1', ['O1', 'N2', 'M3', 'L4', 'K5']],
    ['diagonal completed in the middle', ['F6', 'G7', 'J10', 'I9', 'H8']],
  ])('%s wins for Black on the fifth stone, in both variants', (_name, black) => {
    for (const game of [gomoku, gomokuExact5]) {
      const before = playPairs(game, black.slice(0, 4), FILLER.slice(0, 4));
      expect(game.isTerminal(before)).toBe(false);
      const after = game.apply(before, game.parseMove(black[4])!);
      expect(game.isTerminal(after)).toBe(true);
      expect(game.legalMoves(after)).toEqual([]);
      expect(game.outcome(after)).toEqual({ winner: 0, score: [1, 0], diff: 1 });
    }
  });

  test('White wins too, and four is not enough', () => {
    const s = playPairs(gomoku, ['A1', 'C1', 'E1', 'G1', 'I1'], ['H8', 'H9', 'H10', 'H11']);
    expect(gomoku.isTerminal(s)).toBe(false);
    const won = gomoku.apply(s, gomoku.parseMove('H12')!);
    expect(gomoku.outcome(won).winner).toBe(1);
  });
});

describe('gomoku overlines', () => {
  // Black: A1 B1 C1 _ E1 F1 then D1 joins them into six.
  const sixBefore = (game: G) => playPairs(game, ['A1', 'B1', 'C1', 'E1', 'F1'], FILLER.slice(0, 5));

  test('freestyle: six in a row wins', () => {
    const after = gomoku.apply(sixBefore(gomoku), gomoku.parseMove('D1')!);
    expect(gomoku.outcome(after).winner).toBe(0);
  });

  test('exact five: six in a row does not win and the game goes on', () => {
    const after = gomokuExact5.apply(sixBefore(gomokuExact5), gomokuExact5.parseMove('D1')!);
    expect(gomokuExact5.isTerminal(after)).toBe(false);
    expect(after.winner).toBeNull();
    expect(gomokuExact5.legalMoves(after)).toHaveLength(225 - 11);
  });

  test('exact five: an overline one way and an exact five another way wins', () => {
    // D1 makes six on row 1 and five on file D (D2..D5 already Black).
    const s = playPairs(gomokuExact5, ['A1', 'B1', 'C1', 'E1', 'F1', 'D2', 'D3', 'D4', 'D5'], [...FILLER, 'A13']);
    expect(gomokuExact5.isTerminal(s)).toBe(false);
    const after = gomokuExact5.apply(s, gomokuExact5.parseMove('D1')!);
    expect(gomokuExact5.outcome(after).winner).toBe(0);
  });

  test('exact five: a five next to an own stone across a gap still wins', () => {
    // A1..E1 with G1 Black: the run is exactly five (F1 empty).
    const s = playPairs(gomokuExact5, ['A1', 'B1', 'C1', 'D1', 'G1'], FILLER.slice(0, 5));
    const after = gomokuExact5.apply(s, gomokuExact5.parseMove('E1')!);
    expect(gomokuExact5.outcome(after).winner).toBe(0);
  });

  test('the codec accepts an overline position for exact five but not for freestyle', () => {
    const after = gomokuExact5.apply(sixBefore(gomokuExact5), gomokuExact5.parseMove('D1')!);
    const text = gomokuExact5.encode(after);
    expect(gomokuExact5.decode(text)).toEqual(after);
    // Freestyle reads the same text as a game Black just won with D1; once White has answered, it is impossible.
    expect(gomoku.decode(text).winner).toBe(0);
    const white = gomokuExact5.apply(after, gomokuExact5.parseMove('H8')!);
    expect(gomokuExact5.decode(gomokuExact5.encode(white)).over).toBe(false);
    expect(() => gomoku.decode(gomokuExact5.encode(white))).toThrow(/game ended before/);
  });
});

describe('gomoku full board, notation and codec', () => {
  /** Black where (col + 2 * row) mod 4 < 2: runs of two at most in all four directions; 113 Black, 112 White. */
  function fullBoardText(lastMove: string): string {
    const rows: string[] = [];
    for (let row = 14; row >= 0; row--) {
      let line = '';
      for (let col = 0; col < 15; col++) line += (col + 2 * row) % 4 < 2 ? 'x' : 'o';
      rows.push(line);
    }
    return `${rows.join('/')} ${lastMove}`;
  }

  test('a full board without five is a draw', () => {
    for (const game of [gomoku, gomokuExact5]) {
      const full = game.decode(fullBoardText('A1'));
      expect(full.stones).toBe(225);
      expect(game.isTerminal(full)).toBe(true);
      expect(game.legalMoves(full)).toEqual([]);
      expect(game.outcome(full)).toEqual({ winner: null, score: [0, 0], diff: 0 });
      expect((game.studentBoard.create(full) as Board).getWinner()).toEqual([2, 0]);
    }
  });

  test('moves are A1..O15, file A..O without skipping I, row 1 at the bottom; strict parsing', () => {
    expect(gomoku.parseMove('A1')).toBe(0);
    expect(gomoku.parseMove('O1')).toBe(14);
    expect(gomoku.parseMove('A2')).toBe(15);
    expect(gomoku.parseMove('H8')).toBe(112);
    expect(gomoku.parseMove('I9')).toBe(8 * 15 + 8);
    expect(gomoku.parseMove('O15')).toBe(224);
    for (const bad of ['h8', 'H08', 'H0', 'H16', 'P1', ' H8', 'H8 ', '', 'HH']) expect(gomoku.parseMove(bad)).toBeNull();
    for (let cell = 0; cell < 225; cell++) expect(gomoku.parseMove(gomoku.formatMove(cell))).toBe(cell);
    const moves = gomoku.legalMoves(gomoku.initial());
    expect(moves).toHaveLength(225);
    expect(moves.slice(0, 3)).toEqual([0, 1, 2]);
  });

  test('encode is compact and round-trips', () => {
    expect(gomoku.encode(gomoku.initial())).toBe(Array(15).fill('15').join('/') + ' -');
    const s = playPairs(gomoku, ['H8', 'J9'], ['H9']);
    expect(gomoku.encode(s)).toBe('15/15/15/15/15/15/7o1x5/7x7/15/15/15/15/15/15/15 J9');
    expect(gomoku.decode(gomoku.encode(s))).toEqual(s);
    expect(gomoku.toMove(s)).toBe(1);
  });

  test.each([
    ['', /expected/],
    ['15/15 -', /15 rows/],
    [Array(15).fill('15').join('/') + ' A16', /expected|not a cell/],
    [['x14', ...Array(14).fill('15')].join('/') + ' -', /last move is missing/],
    [['xx13', ...Array(14).fill('15')].join('/') + ' A15', /stone counts/],
    [['x14', ...Array(14).fill('15')].join('/') + ' B15', /not a stone of the side that just moved/],
    [['x13', ...Array(14).fill('15')].join('/') + ' A15', /row 15 has 14 cells/],
    [['xxxxx10', 'o1o1o1o1o6', ...Array(12).fill('15'), '14x'].join('/') + ' O1', /game ended before/],
  ])('decode rejects %j with one line', (text, why) => {
    expect(() => gomoku.decode(text)).toThrow(why);
    expect(() => gomoku.decode(text)).toThrow(/^gomoku: cannot decode state [^\n]*$/);
  });
});

describe('gomoku student Board', () => {
  test('legal actions, move/undo, last move and winner', () => {
    const board = new Board();
    expect(board.getLegalActions('X')).toHaveLength(225);
    expect(board.getLegalActions('X')[0]).toBe('A1');
    const before = Board.fingerprint(board);
    expect(board.move('H8', 'X')).toBe(true);
    expect(board.move('H8', 'O')).toBe(false);
    expect(board.move([7, 8], 'O')).toBe(true);
    expect(board.get(7, 8)).toBe('O');
    expect(board.lastMove).toBe('I8');
    board.undo([7, 8]);
    expect(board.lastMove).toBe('H8');
    board.undo('H8');
    expect(Board.fingerprint(board)).toBe(before);
    expect(board.lastMove).toBeNull();
    for (const [b, w] of [['A1', 'A2'], ['B1', 'B2'], ['C1', 'C2'], ['D1', 'D2']]) {
      board.move(b, 'X');
      board.move(w, 'O');
    }
    expect(board.getWinner()).toBeNull();
    board.move('E1', 'X');
    expect(board.getWinner()).toEqual([0, 1]);
    expect(board.getLegalActions()).toEqual([]);
    expect(() => board.move('F1', 'Z' as 'X')).toThrow(/color must be/);
    expect(() => board.undo('O15')).toThrow(/no stone there/);
  });

  test('the exact-five board follows its variant', () => {
    const s = playPairs(gomokuExact5, ['A1', 'B1', 'C1', 'E1', 'F1'], FILLER.slice(0, 5));
    const board = gomokuExact5.studentBoard.create(s) as Board;
    expect(board.exactFive).toBe(true);
    board.move('D1', 'X');
    expect(board.getWinner()).toBeNull();
    const free = gomoku.studentBoard.create(s) as Board;
    free.move('D1', 'X');
    expect(free.getWinner()).toEqual([0, 1]);
  });

  test('getters return copies; the fingerprint sees only real changes', () => {
    const s = playPairs(gomoku, ['H8'], []);
    const board = gomoku.studentBoard.create(s) as Board;
    const before = gomoku.studentBoard.fingerprint(board);
    board.board[0][0] = 'X';
    expect(gomoku.studentBoard.fingerprint(board)).toBe(before);
    const copy = board.copy();
    copy.move('A1', 'O');
    expect(gomoku.studentBoard.fingerprint(board)).toBe(before);
    expect(gomoku.studentBoard.fingerprint(copy)).not.toBe(before);
    expect(gomoku.studentBoard.fingerprint('H8')).toBe('not-a-board');
  });
});

describe('gomoku rendering', () => {
  test('text has row 15 on top and files A..O underneath', () => {
    const lines = gomoku.renderText(playPairs(gomoku, ['H8'], ['A1'])).split('\n');
    expect(lines[0]).toBe('15 . . . . . . . . . . . . . . .');
    expect(lines[7]).toBe(' 8 . . . . . . . X . . . . . . .');
    expect(lines[14]).toBe(' 1 O . . . . . . . . . . . . . .');
    expect(lines[15]).toBe('   A B C D E F G H I J K L M N O');
  });

  test('svg is self-contained and marks the last move', () => {
    const s = playPairs(gomoku, ['H8'], ['A1']);
    const svg = gomoku.renderSvg(s);
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
    expect(svg).not.toMatch(/href|<script|url\(/);
    expect(svg.match(/fill="#e11d48"/g)).toHaveLength(1);
    expect(gomoku.renderSvg(gomoku.initial())).not.toContain('#e11d48');
  });
});
