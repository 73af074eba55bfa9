/**
 * NoGo behind the Game interface: 9 x 9, Black first, no passing; capturing and suicide are illegal; the side to
 * move with no legal move has lost (no draws), so such a state is terminal. A move is a cell index row * 9 + col,
 * written 'A1'..'J9' (no I).
 */
import { nogoBotzone } from './botzone.js';
import type { Game, Outcome } from '../game.js';
import { Board } from './board.js';
import { cellName, CELLS, CENTER, hasLegalMove, legalCells, parseCell, perftCells, withoutCell } from './core.js';
import { decodeState, encodeState } from './codec.js';
import { nogoGeometry } from './geometry.js';
import { renderSvg, renderText } from './render.js';
import { applyCell, emptyState, pieceOf, type NoGoState } from './state.js';

const scratch = new Int16Array(CELLS);

export const nogo: Game<NoGoState, number> = {
  id: 'nogo',
  title: 'NoGo 9x9 (capturing and suicide are illegal; no legal move loses)',
  symbols: ['X', 'O'],
  sideNames: ['Black', 'White'],
  pieceNoun: ['stone', 'stones'],
  // Botzone's NoGo ends the game on an illegal answer; `illegalMoveLimit` in a config can restore 3 asks.
  defaultRules: { illegalMoveLimit: 1 },

  ruleOptions: {
    centerFirstMoveBanned: {
      default: true,
      description: "Black's first move may not be the centre, E5 (the seed course code: 第一步不可在正中央)",
    },
  },
  initial: (_seed, rules) => emptyState(rules?.centerFirstMoveBanned ?? true),
  toMove: (s) => s.side,
  /** Legal cells in index order (A1, B1, … J1, A2, …), without E5 for a first move under the centre rule. */
  legalMoves(s) {
    let n = legalCells(s.cells, pieceOf(s.side), scratch);
    if (s.centerBanned && s.stones === 0) n = withoutCell(scratch, n, CENTER);
    return Array.from(scratch.subarray(0, n));
  },
  apply: applyCell,
  pass() {
    throw new Error('nogo: there is no passing; a side without a legal move has lost');
  },
  isTerminal: (s) => !hasLegalMove(s.cells, pieceOf(s.side)),
  outcome(s): Outcome {
    if (hasLegalMove(s.cells, pieceOf(s.side))) throw new Error('nogo: outcome of a game still in progress');
    return s.side === 0 ? { winner: 1, score: [0, 1], diff: 1 } : { winner: 0, score: [1, 0], diff: 1 };
  },

  encode: encodeState,
  decode: decodeState,
  formatMove: cellName,
  parseMove(text) {
    const cell = parseCell(text);
    return cell < 0 ? null : cell;
  },
  renderText: (s) => renderText(s.cells),
  renderSvg: (s, options) => renderSvg(s.cells, s.lastMove, options),
  geometry: nogoGeometry,
  files: { folder: 'nogo', boardType: 'NoGoBoard', python: true, cpp: true },
  studentBoard: {
    create: (s) => Board.fromState(s),
    fingerprint: (board) => Board.fingerprint(board),
  },
  perft: (s, depth) => perftCells(s.cells.slice(), pieceOf(s.side), depth, s.centerBanned && s.stones === 0 ? CENTER : -1),
  botzone: nogoBotzone,
};
