/** Tiny classes for the batch tests: generated in a temp folder, graded on a tiny assignment by the built worker. */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolveAssignment, type Assignment } from '../../grading/assignment.js';
import { packageFile } from '../../grading/package-root.js';

/** Two items, two games each, short limits, weak opponents: a student grades in a couple of seconds. */
export const TINY_ASSIGNMENT_JSON = {
  title: 'Tiny batch assignment',
  moveTimeoutMs: 1000,
  constructTimeoutMs: 2000,
  interfaceCheck: { points: 10 },
  opponents: [
    { name: 'random', games: 2, points: 20, seed: 7, scoring: { rule: 'linear', minWinRate: 0, fullWinRate: 1 } },
    { name: 'greedy', games: 2, points: 30, seed: 8, scoring: { rule: 'threshold', winRate: 0.5 }, visibility: 'hidden' },
  ],
};

export const tinyAssignment = (overrides: Record<string, unknown> = {}): Assignment => resolveAssignment({ ...TINY_ASSIGNMENT_JSON, ...overrides });

const fixture = (kind: string): string => readFileSync(packageFile('tests', 'fixtures', 'students', kind, 'AIPlayer.ts'), 'utf8');

/** Submissions by kind: sample students of two strengths, one that does not compile, one that kills its sandbox. */
export const SOURCES = {
  weak: () => fixture('weak'),
  fair: () => fixture('fair'),
  broken: () => 'export class AIPlayer {\n  getMove(board: any) { return board.getLegalActions(\n}\n',
  killer: () => 'export class AIPlayer {\n  getMove() { process.kill(process.pid, "SIGKILL"); return "A1"; }\n}\n',
} as const;

export type StudentKind = keyof typeof SOURCES;

export const tempDir = (prefix: string): string => mkdtempSync(join(tmpdir(), `referee-${prefix}-`));

/** A class folder: each student a folder holding AIPlayer.ts (or, with a `.ts` id, a single file). */
export function makeClass(students: Record<string, StudentKind>): string {
  const dir = tempDir('class');
  for (const [id, kind] of Object.entries(students)) {
    if (id.endsWith('.ts')) {
      writeFileSync(join(dir, id), SOURCES[kind]());
    } else {
      mkdirSync(join(dir, id));
      writeFileSync(join(dir, id, 'AIPlayer.ts'), SOURCES[kind]());
    }
  }
  return dir;
}

export function writeConfig(dir: string, json: unknown = TINY_ASSIGNMENT_JSON): string {
  const path = join(dir, 'assignment.json');
  writeFileSync(path, JSON.stringify(json));
  return path;
}

/** The compiled worker (npm test builds dist/ first). */
export function workerScript(): string {
  const path = packageFile('dist', 'grading', 'batch', 'worker.js');
  if (!existsSync(path)) throw new Error(`${path} is missing: run npm run build before these tests`);
  return path;
}
