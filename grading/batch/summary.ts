/**
 * One line of the class: a student's score per rubric item, kept in the journal and behind index.html,
 * grades.csv and --compare. A student who could not be graded (bad input, a dead worker) gets one too, with
 * zero points and the reason, so every student appears everywhere.
 */
import { LOSS_VERDICTS } from '../../harness/referee/verdict.js';
import type { Assignment } from '../assignment.js';
import type { GradeResult, ItemResult, VerdictCounts } from '../grade-result.js';
import { roundPoints } from '../scoring.js';

/** A rubric item's result as the class pages show it: the grade's own fields, without the games. */
export type ItemSummary = Pick<
  ItemResult,
  'opponent' | 'title' | 'points' | 'maxPoints' | 'games' | 'played' | 'wins' | 'draws' | 'losses' | 'winRate' | 'verdicts'
>;

export interface StudentSummary {
  id: string;
  /** 'error': not graded at all (see error); a failed interface check is still 'graded'. */
  status: 'graded' | 'error';
  error: string | null;
  score: number;
  maxScore: number;
  interfaceCheck: { passed: boolean; points: number; maxPoints: number; reason: string | null };
  items: ItemSummary[];
  /** Hash of the submission snapshot (null when it could not be read). */
  submissionHash: string | null;
  configHash: string;
  harness: string;
  gamesPlayed: number;
  gamesReused: number;
  /** Whether the submission ran in a hardened sandbox (null: unknown, e.g. not graded); absent in older journals. */
  hardened?: boolean | null;
  /** The submission's language (TypeScript, JavaScript, Python); absent in journals from older versions. */
  language?: string;
  /** Facts about the class input, set when the class is assembled (not stored per grade). */
  name?: string;
  lmsId?: string | null;
  late?: boolean;
  /** Other students whose submission snapshot is byte-for-byte the same (same hash). */
  identicalTo?: string[];
}

/** Class-level facts: name and LMS id, the late flag, and who handed in identical files (same snapshot hash). */
export function withClassFacts(
  students: StudentSummary[],
  input: ReadonlyMap<string, { late?: boolean; lmsId?: string; name?: string }>,
): StudentSummary[] {
  const byHash = new Map<string, string[]>();
  for (const student of students) {
    if (student.submissionHash) byHash.set(student.submissionHash, [...(byHash.get(student.submissionHash) ?? []), student.id]);
  }
  return students.map((student) => {
    const facts = input.get(student.id);
    const twins = student.submissionHash ? (byHash.get(student.submissionHash) ?? []).filter((id) => id !== student.id) : [];
    return {
      ...student,
      name: facts?.name ?? student.id,
      lmsId: facts?.lmsId ?? null,
      late: facts?.late === true,
      identicalTo: twins,
    };
  });
}

/**
 * A student's standing in words, one vocabulary for every class view (index.html, the --watch dashboard): 'graded';
 * 'interface check failed' (a submission that does not compile or lacks getMove: graded, its score is the check's);
 * 'not graded' or 'not graded: grader error' (no score at all), with the reason.
 */
export function classStatus(student: Pick<StudentSummary, 'status' | 'error' | 'interfaceCheck'>): { status: string; reason: string | null } {
  if (student.status === 'error') {
    return { status: student.error?.startsWith('not graded: grader error') ? 'not graded: grader error' : 'not graded', reason: student.error ?? student.interfaceCheck.reason ?? 'the interface check failed' };
  }
  if (!student.interfaceCheck.passed) return { status: 'interface check failed', reason: student.interfaceCheck.reason ?? 'the interface check failed' };
  return { status: 'graded', reason: null };
}

const zeroVerdicts = (): VerdictCounts => Object.fromEntries(LOSS_VERDICTS.map((verdict) => [verdict, 0])) as VerdictCounts;

/** The failed check line in one sentence: what failed, what was seen, how to fix it. */
function checkReason(result: GradeResult): string | null {
  if (result.interfaceCheck.passed) return null;
  const failed = result.interfaceCheck.items.find((item) => item.status === 'fail');
  if (!failed) return 'the interface check failed';
  const detail = failed.detail?.split('\n')[0];
  return `${failed.title} failed${detail ? `: ${detail}` : ''}${failed.fix ? ` — ${failed.fix}` : ''}`;
}

export function summarizeGrade(id: string, result: GradeResult, submissionHash: string | null): StudentSummary {
  const check = result.interfaceCheck;
  const graderError = result.status === 'grader-error';
  return {
    id,
    // A grader error is no grade: the class pages show "not graded: grader error" and the next run grades again.
    status: graderError ? 'error' : 'graded',
    error: graderError ? `not graded: grader error: ${result.graderError ?? 'unknown'} (finished games are kept: run again with --resume)` : null,
    hardened: result.isolation ? result.isolation.hardened : null,
    score: result.score,
    maxScore: result.maxScore,
    interfaceCheck: { passed: check.passed, points: check.points, maxPoints: check.maxPoints, reason: checkReason(result) },
    items: result.items.map((item) => ({
      opponent: item.opponent,
      title: item.title,
      points: item.points,
      maxPoints: item.maxPoints,
      games: item.games,
      played: item.played,
      wins: item.wins,
      draws: item.draws,
      losses: item.losses,
      winRate: item.winRate,
      verdicts: { ...item.verdicts },
    })),
    submissionHash,
    configHash: result.assignment.hash,
    harness: result.environment.harness,
    gamesPlayed: result.games.filter((game) => !game.resumed).length,
    gamesReused: result.timings.resumedGames,
    language: result.submission.language,
  };
}

/** A student who could not be graded: zero points on every item, and why. */
export function errorSummary(
  id: string,
  error: string,
  context: { assignment: Assignment; configHash: string; harness: string; submissionHash: string | null },
): StudentSummary {
  const { assignment } = context;
  return {
    id,
    status: 'error',
    error,
    score: 0,
    maxScore: roundPoints(assignment.interfaceCheck.points + assignment.opponents.reduce((sum, item) => sum + item.points, 0)),
    interfaceCheck: { passed: false, points: 0, maxPoints: assignment.interfaceCheck.points, reason: null },
    items: assignment.opponents.map((item) => ({
      opponent: item.name,
      title: item.title,
      points: 0,
      maxPoints: item.points,
      games: item.games,
      played: 0,
      wins: 0,
      draws: 0,
      losses: 0,
      winRate: 0,
      verdicts: zeroVerdicts(),
    })),
    submissionHash: context.submissionHash,
    configHash: context.configHash,
    harness: context.harness,
    gamesPlayed: 0,
    gamesReused: 0,
  };
}
