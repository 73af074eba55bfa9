/**
 * Messages between the forked game pool (pool.ts) and its workers (worker.ts), over child_process.fork IPC.
 * A worker plays one game at a time, so a reference AI computing in the worker never delays another game's
 * sandboxed student (reference AIs run synchronously in the worker's process).
 */
import type { GameRecord } from '../../harness/referee/record.js';
import type { GameJob, GameProgress } from '../pool/job.js';

export type ToWorker = { type: 'play'; job: GameJob };

export type FromWorker =
  | { type: 'ready' }
  /** The game so far (at most every PROGRESS_EVERY_MS), for watchers. */
  | { type: 'progress'; key: string; progress: GameProgress }
  | { type: 'played'; key: string; record: GameRecord; wallMs: number }
  /** The worker could not play the game (not the student's fault: the game is the grader's to retry). */
  | { type: 'failed'; key: string; message: string };
