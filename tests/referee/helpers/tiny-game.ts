/**
 * A tiny deterministic game for referee tests. A row of cells; each empty cell says who may take it:
 * 'x' only the first side, 'o' only the second, '*' either, '#' nobody. Taken cells become 'X' / 'O'.
 * A side with no cell to take passes; the game ends when neither side can move; more cells wins.
 * Moves are cell indices, noted 'A', 'B', … (uppercase only, so 'a' is not notation).
 * With no fixed layout, initial(seed) draws one from the seed (blocked cells vary with it).
 */
import type { Game, Outcome, Side } from '../../../harness/games/game.js';
import { createRng } from '../../../harness/referee/seed.js';

export interface TinyState {
  readonly cells: string;
  readonly side: Side;
}

const mayTake = (cell: string, side: Side): boolean => cell === '*' || cell === (side === 0 ? 'x' : 'o');

function seededLayout(seed: number): string {
  const rng = createRng(seed);
  let cells = '';
  for (let i = 0; i < 8; i++) cells += '**xo#'[rng.int(5)];
  return cells;
}

export function makeTinyGame(layout?: string, id = 'tiny'): Game<TinyState, number> {
  const legalMoves = (s: TinyState): number[] => {
    const moves: number[] = [];
    for (let i = 0; i < s.cells.length; i++) if (mayTake(s.cells[i], s.side)) moves.push(i);
    return moves;
  };
  const count = (s: TinyState, mark: string): number => s.cells.split('').filter((c) => c === mark).length;
  const game: Game<TinyState, number> = {
    id,
    title: 'Tiny',
    symbols: ['X', 'O'],
    sideNames: ['Black', 'White'],
    initial: (seed = 0) => ({ cells: layout ?? seededLayout(seed), side: 0 }),
    toMove: (s) => s.side,
    legalMoves,
    apply(s, move) {
      if (!mayTake(s.cells[move] ?? '', s.side)) throw new Error(`tiny: illegal move ${move}`);
      const cells = s.cells.slice(0, move) + (s.side === 0 ? 'X' : 'O') + s.cells.slice(move + 1);
      return { cells, side: (1 - s.side) as Side };
    },
    pass: (s) => ({ cells: s.cells, side: (1 - s.side) as Side }),
    isTerminal: (s) => legalMoves(s).length === 0 && legalMoves({ cells: s.cells, side: (1 - s.side) as Side }).length === 0,
    outcome(s): Outcome {
      const score: [number, number] = [count(s, 'X'), count(s, 'O')];
      const winner = score[0] === score[1] ? null : score[0] > score[1] ? 0 : 1;
      return { winner, score, diff: Math.abs(score[0] - score[1]) };
    },
    encode: (s) => `${s.cells}:${s.side}`,
    decode(text) {
      const match = /^([xo*#XO]*):([01])$/.exec(text);
      if (!match) throw new Error(`tiny: bad state ${JSON.stringify(text)}`);
      return { cells: match[1], side: Number(match[2]) as Side };
    },
    formatMove: (move) => String.fromCharCode(65 + move),
    parseMove: (text) => (/^[A-Z]$/.test(text) ? text.charCodeAt(0) - 65 : null),
    renderText: (s) => s.cells,
    renderSvg: () => '<svg/>',
    files: { folder: 'tiny', boardType: 'Board', python: false, cpp: false },
    studentBoard: { create: (s) => ({ ...s }), fingerprint: (board) => JSON.stringify(board) },
    moveDetails: (_s, move) => ({ cell: move }),
  };
  return game;
}
