/**
 * Every game's board geometry (game.geometry) against its own picture and rules: each piece renderSvg draws sits on
 * the geometry's cell of that name, at its centre and radius; every legal move lands on an empty cell and has no
 * reason against it; every other cell's move is explained; a finished game names why it ended. The picture is read
 * here with an XML parser only to check that the two agree: nothing in the product reads SVG markup.
 */
import { describe, expect, test } from '@jest/globals';
import { XMLParser } from 'fast-xml-parser';
import type { AnyGame, BoardGeometry } from '../../harness/games/game.js';
import { gameIds, getGame } from '../../harness/games/registry.js';

const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' });

/** The pieces an SVG draws: data-square → { x, y, r, piece }. */
function drawnPieces(svg: string): Map<string, { x: number; y: number; r: number; piece: string }> {
  const root = parser.parse(svg) as { svg: { circle?: Record<string, string> | Record<string, string>[] } };
  const circles = root.svg.circle === undefined ? [] : Array.isArray(root.svg.circle) ? root.svg.circle : [root.svg.circle];
  const pieces = new Map<string, { x: number; y: number; r: number; piece: string }>();
  for (const c of circles) {
    if (c['data-disc'] !== undefined) pieces.set(c['data-square'], { x: Number(c.cx), y: Number(c.cy), r: Number(c.r), piece: c['data-disc'] });
  }
  return pieces;
}

function geometryOf(game: AnyGame): BoardGeometry {
  expect(game.geometry).toBeDefined();
  return game.geometry!;
}

/** A seeded random game's positions (up to `limit` plies). */
function positions(game: AnyGame, seed: number, limit = 400): unknown[] {
  let state = game.initial(seed);
  const list = [state];
  let x = seed * 7919 + 1;
  for (let ply = 0; ply < limit && !game.isTerminal(state); ply++) {
    const moves = game.legalMoves(state);
    x = (x * 1103515245 + 12345) % 2147483648;
    state = moves.length === 0 ? game.pass(state) : game.apply(state, moves[x % moves.length]);
    list.push(state);
  }
  return list;
}

describe.each(gameIds())('%s geometry', (id) => {
  const game = getGame(id);

  test('cells match the picture; legal moves land on empty cells; every other touch is explained', () => {
    const geometry = geometryOf(game);
    for (const seed of [1, 2]) {
      const all = positions(game, seed);
      for (const [index, state] of all.entries()) {
        if (index % 10 !== 0 && index !== all.length - 1) continue;
        for (const size of [320, 560]) {
          const cells = geometry.cells(state, size);
          const byName = new Map(cells.map((cell) => [cell.name, cell]));
          expect(byName.size).toBe(cells.length);
          const drawn = drawnPieces(game.renderSvg(state, { size }));
          for (const [name, piece] of drawn) {
            const cell = byName.get(name);
            expect(cell).toBeDefined();
            expect([cell!.x, cell!.y, cell!.r, cell!.piece]).toEqual([piece.x, piece.y, piece.r, piece.piece]);
          }
          expect(cells.filter((cell) => cell.piece !== null).length).toBe(drawn.size);
        }
        const cells = geometry.cells(state);
        const legal = new Set(game.legalMoves(state).map((move) => game.formatMove(move)));
        for (const move of legal) {
          expect(geometry.whyIllegal(state, move)).toBeNull();
          const landing = cells.find((cell) => cell.name === geometry.landing(state, move));
          expect(landing?.piece).toBeNull();
        }
        for (const cell of cells) {
          if (cell.move === null || legal.has(cell.move)) continue;
          expect(geometry.whyIllegal(state, cell.move)).toMatch(/\w/);
          expect(geometry.landing(state, cell.move)).toBeNull();
        }
      }
      const last = all[all.length - 1];
      if (game.isTerminal(last)) expect(geometry.ending(last).reason).toMatch(/\w/);
    }
  });

  test('cells are a full grid: rows and columns walk every cell once', () => {
    const cells = geometryOf(game).cells(game.initial(3));
    const seen = new Set(cells.map((cell) => `${cell.row},${cell.col}`));
    expect(seen.size).toBe(cells.length);
    const rows = Math.max(...cells.map((cell) => cell.row)) + 1;
    const cols = Math.max(...cells.map((cell) => cell.col)) + 1;
    expect(rows * cols).toBe(cells.length);
  });
});

