/**
 * A submission as a Player: resolve its entry, compile it, and put it behind the sandbox. This is what
 * `referee play` and grading use for anything that is not a built-in player.
 */
import { basename } from 'node:path';
import type { Player } from '../referee/player.js';
import { SandboxPlayer, type SandboxOptions } from '../sandbox/sandbox-player.js';
import { compileSubmission } from './compile.js';
import { resolveSubmission, runtimeOf, type SubmissionLimits } from './resolve.js';

export { isSubmissionPath } from './resolve.js';

export interface SubmissionPlayerOptions
  extends Pick<SandboxOptions, 'memoryMb' | 'ponder' | 'allowImports' | 'layers'> {
  /** Game registry id (default 'reversi'). */
  game?: string;
  /** Shown in records (default: the submission's file or folder name). */
  name?: string;
  /** Size caps checked before compiling (default 5 MB, 500 files). */
  limits?: SubmissionLimits;
  /** The entry file inside a folder submission (--entry, the assignment's `entry`). */
  entry?: string;
}

/** Throws SubmissionError or CompileError (one-line, fix-naming messages) before any student code runs. */
export async function createSubmissionPlayer(path: string, options: SubmissionPlayerOptions = {}): Promise<Player> {
  const submission = resolveSubmission(path, options.limits, options.entry);
  const compiled = await compileSubmission(submission, { allowImports: options.allowImports });
  return new SandboxPlayer({
    ...options,
    name: options.name ?? basename(submission.input),
    bundlePath: compiled.bundlePath,
    submissionRoot: submission.root,
    ...(compiled.files ? { files: compiled.files } : {}),
    game: options.game ?? 'reversi',
    runtime: runtimeOf(submission.language),
  });
}
