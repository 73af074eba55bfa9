/**
 * The unit of work that both game pools run: one game, described completely by data (JSON), so it can cross a
 * process or a machine. A job names players only as specs — a built-in reference AI by name, or a compiled
 * submission artefact by content hash — never a path or a command, so whoever plays it runs nothing else.
 */
import { setMaxListeners } from 'node:events';
import type { RefereeConfig } from '../../harness/referee/config.js';
import type { GameRecord } from '../../harness/referee/record.js';
import type { Artefact } from './artefact.js';

/** A built-in reference AI of the job's game; `openingMoves` random plies (drawn from the game's seed) first. */
export interface ReferenceSpec {
  kind: 'reference';
  /** Shown in the record. */
  name: string;
  /** The reference AI's registry name for the job's game (e.g. 'greedy'), or mcts with a budget ('mcts:2000'). */
  ai: string;
  openingMoves: number;
}

/** A compiled submission, played behind the sandbox from the pool's artefact cache (see artefact.ts). */
export interface ArtefactSpec {
  kind: 'artefact';
  /** Shown in the record. */
  name: string;
  /** sha256 (64 hex) of the artefact's files: what the worker fetches and verifies. */
  artefact: string;
  /** 'botzone': a Botzone bot (a whole program); its artefact's botzone.json says how it talks. */
  runtime: 'node' | 'python' | 'cpp' | 'botzone';
  /** The entry file, relative to the artefact's folder. */
  entry: string;
}

export type PlayerSpec = ReferenceSpec | ArtefactSpec;

export interface GameJob {
  /**
   * Idempotency key: equal keys are the same game (everything that decides its moves), played once and
   * recorded once. Grading uses the journal's own key for the game (grading/batch/keys.ts playKey).
   */
  key: string;
  /** The harness version the coordinator runs; a worker of another version refuses the job. */
  harness: string;
  /** Game registry id. */
  game: string;
  config: RefereeConfig;
  seed: number;
  /** Indexed by side: [Black (moves first), White]. */
  players: [PlayerSpec, PlayerSpec];
  /** For progress lines only, e.g. 'alice vs greedy #3'. */
  label: string;
  /**
   * Book moves from the start position, played for both sides before either is asked (a tournament's paired
   * opening: the same line with colours swapped). Absent or empty: none.
   */
  opening?: string[];
}

/** A finished job. `worker` names who played it ('local 12345', or a queue worker's --name). */
export interface PlayedGame {
  key: string;
  record: GameRecord;
  wallMs: number;
  worker: string;
  /** Call once the result is durably recorded: the pool may then forget it (the queue deletes it from Redis). */
  done?: () => Promise<void>;
}

/**
 * The controller whose signal withdraws a run's queued games. Every game waiting in a pool listens on it until it
 * starts or settles, so a plan of many games legitimately holds many listeners: no leak warning for them.
 */
export function withdrawController(): AbortController {
  const controller = new AbortController();
  setMaxListeners(0, controller.signal);
  return controller;
}

export interface PlayOptions {
  /** Aborting withdraws a job not yet started (it rejects with PoolAbortError); a started game plays on. */
  signal?: AbortSignal;
  /** Called when a worker starts the game. */
  onStart?: (worker: WorkerInfo) => void;
  /** Jobs of a lower order are started first (default 0); equal orders in the order they came. */
  order?: number;
  /**
   * The game so far, for watchers (`referee serve --watch`): once when it starts, then at most every
   * PROGRESS_EVERY_MS as moves are played. Each call carries the whole game so far, so a dropped one loses nothing.
   */
  onProgress?: (progress: GameProgress) => void;
}

/** How often a game in play reports its moves (each report is one message, whatever the number of moves). */
export const PROGRESS_EVERY_MS = 250;

/** A game in play, enough to draw it: the start position and every ply since. */
export interface GameProgress {
  game: string;
  /** Names, indexed by side. */
  players: [string, string];
  seed: number;
  /** game.encode of the start position (it carries the game's rule switches). */
  initialState: string;
  /** Every ply so far: the move in notation, or null for a pass. */
  moves: (string | null)[];
  /** Wall time of each ply's accepted ask in ms (0 for a pass). */
  ms: number[];
}

export interface WorkerInfo {
  name: string;
  /** The worker's process id, when it runs on this machine. */
  pid?: number;
}

/**
 * Somewhere games are played: in this process, in forked workers (grading/batch/pool.ts), or on a Redis queue
 * (grading/queue/). `play` resolves with the game, or rejects with PoolWorkerError when the grader failed to
 * play it (never a student's fault) and PoolAbortError when withdrawn or the pool closed.
 */
export interface GamePool {
  /** Games played at once (an estimate for a queue: the workers' total concurrency is not known here). */
  readonly size: number;
  /** Make a compiled submission available to every worker (before any job names it). */
  publish(artefact: Artefact): Promise<void>;
  play(job: GameJob, options?: PlayOptions): Promise<PlayedGame>;
  /** Stop: jobs not started reject with PoolAbortError; games in flight are dropped (kill) or handed back. */
  close(): Promise<void>;
}

/** The grader could not play the game (a worker died, an artefact is missing): retry, never charge the student. */
export class PoolWorkerError extends Error {
  override name = 'PoolWorkerError';
}

/** The job was withdrawn (its signal aborted) or the pool was closed before it finished. */
export class PoolAbortError extends Error {
  override name = 'PoolAbortError';
}
