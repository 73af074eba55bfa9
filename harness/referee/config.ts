/**
 * The rules a game is refereed under. Defaults reproduce the course platform's game.py: 60 s per ask and 60 s per
 * turn, three asks per turn, touching the board loses, a forced loss reports diff 0, 'Q' is an illegal answer.
 */

/** A game's own rule switches (Game.ruleOptions), e.g. NoGo's centerFirstMoveBanned. */
export type GameRules = Readonly<Record<string, boolean>>;

export interface RefereeConfig {
  /** Wall-clock limit for each ask, in ms (func_timeout(60, …) per call in game.py). */
  moveTimeoutMs: number;
  /**
   * Wall-clock limit for the whole turn, retries included, in ms (game.py's `es_time > 60` over the turn; it
   * uses the same 60 as the per-ask limit, so this defaults to moveTimeoutMs). Absent in records written before
   * it existed.
   */
  turnTimeoutMs: number;
  /**
   * Whether answering 'Q' ends the game at once, decided by the board's count (game.py's human-quit path).
   * Off by default: ending by count is an exploit for an AI that is ahead, so 'Q' is an illegal answer.
   */
  quitEndsGame: boolean;
  /** The game's own rule switches; only the ones the game declares, each defaulting to the game's default. */
  gameRules?: GameRules;
  /** Asks per turn: the Nth illegal answer in one turn loses, not earlier. */
  illegalMoveLimit: number;
  /** Wall-clock limit for building the player at the start of a game, in ms (loading excluded: loadTimeoutMs). */
  constructTimeoutMs: number;
  /**
   * Wall-clock allowance for loading a submission once per process, in ms, apart from constructTimeoutMs: imports and
   * module-level code (a main.py that plays a demo game when imported), a C++ library's static initialisers. The
   * platforms import or dlopen the player before any clock runs. Absent in records written before it existed.
   */
  loadTimeoutMs?: number;
  /**
   * Resident-memory limit of a sandboxed player's whole process, in MB (the platform's: 512 here, the Connect Four
   * course's Saiblo judge 1 GB). Held by the cgroup or the grader's watchdog, never an address-space limit (see
   * harness/sandbox/memory-wall.ts). Absent in records written before it existed.
   */
  memoryMb?: number;
  /** Whether changing the board handed to the player loses (game.py: yes). */
  tamperLoses: boolean;
  /** The diff reported for a forced loss (game.py: 0). */
  forcedLossDiff: number;
  /**
   * Whether a sandboxed player's own randomness (JS `Math.random`, Python's `random` module and, if imported,
   * `numpy.random`) is seeded per game from the game's seed and the player's side, so the same code, config and
   * seed give the same grade. On by default (a difference from the platform, which leaves them unseeded). Absent in
   * records written before it existed.
   */
  seedPlayerRandom?: boolean;
  /**
   * Time policies (all optional; absent = the platform's hard limits). A player's first turn gets this many times
   * every limit (Botzone: 2, the first turn pays for the process start and its set-up).
   */
  firstMoveFactor?: number;
  /**
   * A whole-game time bank per side, in ms: an ask over its limit draws the overage from the bank (usable on any
   * move) instead of losing; the wait for an answer is the limit plus what is left in the bank.
   */
  timeBankMs?: number;
  /**
   * Soft timeout: a move over its limit (and past the bank) is still played and costs a strike; the strikeLimit-th
   * strike loses. A struck answer may come at most strikeGraceMs after the limit (default: one more limit).
   */
  strikeLimit?: number;
  strikeGraceMs?: number;
  /**
   * Per-language multipliers of every limit, by the player's language ('C++', 'Python', 'JavaScript', 'Java'):
   * Botzone's 1 / 6 / 2 / 3. A player of a language not listed gets 1.
   */
  timeMultipliers?: Readonly<Record<string, number>>;
}

export const DEFAULT_REFEREE_CONFIG: RefereeConfig = Object.freeze({
  moveTimeoutMs: 60_000,
  turnTimeoutMs: 60_000,
  quitEndsGame: false,
  illegalMoveLimit: 3,
  constructTimeoutMs: 60_000,
  loadTimeoutMs: 60_000,
  memoryMb: 512,
  tamperLoses: true,
  forcedLossDiff: 0,
  seedPlayerRandom: true,
});

/** The fields every record since the first format stores (later fields are optional when reading). */
export const RECORD_REQUIRED_FIELDS: readonly (keyof RefereeConfig)[] = [
  'moveTimeoutMs',
  'illegalMoveLimit',
  'constructTimeoutMs',
  'tamperLoses',
  'forcedLossDiff',
];

