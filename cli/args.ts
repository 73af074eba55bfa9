/** Argument parsers shared by the subcommands; commander turns their errors into one-line usage errors. */
import { InvalidArgumentError } from 'commander';
import type { AnyGame } from '../harness/games/game.js';
import { getGame } from '../harness/games/registry.js';

export function positiveInt(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) < 1 || !Number.isSafeInteger(Number(value))) {
    throw new InvalidArgumentError('must be a whole number ≥ 1.');
  }
  return Number(value);
}

/** A whole number from 1 to `most`: counts that plan work (games, rounds, jobs) are bounded, so a typo cannot hang the grader. */
export function boundedInt(most: number): (value: string) => number {
  return (value: string): number => {
    const n = positiveInt(value);
    if (n > most) throw new InvalidArgumentError(`must be a whole number from 1 to ${most}.`);
    return n;
  };
}

export function nonNegativeInt(value: string): number {
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(Number(value))) {
    throw new InvalidArgumentError('must be a whole number ≥ 0.');
  }
  return Number(value);
}

/** A usage error the CLI reports in one line with exit code 2. */
export class UsageError extends Error {}

/** The game named by --game, or a usage error listing the known ids. */
export function gameArg(id: string): AnyGame {
  try {
    return getGame(id);
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
}

/** --protocol: how a submission talks (botzone: a whole program on stdin/stdout; course: the AIPlayer class). */
export function protocolName(text: string): 'botzone' | 'course' {
  if (text !== 'botzone' && text !== 'course') throw new InvalidArgumentError(`expected botzone or course (got ${JSON.stringify(text)})`);
  return text;
}

/**
 * One word of a command line we print for the user to paste (a resume or rerun line), quoted for their shell:
 * POSIX single quotes, or on Windows double quotes, which cmd and PowerShell both read (a path with spaces).
 */
export function shellWord(word: string): string {
  if (/^[\w./:=@%+,-]+$/.test(word)) return word;
  return process.platform === 'win32' ? `"${word.replace(/"/g, '""')}"` : `'${word.replace(/'/g, `'\\''`)}'`;
}
