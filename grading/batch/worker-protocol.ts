/**
 * Messages between the batch runner and its grading workers (child_process.fork IPC). A worker grades one
 * student at a time, one game at a time, so a reference AI computing in the worker never delays another game's
 * sandboxed student (reference AIs run synchronously in the grader's process).
 */
import type { Assignment } from '../assignment.js';
import type { GradeResult } from '../grade-result.js';

export type ToWorker =
  | { type: 'init'; journalPath: string; assignment: Assignment; assignmentSource: string }
  | { type: 'grade'; student: string; path: string; command: string };

export type FromWorker =
  | { type: 'ready' }
  | { type: 'game'; student: string; finished: number; total: number; result: 'win' | 'draw' | 'loss'; resumed: boolean }
  | { type: 'graded'; student: string; result: GradeResult }
  /** diskFull: the journal could not be written; the batch must stop, not blame the student. */
  | { type: 'failed'; student: string; message: string; diskFull: boolean };
