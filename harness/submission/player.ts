/**
 * A submission as a Player: resolve its entry, compile it, and put it behind the sandbox. This is what
 * `referee play` and grading use for anything that is not a built-in player.
 */
import { basename, dirname } from 'node:path';
import type { Player } from '../referee/player.js';
import { SandboxPlayer, type SandboxOptions } from '../sandbox/sandbox-player.js';
import { compileSubmission } from './compile.js';
import { BotzonePlayer, botzoneLanguage } from '../sandbox/botzone-player.js';
import { resolveSubmission, runtimeOf, SubmissionError, type ResolvedSubmission, type SubmissionLimits, type SubmissionProtocol } from './resolve.js';
import { botzoneGameIds, getGame } from '../games/registry.js';

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
  /** 'botzone': run it as a Botzone bot whatever its source shows (--protocol botzone); 'course': never. */
  protocol?: SubmissionProtocol;
}

/** Folder names that say nothing about whose code it is (a starter's `src`). */
const GENERIC_FOLDERS = new Set(['src', 'source', 'code', 'python', 'cpp', 'submission', 'solution', 'player']);

/**
 * The name a submission plays under when none is given: its file or folder name, but for a folder with a generic
 * name (a starter's `src`) the folder around it (the student's repo), else its entry file ("Strategy.cpp").
 */
export function submissionName(submission: Pick<ResolvedSubmission, 'input' | 'entry' | 'kind'>): string {
  const base = basename(submission.input);
  if (submission.kind !== 'directory' || !GENERIC_FOLDERS.has(base.toLowerCase())) return base;
  const parent = basename(dirname(submission.input));
  return parent && !GENERIC_FOLDERS.has(parent.toLowerCase()) ? parent : basename(submission.entry);
}

/** Throws SubmissionError or CompileError (one-line, fix-naming messages) before any student code runs. */
export async function createSubmissionPlayer(path: string, options: SubmissionPlayerOptions = {}): Promise<Player> {
  const submission = resolveSubmission(path, options.limits, options.entry, options.protocol);
  const compiled = await compileSubmission(submission, { allowImports: options.allowImports });
  if (submission.botzone) {
    // Refused before any game: the bot cannot lose a game it was never able to play.
    const game = getGame(options.game ?? 'reversi');
    if (!game.botzone) {
      throw new SubmissionError(`${submissionName(submission)} is a Botzone bot, and Botzone has no judge for ${game.title}: play it at ${botzoneGameIds().join(', ')}`);
    }
    return new BotzonePlayer({
      name: options.name ?? submissionName(submission),
      bundlePath: compiled.bundlePath,
      submissionRoot: submission.root,
      ...(compiled.files && (submission.language === 'Python' || submission.language === 'Java') ? { files: compiled.files } : {}),
      language: botzoneLanguage(submission.language),
      interaction: submission.botzone.interaction,
      keepRunning: submission.botzone.keepRunning,
      game: options.game ?? 'reversi',
      ...(options.memoryMb !== undefined ? { memoryMb: options.memoryMb } : {}),
      ...(options.layers ? { layers: options.layers } : {}),
    });
  }
  return new SandboxPlayer({
    ...options,
    name: options.name ?? submissionName(submission),
    bundlePath: compiled.bundlePath,
    submissionRoot: submission.root,
    ...(compiled.files ? { files: compiled.files } : {}),
    game: options.game ?? 'reversi',
    runtime: runtimeOf(submission.language),
  });
}
