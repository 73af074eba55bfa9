/**
 * GradeResult: one graded submission as JSON, validated against grading/grade-result.schema.json (and every game
 * record against validateRecordShape) before it is written. The single source of report.html and every export.
 */
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { schemaValidator, type SchemaSpec } from '../harness/schema/validator.js';
import type { Side } from '../harness/games/game.js';
import type { PlayerIsolation } from '../harness/referee/player.js';
import { validateRecordShape, type GameRecord } from '../harness/referee/record.js';
import type { WinDrawLoss } from '../harness/referee/series.js';
import type { LossVerdict } from '../harness/referee/verdict.js';
import type { Assignment, ScoringRule, Visibility } from './assignment.js';
import { packageFile } from './package-root.js';
import type { SprtResult } from './scoring.js';
import { writeFileAtomic } from './write-atomic.js';

export const GRADE_FORMAT = 'referee.grade/1';

/** One line of the interface checklist. */
export interface InterfaceCheckItem {
  id: string;
  title: string;
  /** 'warn' does not fail the check; 'skip' follows an earlier failure. */
  status: 'pass' | 'fail' | 'warn' | 'skip';
  /** What was found (student-controlled text: escape when shown). */
  detail?: string;
  /** How to fix a failure. */
  fix?: string;
  /** The stack (mapped to the student's files) or traceback of the error behind a failure or warning. */
  stack?: string;
  /** The last lines the submission printed before that failure (student-controlled text). */
  output?: string[];
}

export interface InterfaceCheckResult {
  passed: boolean;
  items: InterfaceCheckItem[];
  /** Sandbox layers that were active while the check ran (empty for a reference AI). */
  layers: string[];
  /** What the submission printed while it was checked. */
  output?: string;
}

export interface GradedSubmission {
  name: string;
  /** The submitted file or folder; null for a reference AI graded as a test. */
  path: string | null;
  /** Content hash (sha256 of the submission, or of the reference AI's name for a reference). */
  hash: string;
  language: string;
  kind: 'submission' | 'reference';
}

export type VerdictCounts = Record<LossVerdict, number>;

export interface ItemResult {
  opponent: string;
  title: string;
  /** 'skipped' after a failed interface check; 'partial' when only some games were played (--only). */
  status: 'played' | 'partial' | 'skipped';
  /** Games the rubric asks for. */
  games: number;
  played: number;
  wins: number;
  draws: number;
  losses: number;
  /** (wins + draws / 2) / played; 0 when nothing was played. */
  winRate: number;
  /** Wilson 95% interval of winRate. */
  wilson: { low: number; high: number };
  points: number;
  maxPoints: number;
  scoring: ScoringRule;
  /** The scoring rule in words. */
  rule: string;
  seed: number;
  visibility: Visibility;
  /** The submission's results as [Black, White] (the game's first and second side). */
  bySide: [WinDrawLoss, WinDrawLoss];
  /** The submission's forced losses by verdict. */
  verdicts: VerdictCounts;
  opponentVerdicts: VerdictCounts;
  /** Mean score difference per game, the submission's point of view. */
  averageDiff: number;
  /** The sprt rule's tests: one per opponent (a ladder: one per level reached, in order). */
  sprt?: SprtResult[];
}

export interface GameEntry {
  /** Index into GradeResult.items. */
  item: number;
  /** Game number within the item (the submission plays the first side in even games). */
  index: number;
  seed: number;
  studentSide: Side;
  result: 'win' | 'draw' | 'loss';
  wallMs: number;
  /** Taken from the journal of an earlier, interrupted run. */
  resumed: boolean;
  record: GameRecord;
}

export interface GradeResult {
  format: typeof GRADE_FORMAT;
  /**
   * 'grader-error': the grader could not run the submission (its sandbox failed before the student's code started);
   * nothing here is a verdict on the submission. Absent in grades written before it existed (read as 'graded').
   */
  status?: 'graded' | 'grader-error';
  /** What failed and how to fix it, with status 'grader-error'. */
  graderError?: string;
  /** The sandbox layers the submission ran under; null for a reference AI (trusted, in-process). */
  isolation?: PlayerIsolation | null;
  assignment: { title: string; game: string; hash: string; source: string; config: Assignment };
  submission: GradedSubmission;
  environment: { harness: string; node: string; platform: string };
  /** --seed: replaces every item's series seed. */
  seedOverride: number | null;
  /** The command that re-runs this grade. */
  command: string;
  interfaceCheck: InterfaceCheckResult & { points: number; maxPoints: number; visibility: Visibility; wallMs: number };
  items: ItemResult[];
  score: number;
  maxScore: number;
  warnings: string[];
  games: GameEntry[];
  timings: { startedAt: string; finishedAt: string; totalMs: number; checkMs: number; gamesMs: number; resumedGames: number };
}

export const GRADE_SCHEMA_PATH = packageFile('grading', 'grade-result.schema.json');

export const GRADE_RESULT_SCHEMA: SchemaSpec = {
  name: 'grade-result',
  schema: () => JSON.parse(readFileSync(GRADE_SCHEMA_PATH, 'utf8')) as object,
  options: { allErrors: false, strict: true, strictRequired: false },
};

/** A GradeResult that breaks its schema: a bug in the grader, reported with the JSON pointer. */
export class GradeResultError extends Error {
  override name = 'GradeResultError';
}

/** Throw a GradeResultError unless `value` is a valid GradeResult (schema plus every game record's shape). */
export function validateGradeResult(value: unknown): GradeResult {
  const validator = schemaValidator(GRADE_RESULT_SCHEMA);
  if (!validator(value)) {
    const error = validator.errors?.[0];
    throw new GradeResultError(`grade result ${error?.instancePath || '/'} ${error?.message ?? 'is invalid'}`);
  }
  const result = value as GradeResult;
  result.games.forEach((entry, index) => {
    try {
      validateRecordShape(entry.record);
    } catch (error) {
      throw new GradeResultError(`grade result /games/${index}/record: ${(error as Error).message}`);
    }
  });
  return result;
}

/** Validate, then write atomically (a reader never sees half a grade.json). */
export function writeGradeResult(path: string, result: GradeResult): void {
  validateGradeResult(result);
  writeFileAtomic(path, `${JSON.stringify(result, null, 1)}\n`);
}

/** Read and validate a grade.json written earlier. */
export function readGradeResult(path: string): GradeResult {
  return validateGradeResult(JSON.parse(readFileSync(path, 'utf8')) as unknown);
}
