/** The short summary `referee grade` prints: the score, then one line per rubric item. */
import { isLossVerdict, VERDICT_DESCRIPTIONS } from '../harness/referee/verdict.js';
import { firstForcedLosses } from './evidence.js';
import type { GradeResult, InterfaceCheckItem } from './grade-result.js';
import { displayWidth, padColumns } from './text-width.js';

const STACK_LINES = 12;

/** A failed or warned check item in full: what, where (each place once), the stack, the output before it, the fix. */
function itemLines(item: InterfaceCheckItem, indent: string): string[] {
  const lines = [`${indent}${item.status === 'warn' ? 'warning: ' : ''}${item.title}`];
  for (const line of (item.detail ?? '').split('\n').filter(Boolean)) lines.push(`${indent}  ${line}`);
  lines.push(...stackLines(item.stack, `${indent}  │ `));
  if (item.output?.length) lines.push(`${indent}  last output before it:`, ...item.output.map((line) => `${indent}  > ${line}`));
  if (item.fix) lines.push(`${indent}  fix: ${item.fix}`);
  return lines;
}

function stackLines(stack: string | undefined, prefix: string): string[] {
  if (!stack) return [];
  const lines = stack.replace(/\n+$/, '').split('\n');
  return [...lines.slice(0, STACK_LINES).map((line) => `${prefix}${line}`), ...(lines.length > STACK_LINES ? [`${prefix}… ${lines.length - STACK_LINES} more lines`] : [])];
}

const pct = (rate: number): string => `${(100 * rate).toFixed(1)}%`;

export function formatSummary(result: GradeResult, reportPath: string): string {
  const check = result.interfaceCheck;
  const width = Math.max(16, ...result.items.map((item) => displayWidth(item.title)));
  const lines = [
    `${result.assignment.title}: ${result.submission.path ?? result.submission.name}`,
    result.status === 'grader-error' ? `Not graded: grader error: ${result.graderError}` : `Score: ${result.score} / ${result.maxScore}`,
    // A grader error stopped the check: that is no failure of the student's (no ✗, no FAILED, no points line).
    result.status === 'grader-error' && !check.passed
      ? `  · ${'Interface check'.padEnd(width)}  not finished: the grader failed, not the submission`
      : `  ${check.passed ? '✓' : '✗'} ${'Interface check'.padEnd(width)}  ${check.passed ? 'passed' : 'FAILED'.padEnd(6)}${' '.repeat(26)}${check.points} / ${check.maxPoints}`,
  ];
  const failed = check.items.find((item) => item.status === 'fail');
  if (!check.passed && failed && result.status !== 'grader-error') lines.push(...itemLines(failed, '      '));
  for (const warned of check.items.filter((item) => item.status === 'warn')) lines.push(...itemLines(warned, '      '));
  for (const item of result.items) {
    const record = item.status === 'skipped' ? 'not played' : `${item.wins}-${item.draws}-${item.losses}  ${pct(item.winRate).padStart(6)} [${pct(item.wilson.low)}, ${pct(item.wilson.high)}]`;
    lines.push(`  · ${padColumns(item.title, width)}  ${record.padEnd(32)}${item.points} / ${item.maxPoints}`);
  }
  for (const loss of firstForcedLosses(result)) {
    const title = result.items[loss.item]?.title ?? `item ${loss.item}`;
    // In words, not the verdict's internal name: 'it threw an error: KeyError … (AIPlayer.py, line 23, in evaluate)'.
    const what = isLossVerdict(loss.verdict) ? `it ${VERDICT_DESCRIPTIONS[loss.verdict]}` : loss.verdict;
    const where = loss.where ? ` (${loss.where.file}, line ${loss.where.line}, in ${loss.where.function})` : '';
    lines.push(`First game lost by a rule ${title}, game ${loss.index + 1}${loss.ply > 0 ? ` at ply ${loss.ply}` : ' (before its first move)'}: ${what}: ${loss.message}${where}`);
    lines.push(...stackLines(loss.stack, '  │ '));
    if (loss.output.length > 0) lines.push('  last output before it:', ...loss.output.map((line) => `  > ${line}`));
    lines.push(`  replay it: ${reportPath}#game=${gameNumber(result, loss.item, loss.index)}&ply=${loss.ply}`);
  }
  for (const warning of result.warnings) lines.push(`warning: ${warning}`);
  lines.push(`Report: ${reportPath}`);
  return lines.join('\n');
}

/** A game's 1-based position in result.games, as the report's #game= links count. */
export function gameNumber(result: GradeResult, item: number, index: number): number {
  return result.games.findIndex((entry) => entry.item === item && entry.index === index) + 1;
}

/** The machine-readable summary (`--json`): everything but the game records. */
export function summaryJson(result: GradeResult, paths: { gradePath: string; reportPath: string }): Record<string, unknown> {
  return {
    status: result.status ?? 'graded',
    ...(result.graderError ? { graderError: result.graderError } : {}),
    isolation: result.isolation ?? null,
    score: result.score,
    maxScore: result.maxScore,
    interfaceCheck: {
      passed: result.interfaceCheck.passed,
      points: result.interfaceCheck.points,
      maxPoints: result.interfaceCheck.maxPoints,
      // Failures and warnings in full (stack, output tail, fix); passing items need no more than their title.
      items: result.interfaceCheck.items.map((item) => (item.status === 'fail' || item.status === 'warn' ? item : { id: item.id, title: item.title, status: item.status })),
    },
    forcedLosses: firstForcedLosses(result),
    items: result.items.map(({ opponent, title, status, wins, draws, losses, winRate, wilson, points, maxPoints }) => ({
      opponent, title, status, wins, draws, losses, winRate, wilson, points, maxPoints,
    })),
    warnings: result.warnings,
    grade: paths.gradePath,
    report: paths.reportPath,
  };
}
