/**
 * What gets graded: a student's submission behind the sandbox, or a trusted reference AI (a grade of a reference
 * is a valid test of the grader, and a yardstick for instructors). The grader sees only this interface.
 */
import { existsSync, readFileSync } from 'node:fs';
import { extname, resolve } from 'node:path';
import { getGame } from '../harness/games/registry.js';
import { InProcessPlayer } from '../harness/referee/in-process.js';
import type { Player, PlayerIsolation } from '../harness/referee/player.js';
import { detectLayers, isolationRecord } from '../harness/sandbox/layers.js';
import { memoryWall } from '../harness/sandbox/memory-wall.js';
import { DEFAULT_REFEREE_CONFIG } from '../harness/referee/config.js';
import { checkSubmission, type CheckOptions, type CheckResult } from '../harness/submission/check.js';
import { checkLimits, submissionLimits } from './check-limits.js';
import { compileSubmission, formatProblem } from '../harness/submission/compile.js';
import { createSubmissionPlayer } from '../harness/submission/player.js';
import { resolveSubmission, runtimeOf } from '../harness/submission/resolve.js';
import { referenceAgent } from '../reference-ai/index.js';
import { sha256, type Assignment } from './assignment.js';
import type { GradedSubmission, InterfaceCheckResult } from './grade-result.js';

export interface Contestant {
  readonly submission: GradedSubmission;
  /** The interface checklist; a failure stops the grade before any game. */
  check(): Promise<InterfaceCheckResult>;
  /** A fresh Player; the grader creates one per concurrent game and closes it. */
  createPlayer(): Promise<Player>;
  /** The sandbox layers its players run under (null for a trusted reference AI). */
  readonly isolation?: PlayerIsolation | null;
}

/** A reference AI of `game` as the graded side. It passes the interface check by construction. */
export function referenceContestant(game: string, name: string): Contestant {
  const factory = referenceAgent(game, name);
  return {
    submission: { name, path: null, hash: sha256(`reference:${game}:${name}`), language: 'reference AI', kind: 'reference' },
    isolation: null,
    async check() {
      return {
        passed: true,
        layers: [],
        items: [{ id: 'reference', title: `${name} is a built-in reference AI`, status: 'pass', detail: 'reference AIs are trusted and not checked' }],
      };
    },
    async createPlayer() {
      return new InProcessPlayer(name, factory, getGame);
    },
  };
}

const LANGUAGES: Record<string, string> = { '.ts': 'TypeScript', '.js': 'JavaScript', '.mjs': 'JavaScript', '.cjs': 'JavaScript', '.py': 'Python', '.cpp': 'C++', '.cc': 'C++', '.so': 'C++', '.java': 'Java' };

/** The submission module's checklist in the grade's own terms. */
export function checkItems(check: CheckResult): InterfaceCheckResult {
  return {
    passed: check.ok,
    layers: check.layers,
    items: check.steps.map((step) => {
      const problems = (step.problems ?? []).map(formatProblem);
      const detail = [step.detail, ...problems].filter((line): line is string => typeof line === 'string' && line !== '').join('\n');
      return {
        id: step.id,
        title: step.title,
        status: step.status,
        ...(detail ? { detail } : {}),
        ...(step.hint ? { fix: step.hint } : {}),
        ...(step.stack ? { stack: step.stack.slice(0, 20000) } : {}),
        ...(step.output ? { output: step.output.map((line) => line.slice(0, 2000)) } : {}),
      };
    }),
  };
}

/**
 * A student's submission (a file or a folder). Its hash is the compiled bundle's (the code that actually runs),
 * or the entry file's when it does not compile, so the journal never reuses games of other code.
 */
export async function submissionContestant(path: string, assignment: Assignment, checkOverrides: Partial<CheckOptions> = {}): Promise<Contestant> {
  const absolute = resolve(path);
  const sizeLimits = submissionLimits(assignment);
  let hash = sha256(`missing:${absolute}`);
  let language = LANGUAGES[extname(absolute)] ?? 'unknown';
  let botzone = false;
  try {
    const resolved = resolveSubmission(absolute, sizeLimits, assignment.entry, assignment.protocol);
    language = LANGUAGES[extname(resolved.entry)] ?? language;
    botzone = resolved.botzone !== undefined;
    hash = existsSync(resolved.entry) ? sha256(readFileSync(resolved.entry, 'utf8')) : hash;
    hash = (await compileSubmission(resolved)).hash;
  } catch {
    // Not found or not compiling: the interface check reports it; the hash above still keys the journal.
  }
  return {
    submission: { name: path, path, hash, language, kind: 'submission' },
    // Which wall holds the assignment's memory limit is part of what the grade ran under (memory-wall.ts).
    isolation: { ...isolationRecord(detectLayers(), botzone ? 'cpp' : runtimeOf(language)), memory: memoryWall(detectLayers(), assignment.referee.memoryMb ?? DEFAULT_REFEREE_CONFIG.memoryMb ?? 512).description },
    async check() {
      // The same limits as `referee check` with this assignment (grading/check-limits), size caps included.
      // checkOverrides: `grade` without a config judges the platform's limits, with the assignment's as the pace.
      return checkItems(await checkSubmission(absolute, { ...checkLimits(assignment, assignment.title), ...checkOverrides }));
    },
    createPlayer: () => createSubmissionPlayer(absolute, { game: assignment.game, name: path, limits: sizeLimits, entry: assignment.entry, memoryMb: assignment.referee.memoryMb, ...(assignment.protocol ? { protocol: assignment.protocol } : {}) }),
  };
}
