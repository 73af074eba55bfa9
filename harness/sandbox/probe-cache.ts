/**
 * What a tool said about itself (the Python interpreter's version and prefixes, g++'s version), kept in the cache so
 * a quick command does not start the tool just to ask again. The key is the path asked and the identity of the
 * binary it resolves to (device, inode, size, mtime, ctime): an upgraded or replaced tool is a new key. Only an ELF
 * binary's answer is kept: a wrapper script or shim (pyenv's, ccache's) may run a different tool from one call to
 * the next, so it is asked every time. A failed probe is never kept. A probe whose answer depends on more than the
 * binary (bubblewrap's: the kernel's namespace settings, this process's privileges) adds that to the key (`context`).
 */
import { createHash } from 'node:crypto';
import { closeSync, openSync, readFileSync, readSync, realpathSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { cacheDir, cacheFile } from './cache-dir.js';

/** The real file behind `candidate` when it is an ELF binary, else null. */
function elfBinary(candidate: string): string | null {
  try {
    const real = realpathSync(candidate);
    const fd = openSync(real, 'r');
    try {
      const magic = Buffer.alloc(4);
      readSync(fd, magic, 0, 4, 0);
      return magic.equals(Buffer.from([0x7f, 0x45, 0x4c, 0x46])) ? real : null;
    } finally {
      closeSync(fd);
    }
  } catch {
    return null;
  }
}

/** The cache file's name for a probe of `candidate` (an ELF binary) in `context`, or null when it cannot be kept. */
function probeName(kind: string, candidate: string, context: unknown): { name: string; real: string } | null {
  const real = elfBinary(candidate);
  if (!real) return null;
  const stat = statSync(real);
  const key = createHash('sha256').update(JSON.stringify([kind, candidate, real, stat.dev, stat.ino, stat.size, stat.mtimeMs, stat.ctimeMs, context])).digest('hex').slice(0, 16);
  return { name: `${kind}-probe-${key}.json`, real };
}

/**
 * `ask(real)`'s answer for the tool at `candidate`, from the cache when kept; `valid` checks a kept answer's shape
 * (the cache is ours, but a half-written or foreign file must read as a miss), `keep` may refuse an answer.
 */
export function keptProbe<T>(
  kind: string,
  candidate: string,
  ask: () => T | null,
  valid: (kept: unknown) => kept is T,
  keep: (answer: T, real: string) => boolean = () => true,
  context: unknown = null,
): T | null {
  let named: { name: string; real: string } | null;
  try {
    named = probeName(kind, candidate, context);
  } catch {
    named = null;
  }
  if (!named) return ask();
  const { name, real } = named;
  try {
    const kept: unknown = JSON.parse(readFileSync(join(cacheDir(), name), 'utf8'));
    if (valid(kept)) return kept;
  } catch {
    // not kept yet, or unreadable: ask the tool
  }
  const answer = ask();
  if (answer !== null && keep(answer, real)) {
    try {
      cacheFile(name, JSON.stringify(answer));
    } catch {
      // a read-only cache: ask again next time
    }
  }
  return answer;
}

/** Where an answer for `candidate` in `context` is kept, or null when it cannot be. */
export function keptProbeFile(kind: string, candidate: string, context: unknown = null): string | null {
  try {
    const named = probeName(kind, candidate, context);
    return named && join(cacheDir(), named.name);
  } catch {
    return null;
  }
}

/** Drop what was kept for `candidate` in `context` (the tool was seen to fail since): the next process asks again. */
export function forgetProbe(kind: string, candidate: string, context: unknown = null): void {
  const file = keptProbeFile(kind, candidate, context);
  try {
    if (file) rmSync(file, { force: true });
  } catch {
    // a read-only cache
  }
}
