/**
 * What a queue worker accepts, as JSON Schemas checked with ajv before anything runs: a game job (players only
 * by reference-AI name or artefact hash; no path, no command, no extra field) and an artefact fetched from
 * Redis (relative paths only, base64 content, capped). Whatever else is in Redis is refused, not interpreted.
 */
import { Ajv, type ErrorObject } from 'ajv';
import { getGame } from '../../harness/games/registry.js';
import { gameRulesFor, resolveConfig } from '../../harness/referee/config.js';
import { isReferenceName, referenceAgentByName } from '../../reference-ai/budget.js';
import { ARTEFACT_LIMITS, safeArtefactPath, type Artefact } from '../pool/artefact.js';
import type { GameJob } from '../pool/job.js';

/**
 * Caps on what a queued job may ask of a worker, so one job (a forged one, or a typo) cannot hold a worker for
 * hours: per-ask and per-turn limits, the illegal-answer limit and a reference AI's playout budget.
 */
export const QUEUE_LIMITS = {
  moveTimeoutMs: 600_000,
  turnTimeoutMs: 1_800_000,
  constructTimeoutMs: 600_000,
  illegalMoveLimit: 100,
  playouts: 100_000,
  memoryMb: 65_536,
} as const;

/**
 * A game job as it sits on the queue: with the coordinator that waits for it, the workers it should avoid, and the
 * coordinator's signature over all of it (signing.ts): a worker plays only a signed job of a live coordinator.
 */
export interface QueuedJob extends GameJob {
  /** The coordinator's id; a worker drops the job when that coordinator's (signed) lease is gone. */
  coordinator: string;
  /** Workers whose record for this game did not check: another worker plays it when there is one. */
  avoid?: string[];
  /** HMAC-SHA256 (hex) of the rest under the queue's key. */
  signature: string;
}

const NAME = { type: 'string', minLength: 1, maxLength: 200 } as const;
/** Relative, '/'-separated, no '.', '..' or empty segment, no backslash or NUL (safeArtefactPath checks again). */
const RELATIVE_PATH = { type: 'string', minLength: 1, maxLength: 300, pattern: '^(?!/)(?!.*(^|/)\\.{1,2}(/|$))(?!.*//)[^\\\\\\u0000]+$' } as const;

const PLAYER = {
  oneOf: [
    {
      type: 'object',
      additionalProperties: false,
      required: ['kind', 'name', 'ai', 'openingMoves'],
      properties: {
        kind: { const: 'reference' },
        name: NAME,
        // A registry name, optionally with a node/playout budget (a tournament's 'mcts:2000').
        ai: { type: 'string', pattern: '^[a-z0-9][a-z0-9-]{0,63}(:[0-9]{1,9})?$' },
        openingMoves: { type: 'integer', minimum: 0, maximum: 1000 },
      },
    },
    {
      type: 'object',
      additionalProperties: false,
      required: ['kind', 'name', 'artefact', 'runtime', 'entry'],
      properties: {
        kind: { const: 'artefact' },
        name: NAME,
        artefact: { type: 'string', pattern: '^[0-9a-f]{64}$' },
        runtime: { enum: ['node', 'python', 'cpp', 'botzone'] },
        entry: RELATIVE_PATH,
      },
    },
  ],
} as const;

