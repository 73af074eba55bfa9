/**
 * The one interface every game implements. The referee, the reference AIs' generic algorithms, grading and
 * reports see a game only through this file; nothing outside a game's own folder knows its rules.
 *
 * Model: OpenSpiel's Game/State split, with immutable states so a search can keep any node it likes.
 * A game that needs speed (Reversi perft, a student's MCTS) keeps a mutable core of its own behind this.
 */

import type { BotzoneCodec } from './common/botzone.js';

/** 0 moves first (Black, "X"), 1 moves second (White, "O"). */
export type Side = 0 | 1;

export const other = (side: Side): Side => (side ^ 1) as Side;

export interface Outcome {
  /** null is a draw. */
  winner: Side | null;
  /** Per-side score in the game's own unit (discs for Reversi; 1/0 for win-or-lose games). */
  score: [number, number];
  /** board.py's get_winner diff: the winner's margin (|score[0] - score[1]|), 0 for a draw. */
  diff: number;
}

/** Options for rendering a position as SVG in reports and the replay viewer. */
export interface SvgOptions {
  /** The move that led to this position, marked on the board. */
  lastMove?: string;
  /** Pixel size of the square image (default 320). */
  size?: number;
}

/**
 * The student-facing board for a state: what `getMove(board)` receives. `fingerprint` is compared before and
 * after `getMove` — game.py's tamper rule ("changing the board it was handed loses").
 */
export interface StudentBoardFactory<S> {
  create(state: S): unknown;
  fingerprint(board: unknown): string;
}

/**
 * One cell of a position's board as renderSvg draws it: where it is in the picture, what is on it, and what a touch
 * on it means. The web board, the report viewer and the tests read cells from here, never from the SVG's markup.
 */
export interface BoardCell {
  /** The cell's name: its notation where it has one ('D3'), else a name unique to the cell ('c3r0'); the SVG's data-square. */
  name: string;
  /** Grid position as drawn: row 0 is the top row of the picture, column 0 the leftmost (arrow keys walk these). */
  row: number;
  col: number;
  /** Centre and radius of a piece on the cell, in the units of the SVG's viewBox at the size asked for. */
  x: number;
  y: number;
  r: number;
  /** The symbol of the piece on the cell ('X', 'O'), or null when it holds none. */
  piece: string | null;
  /**
   * The move a touch on this cell asks for: the cell's own notation, or in a drop game its column ('3'); null for a
   * cell no move ever names (Connect Four's no-go cell still names its column: a click there drops into it).
   */
  move: string | null;
  /** What the cell is when nothing can ever be played there, in words (Connect Four's 'no-go cell'), else null. */
  note: string | null;
}

/** How a game that ended on the board ended, in the game's own words. */
export interface BoardEnding {
  /** Why, e.g. 'five in a row', 'White has no legal move', 'neither side can move', 'the board is full'. */
  reason: string;
  /** The cells that decided it (the winning line), for a highlight; empty when no line decided. */
  line: string[];
  /** The score as this game reads it ('40–24' discs in Reversi), or null for a game that is won or lost outright. */
  score: string | null;
}

/** A game's board as people see and touch it (the web board, the report viewer), beside renderSvg in its folder. */
export interface BoardGeometry<S = unknown> {
  /** Every cell of this position's board, at the picture renderSvg(state, { size }) draws (default size 320). */
  cells(state: S, size?: number): BoardCell[];
  /** The name of the cell `move` lands on when played in `state` (a drop game's resting cell), or null if it cannot. */
  landing(state: S, move: string): string | null;
  /**
   * Why `move` cannot be played in `state`, in the game's own terms ('C3 is taken', "Black's first move may not be
   * the centre (E5)", 'column 3 is full'), or null when it is legal.
   */
  whyIllegal(state: S, move: string): string | null;
  /** How a finished position ended on the board (terminal states only). */
  ending(state: S): BoardEnding;
  /**
   * For a game whose move takes several touches (Amazons: queen, destination, arrow): given this turn's touches so
   * far (cell names), the cells the next touch may name, the whole move once they make one, or why the last touch
   * cannot continue a move. Absent: one touch is a whole move (the cell's `move`).
   */
  touches?(state: S, picked: readonly string[]): TouchStep;
}

/** One step of a move made of several touches (BoardGeometry.touches). */
export interface TouchStep {
  /** Cell names the next touch may name (empty once the move is whole or the touches went wrong). */
  next: string[];
  /** The move's notation when the touches make a whole legal move, else null. */
  move: string | null;
  /** Why the last touch cannot continue a move, in the game's words, else null. */
  why: string | null;
}

/**
 * A game is one folder, harness/games/<folder>/: rules, render, geometry, README and a student Board per language
 * (board.ts; board.py, the `board` module a Python AIPlayer imports; board.h, the C++ header an AIPlayer.cpp
 * includes as "referee/<folder>.h"). The sandbox stages, `referee init` copies and the package ships the Boards
 * from here; nothing else lists them.
 */