const FIELDS: readonly (keyof RefereeConfig)[] = [
  'moveTimeoutMs',
  'turnTimeoutMs',
  'quitEndsGame',
  'gameRules',
  'illegalMoveLimit',
  'constructTimeoutMs',
  'loadTimeoutMs',
  'memoryMb',
  'tamperLoses',
  'forcedLossDiff',
  'seedPlayerRandom',
  'firstMoveFactor',
  'timeBankMs',
  'strikeLimit',
  'strikeGraceMs',
  'timeMultipliers',
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
 * constructTimeoutMs and turnTimeoutMs default to the resolved moveTimeoutMs. Throws one-line errors naming the field and the fix.
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
  const loadTimeoutMs =
    positiveInteger(fields, 'loadTimeoutMs', 'give milliseconds for loading the submission, e.g. 60000 for 60 s') ??
    DEFAULT_REFEREE_CONFIG.loadTimeoutMs;
  const memoryMb = positiveInteger(fields, 'memoryMb', 'give megabytes, e.g. 1024 for 1 GB') ?? DEFAULT_REFEREE_CONFIG.memoryMb;
  if (memoryMb !== undefined && memoryMb < 32) {
    throw new RangeError(`referee config: memoryMb must be at least 32 (got ${memoryMb}); no player runtime starts in less`);
  }
  const turnTimeoutMs =
    positiveInteger(fields, 'turnTimeoutMs', 'give milliseconds for the whole turn, e.g. 60000 for 60 s') ??
    moveTimeoutMs;
  const tamperLoses = fields.tamperLoses ?? DEFAULT_REFEREE_CONFIG.tamperLoses;
  if (typeof tamperLoses !== 'boolean') {
    throw new TypeError(`referee config: tamperLoses must be true or false (got ${show(tamperLoses)})`);
  }
  const quitEndsGame = fields.quitEndsGame ?? DEFAULT_REFEREE_CONFIG.quitEndsGame;
  if (typeof quitEndsGame !== 'boolean') {
    throw new TypeError(`referee config: quitEndsGame must be true or false (got ${show(quitEndsGame)})`);
  }
  const seedPlayerRandom = fields.seedPlayerRandom ?? DEFAULT_REFEREE_CONFIG.seedPlayerRandom;
  if (typeof seedPlayerRandom !== 'boolean') {
    throw new TypeError(`referee config: seedPlayerRandom must be true or false (got ${show(seedPlayerRandom)})`);
  }
  const gameRules = fields.gameRules;
  if (gameRules !== undefined) {
    if (typeof gameRules !== 'object' || gameRules === null || Array.isArray(gameRules)) {
      throw new TypeError(`referee config: gameRules must be an object like { "centerFirstMoveBanned": false } (got ${show(gameRules)})`);
    }
    for (const [name, value] of Object.entries(gameRules)) {
      if (typeof value !== 'boolean') {
        throw new TypeError(`referee config: gameRules.${name} must be true or false (got ${show(value)})`);
      }
    }
  }
  const forcedLossDiff = fields.forcedLossDiff ?? DEFAULT_REFEREE_CONFIG.forcedLossDiff;
  if (typeof forcedLossDiff !== 'number' || !Number.isSafeInteger(forcedLossDiff) || forcedLossDiff < 0) {
    throw new RangeError(
      `referee config: forcedLossDiff must be a non-negative integer (got ${show(forcedLossDiff)}); game.py uses 0`,
    );
  }
  const policies = timePolicies(fields);
  const config: RefereeConfig = {
    ...policies,
    moveTimeoutMs,
    turnTimeoutMs,
    quitEndsGame,
    illegalMoveLimit,
    constructTimeoutMs,
    loadTimeoutMs,
    memoryMb,
    tamperLoses,
    forcedLossDiff,
    seedPlayerRandom,
  };
  if (gameRules !== undefined) config.gameRules = Object.freeze({ ...(gameRules as GameRules) });
  return Object.freeze(config);
}

/** The optional time policies, validated (each error names the field and the fix). */
function timePolicies(fields: Record<string, unknown>): Partial<RefereeConfig> {
  const out: { -readonly [K in keyof RefereeConfig]?: RefereeConfig[K] } = {};
  const factor = (name: 'firstMoveFactor', value: unknown, what: string): number => {
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 1 || value > 100) {
      throw new RangeError(`referee config: ${name} must be a number from 1 to 100 (got ${show(value)}); ${what}`);
    }
    return value;
  };
  if (fields.firstMoveFactor !== undefined) out.firstMoveFactor = factor('firstMoveFactor', fields.firstMoveFactor, 'Botzone doubles the first turn: 2');
  const bank = fields.timeBankMs;
  if (bank !== undefined) {
    if (typeof bank !== 'number' || !Number.isSafeInteger(bank) || bank < 0 || bank > MAX_TIMER_MS) {
      throw new RangeError(`referee config: timeBankMs must be a non-negative integer of ms (got ${show(bank)}); e.g. 10000 for a 10 s bank per game`);
    }
    if (bank > 0) out.timeBankMs = bank;
  }
  const strikes = positiveInteger(fields, 'strikeLimit', 'give the strike that loses, e.g. 3 (two moves over the limit are played, the third loses)');
  if (strikes !== undefined) out.strikeLimit = strikes;
  const grace = positiveInteger(fields, 'strikeGraceMs', 'give how long past the limit a struck move may take, in ms');
  if (grace !== undefined) {
    if (strikes === undefined) throw new RangeError('referee config: strikeGraceMs needs strikeLimit (the strike that loses); add "strikeLimit": 3');
    out.strikeGraceMs = grace;
  }
  const multipliers = fields.timeMultipliers;
  if (multipliers !== undefined) {
    if (typeof multipliers !== 'object' || multipliers === null || Array.isArray(multipliers)) {
      throw new TypeError(`referee config: timeMultipliers must be an object like { "Python": 6, "JavaScript": 2 } (got ${show(multipliers)})`);
    }
    for (const [language, value] of Object.entries(multipliers)) {
      if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0 || value > 100) {
        throw new RangeError(`referee config: timeMultipliers.${language} must be a number above 0 and at most 100 (got ${show(value)})`);
      }
    }
    out.timeMultipliers = Object.freeze({ ...(multipliers as Record<string, number>) });
  }
  return out;
}

