/**
 * Helpers for the Python tests: fixtures (optionally with placeholders filled in, in a scratch copy) and a Python
 * submission behind the sandbox, by way of the sandbox tests' helpers.
 */
import { join, resolve } from 'node:path';
import type { SandboxOptions, SandboxPlayer } from '../../harness/sandbox/sandbox-player.js';
import { filledFixture, sandboxed } from '../sandbox/support.js';

export const PYTHON_FIXTURES = resolve('tests/fixtures/python');
export const PYTHON_HOSTILE = join(PYTHON_FIXTURES, 'hostile');

/** A hostile fixture as a submission; placeholders like __PORT__ are replaced in a copy in a scratch folder. */
export function pythonFixture(name: string, fill: Record<string, string> = {}): string {
  return filledFixture(PYTHON_HOSTILE, name, fill, 'python');
}

/** A Python submission behind the sandbox, and its entry's path (which names its processes). */
export async function sandboxedPython(
  path: string,
  options: Partial<SandboxOptions> = {},
): Promise<{ player: SandboxPlayer; entry: string }> {
  const { player, entry } = await sandboxed(path, { runtime: 'python', ...options });
  return { player, entry };
}
