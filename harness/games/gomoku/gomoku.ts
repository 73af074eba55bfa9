/**
 * Gomoku behind the Game interface: 15 x 15, Black first, a line of five wins, a full board draws. Two variants
 * from one factory: freestyle ('gomoku', five or more wins) and 'gomoku-exact5' (exactly five; an overline of
 * six or more does not win). A move is a cell index row * 15 + col, written 'A1'..'O15'.
 */
import { gomokuBotzone } from './botzone.js';
import type { Game, Outcome } from '../game.js';
import { Board } from './board.js';
import { cellName, CELLS, EMPTY, parseCell } from './core.js';
import { decodeState, encodeState } from './codec.js';
import { gomokuGeometry } from './geometry.js';
import { renderSvg, renderText } from './render.js';
import { applyCell, emptyState, type GomokuState } from './state.js';

export function makeGomoku(exactFive: boolean): Game<GomokuState, number> {
  const id = exactFive ? 'gomoku-exact5' : 'gomoku';
  return {
    id,
    title: exactFive ? 'Gomoku 15x15, exactly five wins' : 'Gomoku 15x15, five or more wins (freestyle)',
    symbols: ['X', 'O'],
    sideNames: ['Black', 'White'],
    pieceNoun: ['stone', 'stones'],

    initial: () => emptyState(),
    toMove: (s) => s.side,
    /** Empty cells in index order (A1, B1, … O1, A2, …). */
    legalMoves(s) {
      const moves: number[] = [];
      if (s.over) return moves;
      for (let cell = 0; cell < CELLS; cell++) if (s.cells[cell] === EMPTY) moves.push(cell);
      return moves;
    },
    apply: (s, cell) => applyCell(s, cell, exactFive, id),
    pass() {
      throw new Error(`${id}: there is no passing; a position without a legal move is terminal`);
    },
    isTerminal: (s) => s.over,
    outcome(s): Outcome {
      if (s.winner === null) return { winner: null, score: [0, 0], diff: 0 };
      return { winner: s.winner, score: s.winner === 0 ? [1, 0] : [0, 1], diff: 1 };
    },

    encode: encodeState,
    decode: (text) => decodeState(id, text, exactFive),
    formatMove: cellName,
    parseMove(text) {
      const cell = parseCell(text);
      return cell < 0 ? null : cell;
    },
    renderText: (s) => renderText(s.cells),
    renderSvg: (s, options) => renderSvg(s.cells, s.lastMove, options),
    geometry: gomokuGeometry(exactFive),
    // One C++ Board plays both (board.h: `exactFive`, from the graded game under the host).
    files: { folder: 'gomoku', boardType: 'GomokuBoard', python: true, cpp: true },
    studentBoard: {
      create: (s) => Board.fromState(s, exactFive),
      fingerprint: (board) => Board.fingerprint(board),
    },
    // Botzone's Gomoku is the freestyle game; the exact-five variant has no Botzone judge.
    ...(exactFive ? {} : { botzone: gomokuBotzone }),
  };
}

export const gomoku = makeGomoku(false);
export const gomokuExact5 = makeGomoku(true);