/** What one player's limits are multiplied by: its language's multiplier, and the first-turn factor on its first turn. */
export function timeFactor(config: RefereeConfig, language: string | undefined, firstTurn: boolean): number {
  const byLanguage = language !== undefined ? (config.timeMultipliers?.[language] ?? 1) : 1;
  return byLanguage * (firstTurn ? (config.firstMoveFactor ?? 1) : 1);
}

/**
 * The Botzone judge's rules as a preset (assignment "platform": "botzone"): 1 s a turn scaled by language (C/C++ 1,
 * JavaScript 2, Java 3, Python 6), the first turn doubled, 256 MB, one invalid action loses, no retries; the game's own
 * Botzone rulings come from gameRules (NoGo allows a first move on the centre).
 */
export const BOTZONE_PRESET: Readonly<Partial<RefereeConfig>> = Object.freeze({
  // One limit a turn (no retries on Botzone): turnTimeoutMs is left to follow moveTimeoutMs, so a moveTimeoutMs set
  // beside the preset moves both (a fixed 1000 here capped a bot given 10 s a move at 2 s on its first turn).
  moveTimeoutMs: 1000,
  constructTimeoutMs: 10_000,
  illegalMoveLimit: 1,
  // Botzone's 256 MB for every bot.
  memoryMb: 256,
  firstMoveFactor: 2,
  timeMultipliers: Object.freeze({ 'C++': 1, JavaScript: 2, TypeScript: 2, Java: 3, Python: 6 }),
});

/** Botzone's rulings per game where they differ from our courses' defaults. */
export const BOTZONE_GAME_RULES: Readonly<Record<string, GameRules>> = Object.freeze({
  nogo: Object.freeze({ centerFirstMoveBanned: false }),
});

/** The config of a platform preset for a game, under what the caller set explicitly. */
export function presetConfig(platform: 'course' | 'botzone', game: string, partial?: Partial<RefereeConfig> | null): Partial<RefereeConfig> {
  if (platform !== 'botzone') return { ...(partial ?? {}) };
  const rules = BOTZONE_GAME_RULES[game];
  const explicit = Object.fromEntries(Object.entries(partial ?? {}).filter(([, value]) => value !== undefined));
  const gameRules = rules || explicit.gameRules ? { ...(rules ?? {}), ...((explicit.gameRules as GameRules | undefined) ?? {}) } : undefined;
  return { ...BOTZONE_PRESET, ...explicit, ...(gameRules ? { gameRules } : {}) };
}

/** A game's declared rule switches, each with its default (see Game.ruleOptions). */
export interface RuleOptionsOf {
  readonly id?: string;
  readonly ruleOptions?: Readonly<Record<string, { readonly default: boolean; readonly description: string }>>;
}

/**
 * The game's rule switches with defaults filled in; an unknown switch is a one-line error naming the known ones.
 * Empty for a game that declares none.
 */
export function gameRulesFor(game: RuleOptionsOf, rules: GameRules | undefined): GameRules {
  const declared = game.ruleOptions ?? {};
  for (const name of Object.keys(rules ?? {})) {
    if (!Object.hasOwn(declared, name)) {
      const known = Object.keys(declared);
      throw new RangeError(
        `referee config: gameRules.${name} is not a rule of ${game.id ?? 'this game'}; ` +
          (known.length > 0 ? `its rules are ${known.join(', ')}` : 'it has no rule switches'),
      );
    }
  }
  const resolved: Record<string, boolean> = {};
  for (const [name, option] of Object.entries(declared)) resolved[name] = rules?.[name] ?? option.default;
  return Object.freeze(resolved);
}

/**
 * The config a game is played under: the platform defaults, then the game's own rule defaults (game.defaultRules),
 * then what the caller set explicitly.
 */
export function configForGame(
  game: { readonly defaultRules?: Partial<Pick<RefereeConfig, 'moveTimeoutMs' | 'illegalMoveLimit' | 'memoryMb' | 'loadTimeoutMs'>> } & RuleOptionsOf,
  partial?: Partial<RefereeConfig> | null,
): RefereeConfig {
  const explicit = Object.fromEntries(Object.entries(partial ?? {}).filter(([, value]) => value !== undefined));
  const resolved = resolveConfig({ ...game.defaultRules, ...explicit });
  if (game.ruleOptions === undefined && resolved.gameRules === undefined) return resolved;
  return Object.freeze({ ...resolved, gameRules: gameRulesFor(game, resolved.gameRules) });
}
