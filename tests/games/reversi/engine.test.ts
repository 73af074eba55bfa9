import { reversi, Board, type ReversiState } from '../../../harness/games/reversi/index.js';
import { perft, START } from '../../../harness/games/reversi/core.js';
import { BoardPy, testRng } from './boardpy.js';

/** Builds a state from 8 rows of '.', 'X', 'O' (row 1 first) and the side to move. */
function position(rows: string[], toMove: 'X' | 'O'): ReversiState {
  return reversi.decode(`${rows.join('')} ${toMove}`);
}

describe('perft from the start position (Aart Bik\'s table, passes take a ply)', () => {
  const expected = [4, 12, 56, 244, 1396, 8200, 55092, 390216, 3005288];
  test.each(expected.map((n, i) => [i + 1, n]))('perft(%i) = %i', (depth, n) => {
    expect(perft(START.bh, START.bl, START.wh, START.wl, depth)).toBe(n);
    expect(reversi.perft!(reversi.initial(), depth)).toBe(n);
  });

  test('perft through the Game interface agrees with the core at depth 5', () => {
    const walk = (s: ReversiState, depth: number): number => {
      if (depth === 0) return 1;
      if (reversi.isTerminal(s)) return 1;
      const moves = reversi.legalMoves(s);
      if (moves.length === 0) return walk(reversi.pass(s), depth - 1);
      return moves.reduce((n, m) => n + walk(reversi.apply(s, m), depth - 1), 0);
    };
    expect(walk(reversi.initial(), 5)).toBe(1396);
  });
});

describe('rules agree with board.py on seeded random games', () => {
  test('legal moves (in board.py order), flipped squares and the winner, 300 games', () => {
    for (let g = 0; g < 300; g++) {
      const rnd = testRng(g + 1);
      const py = new BoardPy();
      const board = new Board();
      let s = reversi.initial();
      let color: 'X' | 'O' = 'X';
      while (!reversi.isTerminal(s)) {
        const expected = py.get_legal_actions(color);
        expect(board.getLegalActions(color)).toEqual(expected);
        expect(reversi.legalMoves(s).map(reversi.formatMove)).toEqual(expected);
        if (expected.length > 0) {
          const pick = expected[Math.floor(rnd() * expected.length)];
          const flippedPy = py._move(pick, color);
          expect(board._move(pick, color)).toEqual(flippedPy);
          s = reversi.apply(s, reversi.parseMove(pick)!);
        } else {
          s = reversi.pass(s);
        }
        color = color === 'X' ? 'O' : 'X';
        expect(reversi.encode(s).slice(0, 64)).toBe(py._board.flat().join(''));
      }
      const [winner, diff] = py.get_winner();
      expect(board.getWinner()).toEqual([winner, diff]);
      const out = reversi.outcome(s);
      expect(out.winner).toBe(winner === 2 ? null : winner);
      expect(out.diff).toBe(diff);
    }
  });
});

describe('the student Board\'s answers are board.py\'s, and fresh', () => {
  test('canFlipped on every empty square, both colours, in board.py\'s order (30 seeded games)', () => {
    // Compared as text and gathered, one expect at the end: a toEqual per square cost ~80 s under load.
    const differences: string[] = [];
    let compared = 0;
    for (let g = 0; g < 30; g++) {
      const rnd = testRng(1000 + g);
      const py = new BoardPy();
      const board = new Board();
      let color: 'X' | 'O' = 'X';
      for (let passes = 0; passes < 2;) {
        for (let sq = 0; sq < 64; sq++) {
          const row = sq >> 3;
          const col = sq & 7;
          if (py._board[row][col] !== '.') continue;
          for (const who of ['X', 'O'] as const) {
            const ours = JSON.stringify(board.canFlipped([row, col], who));
            const theirs = JSON.stringify(py._can_fliped([row, col], who));
            compared++;
            if (ours !== theirs) differences.push(`game ${g}, ${who} at [${row}, ${col}]: ${ours}, board.py ${theirs}`);
          }
        }
        const legal = py.get_legal_actions(color);
        if (legal.length === 0) passes++;
        else {
          passes = 0;
          const pick = legal[Math.floor(rnd() * legal.length)];
          py._move(pick, color);
          board._move(pick, color);
        }
        color = color === 'X' ? 'O' : 'X';
      }
    }
    expect(differences.slice(0, 5)).toEqual([]);
    expect(compared).toBeGreaterThan(30 * 1000);
  });

  test('a student who edits a returned list changes neither the board nor the next answer', () => {
    const board = new Board();
    const legal = board.getLegalActions('X');
    legal.length = 0;
    legal.push('A1');
    expect(board.getLegalActions('X')).toEqual(['D3', 'C4', 'F5', 'E6']);
    const flipped = board.move('D3', 'X') as string[];
    flipped[0] = 'H8';
    expect(board.get(3, 3)).toBe('X');
    const again = board.copy();
    expect(again.move('C3', 'O')).toEqual(['D4']);
    expect(board.move('C3', 'O')).toEqual(['D4']);
  });
});

