/**
 * The output folder of grade, batch and tournament (`--out`): made and proven writable before any work starts, so a
 * file in its place, a read-only mount or a full disk is one line naming the fix, never a stack trace after minutes
 * of grading. A disk that fills up later is the same DiskFullError (exit 1) with the resume advice.
 */
import { accessSync, constants, existsSync, mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { DiskFullError, isDiskFull } from '../grading/batch/disk-full.js';
import { UsageError } from './args.js';

const codeOf = (error: unknown): string => (error as NodeJS.ErrnoException).code ?? (error as Error).message;

/** The first ancestor of `path` that exists (a recursive mkdir reports a read-only parent as ENOENT). */
function existingAncestor(path: string): string {
  let current = path;
  while (!existsSync(current) && dirname(current) !== current) current = dirname(current);
  return current;
}

/** Why `dir` cannot hold our output, phrased as the fix. */
function problem(flag: string, shown: string, dir: string, error: unknown): string {
  let code = codeOf(error);
  if (code === 'ENOENT') {
    // Which part is in the way: a file on the path, or a parent we may not write.
    const ancestor = existingAncestor(dir);
    if (!statSync(ancestor).isDirectory()) code = 'ENOTDIR';
    else {
      try {
        accessSync(ancestor, constants.W_OK);
      } catch (inner) {
        code = codeOf(inner);
      }
    }
  }
  if (code === 'EEXIST' || code === 'ENOTDIR') return `${flag} ${shown} is a file (or lies inside one), not a folder: choose a folder, or move the file away`;
  if (code === 'EROFS') return `${flag} ${shown} is on a read-only file system (EROFS): choose a writable folder`;
  if (code === 'EACCES' || code === 'EPERM') return `${flag} ${shown} cannot be written (${code}: permission denied): choose a folder you may write, or fix its permissions`;
  return `${flag} ${shown} cannot be used as the output folder (${code}): choose a writable folder`;
}

/** Create `out` if needed and write a probe file into it; returns its absolute path. */
export function prepareOutDir(out: string, flag = '--out'): string {
  const dir = resolve(out);
  try {
    mkdirSync(dir, { recursive: true });
  } catch (error) {
    throw new UsageError(problem(flag, out, dir, error));
  }
  if (!statSync(dir).isDirectory()) throw new UsageError(problem(flag, out, dir, Object.assign(new Error('not a folder'), { code: 'ENOTDIR' })));
  // Root writes through a 0555 folder; a read-only mount or a full disk shows itself only on a real write.
  const probe = join(dir, `.referee-write-test-${process.pid}`);
  try {
    writeFileSync(probe, 'referee: can this folder be written?\n', { flush: true });
  } catch (error) {
    rmSync(probe, { force: true });
    if (isDiskFull(error)) throw new DiskFullError(dir, codeOf(error));
    throw new UsageError(problem(flag, out, dir, error));
  }
  rmSync(probe, { force: true });
  return dir;
}

/** A full disk met while writing under `dir` becomes the one-line DiskFullError; anything else is rethrown. */
export function rethrowDiskFull(error: unknown, dir: string): never {
  if (isDiskFull(error) && !(error instanceof DiskFullError)) throw new DiskFullError(dir, codeOf(error));
  throw error;
}
