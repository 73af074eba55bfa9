/**
 * The ladder's final as gradebook exports: one CSV for the class, and per student Gradescope's results.json (with
 * its `leaderboard` field: rating, interval and rank, under the pseudonym Gradescope shows) and GitHub Classroom's
 * runner output — the same shapes `referee export` writes for a graded submission.
 */
import { stringify } from 'csv-stringify/sync';
import { defuse } from './csv.js';
import type { FinalAward, FinalResult } from '../ladder/final.js';
import type { ClassroomRunners } from './classroom.js';
import type { GradescopeResults } from './gradescope.js';

export const LADDER_EXPORTS = {
  csv: { file: 'ladder.csv', type: 'text/csv', description: 'one row per student: rank, rating, 95% interval, points' },
  gradescope: { file: 'gradescope.json', type: 'application/json', description: "per student, Gradescope's results.json with a leaderboard (rating, interval, rank)" },
  classroom: { file: 'classroom.json', type: 'application/json', description: 'per student, GitHub Classroom runner outputs (referee, refereemissed)' },
} as const;

export type LadderExportName = keyof typeof LADDER_EXPORTS;

const whole = (x: number): number => Math.round(x) || 0;

export function ladderCsv(final: FinalResult): string {
  const header = ['student', 'pseudonym', 'version', 'rank', 'elo', 'low', 'high', 'points', 'max_points', 'basis'];
  const max = final.rubric?.points ?? '';
  return stringify([header, ...final.awards.map((a) => [defuse(a.student), defuse(a.pseudonym), a.version, a.rank, a.elo, a.low, a.high, a.points ?? '', max, a.basis])]);
}

function describe(award: FinalAward, final: FinalResult): string {
  const students = final.awards.length;
  return `rank ${award.rank} of ${students} on the ladder: Elo ${whole(award.elo)} (95% interval ${whole(award.low)} to ${whole(award.high)}, ${final.table.anchor} = 0); ${award.basis}`;
}

export function ladderGradescope(award: FinalAward, final: FinalResult): GradescopeResults {
  const max = final.rubric?.points ?? 0;
  return {
    score: award.points ?? 0,
    execution_time: 0,
    output: describe(award, final),
    output_format: 'text',
    test_output_format: 'text',
    test_name_format: 'text',
    stdout_visibility: 'hidden',
    tests: [{ name: final.rubric?.title ?? 'Class ladder', number: '1', score: award.points ?? 0, max_score: max, status: (award.points ?? 0) > 0 ? 'passed' : 'failed', output: describe(award, final), visibility: 'visible' }],
    leaderboard: [
      { name: 'Elo', value: whole(award.elo) },
      { name: '95% interval', value: `${whole(award.low)} to ${whole(award.high)}` },
      { name: 'Rank', value: award.rank, order: 'asc' },
    ],
  };
}

export function ladderClassroom(award: FinalAward, final: FinalResult): ClassroomRunners {
  const max = final.rubric?.points ?? 0;
  const points = award.points ?? 0;
  const test = (score: number, status: 'pass' | 'fail') => ({ name: final.rubric?.title ?? 'Class ladder', status, score, message: describe(award, final), line_no: 0 as const, execution_time: '0ms' });
  return {
    referee: { version: 1, status: points > 0 ? 'pass' : 'fail', max_score: points, tests: [test(points, points > 0 ? 'pass' : 'fail')] },
    refereemissed: { version: 1, status: 'fail', max_score: Math.max(0, max - points), tests: [test(0, 'fail')] },
  };
}

/** One export as text: the CSV, or a JSON object of per-student outputs keyed by student id. */
export function ladderExport(format: LadderExportName, final: FinalResult): string {
  if (format === 'csv') return ladderCsv(final);
  const render = format === 'gradescope' ? ladderGradescope : ladderClassroom;
  return `${JSON.stringify(Object.fromEntries(final.awards.map((award) => [award.student, render(award, final)])), null, 2)}\n`;
}