export interface GameFiles {
  /** The folder under harness/games; a variant shares its base game's (connect4-nogo → 'connect4'). */
  readonly folder: string;
  /** The name harness/index.ts exports the TS Board under, for starters' imports ('ReversiBoard'). */
  readonly boardType: string;
  /** <folder>/board.py plays this game (a variant it does not play leaves this false). */
  readonly python: boolean;
  /** <folder>/board.h plays this game (the header also names the games it plays, for the C++ host's check). */
  readonly cpp: boolean;
}

export interface Game<S = unknown, M = unknown> {
  /** Registry id, e.g. 'reversi'. */
  readonly id: string;
  readonly title: string;
  /** Symbols the platform uses for each side, e.g. ['X', 'O']. */
  readonly symbols: readonly [string, string];
  /** Human names of each side, e.g. ['Black', 'White']. */
  readonly sideNames: readonly [string, string];
  /** What a side's pieces on the board are called, one and many ('disc', 'discs'); 'piece' when absent. */
  readonly pieceNoun?: readonly [string, string];

  /**
   * The start position. Games with a drawn layout (board size, blocked cells) take it from the seed; games with
   * rule switches (ruleOptions) take them from `rules` (missing ones at their defaults) and carry them in the
   * state, so everything downstream — legal moves, the student Board, records — follows them.
   */
  initial(seed?: number, rules?: Readonly<Record<string, boolean>>): S;
  /** The game's own rule switches, e.g. NoGo's centerFirstMoveBanned; set in a config's `gameRules`. */
  readonly ruleOptions?: Readonly<Record<string, { readonly default: boolean; readonly description: string }>>;
  /**
   * True when initial(seed) draws a layout from the seed: a series then plays each drawn layout twice, once with
   * each side moving first (games 2k and 2k+1 share a seed), so neither player is favoured by the draw.
   */
  readonly seededLayout?: boolean;
  /**
   * The game's own rule defaults where its course differs from the Reversi platform (e.g. 3 s per move, an
   * illegal answer loses at once). Explicit config always wins over these.
   */
  readonly defaultRules?: {
    readonly moveTimeoutMs?: number;
    readonly illegalMoveLimit?: number;
    /** The course's resident-memory limit in MB (Saiblo's 1 GB for the Connect Four course). */
    readonly memoryMb?: number;
    /** The course's allowance for loading the submission, in ms, apart from the move and construct limits. */
    readonly loadTimeoutMs?: number;
  };
  toMove(state: S): Side;
  /** Legal moves in the platform's own order (students break ties by it). Empty when the side must pass. */
  legalMoves(state: S): M[];
  /** The state after `move`; the move must be legal. */
  apply(state: S, move: M): S;
  /**
   * The state after the side to move passes. Called only when `legalMoves` is empty and the game is not over;
   * games without passing make that situation terminal instead.
   */
  pass(state: S): S;
  isTerminal(state: S): boolean;
  /** The result of a terminal state. */
  outcome(state: S): Outcome;

  /** A compact, exact string for a state (records, IPC). decode(encode(s)) equals s. Throws on bad input. */
  encode(state: S): string;
  decode(text: string): S;
  /** Canonical notation of a move, e.g. 'D3'. */
  formatMove(move: M): string;
  /**
   * The move a notation names, or null. Strict: only canonical notation parses (the platform compares strings,
   * so 'd3' is not 'D3'). Does not check legality.
   */
  parseMove(text: string): M | null;
  /** Plain-text board, like board.py's display(). */
  renderText(state: S): string;
  /**
   * Self-contained SVG of the board for the report's replay viewer. Convention (the browser tests rely on it):
   * each disc or stone carries `data-square` (the cell's notation, or another name unique to the cell) and
   * `data-disc` (the side's symbol); the last-move mark has class `last-move`.
   */
  renderSvg(state: S, options?: SvgOptions): string;
  /** The board as data, matching renderSvg's picture: every registered game has one (the web board needs it). */
  readonly geometry?: BoardGeometry<S>;
  /** What a student's getMove receives for a state. */
  readonly studentBoard: StudentBoardFactory<S>;
  /** Where the game's files are and which student Boards it ships (see GameFiles). */
  readonly files: GameFiles;
  /** Game-specific facts about a move for records and reports, e.g. Reversi's { flipped: 4 }. */
  moveDetails?(state: S, move: M): Record<string, number | string>;
  /** Leaf count to `depth` plies, where the game has a fast one (passes take a ply). */
  perft?(state: S, depth: number): number;
  /** How Botzone's judge writes this game's turns to a bot (common/botzone.ts), where Botzone hosts the game. */
  readonly botzone?: BotzoneCodec;
}

/** A Game with its type parameters erased, for registries and code that only passes states along. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyGame = Game<any, any>;