export const GAME_JOB_SCHEMA = {
  $id: 'referee.game-job/1',
  type: 'object',
  additionalProperties: false,
  required: ['key', 'harness', 'game', 'config', 'seed', 'players', 'label', 'coordinator', 'signature'],
  properties: {
    key: { type: 'string', pattern: '^[A-Za-z0-9:_-]{1,128}$' },
    harness: { type: 'string', pattern: '^[0-9A-Za-z.+-]{1,64}$' },
    game: { type: 'string', pattern: '^[a-z0-9][a-z0-9-]{0,63}$' },
    config: {
      type: 'object',
      additionalProperties: false,
      required: ['moveTimeoutMs', 'turnTimeoutMs', 'illegalMoveLimit', 'constructTimeoutMs', 'tamperLoses', 'forcedLossDiff', 'quitEndsGame'],
      properties: {
        moveTimeoutMs: { type: 'integer', minimum: 1, maximum: QUEUE_LIMITS.moveTimeoutMs },
        turnTimeoutMs: { type: 'integer', minimum: 1, maximum: QUEUE_LIMITS.turnTimeoutMs },
        quitEndsGame: { type: 'boolean' },
        // A game's own switches (NoGo's centerFirstMoveBanned); validateJob refuses names the game lacks.
        gameRules: {
          type: 'object',
          maxProperties: 16,
          propertyNames: { pattern: '^[A-Za-z][A-Za-z0-9]{0,63}$' },
          additionalProperties: { type: 'boolean' },
        },
        illegalMoveLimit: { type: 'integer', minimum: 1, maximum: QUEUE_LIMITS.illegalMoveLimit },
        constructTimeoutMs: { type: 'integer', minimum: 1, maximum: QUEUE_LIMITS.constructTimeoutMs },
        tamperLoses: { type: 'boolean' },
        forcedLossDiff: { type: 'number' },
        seedPlayerRandom: { type: 'boolean' },
        // Round 4's limits and time policies (config.ts), capped like the rest; resolveConfig checks them again.
        loadTimeoutMs: { type: 'integer', minimum: 1, maximum: QUEUE_LIMITS.constructTimeoutMs },
        memoryMb: { type: 'integer', minimum: 16, maximum: QUEUE_LIMITS.memoryMb },
        firstMoveFactor: { type: 'number', minimum: 1, maximum: 100 },
        timeBankMs: { type: 'integer', minimum: 0, maximum: QUEUE_LIMITS.turnTimeoutMs },
        strikeLimit: { type: 'integer', minimum: 0, maximum: QUEUE_LIMITS.illegalMoveLimit },
        strikeGraceMs: { type: 'integer', minimum: 0, maximum: QUEUE_LIMITS.moveTimeoutMs },
        timeMultipliers: {
          type: 'object',
          maxProperties: 16,
          propertyNames: { pattern: '^[A-Za-z+#]{1,32}$' },
          additionalProperties: { type: 'number', exclusiveMinimum: 0, maximum: 100 },
        },
      },
    },
    seed: { type: 'integer', minimum: -2147483648, maximum: 4294967295 },
    players: { type: 'array', minItems: 2, maxItems: 2, items: PLAYER },
    label: { type: 'string', maxLength: 400 },
    // A tournament's paired opening: book moves in the game's notation (the referee checks each is legal).
    opening: { type: 'array', maxItems: 400, items: { type: 'string', pattern: '^[A-Za-z0-9]{1,8}$' } },
    coordinator: { type: 'string', pattern: '^[A-Za-z0-9._:-]{1,200}$' },
    avoid: { type: 'array', maxItems: 8, items: NAME },
    signature: { type: 'string', pattern: '^[0-9a-f]{64}$' },
  },
} as const;

export const ARTEFACT_SCHEMA = {
  $id: 'referee.artefact/1',
  type: 'object',
  additionalProperties: false,
  required: ['format', 'hash', 'runtime', 'entry', 'files'],
  properties: {
    format: { const: 'referee.artefact/1' },
    hash: { type: 'string', pattern: '^[0-9a-f]{64}$' },
    runtime: { enum: ['node', 'python', 'cpp', 'botzone'] },
    entry: RELATIVE_PATH,
    files: {
      type: 'array',
      minItems: 1,
      maxItems: ARTEFACT_LIMITS.maxFiles,
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['path', 'base64'],
        properties: { path: RELATIVE_PATH, base64: { type: 'string', contentEncoding: 'base64' } },
      },
    },
  },
} as const;

const ajv = new Ajv({ allErrors: false, strict: true });
const checkJob = ajv.compile(GAME_JOB_SCHEMA);
const checkArtefact = ajv.compile(ARTEFACT_SCHEMA);

/** A job or artefact a worker refuses (never played, never retried). */
export class InvalidJobError extends Error {
  override name = 'InvalidJobError';
}

