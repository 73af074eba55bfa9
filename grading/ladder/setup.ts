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

/**
 * Keep the setup; returns a warning when the journal's own was damaged and is written anew from this start's
 * --config (nothing to compare with: the journal's games keep their records, rebuild re-checks them).
 */
export function saveSetup(store: LadderStore, setup: LadderSetup): string | null {
  let stored: LadderSetup | null = null;
  let warning: string | null = null;
  try {
    stored = loadSetup(store);
  } catch (error) {
    if (!(error instanceof DamagedSetupError)) throw error;
    warning = `${error.why}: written again from this --config and these settings`;
  }
  if (stored && assignmentHash(stored.assignment) !== assignmentHash(setup.assignment)) {
    throw new LadderSetupError(`this data folder's ladder was started with another assignment (${stored.assignment.title}); its games were played under those rules: use a new --data folder for a new assignment`);
  }
  if (stored && canonicalJson(stored.settings.references) !== canonicalJson(setup.settings.references)) {
    throw new LadderSetupError(`this ladder's reference AIs are ${stored.settings.references.join(', ')}; they cannot change once games are played: use a new --data folder`);
  }
  store.setMeta('assignment', JSON.stringify(setup.assignment));
  store.setMeta('settings', JSON.stringify(setup.settings));
  return warning;
}

/** The journal's saved setup cannot be read (cut short, edited by hand): one line with the fix. */
export class DamagedSetupError extends LadderSetupError {
  constructor(readonly why: string) {
    super(`${why}: start the ladder again with its --config (\`referee ladder start\` writes the setup anew and keeps every game), or restore the journal from a backup`);
  }
}

export function loadSetup(store: LadderStore): LadderSetup | null {
  const assignment = store.getMeta('assignment');
  const settings = store.getMeta('settings');
  if (!assignment || !settings) return null;
  let setup: { assignment: Partial<Assignment> | null; settings: Partial<LadderSettings> | null };
  try {
    setup = { assignment: JSON.parse(assignment), settings: JSON.parse(settings) };
  } catch {
    throw new DamagedSetupError("the ladder's saved setup (its assignment and settings) is cut short or not JSON");
  }
  const { assignment: a, settings: s } = setup;
  if (!a || typeof a !== 'object' || typeof a.game !== 'string' || !s || typeof s !== 'object' || !Array.isArray(s.references) || !s.references.every((name) => typeof name === 'string') || !s.final || typeof s.final !== 'object') {
    throw new DamagedSetupError("the ladder's saved setup (its assignment and settings) is not one Referee wrote");
  }
  return setup as LadderSetup;
}
