/**
 * Helpers for the Python tests: fixtures (optionally with placeholders filled in, in a scratch copy) and a Python
 * submission behind the sandbox. Scratch folders and the private cache come from the sandbox tests' helpers.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { SandboxPlayer, type SandboxOptions } from '../../harness/sandbox/sandbox-player.js';
import { compileSubmission } from '../../harness/submission/compile.js';
import { resolveSubmission } from '../../harness/submission/resolve.js';
import { scratch } from '../sandbox/support.js';

export const PYTHON_FIXTURES = resolve('tests/fixtures/python');
export const PYTHON_HOSTILE = join(PYTHON_FIXTURES, 'hostile');

/** A hostile fixture as a submission; placeholders like __PORT__ are replaced in a copy in a scratch folder. */
export function pythonFixture(name: string, fill: Record<string, string> = {}): string {
  const source = join(PYTHON_HOSTILE, name);
  if (Object.keys(fill).length === 0) return source;
  let text = readFileSync(source, 'utf8');
  for (const [key, value] of Object.entries(fill)) text = text.split(key).join(value);
  const path = join(scratch('python'), basename(name));
  writeFileSync(path, text, { mode: 0o644 });
  return path;
}

/** A Python submission behind the sandbox, and its entry's path (which names its processes). */
export async function sandboxedPython(
  path: string,
  options: Partial<SandboxOptions> = {},
): Promise<{ player: SandboxPlayer; entry: string }> {
  const submission = resolveSubmission(path);
  const compiled = await compileSubmission(submission);
  const player = new SandboxPlayer({
    name: basename(path),
    bundlePath: compiled.bundlePath,
    submissionRoot: submission.root,
    game: 'reversi',
    runtime: 'python',
    ...options,
  });
  return { player, entry: submission.entry };
}
