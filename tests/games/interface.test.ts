/**
 * The Game contract, checked the same way for every game in this area: random play where every position must
 * survive encode/decode exactly, every legal move must survive format/parse, and the student Board must agree
 * with the Game object and keep its fingerprint through move + undo.
 */
import { describe, expect, test } from '@jest/globals';
import type { AnyGame } from '../../harness/games/game.js';
import { connect4, connect4Nogo } from '../../harness/games/connect4/index.js';
import { gomoku, gomokuExact5 } from '../../harness/games/gomoku/index.js';
import { nogo } from '../../harness/games/nogo/index.js';

interface StudentBoard {
  getLegalActions(color: string): string[];
  move(action: string, color: string): unknown;
  undo(action: string): void;
}

const games: AnyGame[] = [connect4, connect4Nogo, gomoku, gomokuExact5, nogo];

describe.each(games.map((g) => [g.id, g] as const))('%s follows the Game contract', (_id, game) => {
  test('random games: codec, notation, student board and outcome agree at every ply', () => {
    for (const seed of [1, 2]) {
      let s = game.initial(seed);
      let x = seed;
      let plies = 0;
      while (!game.isTerminal(s)) {
        const text = game.encode(s);
        expect(game.decode(text)).toEqual(s);
        const moves = game.legalMoves(s);
        expect(moves.length).toBeGreaterThan(0);
        for (const m of moves) expect(game.parseMove(game.formatMove(m))).toBe(m);

        const color = game.symbols[game.toMove(s)];
        const board = game.studentBoard.create(s) as StudentBoard;
        const print = game.studentBoard.fingerprint(board);
        expect(board.getLegalActions(color)).toEqual(moves.map((m) => game.formatMove(m)));
        const probe = game.formatMove(moves[0]);
        expect(board.move(probe, color)).not.toBe(false);
        expect(game.studentBoard.fingerprint(board)).not.toBe(print);
        board.undo(probe);
        expect(game.studentBoard.fingerprint(board)).toBe(print);

        x = (Math.imul(x, 1103515245) + 12345) >>> 0;
        const move = moves[(x >>> 16) % moves.length];
        s = game.apply(s, move);
        plies++;
      }
      expect(game.legalMoves(s)).toEqual([]);
      expect(game.decode(game.encode(s))).toEqual(s);
      const outcome = game.outcome(s);
      if (outcome.winner === null) expect(outcome).toEqual({ winner: null, score: [0, 0], diff: 0 });
      else expect(outcome.score[outcome.winner]).toBe(1);
      expect(plies).toBeGreaterThan(6);
      expect(game.renderSvg(s, { size: 200 })).toMatch(/^<svg [^]*<\/svg>$/);
      expect(game.renderText(s).length).toBeGreaterThan(0);
    }
  });

  test('apply never changes the state it was given', () => {
    const s = game.initial(3);
    const before = game.encode(s);
    game.apply(s, game.legalMoves(s)[0]);
    expect(game.encode(s)).toBe(before);
  });

  test('ids, symbols and side names are set', () => {
    expect(game.symbols).toEqual(['X', 'O']);
    expect(game.sideNames).toHaveLength(2);
    expect(game.title.length).toBeGreaterThan(0);
  });
});
