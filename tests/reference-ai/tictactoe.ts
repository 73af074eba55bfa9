/**
 * Tic-tac-toe behind the Game interface: a tiny game with known values, for testing the generic algorithms
 * without Reversi. A state is 9 cells ('.', 'X', 'O') plus the side to move.
 */
import type { Game, Outcome, Side } from '../../harness/games/game.js';

export interface TicTacToeState {
  readonly cells: string;
  readonly side: Side;
}

const LINES = [
  [0, 1, 2], [3, 4, 5], [6, 7, 8],
  [0, 3, 6], [1, 4, 7], [2, 5, 8],
  [0, 4, 8], [2, 4, 6],
];

function lineWinner(cells: string): Side | null {
  for (const [a, b, c] of LINES) {
    if (cells[a] !== '.' && cells[a] === cells[b] && cells[b] === cells[c]) return cells[a] === 'X' ? 0 : 1;
  }
  return null;
}

export const tictactoe: Game<TicTacToeState, number> = {
  id: 'tictactoe',
  title: 'Tic-tac-toe',
  symbols: ['X', 'O'],
  sideNames: ['Crosses', 'Noughts'],
  initial: () => ({ cells: '.........', side: 0 }),
  toMove: (s) => s.side,
  legalMoves: (s) => (lineWinner(s.cells) !== null ? [] : [...s.cells].flatMap((c, i) => (c === '.' ? [i] : []))),
  apply(s, move) {
    if (s.cells[move] !== '.') throw new Error(`tictactoe: cell ${move} is taken`);
    const cells = s.cells.slice(0, move) + (s.side === 0 ? 'X' : 'O') + s.cells.slice(move + 1);
    return { cells, side: (s.side ^ 1) as Side };
  },
  pass: () => {
    throw new Error('tictactoe has no passes');
  },
  isTerminal: (s) => lineWinner(s.cells) !== null || !s.cells.includes('.'),
  outcome(s): Outcome {
    const winner = lineWinner(s.cells);
    return { winner, score: winner === null ? [0, 0] : winner === 0 ? [1, 0] : [0, 1], diff: winner === null ? 0 : 1 };
  },
  encode: (s) => `${s.cells} ${s.side === 0 ? 'X' : 'O'}`,
  decode: (text) => ({ cells: text.slice(0, 9), side: text[10] === 'X' ? 0 : 1 }),
  formatMove: (move) => String(move),
  parseMove: (text) => (/^[0-8]$/.test(text) ? Number(text) : null),
  renderText: (s) => s.cells,
  renderSvg: () => '<svg xmlns="http://www.w3.org/2000/svg"/>',
  files: { folder: 'tictactoe', boardType: 'Board', python: false, cpp: false },
  studentBoard: { create: (s) => s.cells, fingerprint: (board) => String(board) },
};

/** A state from its 9 cells; the side to move follows from the counts. */
export function ticTacToeState(cells: string): TicTacToeState {
  const xs = [...cells].filter((c) => c === 'X').length;
  const os = [...cells].filter((c) => c === 'O').length;
  return { cells, side: xs > os ? 1 : 0 };
}
