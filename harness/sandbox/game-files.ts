/**
 * A game's files beside its rules: each game is one folder, harness/games/<folder>/, holding its student Boards for
 * every language (board.py, board.h). The hosts stage them from there, found through the registry's Game.files, so
 * adding a game touches no list in the sandbox.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AnyGame } from '../games/game.js';
import { gameIds, getGame } from '../games/registry.js';

/** `name` in the game's folder: beside this module's folder under ts-jest, in the package's harness/ when compiled. */
export function gameFile(game: AnyGame, name: string): string {
  for (const relativePath of ['../games/', '../../../harness/games/']) {
    const path = join(fileURLToPath(new URL(relativePath, import.meta.url)), game.files.folder, name);
    if (existsSync(path)) return path;
  }
  throw new Error(`${game.id}'s ${name} (harness/games/${game.files.folder}/${name}) is missing from this installation`);
}

/** `name` in harness/games/common/, found as gameFile finds a game's own files (the C++ Boards' shared referee/actions.h). */
export function commonGameFile(name: string): string {
  for (const relativePath of ['../games/common/', '../../../harness/games/common/']) {
    const path = join(fileURLToPath(new URL(relativePath, import.meta.url)), name);
    if (existsSync(path)) return path;
  }
  throw new Error(`harness/games/common/${name} is missing from this installation`);
}

/** Every registered game whose `language` Board plays it. */
export function gamesWithBoard(language: 'python' | 'cpp'): AnyGame[] {
  return gameIds()
    .map(getGame)
    .filter((game) => game.files[language]);
}
