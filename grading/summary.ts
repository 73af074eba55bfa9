/** The short summary `referee grade` prints: the score, then one line per rubric item. */
import type { GradeResult } from './grade-result.js';

const pct = (rate: number): string => `${(100 * rate).toFixed(1)}%`;

export function formatSummary(result: GradeResult, reportPath: string): string {
  const check = result.interfaceCheck;
  const width = Math.max(16, ...result.items.map((item) => item.title.length));
  const lines = [
    `${result.assignment.title}: ${result.submission.path ?? result.submission.name}`,
    result.status === 'grader-error' ? `Not graded: grader error: ${result.graderError}` : `Score: ${result.score} / ${result.maxScore}`,
    `  ${check.passed ? '✓' : '✗'} ${'Interface check'.padEnd(width)}  ${check.passed ? 'passed' : 'FAILED'.padEnd(6)}${' '.repeat(26)}${check.points} / ${check.maxPoints}`,
  ];
  if (!check.passed) {
    const failed = check.items.find((item) => item.status === 'fail');
    if (failed) lines.push(`      ${failed.title}${failed.fix ? `: ${failed.fix}` : ''}`);
  }
  for (const item of result.items) {
    const record = item.status === 'skipped' ? 'not played' : `${item.wins}-${item.draws}-${item.losses}  ${pct(item.winRate).padStart(6)} [${pct(item.wilson.low)}, ${pct(item.wilson.high)}]`;
    lines.push(`  · ${item.title.padEnd(width)}  ${record.padEnd(32)}${item.points} / ${item.maxPoints}`);
  }
  for (const warning of result.warnings) lines.push(`warning: ${warning}`);
  lines.push(`Report: ${reportPath}`);
  return lines.join('\n');
}

/** The machine-readable summary (`--json`): everything but the game records. */
export function summaryJson(result: GradeResult, paths: { gradePath: string; reportPath: string }): Record<string, unknown> {
  return {
    status: result.status ?? 'graded',
    ...(result.graderError ? { graderError: result.graderError } : {}),
    isolation: result.isolation ?? null,
    score: result.score,
    maxScore: result.maxScore,
    interfaceCheck: { passed: result.interfaceCheck.passed, points: result.interfaceCheck.points, maxPoints: result.interfaceCheck.maxPoints },
    items: result.items.map(({ opponent, title, status, wins, draws, losses, winRate, wilson, points, maxPoints }) => ({
      opponent, title, status, wins, draws, losses, winRate, wilson, points, maxPoints,
    })),
    warnings: result.warnings,
    grade: paths.gradePath,
    report: paths.reportPath,
  };
}
