/**
 * The games Referee knows, by id. Adding a game is a folder under harness/games plus one line here; nothing
 * else in the harness names a game.
 */
import type { AnyGame } from './game.js';
import { amazons } from './amazons/index.js';
import { connect4, connect4Nogo } from './connect4/index.js';
import { gomoku, gomokuExact5 } from './gomoku/index.js';
import { nogo } from './nogo/index.js';
import { reversi } from './reversi/index.js';

const GAMES = new Map<string, AnyGame>();

export function registerGame(game: AnyGame): void {
  if (GAMES.has(game.id)) throw new Error(`a game with id '${game.id}' is already registered`);
  GAMES.set(game.id, game);
}

for (const game of [reversi, connect4, connect4Nogo, gomoku, gomokuExact5, nogo, amazons]) registerGame(game);

export function gameIds(): string[] {
  return [...GAMES.keys()];
}

/** The games Botzone has a judge for (a Game.botzone codec): where a Botzone bot can play. */
export function botzoneGameIds(): string[] {
  return gameIds().filter((id) => getGame(id).botzone !== undefined);
}

/** The game with this id; a one-line error lists the known ids otherwise. */
export function getGame(id: string): AnyGame {
  const game = GAMES.get(id);
  if (!game) throw new Error(`unknown game '${id}': use one of ${gameIds().join(', ')}`);
  return game;
}
