/**
 * Positions of a game from its moves, replayed with the game's own rules (the same pure code the referee runs), and
 * what the board shows now: the game being played, an earlier ply of it, or a loaded file's game being previewed.
 */
import type { AnyGame, BoardGeometry, Side } from '../../harness/games/game.js';
import { getGame } from '../../harness/games/registry.js';
import type { SessionSnapshot, TurnView } from '../server/protocol.js';
import { checkRecord } from '../server/load.js';
import { page } from './page.js';

/** The state after each ply of a turn list (index 0 is the start); stops at a move the rules refuse. */
export function positions(game: AnyGame, seed: number, turns: readonly TurnView[], start?: unknown): unknown[] {
  const list: unknown[] = [start ?? game.initial(seed)];
  let state = list[0];
  for (const turn of turns) {
    if (turn.kind === 'pass') state = game.pass(state);
    else {
      const move = game.legalMoves(state).find((m) => game.formatMove(m) === turn.move);
      if (move === undefined) break;
      state = game.apply(state, move);
    }
    list.push(state);
  }
  return list;
}

/** Positions from the start (the encoded start position when there is one: it carries the game's rule switches). */
export function positionsFrom(game: AnyGame, seed: number, turns: readonly TurnView[], initialState?: string): unknown[] {
  if (initialState === undefined) return positions(game, seed, turns);
  let start: unknown;
  try {
    start = game.decode(initialState);
  } catch {
    return positions(game, seed, turns);
  }
  return positions(game, seed, turns, start);
}

let cachedKey = '';
let cached: unknown[] = [];

/** The snapshot's positions, recomputed only when its moves change. */
export function statesOf(snap: SessionSnapshot): unknown[] {
  const key = `${snap.id}:${snap.seed}:${snap.initialState}:${snap.turns.map((t) => t.move ?? '-').join(',')}`;
  if (key !== cachedKey) {
    cached = positionsFrom(getGame(snap.game), snap.seed, snap.turns, snap.initialState);
    cachedKey = key;
  }
  return cached;
}

export function geometryOf(game: AnyGame): BoardGeometry {
  if (!game.geometry) throw new Error(`${game.id} has no board geometry (game.geometry): the web board cannot show it`);
  return game.geometry;
}

export function sideLabel(game: AnyGame, side: Side): string {
  return `${game.sideNames[side]} (${game.symbols[side]})`;
}

/** A game read from a file (a saved game, a `referee play --save` record, a games.jsonl line), checked move by move. */
export interface LoadedGame {
  /** The record as checked (what it left implicit filled in, a result that does not follow from the moves dropped). */
  record: Record<string, unknown>;
  game: AnyGame;
  players: [string, string];
  turns: TurnView[];
  states: unknown[];
  /** Why the file's result was not kept, or null. */
  droppedEnd: string | null;
  /** The ply shown (and played on from). */
  ply: number;
}

/** A record as a preview, or a one-line reason, in the game's words, why it cannot be one (checked before it is shown). */
export function loadedGame(input: Record<string, unknown>): LoadedGame | string {
  const checked = checkRecord(input);
  if (!checked.ok) return checked.error;
  const record = checked.record as unknown as Record<string, unknown>;
  const turns: TurnView[] = checked.record.turns.map((turn) => ({ side: turn.side, kind: turn.kind, move: turn.move, ...(typeof turn.debug === 'string' ? { debug: turn.debug } : {}) }));
  const players = checked.record.players;
  return { record, game: checked.game, players: [players[0], players[1]], turns, states: checked.states, droppedEnd: checked.droppedEnd, ply: checked.states.length - 1 };
}

/** What the board shows now. */
export interface Shown {
  game: AnyGame;
  states: unknown[];
  turns: readonly TurnView[];
  /** The ply on the board, and the newest ply there is. */
  ply: number;
  live: number;
  state: unknown;
  /** The side a click may move for now (a person's turn at the newest position), or null. */
  mover: Side | null;
  preview: boolean;
}

export function shown(): Shown | null {
  const preview = page.preview;
  if (preview) {
    const ply = Math.min(preview.ply, preview.states.length - 1);
    return { game: preview.game, states: preview.states, turns: preview.turns, ply, live: preview.states.length - 1, state: preview.states[ply], mover: null, preview: true };
  }
  const snap = page.snapshot;
  if (!snap) return null;
  const game = getGame(snap.game);
  const states = statesOf(snap);
  const live = states.length - 1;
  const ply = page.viewPly === null ? live : Math.min(page.viewPly, live);
  const state = states[ply];
  const side = snap.humanToMove;
  const mover = page.viewPly === null && side !== null && !snap.end && !game.isTerminal(state) && game.toMove(state) === side ? side : null;
  return { game, states, turns: snap.turns, ply, live, state, mover, preview: false };
}
