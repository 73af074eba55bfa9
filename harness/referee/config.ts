/**
 * The rules a game is refereed under. Defaults reproduce the course platform's game.py: 60 s per ask, three asks
 * per turn, touching the board loses, a forced loss reports diff 0.
 */

export interface RefereeConfig {
  /** Wall-clock limit for each ask, in ms (func_timeout(60, …) per call in game.py). */
  moveTimeoutMs: number;
  /** Asks per turn: the Nth illegal answer in one turn loses, not earlier. */
  illegalMoveLimit: number;
  /** Wall-clock limit for building the player at the start of a game, in ms. */
  constructTimeoutMs: number;
  /** Whether changing the board handed to the player loses (game.py: yes). */
  tamperLoses: boolean;
  /** The diff reported for a forced loss (game.py: 0). */
  forcedLossDiff: number;
}

export const DEFAULT_REFEREE_CONFIG: RefereeConfig = Object.freeze({
  moveTimeoutMs: 60_000,
  illegalMoveLimit: 3,
  constructTimeoutMs: 60_000,
  tamperLoses: true,
  forcedLossDiff: 0,
});

const FIELDS: readonly (keyof RefereeConfig)[] = [
  'moveTimeoutMs',
  'illegalMoveLimit',
  'constructTimeoutMs',
  'tamperLoses',
  'forcedLossDiff',
];

function show(value: unknown): string {
  return typeof value === 'string' ? JSON.stringify(value) : String(value);
}

/** Node's timers fire at once beyond this (about 24.8 days), so no time limit may exceed it. */
const MAX_TIMER_MS = 2 ** 31 - 1;

function positiveInteger(fields: Record<string, unknown>, name: keyof RefereeConfig, fix: string): number | undefined {
  const value = fields[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value <= 0 || value > MAX_TIMER_MS) {
    throw new RangeError(
      `referee config: ${name} must be a positive integer up to ${MAX_TIMER_MS} (got ${show(value)}); ${fix}`,
    );
  }
  return value;
}

/**
 * Validate a partial config (possibly from an untrusted assignment file) and fill in the defaults.
 * constructTimeoutMs defaults to the resolved moveTimeoutMs. Throws one-line errors naming the field and the fix.
 */
export function resolveConfig(partial?: Partial<RefereeConfig> | null): RefereeConfig {
  if (partial === undefined || partial === null) return DEFAULT_REFEREE_CONFIG;
  if (typeof partial !== 'object' || Array.isArray(partial)) {
    throw new TypeError(`referee config must be an object like { "moveTimeoutMs": 60000 } (got ${show(partial)})`);
  }
  const fields = partial as Record<string, unknown>;
  for (const key of Object.keys(fields)) {
    if (!(FIELDS as readonly string[]).includes(key)) {
      throw new RangeError(
        `referee config: unknown field ${JSON.stringify(key)}; known fields are ${FIELDS.join(', ')}`,
      );
    }
  }
  const moveTimeoutMs =
    positiveInteger(fields, 'moveTimeoutMs', 'give milliseconds, e.g. 60000 for 60 s') ??
    DEFAULT_REFEREE_CONFIG.moveTimeoutMs;
  const illegalMoveLimit =
    positiveInteger(fields, 'illegalMoveLimit', 'give the number of asks per turn, e.g. 3') ??
    DEFAULT_REFEREE_CONFIG.illegalMoveLimit;
  const constructTimeoutMs =
    positiveInteger(fields, 'constructTimeoutMs', 'give milliseconds, e.g. 60000 for 60 s') ?? moveTimeoutMs;
  const tamperLoses = fields.tamperLoses ?? DEFAULT_REFEREE_CONFIG.tamperLoses;
  if (typeof tamperLoses !== 'boolean') {
    throw new TypeError(`referee config: tamperLoses must be true or false (got ${show(tamperLoses)})`);
  }
  const forcedLossDiff = fields.forcedLossDiff ?? DEFAULT_REFEREE_CONFIG.forcedLossDiff;
  if (typeof forcedLossDiff !== 'number' || !Number.isSafeInteger(forcedLossDiff) || forcedLossDiff < 0) {
    throw new RangeError(
      `referee config: forcedLossDiff must be a non-negative integer (got ${show(forcedLossDiff)}); game.py uses 0`,
    );
  }
  return Object.freeze({ moveTimeoutMs, illegalMoveLimit, constructTimeoutMs, tamperLoses, forcedLossDiff });
}

/**
 * The config a game is played under: the platform defaults, then the game's own rule defaults (game.defaultRules),
 * then what the caller set explicitly.
 */
export function configForGame(
  game: { readonly defaultRules?: Partial<Pick<RefereeConfig, 'moveTimeoutMs' | 'illegalMoveLimit'>> },
  partial?: Partial<RefereeConfig> | null,
): RefereeConfig {
  const explicit = Object.fromEntries(Object.entries(partial ?? {}).filter(([, value]) => value !== undefined));
  return resolveConfig({ ...game.defaultRules, ...explicit });
}
