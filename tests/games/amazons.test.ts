/**
 * Amazons: perft from both starts against a deliberately naive generator written here (a 2D grid of characters,
 * every (queen, destination, arrow) triple tried, a ray walked square by square — no code shared with the game),
 * rule edge cases, the codec, and the three-touch geometry the web board reads.
 */
import { describe, expect, test } from '@jest/globals';
import { amazons, Board, type AmazonsState } from '../../harness/games/amazons/index.js';

type Grid = string[][];
const gridOf = (s: AmazonsState): Grid => amazons.renderText(s).split('\n').slice(1).map((line) => line.slice(3).split(' '));

/** Whether a queen-like line from (r0, c0) to (r1, c1) crosses only '.' and ends on '.'. */
function clear(grid: Grid, r0: number, c0: number, r1: number, c1: number): boolean {
  const dr = r1 - r0;
  const dc = c1 - c0;
  if ((dr === 0 && dc === 0) || (dr !== 0 && dc !== 0 && Math.abs(dr) !== Math.abs(dc))) return false;
  const steps = Math.max(Math.abs(dr), Math.abs(dc));
  for (let i = 1; i <= steps; i++) if (grid[r0 + (Math.sign(dr) * i)][c0 + (Math.sign(dc) * i)] !== '.') return false;
  return true;
}

/** Every legal move of `symbol` as 'A1-B2/C3', by brute force over all triples, in (queen, to, arrow) row-major order. */
function naiveMoves(grid: Grid, symbol: string): string[] {
  const n = grid.length;
  const name = (r: number, c: number): string => `${'ABCDEFGHIJ'[c]}${r + 1}`;
  const moves: string[] = [];
  for (let q = 0; q < n * n; q++) {
    const [qr, qc] = [Math.floor(q / n), q % n];
    if (grid[qr][qc] !== symbol) continue;
    for (let t = 0; t < n * n; t++) {
      const [tr, tc] = [Math.floor(t / n), t % n];
      if (!clear(grid, qr, qc, tr, tc)) continue;
      grid[qr][qc] = '.';
      grid[tr][tc] = symbol;
      for (let a = 0; a < n * n; a++) {
        const [ar, ac] = [Math.floor(a / n), a % n];
        if (clear(grid, tr, tc, ar, ac)) moves.push(`${name(qr, qc)}-${name(tr, tc)}/${name(ar, ac)}`);
      }
      grid[tr][tc] = '.';
      grid[qr][qc] = symbol;
    }
  }
  return moves;
}

const play = (moves: string[], start = amazons.initial()): AmazonsState => moves.reduce((s, m) => amazons.apply(s, amazons.parseMove(m)!), start);
const legalNames = (s: AmazonsState): string[] => amazons.legalMoves(s).map(amazons.formatMove);

describe('perft', () => {
  // Botzone's 8x8: 1232, 1331198 (the game's fast counter and the naive generator agree); 1358441750 at depth 3
  // (the fast counter alone, ~75 s: not run here). Standard 10x10: 2176 and 4307152, the published figures.
  test('8x8 (Botzone) start: depth 1 and 2 from the fast counter equal the naive generator', () => {
    const start = amazons.initial();
    const moves = naiveMoves(gridOf(start), 'X');
    expect(moves.length).toBe(1232);
    expect(legalNames(start)).toEqual(moves);
    expect(amazons.perft!(start, 1)).toBe(1232);
    // The naive count below each of 1 move in 16 equals the fast one (the full naive sum, 1331198, takes ~30 s).
    for (let i = 0; i < moves.length; i += 16) {
      const child = play([moves[i]], start);
      expect(amazons.perft!(child, 1)).toBe(naiveMoves(gridOf(child), 'O').length);
    }
    expect(amazons.perft!(start, 2)).toBe(1331198);
  });

  test('10x10 (the board10 rule): 2176 and 4307152', () => {
    const start = amazons.initial(0, { board10: true });
    expect(naiveMoves(gridOf(start), 'X').length).toBe(2176);
    expect(amazons.perft!(start, 1)).toBe(2176);
    expect(amazons.perft!(start, 2)).toBe(4307152);
  });

  test('a random midgame: the move list equals the naive one, in order, for 40 plies', () => {
    let s = amazons.initial();
    let seed = 7;
    for (let ply = 0; ply < 40 && !amazons.isTerminal(s); ply++) {
      const moves = legalNames(s);
      expect(moves).toEqual(naiveMoves(gridOf(s), amazons.symbols[s.side]));
      seed = (seed * 1103515245 + 12345) % 2147483648;
      s = amazons.apply(s, amazons.parseMove(moves[seed % moves.length])!);
      expect(amazons.decode(amazons.encode(s))).toEqual(s);
    }
  });
});

