/**
 * The assignment config: a JSON file validated against grading/assignment.schema.json, resolved into a complete
 * Assignment (every default filled in). Omitted fields reproduce the course platform (60 s per move, three asks,
 * touching the board loses); DEFAULT_ASSIGNMENT is the built-in ladder used when no config is given.
 */
import type { SubmissionProtocol } from '../harness/submission/resolve.js';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { basename, dirname, isAbsolute, resolve } from 'node:path';
import type { ErrorObject } from 'ajv';
import { distance } from 'fastest-levenshtein';
import { schemaValidator, type SchemaSpec } from '../harness/schema/validator.js';
import { gameIds, getGame } from '../harness/games/registry.js';
import { configForGame, presetConfig, type RefereeConfig } from '../harness/referee/config.js';
import { referenceLevels, referenceNames } from '../reference-ai/index.js';
import { packageFile } from './package-root.js';
import { oneLine } from '../harness/referee/verdict.js';

export type Visibility = 'visible' | 'hidden' | 'after_due_date' | 'after_published';

/** A fixed-N rule: how a win rate over all the item's games becomes points. */
export type FixedRule =
  /** Full points at or above winRate, none below. */
  | { rule: 'threshold'; winRate: number }
  /** 0 at minWinRate, full points at fullWinRate, linear between. */
  | { rule: 'linear'; minWinRate: number; fullWinRate: number };

/**
 * Sequential: game pairs until the SPRT of elo1 against elo0 (the submission's Elo over the opponent's) decides;
 * H1 → full points, H0 → none; maxGames undecided → the fallback rule on the win rate.
 */
export interface SprtRule {
  rule: 'sprt';
  elo0: number;
  elo1: number;
  alpha: number;
  beta: number;
  maxGames: number;
  fallback: FixedRule;
}

export type ScoringRule = FixedRule | SprtRule;

/** One level of a ladder item: a reference AI and the points for beating it (and everything below). */
export interface LadderLevel {
  name: string;
  points: number;
}

export interface OpponentItem {
  /** Reference AI name (a ladder item: its levels joined with ' → '). */
  name: string;
  title: string;
  /** Even: half as each colour. With the sprt rule: the cap per opponent (maxGames). */
  games: number;
  /** A ranked ladder (weakest first): SPRT per level, points of the highest level beaten, stop at the first not beaten. */
  ladder?: LadderLevel[];
  points: number;
  scoring: ScoringRule;
  seed: number;
  /** The opponent's first N moves are random (seeded), for variety against deterministic references. */
  openingMoves: number;
  visibility: Visibility;
}

/** The optional tournament rubric item: a submission's rank or rating in `referee tournament` as points. */
export interface TournamentItem {
  title: string;
  points: number;
  scoring:
    | { rule: 'rank'; fullPercentile: number; zeroPercentile: number }
    | { rule: 'rating'; minElo: number; fullElo: number; use: 'estimate' | 'lower' };
}

export interface Assignment {
  title: string;
  game: string;
  referee: RefereeConfig;
  parallelGames: number;
  /** Submission size caps, checked before compiling (absent: 5 MB and 500 files; kept out of the hash when unset). */
  maxSubmissionMb?: number;
  maxFiles?: number;
  /** The entry file inside every submission folder (relative), over the name conventions. */
  entry?: string;
  /** 'botzone': every submission is a Botzone bot whatever its source shows; 'course': never one (default: detected). */
  protocol?: SubmissionProtocol;
  interfaceCheck: { points: number; visibility: Visibility };
  opponents: OpponentItem[];
  tournament?: TournamentItem;
}

/** One problem in a config: the JSON pointer of the offending value and what to write instead. */
export interface ConfigIssue {
  pointer: string;
  message: string;
}

