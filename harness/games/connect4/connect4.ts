/**
 * Connect Four behind the Game interface, in two variants built by one factory: the standard 6 x 7 game and the
 * course variant with a seeded M x N board (9..12 each) and one no-go cell. A move is a column index, written
 * '0'..'N-1'.
 */
import type { Game, Outcome } from '../game.js';
import { Board } from './board.js';
import { perftGrid } from './core.js';
import { connect4Geometry } from './geometry.js';
import { decodeState, encodeState, type ShapeCheck } from './codec.js';
import { drawLayout, MAX_SIZE, MIN_SIZE } from './layout.js';
import { renderSvg, renderText } from './render.js';
import { applyColumn, emptyState, pieceOf, type Connect4State } from './state.js';

interface Variant {
  id: string;
  title: string;
  initial(seed: number): Connect4State;
  checkShape: ShapeCheck;
  /** Widest board, so parseMove can reject columns no board of the variant has. */
  maxCols: number;
  seededLayout?: boolean;
  defaultRules?: Game['defaultRules'];
}

function makeConnect4(variant: Variant): Game<Connect4State, number> {
  return {
    id: variant.id,
    title: variant.title,
    symbols: ['X', 'O'],
    sideNames: ['Red', 'Yellow'],
    pieceNoun: ['disc', 'discs'],

    initial: (seed = 0) => variant.initial(seed),
    seededLayout: variant.seededLayout,
    defaultRules: variant.defaultRules,
    toMove: (s) => s.side,
    legalMoves(s) {
      const moves: number[] = [];
      if (s.over) return moves;
      for (let col = 0; col < s.cols; col++) if (s.top[col] < s.rows) moves.push(col);
      return moves;
    },
    apply: applyColumn,
    pass() {
      throw new Error(`${variant.id}: there is no passing; a position without a legal move is terminal`);
    },
    isTerminal: (s) => s.over,
    outcome(s): Outcome {
      if (s.winner === null) return { winner: null, score: [0, 0], diff: 0 };
      return { winner: s.winner, score: s.winner === 0 ? [1, 0] : [0, 1], diff: 1 };
    },

    encode: encodeState,
    decode: (text) => decodeState(variant.id, text, variant.checkShape),
    formatMove: (col) => String(col),
    parseMove(text) {
      // Strict: plain decimal without sign, spaces or leading zeros, as the platform compares strings.
      if (typeof text !== 'string' || !/^(0|[1-9][0-9]?)$/.test(text)) return null;
      const col = Number(text);
      return col < variant.maxCols ? col : null;
    },
    renderText,
    renderSvg,
    geometry: connect4Geometry,
    files: { folder: 'connect4', boardType: 'Connect4Board', python: true, cpp: true },
    studentBoard: {
      create: (s) => Board.fromState(s),
      fingerprint: (board) => Board.fingerprint(board),
    },
    /** The row the disc lands on (0 is the bottom). */
    moveDetails: (s, col) => ({ row: s.top[col] }),
    perft(s, depth) {
      if (s.over) return depth === 0 ? 1 : 0;
      const grid = { rows: s.rows, cols: s.cols, cells: s.cells.slice(), top: s.top.slice() };
      return perftGrid(grid, pieceOf(s.side), depth);
    },
  };
}

export const connect4 = makeConnect4({
  id: 'connect4',
  title: 'Connect Four, 6 rows x 7 columns',
  initial: () => emptyState(6, 7, -1),
  checkShape: (rows, cols, blocked) =>
    rows !== 6 || cols !== 7 ? `the board is 6 rows x 7 columns, got ${rows} x ${cols}` : blocked >= 0 ? 'the standard board has no no-go cell (#)' : null,
  maxCols: 7,
});

export const connect4Nogo = makeConnect4({
  id: 'connect4-nogo',
  // The course draws a board per pairing and plays it once each way; 3 s a move; an illegal answer loses; its
  // Saiblo judge allows 1 GB (README: "The course's limits").
  seededLayout: true,
  defaultRules: { moveTimeoutMs: 3000, illegalMoveLimit: 1, memoryMb: 1024 },
  title: `Connect Four with a no-go cell, ${MIN_SIZE}..${MAX_SIZE} rows x ${MIN_SIZE}..${MAX_SIZE} columns`,
  initial(seed) {
    const { rows, cols, noGoRow, noGoCol } = drawLayout(seed);
    return emptyState(rows, cols, noGoRow * cols + noGoCol);
  },
  checkShape(rows, cols, blocked) {
    const ok = (n: number) => n >= MIN_SIZE && n <= MAX_SIZE;
    if (!ok(rows) || !ok(cols)) return `rows and columns are each ${MIN_SIZE}..${MAX_SIZE}, got ${rows} x ${cols}`;
    return blocked < 0 ? 'the board needs its no-go cell (#)' : null;
  },
  maxCols: MAX_SIZE,
});