describe('rules', () => {
  test('Botzone start: Black (X, first) on A3 C1 F1 H3, White on A6 C8 F8 H6', () => {
    const s = amazons.initial();
    expect(amazons.encode(s)).toBe('2x2x2/8/x6x/8/8/o6o/8/2o2o2 -');
    expect(amazons.toMove(s)).toBe(0);
  });

  test('a queen cannot pass over a queen or an arrow; the arrow may land on the square the queen left', () => {
    const s = play(['C1-C2/C1']); // the arrow back onto the vacated square
    expect(amazons.encode(s)).toBe('2#2x2/2x5/x6x/8/8/o6o/8/2o2o2 C1-C2/C1');
    expect(legalNames(s)).not.toContain('C8-C1/C2'); // blocked by the queen on C2 (and C1 holds an arrow)
    expect(amazons.geometry!.whyIllegal(play(['C1-C2/C1', 'A6-A5/A4']), 'C2-C1/D1')).toMatch(/C1 is not empty/);
    expect(amazons.geometry!.whyIllegal(s, 'C8-C1/C3')).toMatch(/C1 is not empty/);
    expect(amazons.geometry!.whyIllegal(s, 'A6-A2/B2')).toMatch(/the way from A6 to A2 is blocked/); // over Black's A3
    expect(amazons.geometry!.whyIllegal(s, 'C8-C3/C1')).toMatch(/C1 is not empty/); // the arrow stays
    expect(amazons.geometry!.whyIllegal(s, 'C8-C3/C4')).toBeNull();
  });

  test('the side that cannot move loses: White\'s queens walled in, White to move', () => {
    const s = amazons.decode('#o#o#o#o/########/8/8/#7/8/x7/x1x1x3 A6-A7/A5');
    expect(amazons.toMove(s)).toBe(1);
    expect(legalNames(s)).toEqual([]);
    expect(amazons.isTerminal(s)).toBe(true);
    expect(amazons.outcome(s)).toEqual({ winner: 0, score: [1, 0], diff: 1 });
    expect(amazons.geometry!.ending(s).reason).toMatch(/White cannot move/);
    expect(amazons.perft!(s, 2)).toBe(0);
    expect(Board.fromState(s).getWinner('O')).toEqual([0, 1]);
    expect(Board.fromState(s).getWinner('X')).toBeNull();
  });

  test('hostile states are refused with one line', () => {
    for (const text of ['', '8/8 -', '2x2x2/8/x6x/8/8/o6o/8/2o2o2', '2x2x2/8/x6x/8/8/o6o/8/2o2o3 -', '2x2x2/8/x6x/8/8/o6o/8/2o2o2 -  ', '2x2x2/8/x6x/8/8/o6o/8/2o2o2o -', '2x2x2/8/x6x/8/8/o6o/8/2o2o2 C1-C2/C1', '02x2x2/8/x6x/8/8/o6o/8/2o2o2 -']) {
      expect(() => amazons.decode(text)).toThrow(/^amazons: cannot read the state/);
    }
    expect(amazons.parseMove('c1-c2/c1')).toBeNull();
    expect(amazons.parseMove('C1C2C1')).toBeNull();
    expect(() => amazons.apply(amazons.initial(), amazons.parseMove('C1-C8/C7')!)).toThrow(/not a legal move/);
    expect(amazons.geometry!.whyIllegal(amazons.initial(), 'I1-I2/I3')).toMatch(/not a square of the 8x8 board/);
  });
});

test('geometry: a move is three touches (queen, destination, arrow)', () => {
  const g = amazons.geometry!;
  const s = amazons.initial();
  expect(g.touches!(s, []).next).toEqual(['C1', 'F1', 'A3', 'H3']);
  expect(g.touches!(s, ['A6']).why).toMatch(/White's/);
  expect(g.touches!(s, ['C1']).next).toContain('C7');
  expect(g.touches!(s, ['C1', 'C2']).next).toContain('C1');
  expect(g.touches!(s, ['C1', 'C2', 'C1'])).toEqual({ next: [], move: 'C1-C2/C1', why: null });
  expect(g.touches!(s, ['C1', 'D3']).why).toMatch(/straight line/);
  expect(g.landing(s, 'C1-C2/C1')).toBe('C2');
  expect(g.cells(s).filter((cell) => cell.piece).length).toBe(8);
});

test('the student Board plays, undoes and copies; Botzone\'s six numbers name the same move', () => {
  const board = new Board();
  expect(board.getLegalActions('X')).toEqual(legalNames(amazons.initial()));
  expect(board.isLegal([2, 0, 2, 1, 2, 0], 'X')).toBe(true); // (x0,y0)=(2,0) is C1
  expect(board.move('C1-C2/C1', 'X')).toBe(true);
  expect(board.get(0, 2)).toBe('#');
  expect(board.move('C1-C2/C1', 'X')).toBe(false);
  const copy = board.copy();
  board.undo('C1-C2/C1');
  expect(board.get(0, 2)).toBe('X');
  expect(copy.get(1, 2)).toBe('X');
  expect(board.getWinner('X')).toBeNull();
});