/** A config that does not validate. The message lists every issue, one per line, as `pointer: fix`. */
export class AssignmentError extends Error {
  constructor(
    readonly issues: ConfigIssue[],
    readonly source: string,
  ) {
    super(`${source} is not a valid assignment:\n${issues.map((issue) => `  ${issue.pointer}: ${issue.message}`).join('\n')}`);
    this.name = 'AssignmentError';
  }
}

export const SCHEMA_PATH = packageFile('grading', 'assignment.schema.json');

/** Defaults for what a config file leaves out (the referee's rules come from configForGame: platform, then game). */
const PLATFORM = {
  title: 'Reversi AI',
  game: 'reversi',
  parallelGames: 1,
  interfacePoints: 10,
  games: 10,
  seed: 1,
  scoring: { rule: 'threshold', winRate: 0.5 } as ScoringRule,
  visibility: 'visible' as Visibility,
};

/**
 * The built-in assignment: a ladder that separates a weak, a fair and a strong AI, with 0.5 s per move so a whole
 * local grade takes a few minutes at most even for an AI that uses all its time.
 */
export const DEFAULT_ASSIGNMENT_JSON = {
  title: 'Reversi AI (built-in ladder)',
  game: 'reversi',
  moveTimeoutMs: 500,
  constructTimeoutMs: 5000,
  illegalMoveLimit: 3,
  tamperLoses: true,
  interfaceCheck: { points: 10 },
  opponents: [
    { name: 'random', title: 'vs random', games: 10, points: 30, seed: 1, scoring: { rule: 'linear', minWinRate: 0.5, fullWinRate: 0.9 } },
    { name: 'weighted', title: 'vs weighted', games: 10, points: 30, seed: 2, openingMoves: 2, scoring: { rule: 'linear', minWinRate: 0.3, fullWinRate: 0.7 } },
    { name: 'mobility', title: 'vs mobility', games: 10, points: 30, seed: 3, openingMoves: 2, scoring: { rule: 'linear', minWinRate: 0.1, fullWinRate: 0.5 } },
  ],
} as const;

/** The assignment schema's validator (compiled at build time); fixHint is our annotation: the fix to print. */
export const ASSIGNMENT_SCHEMA: SchemaSpec = {
  name: 'assignment',
  schema: () => JSON.parse(readFileSync(SCHEMA_PATH, 'utf8')) as object,
  options: { allErrors: true, verbose: true, discriminator: true, strict: true, strictRequired: false },
  annotations: ['fixHint'],
};

/** The candidate nearest to a misspelt word (Levenshtein), for "did you mean". */
function closest(word: string, candidates: readonly string[]): string | null {
  let best: string | null = null;
  let bestDistance = Infinity;
  for (const candidate of candidates) {
    const d = distance(word.toLowerCase(), candidate.toLowerCase());
    if (d < bestDistance) [best, bestDistance] = [candidate, d];
  }
  return best !== null && bestDistance <= Math.max(2, Math.floor(word.length / 3)) ? best : null;
}

