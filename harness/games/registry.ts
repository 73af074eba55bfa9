/**
 * The games Referee knows, by id. Adding a game is a folder under harness/games plus one line here; nothing
 * else in the harness names a game.
 */
import type { AnyGame } from './game.js';
import { reversi } from './reversi/index.js';

const GAMES = new Map<string, AnyGame>();

export function registerGame(game: AnyGame): void {
  if (GAMES.has(game.id)) throw new Error(`a game with id '${game.id}' is already registered`);
  GAMES.set(game.id, game);
}

registerGame(reversi);

export function gameIds(): string[] {
  return [...GAMES.keys()];
}

/** The game with this id; a one-line error lists the known ids otherwise. */
export function getGame(id: string): AnyGame {
  const game = GAMES.get(id);
  if (!game) throw new Error(`unknown game '${id}': use one of ${gameIds().join(', ')}`);
  return game;
}
