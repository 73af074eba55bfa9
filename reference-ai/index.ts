/**
 * The reference AIs by game. A game with heuristics of its own registers its ladder here (one line, a folder
 * beside this file); any other registered game gets the generic ladder (random, alphabeta, mcts).
 */
import { getGame } from '../harness/games/registry.js';
import type { AgentFactory } from '../harness/referee/agent.js';
import { genericLevels } from './generic/index.js';
import type { ReferenceLevel } from './level.js';
import { amazonsLevels } from './amazons/index.js';
import { connect4Levels } from './connect4/index.js';
import { gomokuLevels } from './gomoku/index.js';
import { nogoLevels } from './nogo/index.js';
import { reversiLevels } from './reversi/index.js';

export type { ReferenceLevel } from './level.js';

const LEVELS_BY_GAME: Readonly<Record<string, readonly ReferenceLevel[]>> = {
  reversi: reversiLevels,
  connect4: connect4Levels,
  'connect4-nogo': connect4Levels,
  gomoku: gomokuLevels,
  'gomoku-exact5': gomokuLevels,
  nogo: nogoLevels,
  amazons: amazonsLevels,
};

/** The ladder for a game, weakest first; throws (listing the known games) for an unknown id. */
export function referenceLevels(gameId: string): readonly ReferenceLevel[] {
  getGame(gameId);
  return Object.hasOwn(LEVELS_BY_GAME, gameId) ? LEVELS_BY_GAME[gameId] : genericLevels;
}

/** The reference AI names for a game, weakest first. */
export function referenceNames(gameId: string): string[] {
  return referenceLevels(gameId).map((level) => level.name);
}

function level(gameId: string, name: string): ReferenceLevel {
  const levels = referenceLevels(gameId);
  const found = levels.find((l) => l.name === name);
  if (!found) {
    throw new Error(`unknown reference AI '${name}' for ${gameId}: use one of ${levels.map((l) => l.name).join(', ')}`);
  }
  return found;
}

/** The agent factory for a named reference AI of a game. */
export function referenceAgent(gameId: string, name: string): AgentFactory {
  return level(gameId, name).factory;
}

/** A one-line description of a named reference AI of a game. */
export function referenceDescription(gameId: string, name: string): string {
  return level(gameId, name).description;
}