describe('the start position', () => {
  test("Black moves first and has D3, C4, F5, E6 in board.py's order", () => {
    const s = reversi.initial();
    expect(reversi.toMove(s)).toBe(0);
    expect(reversi.legalMoves(s).map(reversi.formatMove)).toEqual(['D3', 'C4', 'F5', 'E6']);
    expect(new Board().getLegalActions('X')).toEqual(['D3', 'C4', 'F5', 'E6']);
  });

  test('D4 = O, E4 = X, D5 = X, E5 = O', () => {
    const b = new Board();
    expect([b.get(3, 3), b.get(3, 4), b.get(4, 3), b.get(4, 4)]).toEqual(['O', 'X', 'X', 'O']);
    expect(b.count('X')).toBe(2);
    expect(b.count('O')).toBe(2);
  });
});

describe('passes and endings', () => {
  test('a real pass: White stuck, Black to continue', () => {
    const s = position([
      'XXXXXXXX',
      'XXXXXXXX',
      'XXXXXXXX',
      'XXXXXXXX',
      'XXXXXXXO',
      'XXXXXX..',
      'XXXXXXX.',
      'XXXXXXX.',
    ], 'O');
    expect(reversi.legalMoves(s)).toEqual([]);
    expect(reversi.isTerminal(s)).toBe(false);
    const b = reversi.pass(s);
    expect(reversi.legalMoves(b).map(reversi.formatMove)).toEqual(['H6']);
  });

  test('a game can end with empty squares (neither side can move)', () => {
    // A1 is empty, but every line from it runs through X to the edge, and the lone O on B3 is not in line.
    const s = position([
      '.XXXXXXX',
      'XXXXXXXX',
      'XOXXXXXX',
      'XXXXXXXX',
      'XXXXXXXX',
      'XXXXXXXX',
      'XXXXXXXX',
      'XXXXXXXX',
    ], 'X');
    expect(reversi.legalMoves(s)).toEqual([]);
    expect(reversi.isTerminal(s)).toBe(true);
    expect(reversi.outcome(s)).toEqual({ winner: 0, score: [62, 1], diff: 61 });
  });

  test('a full board ends the game, a draw scores 32-32 with diff 0', () => {
    const s = position(Array(4).fill('XXXXXXXX').concat(Array(4).fill('OOOOOOOO')), 'X');
    expect(reversi.isTerminal(s)).toBe(true);
    expect(reversi.outcome(s)).toEqual({ winner: null, score: [32, 32], diff: 0 });
  });

  test('a wipe-out ends the game at once', () => {
    // Black plays C4... shortest known wipe-out is 9 plies; here a direct position: White takes the last disc.
    let s = position([
      '........',
      '........',
      '........',
      '...OX...',
      '........',
      '........',
      '........',
      '........',
    ], 'O');
    s = reversi.apply(s, reversi.parseMove('F4')!);
    expect(reversi.encode(s)).toBe(`${'.'.repeat(27)}OOO${'.'.repeat(34)} X`);
    expect(reversi.isTerminal(s)).toBe(true);
    expect(reversi.outcome(s)).toEqual({ winner: 1, score: [0, 3], diff: 3 });
  });
});

describe('notation, encoding and the Game contract', () => {
  test('parseMove is strict like game.py (D3 yes, d3 / D9 / 3D / junk no)', () => {
    expect(reversi.parseMove('D3')).toBe(19);
    for (const bad of ['d3', 'D9', 'I1', '3D', 'D', 'D33', ' D3', '']) expect(reversi.parseMove(bad)).toBeNull();
    expect(reversi.parseMove(42 as unknown as string)).toBeNull();
  });

  test('encode/decode round-trip and reject garbage with a one-line message', () => {
    const rnd = testRng(7);
    let s = reversi.initial();
    for (let i = 0; i < 30 && !reversi.isTerminal(s); i++) {
      const moves = reversi.legalMoves(s);
      s = moves.length ? reversi.apply(s, moves[Math.floor(rnd() * moves.length)]) : reversi.pass(s);
      expect(reversi.decode(reversi.encode(s))).toEqual(s);
    }
    for (const bad of ['', 'X', `${'.'.repeat(64)} Z`, `${'.'.repeat(63)} X`, `${'.'.repeat(63)}Q X`]) {
      expect(() => reversi.decode(bad)).toThrow(/64 cells/);
    }
  });

  test('apply refuses an occupied square or a move that flips nothing', () => {
    const s = reversi.initial();
    expect(() => reversi.apply(s, reversi.parseMove('D4')!)).toThrow(/not an empty square/);
    expect(() => reversi.apply(s, reversi.parseMove('A1')!)).toThrow(/flips nothing/);
  });

  test('moveDetails counts flips; renderText and renderSvg show the discs', () => {
    const s = reversi.initial();
    expect(reversi.moveDetails!(s, reversi.parseMove('D3')!)).toEqual({ flipped: 1 });
    expect(reversi.renderText(s).split('\n')[4]).toBe('4 . . . O X . . .');
    const svg = reversi.renderSvg(s, { lastMove: 'D3' });
    expect(svg.match(/data-disc=/g)).toHaveLength(4);
    expect(svg).toContain('class="last-move"');
  });
});
