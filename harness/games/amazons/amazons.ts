/** The Amazons Game: Botzone's 8 x 8 rules by default, the standard 10 x 10 board as a rule switch. */
import type { Game, Outcome } from '../game.js';
import { amazonsBotzone } from './botzone.js';
import { cellName, formatMove, hasMove, legalMoves, moveArrow, moveFrom, moveTo, parseMove, perftCells } from './core.js';
import { Board } from './board.js';
import { amazonsGeometry } from './geometry.js';
import { renderSvg, renderText } from './render.js';
import { applyMove, decodeState, encodeState, pieceOf, startState, type AmazonsState } from './state.js';

export const amazons: Game<AmazonsState, number> = {
  id: 'amazons',
  title: 'Amazons 8x8 (Botzone)',
  symbols: ['X', 'O'],
  sideNames: ['Black', 'White'],
  pieceNoun: ['queen', 'queens'],
  ruleOptions: {
    board10: {
      default: false,
      description: 'the standard 10x10 board (first mover on A4 D1 G1 J4, second on A7 D10 G10 J7) instead of Botzone\'s 8x8',
    },
  },
  // Botzone ends the game on an invalid action; `illegalMoveLimit` in a config restores game.py's 3 asks.
  defaultRules: { illegalMoveLimit: 1 },
  initial: (_seed, rules) => startState(rules?.board10 ? 10 : 8),
  toMove: (s) => s.side,
  legalMoves: (s) => legalMoves(s.cells.slice(), s.size, pieceOf(s.side)),
  apply: applyMove,
  pass() {
    throw new Error('amazons: there is no passing; a side that cannot move has lost');
  },
  isTerminal: (s) => !hasMove(s.cells, s.size, pieceOf(s.side)),
  outcome(s): Outcome {
    const winner = s.side === 0 ? 1 : 0;
    return { winner, score: winner === 0 ? [1, 0] : [0, 1], diff: 1 };
  },
  encode: encodeState,
  decode: decodeState,
  formatMove,
  parseMove,
  renderText,
  renderSvg,
  geometry: amazonsGeometry,
  files: { folder: 'amazons', boardType: 'AmazonsBoard', python: true, cpp: true },
  studentBoard: {
    create: (s) => Board.fromState(s),
    fingerprint: (board) => Board.fingerprint(board),
  },
  moveDetails: (_s, move) => ({ queen: cellName(moveFrom(move)), to: cellName(moveTo(move)), arrow: cellName(moveArrow(move)) }),
  perft: (s, depth) => perftCells(s.cells.slice(), s.size, pieceOf(s.side), depth),
  botzone: amazonsBotzone,
};