const escapePointer = (key: string): string => key.replace(/~/g, '~0').replace(/\//g, '~1');

/** One issue per ajv error, phrased as the fix; type errors on a value win over its other complaints. */
function issuesOf(errors: ErrorObject[]): ConfigIssue[] {
  const issues: ConfigIssue[] = [];
  const seen = new Set<string>();
  const add = (pointer: string, message: string): void => {
    const key = `${pointer}\u0000${message}`;
    if (seen.has(key)) return;
    seen.add(key);
    issues.push({ pointer: pointer || '/', message });
  };
  for (const error of errors) {
    const parent = error.parentSchema as { fixHint?: string; properties?: Record<string, unknown> } | undefined;
    switch (error.keyword) {
      case 'additionalProperties': {
        const key = (error.params as { additionalProperty: string }).additionalProperty;
        const known = Object.keys(parent?.properties ?? {}).filter((name) => name !== '$schema');
        const guess = closest(key, known);
        add(
          `${error.instancePath}/${escapePointer(key)}`,
          `unknown key${guess ? ` (did you mean "${guess}"?)` : ''}: remove it or use one of ${known.join(', ')}`,
        );
        break;
      }
      case 'required': {
        const key = (error.params as { missingProperty: string }).missingProperty;
        const hint = (parent?.properties?.[key] as { fixHint?: string } | undefined)?.fixHint;
        add(`${error.instancePath}/${escapePointer(key)}`, `is required${hint ? ` and ${hint}` : ''}`);
        break;
      }
      case 'discriminator': {
        add(`${error.instancePath}/rule`, error.instancePath.startsWith('/tournament') ? 'must be "rank" or "rating"' : 'must be "threshold", "linear" or "sprt"');
        break;
      }
      default:
        add(error.instancePath, parent?.fixHint ?? (error.message ?? 'is invalid'));
    }
  }
  return issues;
}

/** The sprt rule with its defaults filled in (fallback: threshold at the score halfway between elo0 and elo1). */
function resolveScoring(raw: Record<string, unknown> | undefined): ScoringRule {
  if (raw === undefined) return PLATFORM.scoring;
  if (raw.rule !== 'sprt') return raw as unknown as FixedRule;
  const elo0 = raw.elo0 as number;
  const elo1 = raw.elo1 as number;
  const middle = 1 / (1 + Math.pow(10, -(elo0 + elo1) / 2 / 400));
  return {
    rule: 'sprt',
    elo0,
    elo1,
    alpha: (raw.alpha as number | undefined) ?? 0.05,
    beta: (raw.beta as number | undefined) ?? 0.05,
    maxGames: (raw.maxGames as number | undefined) ?? 400,
    fallback: (raw.fallback as FixedRule | undefined) ?? { rule: 'threshold', winRate: Math.round(middle * 10000) / 10000 },
  };
}

/** The levels of a ladder item; plain names get points rising evenly to the item's points. */
function resolveLadder(raw: unknown, points: number): LadderLevel[] | undefined {
  if (!Array.isArray(raw)) return undefined;
  return raw.map((level: unknown, index) =>
    typeof level === 'string'
      ? { name: level, points: Math.round(((points * (index + 1)) / raw.length) * 100) / 100 }
      : { name: (level as LadderLevel).name, points: (level as LadderLevel).points },
  );
}

/** The reference AI played in game `index` of an item (a ladder item's levels follow each other, maxGames each). */
export function opponentAt(item: OpponentItem, index: number): string {
  return item.ladder ? item.ladder[Math.min(item.ladder.length - 1, Math.floor(index / item.games))].name : item.name;
}

/** Game slots an item has: its games, times its levels for a ladder. */
/** The most games one student may be asked to play (all opponents and ladder levels together). */
export const MAX_GAMES_PER_STUDENT = 20000;

export const slotCount = (item: OpponentItem): number => item.games * (item.ladder?.length ?? 1);

/** Items whose games are played in pairs until a decision, not all at once. */
export const isSequential = (item: OpponentItem): boolean => item.scoring.rule === 'sprt';

/**
 * An opponent named by a path to a compiled C++ player (the Connect Four course's TestCases/*.so) instead of a
 * reference AI: untrusted, it plays sandboxed like a submission. Relative paths are relative to the assignment file.
 */
export const isCompiledOpponent = (name: string): boolean => name.endsWith('.so');

/** An opponent's name as shown in titles and records: a compiled test AI by its file name. */
export const opponentLabel = (name: string): string => (isCompiledOpponent(name) ? basename(name) : name);

/** Every compiled test AI an assignment plays against (absolute paths, each once). */
export function compiledOpponents(assignment: Assignment): string[] {
  const names = assignment.opponents.flatMap((item) => (item.ladder ? item.ladder.map((level) => level.name) : [item.name]));
  return [...new Set(names.filter(isCompiledOpponent))];
}

function resolveItem(raw: Record<string, unknown>): OpponentItem {
  const points = raw.points as number;
  const ladder = resolveLadder(raw.ladder, points);
  const name = ladder ? ladder.map((level) => level.name).join(' → ') : (raw.name as string);
  const shown = ladder ? ladder.map((level) => opponentLabel(level.name)).join(' → ') : opponentLabel(name);
  const scoring = resolveScoring(raw.scoring as Record<string, unknown> | undefined);
  return {
    name,
    title: (raw.title as string | undefined) ?? (ladder ? `ladder: ${shown}` : `vs ${shown}`),
    games: scoring.rule === 'sprt' ? scoring.maxGames : (raw.games as number | undefined) ?? PLATFORM.games,
    ...(ladder ? { ladder } : {}),
    points: ladder ? Math.max(...ladder.map((level) => level.points)) : points,
    scoring,
    seed: (raw.seed as number | undefined) ?? PLATFORM.seed,
    // Paired (SPRT) games open with a random line for both sides: 4 plies unless the config says otherwise.
    openingMoves: (raw.openingMoves as number | undefined) ?? (scoring.rule === 'sprt' ? 4 : 0),
    visibility: (raw.visibility as Visibility | undefined) ?? PLATFORM.visibility,
  };
}

/**
 * Validate untrusted JSON (already parsed) and fill in the defaults. `source` names the file in errors.
 * Throws an AssignmentError listing every problem with its JSON pointer.
 */
export function resolveAssignment(json: unknown, source = 'the assignment', baseDir = process.cwd()): Assignment {
  const validate = schemaValidator(ASSIGNMENT_SCHEMA);
  if (!validate(json)) throw new AssignmentError(issuesOf(validate.errors ?? []), source);
  return fillAssignment(json, source, baseDir);
}

/**
 * Defaults and the checks the schema cannot express, for JSON that meets the schema: untrusted JSON has passed
 * resolveAssignment's check; the built-in assignments are ours (tests/grading/assignment.test.ts validates every
 * game's against the schema), so reading their limits loads no validator.
 */
function fillAssignment(json: unknown, source: string, baseDir: string): Assignment {
  const raw = withCompiledPaths(json as Record<string, unknown>, baseDir);
  const issues: ConfigIssue[] = [];
  const game = (raw.game as string | undefined) ?? PLATFORM.game;
  if (!gameIds().includes(game)) issues.push({ pointer: '/game', message: `unknown game "${game}": use one of ${gameIds().join(', ')}` });
  const rawOpponents = (raw.opponents as Record<string, unknown>[] | undefined) ?? [];
  if (raw.opponents === undefined && raw.tournament === undefined) issues.push({ pointer: '/opponents', message: 'is required: list at least one reference opponent, e.g. [{ "name": "random", "games": 10, "points": 30 }]' });
  const known = issues.length === 0 ? referenceNames(game) : [];
  rawOpponents.forEach((raw, index) => {
    if (raw.name === undefined && raw.ladder === undefined) {
      issues.push({ pointer: `/opponents/${index}/name`, message: 'is required: name a reference AI, e.g. "random" (or give a "ladder" of them)' });
    } else if (raw.name !== undefined && raw.ladder !== undefined) {
      issues.push({ pointer: `/opponents/${index}/ladder`, message: 'cannot go with "name": a ladder item names its opponents in "ladder"; remove "name"' });
    } else if (raw.ladder !== undefined && (raw.scoring as { rule?: string } | undefined)?.rule !== 'sprt') {
      issues.push({ pointer: `/opponents/${index}/scoring`, message: 'a ladder needs the sprt rule (each level is beaten or not by an SPRT), e.g. { "rule": "sprt", "elo0": 0, "elo1": 100 }' });
    } else if (raw.scoring !== undefined && (raw.scoring as { rule?: string }).rule === 'sprt' && raw.games !== undefined) {
      issues.push({ pointer: `/opponents/${index}/games`, message: 'does not go with the sprt rule: its "maxGames" caps the games; remove "games"' });
    }
  });
  if (issues.length > 0) throw new AssignmentError(issues, source);
  const opponents = rawOpponents.map(resolveItem);
  opponents.forEach((item, index) => {
    const names = item.ladder ? item.ladder.map((level) => level.name) : [item.name];
    names.forEach((name, level) => {
      if (isCompiledOpponent(name)) {
        if (!existsSync(name)) {
          issues.push({
            pointer: item.ladder ? `/opponents/${index}/ladder/${level}` : `/opponents/${index}/name`,
            message: `the compiled test AI ${name} does not exist: give its path relative to the assignment file`,
          });
        }
        return;
      }
      if (issues.length > 0 || known.includes(name)) return;
      const guess = closest(name, known);
      issues.push({
        pointer: item.ladder ? `/opponents/${index}/ladder/${level}` : `/opponents/${index}/name`,
        message: `unknown reference AI "${name}"${guess ? ` (did you mean "${guess}"?)` : ''}: use one of ${known.join(', ')}`,
      });
    });
    if (item.scoring.rule === 'sprt' && !(item.scoring.elo0 < item.scoring.elo1)) {
      issues.push({ pointer: `/opponents/${index}/scoring/elo1`, message: 'must be greater than elo0, e.g. elo0 0 and elo1 100' });
    }
    const fixed = item.scoring.rule === 'sprt' ? item.scoring.fallback : item.scoring;
    if (fixed.rule === 'linear' && !(fixed.minWinRate < fixed.fullWinRate)) {
      issues.push({ pointer: `/opponents/${index}/scoring${item.scoring.rule === 'sprt' ? '/fallback' : ''}/fullWinRate`, message: 'must be greater than minWinRate, e.g. minWinRate 0.2 and fullWinRate 0.6' });
    }
  });
  // Every count is bounded (the schema's maxima), and so is their product: a typo cannot plan millions of games.
  const gamesPerStudent = opponents.reduce((sum, item) => sum + slotCount(item), 0);
  if (gamesPerStudent > MAX_GAMES_PER_STUDENT) {
    issues.push({ pointer: '/opponents', message: `plan ${gamesPerStudent} games a student, over ${MAX_GAMES_PER_STUDENT}: fewer games (or ladder levels) per opponent` });
  }
  if (issues.length > 0) throw new AssignmentError(issues, source);
  // Rules the file leaves out: the platform's, then the game's own (e.g. connect4-nogo: 3 s, illegal loses).
  let rules: RefereeConfig;
  try {
    rules = configForGame(getGame(game), presetConfig(raw.platform === 'botzone' ? 'botzone' : 'course', game, {
      timeBankMs: raw.timeBankMs as number | undefined,
      strikeLimit: raw.strikeLimit as number | undefined,
      strikeGraceMs: raw.strikeGraceMs as number | undefined,
      firstMoveFactor: raw.firstMoveFactor as number | undefined,
      timeMultipliers: raw.timeMultipliers as Record<string, number> | undefined,
      moveTimeoutMs: raw.moveTimeoutMs as number | undefined,
      illegalMoveLimit: raw.illegalMoveLimit as number | undefined,
      constructTimeoutMs: raw.constructTimeoutMs as number | undefined,
      loadTimeoutMs: raw.loadTimeoutMs as number | undefined,
      memoryMb: raw.memoryMb as number | undefined,
      tamperLoses: raw.tamperLoses as boolean | undefined,
      forcedLossDiff: raw.forcedLossDiff as number | undefined,
      turnTimeoutMs: raw.turnTimeoutMs as number | undefined,
      quitEndsGame: raw.quitEndsGame as boolean | undefined,
      seedPlayerRandom: raw.seedPlayerRandom as boolean | undefined,
      gameRules: raw.gameRules as Record<string, boolean> | undefined,
    }));
  } catch (error) {
    // The schema admits values the referee refuses (e.g. a time limit beyond Node's longest timer).
    const field = /referee config: ([\w.]+)/.exec((error as Error).message)?.[1];
    const pointer = `/${(field ?? '').replace('.', '/')}`;
    throw new AssignmentError([{ pointer, message: (error as Error).message.replace(/^referee config: [\w.]+ /, '') }], source);
  }
  const tournament = resolveTournamentItem(raw.tournament as Record<string, unknown> | undefined);
  if (tournament?.scoring.rule === 'rating' && !(tournament.scoring.minElo < tournament.scoring.fullElo)) {
    throw new AssignmentError([{ pointer: '/tournament/scoring/fullElo', message: 'must be greater than minElo, e.g. minElo 0 and fullElo 400' }], source);
  }
  if (tournament?.scoring.rule === 'rank' && !(tournament.scoring.fullPercentile < tournament.scoring.zeroPercentile)) {
    throw new AssignmentError([{ pointer: '/tournament/scoring/zeroPercentile', message: 'must be greater than fullPercentile, e.g. fullPercentile 0.1 and zeroPercentile 0.9' }], source);
  }
  const interfaceCheck = (raw.interfaceCheck as { points?: number; visibility?: Visibility } | undefined) ?? {};
  return {
    title: (raw.title as string | undefined) ?? PLATFORM.title,
    game,
    referee: rules,
    parallelGames: (raw.parallelGames as number | undefined) ?? PLATFORM.parallelGames,
    ...(raw.maxSubmissionMb !== undefined ? { maxSubmissionMb: raw.maxSubmissionMb as number } : {}),
    ...(raw.maxFiles !== undefined ? { maxFiles: raw.maxFiles as number } : {}),
    ...(raw.entry !== undefined ? { entry: raw.entry as string } : {}),
    ...(raw.protocol !== undefined ? { protocol: raw.protocol as SubmissionProtocol } : {}),
    interfaceCheck: {
      points: interfaceCheck.points ?? PLATFORM.interfacePoints,
      visibility: interfaceCheck.visibility ?? PLATFORM.visibility,
    },
    opponents,
    ...(tournament ? { tournament } : {}),
  };
}

function resolveTournamentItem(raw: Record<string, unknown> | undefined): TournamentItem | undefined {
  if (raw === undefined) return undefined;
  const scoring = raw.scoring as Record<string, unknown>;
  return {
    title: (raw.title as string | undefined) ?? 'Tournament',
    points: raw.points as number,
    scoring:
      scoring.rule === 'rank'
        ? { rule: 'rank', fullPercentile: (scoring.fullPercentile as number | undefined) ?? 0, zeroPercentile: (scoring.zeroPercentile as number | undefined) ?? 1 }
        : { rule: 'rating', minElo: scoring.minElo as number, fullElo: scoring.fullElo as number, use: (scoring.use as 'estimate' | 'lower' | undefined) ?? 'estimate' },
  };
}

/** Whether `prefix` could begin a valid JSON text (it parses, or fails only for ending early). */
function validSoFar(prefix: string): boolean {
  try {
    JSON.parse(prefix);
    return true;
  } catch (error) {
    const message = (error as Error).message;
    // Cut short, V8 says "Unexpected end", or names the position just past the prefix.
    const position = /at position (\d+)/.exec(message);
    return /Unexpected end of JSON input/.test(message) || (position !== null && Number(position[1]) >= prefix.length);
  }
}

/**
 * A JSON syntax error as "<what> at line L, column C", which an editor can jump to. V8's messages give a
 * character position at best (and none for some errors), so the place is found directly: the longest prefix
 * that is still a valid beginning of JSON ends where the error is (binary search, a few parses).
 */
export function jsonErrorAt(text: string, message: string): string {
  let low = 0;
  let high = text.length;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (validSoFar(text.slice(0, middle))) low = middle;
    else high = middle - 1;
  }
  const at = Math.min(low, Math.max(0, text.length - 1));
  const before = text.slice(0, at);
  const line = before.split('\n').length;
  const column = at - before.lastIndexOf('\n');
  const found = text[at] === undefined ? 'the end of the file' : JSON.stringify(text[at]);
  const what = /Unexpected end of JSON input/.test(message) ? 'the file ends too early' : `unexpected ${found}`;
  return `${what} at line ${line}, column ${column}`;
}

