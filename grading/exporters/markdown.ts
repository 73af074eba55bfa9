/**
 * A grade as a GitHub-flavoured markdown table (items, W-D-L, points): what the starter's CI appends to
 * `$GITHUB_STEP_SUMMARY`, so the run's page shows the points without opening the artifact.
 */
import type { GradeResult } from '../grade-result.js';

/** Table cells hold no pipes or newlines (a config title could carry either). */
const cell = (text: string): string => text.replace(/\|/g, '\\|').replace(/\s*\n\s*/g, ' ');
const pct = (rate: number): string => `${(100 * rate).toFixed(1)}%`;

export function toMarkdown(result: GradeResult): string {
  if (result.status === 'grader-error') {
    // Not graded: no table of zeros and no total, only what failed (as Gradescope and Classroom say it).
    return [
      `## ${cell(result.assignment.title)}: not graded (grader error)`,
      '',
      `\`${cell(result.submission.name)}\` (${result.submission.language})`,
      '',
      `> **The autograder failed, so this submission was NOT graded:** ${cell(result.graderError ?? 'unknown')}`,
      '>',
      '> This is a problem of the grading machine, not of the code: no rubric item was scored. Fix the grader, then grade again.',
      '',
      '',
    ].join('\n');
  }
  const check = result.interfaceCheck;
  const failed = check.items.find((item) => item.status === 'fail');
  const lines = [
    `## ${cell(result.assignment.title)}: ${result.score} / ${result.maxScore}`,
    '',
    `\`${cell(result.submission.name)}\` (${result.submission.language})`,
    '',
    '| item | result | points |',
    '| --- | --- | ---: |',
    `| Interface check | ${check.passed ? 'passed' : `failed: ${cell(failed?.title ?? 'the check')}${failed?.detail ? ` (${cell(failed.detail.split('\n')[0])})` : ''}`} | ${check.points} / ${check.maxPoints} |`,
    ...result.items.map(
      (item) =>
        `| ${cell(item.title)} | ${item.status === 'skipped' ? 'not played' : `${item.wins}-${item.draws}-${item.losses} (W-D-L), win rate ${pct(item.winRate)}`} | ${item.points} / ${item.maxPoints} |`,
    ),
    `| **total** | | **${result.score} / ${result.maxScore}** |`,
    '',
  ];
  for (const warning of result.warnings) lines.push(`> ${cell(warning)}`, '');
  return `${lines.join('\n')}\n`;
}
