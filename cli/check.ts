/**
 * `referee check <submission>`: the platform's interface test as a checklist, one line per step with a fix hint
 * on failure. Exit codes: 0 pass, 1 fail, 2 usage error (via the program's exit override).
 */
import type { Command } from 'commander';
import { detectLayers, fallbackWarning } from '../harness/sandbox/layers.js';
import { checkSubmission, type CheckResult, type CheckStep } from '../harness/submission/check.js';
import { formatProblem } from '../harness/submission/compile.js';
import { gameArg, positiveInt } from './args.js';
import { addRuleOptions, type RuleFlags } from './rule-options.js';

interface CheckFlags extends RuleFlags {
  game: string;
  memoryMb?: number;
  allowImport?: string[];
  typeCheck: boolean;
  json?: boolean;
}

const MARK: Record<CheckStep['status'], string> = { pass: '✓', fail: '✗', warn: '!', skip: '-' };
const MAX_PROBLEMS = 10;

export function formatCheck(result: CheckResult): string {
  const lines = [`referee check ${result.submission} (${result.game}; sandbox: ${result.layers.join(', ')})`];
  for (const step of result.steps) {
    lines.push(`  ${MARK[step.status]} ${step.title}${step.detail ? `: ${step.detail}` : step.status === 'skip' ? ' (skipped)' : ''}`);
    for (const problem of (step.problems ?? []).slice(0, MAX_PROBLEMS)) lines.push(`      ${formatProblem(problem)}`);
    if ((step.problems?.length ?? 0) > MAX_PROBLEMS) lines.push(`      … ${(step.problems?.length ?? 0) - MAX_PROBLEMS} more`);
    if (step.hint && (step.status === 'fail' || step.status === 'warn')) lines.push(`      fix: ${step.hint}`);
  }
  lines.push(result.ok ? `PASS (${result.durationMs} ms)` : `FAIL (${result.durationMs} ms)`);
  return lines.join('\n');
}

export function register(program: Command): void {
  const command = program
    .command('check')
    .description("run the platform's interface test on a submission, inside the sandbox")
    .argument('<submission>', 'a file (AIPlayer.ts/.js/.mjs/.cjs) or a folder')
    .option('--game <id>', 'game to check against', 'reversi')
    .option('--memory-mb <mb>', 'memory ceiling of the player process in MB (default 512)', positiveInt)
    .option('--allow-import <name...>', 'bare imports the assignment allows (default: none)')
    .option('--no-type-check', 'skip the tsc type check (type errors are only warnings anyway)')
    .option('--json', 'print the result as JSON');
  addRuleOptions(command).action(async (submission: string, flags: CheckFlags) => {
    gameArg(flags.game);
    const result = await checkSubmission(submission, {
      game: flags.game,
      moveTimeoutMs: flags.moveTimeout,
      illegalLimit: flags.illegalLimit,
      memoryMb: flags.memoryMb,
      allowImports: flags.allowImport,
      typeCheck: flags.typeCheck,
    });
    if (!result.hardened && !flags.json) console.error(fallbackWarning(detectLayers()));
    console.log(flags.json ? JSON.stringify(result, null, 2) : formatCheck(result));
    process.exitCode = result.ok ? 0 : 1;
  });
}