/** The state after these moves (notation) from the start. */
function after(game: AnyGame, moves: string[], seed = 0): unknown {
  let state = game.initial(seed);
  for (const move of moves) state = game.apply(state, game.parseMove(move));
  return state;
}

describe('reasons in each game’s own terms', () => {
  test('NoGo: taken, the centre rule, capture, suicide (one stone, a group); the end', () => {
    const nogo = getGame('nogo');
    const g = geometryOf(nogo);
    expect(g.whyIllegal(nogo.initial(0), 'E5')).toBe("Black's first move may not be the centre (E5): the course's centre rule");
    expect(g.whyIllegal(nogo.initial(0, { centerFirstMoveBanned: false }), 'E5')).toBeNull();
    // Black B1, White A1: Black A2 would take A1's last liberty.
    const capture = after(nogo, ['B1', 'A1']);
    expect(g.whyIllegal(capture, 'A2')).toBe("A2 would capture White's stone on A1 (taking their last liberty): capturing is not allowed in NoGo");
    expect(g.whyIllegal(capture, 'B1')).toBe('B1 is taken: every stone stays where it is played');
    // Black on A2 and B1: a White stone on A1 would have no liberty.
    const suicide = after(nogo, ['A2', 'J9', 'B1', 'H9', 'C5']);
    expect(g.whyIllegal(suicide, 'A1')).toBe('A1 would have no liberty: suicide is not allowed in NoGo');
    // White A1 next to Black B1, B2, A3: White A2 would leave both White stones without a liberty.
    const ownGroup = after(nogo, ['B1', 'A1', 'B2', 'J9', 'A3']);
    expect(g.whyIllegal(ownGroup, 'A2')).toBe("A2 would leave White's stones on A1 and A2 without a liberty: suicide is not allowed in NoGo");
    // A finished game: the side to move has no legal move.
    const end = positions(nogo, 5).pop();
    expect(nogo.isTerminal(end)).toBe(true);
    expect(g.ending(end).reason).toMatch(/^(Black|White) has no legal move/);
  });

  test('Gomoku: taken; five in a row with the line', () => {
    const gomoku = getGame('gomoku');
    const g = geometryOf(gomoku);
    const won = after(gomoku, ['H8', 'A1', 'I8', 'A2', 'J8', 'A3', 'K8', 'A4', 'L8']);
    expect(gomoku.isTerminal(won)).toBe(true);
    expect(g.ending(won)).toEqual({ reason: 'Black made five in a row (H8–L8)', line: ['H8', 'I8', 'J8', 'K8', 'L8'], score: null });
    expect(g.whyIllegal(after(gomoku, ['H8']), 'H8')).toBe('H8 is taken: every stone stays where it is played');
  });

  test('Connect Four: a full column; four in a row', () => {
    const c4 = getGame('connect4');
    const g = geometryOf(c4);
    const full = after(c4, ['3', '3', '3', '3', '3', '3']);
    expect(g.whyIllegal(full, '3')).toBe('column 3 is full: drop the disc into another column');
    const won = after(c4, ['0', '6', '1', '6', '2', '6', '3']);
    expect(g.ending(won)).toEqual({ reason: 'Red made four in a row across columns 0–3', line: ['c0r0', 'c1r0', 'c2r0', 'c3r0'], score: null });
  });

  test('Reversi: taken, turns nothing over; the count', () => {
    const reversi = getGame('reversi');
    const g = geometryOf(reversi);
    const start = reversi.initial(0);
    expect(g.whyIllegal(start, 'D4')).toBe('D4 is taken: a disc is never moved, only turned over');
    expect(g.whyIllegal(start, 'A1')).toBe("A1 turns over no disc: a move must close a line of White's discs between it and one of Black's");
    // The shortest game: Black wipes White out (F5 D6 C5 F4 E7 F6 G5 E6 E3).
    const wiped = after(reversi, ['F5', 'D6', 'C5', 'F4', 'E7', 'F6', 'G5', 'E6', 'E3']);
    expect(reversi.isTerminal(wiped)).toBe(true);
    expect(g.ending(wiped)).toEqual({ reason: 'neither side can move: Black has more discs', line: [], score: '13–0' });
  });
});