/** Read, parse and resolve an assignment file; a JSON syntax error is an AssignmentError at pointer "/". */
export function loadAssignment(path: string): Assignment {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new AssignmentError([{ pointer: '/', message: `cannot read the file (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}): check the path` }], path);
  }
  // Editors on Windows save UTF-8 with a byte order mark; JSON.parse refuses it, so drop it.
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new AssignmentError([{ pointer: '/', message: `is not valid JSON (${jsonErrorAt(text, (error as Error).message)}): fix the syntax` }], path);
  }
  return resolveAssignment(json, path, dirname(resolve(path)));
}

/** The assignment with every compiled test AI's path made absolute (relative to `baseDir`). */
function withCompiledPaths(raw: Record<string, unknown>, baseDir: string): Record<string, unknown> {
  if (!Array.isArray(raw.opponents)) return raw;
  const absolute = (name: unknown): unknown => (typeof name === 'string' && isCompiledOpponent(name) && !isAbsolute(name) ? resolve(baseDir, name) : name);
  const opponents = (raw.opponents as Record<string, unknown>[]).map((item) => {
    const copy: Record<string, unknown> = { ...item };
    if (item.name !== undefined) copy.name = absolute(item.name);
    if (Array.isArray(item.ladder)) {
      copy.ladder = item.ladder.map((level: unknown) =>
        typeof level === 'object' && level !== null ? { ...(level as Record<string, unknown>), name: absolute((level as { name: unknown }).name) } : absolute(level),
      );
    }
    return copy;
  });
  return { ...raw, opponents };
}