const describe = (errors: ErrorObject[] | null | undefined): string =>
  (errors ?? []).map((error) => `${error.instancePath || '/'} ${error.message ?? 'is invalid'}${error.keyword === 'maximum' ? ' (the queue\'s cap: see QUEUE_LIMITS in docs/reference.md)' : ''}`).join('; ');

/** Text from a job (labels, names, reasons) fit for a log line: no ANSI escapes or other control characters, capped. */
export function printable(text: unknown, max = 200): string {
  const clean = String(text)
    .replace(/\u001b\[[0-9;?]*[ -\/]*[@-~]/g, '')
    .replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g, '?');
  return clean.length > max ? `${clean.slice(0, max)}…` : clean;
}

/** The job, checked against the schema, the queue's caps and this worker's games and reference AIs. */
export function validateJob(data: unknown): QueuedJob {
  if (!checkJob(data)) throw new InvalidJobError(`job refused: ${describe(checkJob.errors)}`);
  const job = data as unknown as QueuedJob;
  try {
    resolveConfig(job.config);
    gameRulesFor(getGame(job.game), job.config.gameRules);
  } catch (error) {
    throw new InvalidJobError(`job refused: ${(error as Error).message}`);
  }
  for (const player of job.players) {
    if (player.kind === 'reference' && !isReferenceName(job.game, player.ai)) {
      throw new InvalidJobError(`job refused: ${job.game} has no reference AI '${player.ai}'`);
    }
    if (player.kind === 'reference') {
      const budget = Number(player.ai.split(':')[1] ?? 0);
      if (budget > QUEUE_LIMITS.playouts) throw new InvalidJobError(`job refused: ${player.ai} asks ${budget} playouts a move, over the queue's cap of ${QUEUE_LIMITS.playouts}`);
      try {
        referenceAgentByName(job.game, player.ai);
      } catch (error) {
        throw new InvalidJobError(`job refused: ${(error as Error).message}`);
      }
    }
    if (player.kind === 'artefact' && !safeArtefactPath(player.entry)) throw new InvalidJobError(`job refused: entry ${JSON.stringify(player.entry)}`);
  }
  return job;
}

/** Serialised form in Redis (JSON, files base64). */
export function encodeArtefact(artefact: Artefact): string {
  return JSON.stringify({
    format: 'referee.artefact/1',
    hash: artefact.hash,
    runtime: artefact.runtime,
    entry: artefact.entry,
    files: artefact.files.map((file) => ({ path: file.path, base64: file.bytes.toString('base64') })),
  });
}

/** An artefact read from Redis, shape-checked and capped; storeArtefact then checks its hash. */
export function decodeArtefact(text: string, expectedHash: string): Artefact {
  if (text.length > ARTEFACT_LIMITS.maxBytes * 1.4 + 65536) throw new InvalidJobError(`artefact ${expectedHash.slice(0, 12)} is over the size cap: refused`);
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw new InvalidJobError(`artefact ${expectedHash.slice(0, 12)} is not JSON: refused`);
  }
  if (!checkArtefact(data)) throw new InvalidJobError(`artefact ${expectedHash.slice(0, 12)} refused: ${describe(checkArtefact.errors)}`);
  const shaped = data as { hash: string; runtime: 'node' | 'python' | 'cpp' | 'botzone'; entry: string; files: { path: string; base64: string }[] };
  if (shaped.hash !== expectedHash) throw new InvalidJobError(`artefact ${expectedHash.slice(0, 12)} holds another artefact: refused`);
  const files = shaped.files.map((file) => ({ path: file.path, bytes: Buffer.from(file.base64, 'base64') }));
  if (files.reduce((sum, file) => sum + file.bytes.length, 0) > ARTEFACT_LIMITS.maxBytes) throw new InvalidJobError(`artefact ${expectedHash.slice(0, 12)} is over the size cap: refused`);
  return { hash: shaped.hash, runtime: shaped.runtime, entry: shaped.entry, files };
}
