/**
 * Positions of a game from its moves, replayed with the game's own rules (the same pure code the referee runs), and
 * what the board shows now: the game being played, an earlier ply of it, or a loaded file's game being previewed.
 */
import type { AnyGame, BoardGeometry, Side } from '../../harness/games/game.js';
import { getGame } from '../../harness/games/registry.js';
import type { SessionSnapshot, TurnView } from '../server/protocol.js';
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

/** A game read from a file (a saved game, a `referee play --save` record, a games.jsonl line), before the server checks it. */
export interface LoadedGame {
  record: Record<string, unknown>;
  game: AnyGame;
  players: [string, string];
  turns: TurnView[];
  /** Positions as far as the moves are legal. */
  states: unknown[];
  /** Why the moves stop early (the server will refuse the record), or null. */
  problem: string | null;
  /** The ply shown (and played on from). */
  ply: number;
}

/** A record as a preview, or a one-line reason it is not one. */
export function loadedGame(record: Record<string, unknown>): LoadedGame | string {
  let game: AnyGame;
  try {
    game = getGame(String(record.game));
  } catch (error) {
    return (error as Error).message;
  }
  const rawTurns = Array.isArray(record.turns) ? (record.turns as Record<string, unknown>[]) : [];
  const turns: TurnView[] = rawTurns.map((turn) => ({
    side: turn.side === 1 ? 1 : 0,
    kind: turn.kind === 'pass' ? 'pass' : 'move',
    move: typeof turn.move === 'string' ? turn.move : undefined,
  }));
  const seed = typeof record.seed === 'number' ? record.seed : 0;
  let states: unknown[];
  try {
    states = positionsFrom(game, seed, turns, typeof record.initialState === 'string' ? record.initialState : undefined);
  } catch (error) {
    return `the record does not replay: ${(error as Error).message}`;
  }
  const players = Array.isArray(record.players) ? [String(record.players[0]), String(record.players[1])] : ['?', '?'];
  const problem = states.length - 1 < turns.length ? `ply ${states.length}: ${JSON.stringify(turns[states.length - 1].move)} is not a legal move there` : null;
  return { record, game, players: players as [string, string], turns, states, problem, ply: states.length - 1 };
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