/**
 * The built-in assignment for a game. Reversi's is tuned by hand (above); any other game's is derived from its
 * measured ladder — its three weakest quick levels, scored linearly like Reversi's — so a new game needs no edit
 * here (levels marked heavy are left out). Move limit: the game's own default, else Reversi's 500 ms.
 */
export function defaultAssignment(gameId = 'reversi'): Assignment {
  const source = gameId === DEFAULT_ASSIGNMENT_JSON.game ? 'the built-in assignment' : `the built-in ${gameId} assignment`;
  return fillAssignment(builtInAssignmentJson(gameId), source, process.cwd());
}

/** The built-in assignment's JSON for a game (a fresh copy), as a file would hold it. */
export function builtInAssignmentJson(gameId = 'reversi'): Record<string, unknown> {
  if (gameId === DEFAULT_ASSIGNMENT_JSON.game) return JSON.parse(JSON.stringify(DEFAULT_ASSIGNMENT_JSON)) as Record<string, unknown>;
  const game = getGame(gameId);
  const rungs = DEFAULT_ASSIGNMENT_JSON.opponents;
  const quick = referenceLevels(gameId).filter((level) => !level.heavy).map((level) => level.name);
  const opponents = quick.slice(0, rungs.length).map((name, index) => ({
    ...rungs[index],
    name,
    title: `vs ${name}`,
  }));
  const json = {
    ...DEFAULT_ASSIGNMENT_JSON,
    title: `${game.title} (built-in ladder)`,
    game: gameId,
    moveTimeoutMs: game.defaultRules?.moveTimeoutMs ?? DEFAULT_ASSIGNMENT_JSON.moveTimeoutMs,
    illegalMoveLimit: game.defaultRules?.illegalMoveLimit ?? DEFAULT_ASSIGNMENT_JSON.illegalMoveLimit,
    opponents,
  };
  return JSON.parse(JSON.stringify(json)) as Record<string, unknown>;
}

/** Canonical JSON (sorted keys) so equal configs hash equal whatever their key order. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

export function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** The hash of a resolved assignment, written into every grade and used to key resumable games. */
export function assignmentHash(assignment: Assignment): string {
  return sha256(canonicalJson(assignment));
}
