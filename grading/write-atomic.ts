/**
 * Write a file so that a reader sees the old content or the new, never half (a temporary beside it, then a
 * rename). A write that fails (a full disk) removes its temporary: a folder the grader is told to free up must
 * not fill with our leftovers.
 */
import { renameSync, rmSync, writeFileSync } from 'node:fs';

export function writeFileAtomic(path: string, data: string | Uint8Array): void {
  const temporary = `${path}.${process.pid}.tmp`;
  try {
    writeFileSync(temporary, data);
    renameSync(temporary, path);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
}
