import { protocolName } from './args.js';
/**
 * `referee check <submission>`: the platform's interface test as a checklist, one line per step with a fix hint
 * on failure. Exit codes: 0 pass, 1 fail, 2 usage error (via the program's exit override).
 */
import type { Command } from 'commander';
import { detectLayers, warnNotIsolatedOnce } from '../harness/sandbox/layers.js';
import { checkSubmission, type CheckResult, type CheckStep } from '../harness/submission/check.js';
import { formatProblem } from '../harness/submission/compile.js';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { checkLimits, platformCheckLimits } from '../grading/check-limits.js';
import { gameArg, positiveInt, UsageError } from './args.js';
import { assignmentArg } from './assignment-arg.js';
import { addRuleOptions, type RuleFlags } from './rule-options.js';
import { submissionArg } from './zip-arg.js';

interface CheckFlags extends RuleFlags {
  game?: string;
  config?: string;
  allowImport?: string[];
  typeCheck: boolean;
  json?: boolean;
  entry?: string;
  protocol?: 'botzone' | 'course';
}

const MARK: Record<CheckStep['status'], string> = { pass: '✓', fail: '✗', warn: '!', skip: '-' };
const MAX_PROBLEMS = 10;

/** A multi-line text (a stack) indented under its step; at most 15 lines. */
function indentBlock(text: string, prefix: string): string[] {
  const lines = text.replace(/\n+$/, '').split('\n');
  const shown = lines.slice(0, 15).map((line) => `${prefix}${line}`);
  if (lines.length > 15) shown.push(`${prefix}… ${lines.length - 15} more lines`);
  return shown;
}

export function formatCheck(result: CheckResult): string {
  const limits = result.limits;
  const lines = [
    `referee check ${result.submission} (${result.game}; sandbox: ${result.layers.join(', ')})`,
    `  limits: ${limits.moveTimeoutMs} ms a move, ${limits.constructTimeoutMs} ms to construct, ${limits.loadTimeoutMs} ms to load, ${limits.illegalLimit} asks a turn, ${limits.memoryMb} MB resident (${limits.source})`,
  ];
  for (const step of result.steps) {
    lines.push(`  ${MARK[step.status]} ${step.title}${step.detail ? `: ${step.detail}` : step.status === 'skip' ? ' (skipped)' : ''}`);
    for (const problem of (step.problems ?? []).slice(0, MAX_PROBLEMS)) lines.push(`      ${formatProblem(problem)}`);
    if ((step.problems?.length ?? 0) > MAX_PROBLEMS) lines.push(`      … ${(step.problems?.length ?? 0) - MAX_PROBLEMS} more`);
    if (step.stack) lines.push(...indentBlock(step.stack, '      │ '));
    if (step.output) lines.push(`      last output before it:`, ...step.output.map((line) => `      > ${line}`));
    if (step.hint && (step.status === 'fail' || step.status === 'warn')) lines.push(`      fix: ${step.hint}`);
  }
  lines.push(result.ok ? `PASS (${result.durationMs} ms)` : `FAIL (${result.durationMs} ms)`);
  return lines.join('\n');
}

export function register(program: Command): void {
  const command = program
    .command('check')
    .description("run the platform's interface test on a submission, inside the sandbox")
    .argument('<submission>', 'a file (AIPlayer.ts/.js/.mjs/.cjs/.py, Strategy.cpp), a folder (src/, a Python folder with AIPlayer.py, a C++ folder with Strategy.cpp) or a .zip')
    .option('--config <file>', "assignment JSON: check under its game and limits (as `referee grade --config` does)")
    .option('--game <id>', "without --config: the game, checked under its course platform's limits (reversi: 60 s a move, 512 MB; connect4-nogo: 3 s, 1024 MB; 60 s to load), with a warning for answers slower than the built-in ladder's (default: reversi)")
    .option('--entry <file>', 'the entry file inside the submission folder, e.g. AIplayer.py (over the name conventions)')
    .option('--protocol <name>', "botzone: check it as a Botzone bot (a whole program on stdin/stdout) even without Botzone's signs in its source", protocolName)
    .option('--allow-import <name...>', 'bare imports the assignment allows (default: none)')
    .option('--no-type-check', 'skip the tsc type check (type errors are only warnings anyway)')
    .option('--json', 'print the result as JSON');
  addRuleOptions(command).action(async (argument: string, flags: CheckFlags) => {
    // One check: the assignment's limits when given, else the game's platform limits (with the built-in ladder's
    // move limit as the pace to warn about); flags override single limits.
    const limits = flags.config ? checkLimits(assignmentArg(flags.config, flags.game), flags.config) : platformCheckLimits(gameArg(flags.game ?? 'reversi').id);
    if (!existsSync(argument)) throw new UsageError(`submission not found: ${resolve(argument)}; pass a file like src/AIPlayer.ts, a folder or a .zip`);
    const submission = await submissionArg(argument);
    if (!existsSync(submission)) throw new UsageError(`submission not found: ${resolve(submission)}; pass a file like src/AIPlayer.ts or a folder`);
    const overridden = [flags.moveTimeout, flags.illegalLimit, flags.memoryMb, flags.loadTimeout].some((flag) => flag !== undefined);
    const result = await checkSubmission(submission, {
      ...limits,
      ...(flags.moveTimeout !== undefined ? { moveTimeoutMs: flags.moveTimeout, constructTimeoutMs: Math.max(flags.moveTimeout, limits.constructTimeoutMs ?? 0) } : {}),
      ...(flags.illegalLimit !== undefined ? { illegalLimit: flags.illegalLimit } : {}),
      ...(overridden ? { limitsSource: `${limits.limitsSource} with your flags` } : {}),
      ...(flags.memoryMb !== undefined ? { memoryMb: flags.memoryMb } : {}),
      ...(flags.loadTimeout !== undefined ? { loadTimeoutMs: flags.loadTimeout } : {}),
      allowImports: flags.allowImport,
      typeCheck: flags.typeCheck,
      // Said on stderr while a slow answer is awaited (a 60 s limit is a long silence otherwise).
      ...(flags.json ? {} : { onWaiting: (waitedMs: number, limitMs: number) => console.error(`  … no answer yet after ${waitedMs / 1000} s; the ${flags.config ? 'assignment' : 'platform'} allows ${limitMs / 1000} s a move`) }),
      ...(flags.entry !== undefined ? { entry: flags.entry } : {}),
      ...(flags.protocol !== undefined ? { protocol: flags.protocol } : {}),
    });
    if (!result.hardened && !flags.json) warnNotIsolatedOnce(detectLayers());
    console.log(flags.json ? JSON.stringify(result, null, 2) : formatCheck(result));
    process.exitCode = result.ok ? 0 : 1;
  });
}
