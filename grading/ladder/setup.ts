/**
 * What a ladder was started with, kept in its journal: the assignment (resolved, so its rules cannot change under
 * the games already played), the reference ladder and the service's settings. `freeze`, `final`, `export` and
 * `rebuild` read them from the data folder alone.
 */
import { assignmentHash, canonicalJson, isCompiledOpponent, type Assignment } from '../assignment.js';
import { isReferenceName } from '../../reference-ai/budget.js';
import type { LadderSettings } from './service.js';
import type { LadderStore } from './store.js';

export interface LadderSetup {
  assignment: Assignment;
  settings: LadderSettings;
}

/** The setup cannot be used (another assignment than the journal's, a bad reference name): one line. */
export class LadderSetupError extends Error {
  override name = 'LadderSetupError';
}

/** The reference ladder: `random` (the anchor) and the assignment's reference opponents, in the order listed. */
export function defaultReferences(assignment: Assignment): string[] {
  const names = ['random'];
  for (const item of assignment.opponents) {
    for (const name of item.ladder ? item.ladder.map((level) => level.name) : [item.name]) {
      if (!isCompiledOpponent(name) && isReferenceName(assignment.game, name) && !names.includes(name)) names.push(name);
    }
  }
  return names;
}

export function validateReferences(game: string, names: string[]): void {
  if (names.length === 0) throw new LadderSetupError('--references needs at least one reference AI (the first is rated 0 and validates every submission): e.g. random,greedy');
  for (const name of names) if (!isReferenceName(game, name)) throw new LadderSetupError(`--references: ${name} is not a reference AI of ${game}: use built-in names such as random, greedy, mcts:200`);
}

export function saveSetup(store: LadderStore, setup: LadderSetup): void {
  const stored = loadSetup(store);
  if (stored && assignmentHash(stored.assignment) !== assignmentHash(setup.assignment)) {
    throw new LadderSetupError(`this data folder's ladder was started with another assignment (${stored.assignment.title}); its games were played under those rules: use a new --data folder for a new assignment`);
  }
  if (stored && canonicalJson(stored.settings.references) !== canonicalJson(setup.settings.references)) {
    throw new LadderSetupError(`this ladder's reference AIs are ${stored.settings.references.join(', ')}; they cannot change once games are played: use a new --data folder`);
  }
  store.setMeta('assignment', JSON.stringify(setup.assignment));
  store.setMeta('settings', JSON.stringify(setup.settings));
}

export function loadSetup(store: LadderStore): LadderSetup | null {
  const assignment = store.getMeta('assignment');
  const settings = store.getMeta('settings');
  if (!assignment || !settings) return null;
  return { assignment: JSON.parse(assignment) as Assignment, settings: JSON.parse(settings) as LadderSettings };
}
