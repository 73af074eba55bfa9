/**
 * Where compiled bundles live: $REFEREE_CACHE_DIR, else ~/.cache/referee. Files are named by content hash, so
 * a cache can be shared and never needs invalidating; they are world-readable because the sandboxed child runs
 * as uid nobody.
 */
import { existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

export function cacheDir(): string {
  const dir = process.env.REFEREE_CACHE_DIR || join(homedir(), '.cache', 'referee');
  mkdirSync(dir, { recursive: true, mode: 0o755 });
  return dir;
}

/** Write `text` to `name` in the cache unless it is already there; returns the path. Atomic (rename). */
export function cacheFile(name: string, text: string): string {
  const path = join(cacheDir(), name);
  if (!existsSync(path)) {
    const temporary = `${path}.${process.pid}.tmp`;
    writeFileSync(temporary, text, { mode: 0o644 });
    renameSync(temporary, path);
  }
  return path;
}
