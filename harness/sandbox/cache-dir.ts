/**
 * Where compiled bundles live: $REFEREE_CACHE_DIR, else ~/.cache/referee. Files are named by content hash, so
 * a cache can be shared and never needs invalidating. The cache is bounded: past $REFEREE_CACHE_MAX_MB (default
 * 200 MB) the least recently used entries are removed after each new one (a hit refreshes its time), never one
 * this process has used; `referee cache clean` empties it. The game pool's artefacts (<cache>/artefacts/<sha256>)
 * are entries like the others: counted, pruned by the same rule, their half-written leftovers swept after a day.
 */
import { createHash } from 'node:crypto';
import { accessSync, constants, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { GraderError } from '../referee/grader-error.js';

const DEFAULT_MAX_MB = 200;
// The type-check snapshots (~40 MB each, one per Node/TypeScript version) count too: unpruned, they once held a
// cache at 681 MB against its 200 MB cap.
// Botzone bots (botzone-<hash>, the cpp-botzone-<hash> header shim) and probe answers too.
const CONTENT_HASHED =
  /^(submission|host)-[0-9a-f]+\.cjs$|^(python|native)-[0-9a-f]+$|^cpp-(host-|botzone-)?[0-9a-f]+(\.so)?$|^botzone-[0-9a-f]+$|^typecheck-[0-9a-f]+\.blob$|^typecheck-snapshot-[0-9a-f]+\.cjs$|^[a-z+]+-probe-[0-9a-f]+\.json$|^python-syntax-[0-9a-f]+\.json$/;
/**
 * Working files a process makes and removes itself (a type check's folder, a half-written entry): what a killed
 * process left behind is removed once it is a day old (no check or build takes that long).
 */
const WORKING = /\.tmp$/;
const WORKING_FOLDERS = ['typecheck'];
/**
 * A working folder's entries (a type check's tsconfig and referee.d.ts) are removed by their process when it ends;
 * a process killed meanwhile (Ctrl-C, SIGKILL, a test's timeout) leaves its entry behind (711 once sat in one
 * cache). Past this age no process can still use one: the type check's wall backstop is 10 minutes.
 */
export const WORKING_ENTRY_STALE_MS = 30 * 60 * 1000;
/** The folder of the game pool's artefacts (grading/pool/artefact.ts), each one a content-hashed entry. */
export const ARTEFACTS_FOLDER = 'artefacts';
const ARTEFACT_ENTRY = /^[0-9a-f]{64}$/;
const STALE_MS = 24 * 3600 * 1000;
/** Entries this process has handed out: a running grade's bundles are never pruned under it. */
const inUse = new Set<string>();

/**
 * The cache folder cannot be used (a file, a folder this user cannot write, a read-only or full disk): the grader's
 * machine, never the student's doing. A GraderError, so a run it stops midway charges nobody; the CLI checks the
 * folder before a command starts (checkCacheDir) and says this one line with exit 2.
 */
export class CacheDirError extends GraderError {
  readonly cacheDir = true;
}

export function isCacheDirError(error: unknown): error is CacheDirError {
  return error instanceof GraderError && (error as Partial<CacheDirError>).cacheDir === true;
}

/** The folder last found usable: checked once per process (a cacheDir() call is on every compile's path). */
let checked: string | null = null;

function cacheDirProblem(dir: string, error: NodeJS.ErrnoException | null): CacheDirError {
  const chosen = process.env.REFEREE_CACHE_DIR ? `REFEREE_CACHE_DIR=${process.env.REFEREE_CACHE_DIR}` : `the cache folder ${dir}`;
  const fix = process.env.REFEREE_CACHE_DIR
    ? 'point REFEREE_CACHE_DIR at a folder this user can write (it is made if missing), or unset it to use ~/.cache/referee'
    : 'set REFEREE_CACHE_DIR to a folder this user can write (it is made if missing)';
  const code = error?.code;
  const uid = typeof process.getuid === 'function' ? ` (uid ${process.getuid()})` : '';
  const full = code === 'ENOSPC' || code === 'EDQUOT';
  const why =
    error === null || code === 'EEXIST' || code === 'ENOTDIR' ? `is a file, not a folder${code === 'ENOTDIR' ? ' (or lies under one)' : ''}`
    : code === 'EACCES' || code === 'EPERM' ? `cannot be written by this user${uid}`
    : code === 'EROFS' ? 'is on a read-only file system'
    : full ? 'is on a full disk'
    : `cannot be used (${code ?? error.message})`;
  return new CacheDirError(`${chosen} ${why}: ${full ? `free space there (\`referee cache clean\` empties the cache), or ${fix}` : fix}`);
}

const WRITE_FAILURES = new Set(['ENOSPC', 'EDQUOT', 'EACCES', 'EPERM', 'EROFS']);

/** A write into the cache that failed for the folder's sake (full, read-only, taken away): the one line; else as is. */
export function unwritable(error: unknown): unknown {
  const code = (error as NodeJS.ErrnoException).code;
  return code !== undefined && WRITE_FAILURES.has(code) ? cacheDirProblem(namedCacheDir(), error as NodeJS.ErrnoException) : error;
}

/** $REFEREE_CACHE_DIR (absolute: the sandbox binds it), else ~/.cache/referee. */
const namedCacheDir = (): string => resolve(process.env.REFEREE_CACHE_DIR || join(homedir(), '.cache', 'referee'));

export function cacheDir(): string {
  const dir = namedCacheDir();
  try {
    mkdirSync(dir, { recursive: true, mode: 0o755 });
  } catch (error) {
    throw cacheDirProblem(dir, error as NodeJS.ErrnoException);
  }
  if (checked !== dir) {
    // A symlink to a file passes mkdir; a folder this user cannot write (or a read-only mount) passes both.
    if (!statSync(dir).isDirectory()) throw cacheDirProblem(dir, null);
    try {
      accessSync(dir, constants.W_OK | constants.X_OK);
    } catch (error) {
      throw cacheDirProblem(dir, error as NodeJS.ErrnoException);
    }
    checked = dir;
  }
  return dir;
}

/** The cache's size cap in bytes ($REFEREE_CACHE_MAX_MB, default 200). */
export function cacheLimitBytes(): number {
  const mb = Number(process.env.REFEREE_CACHE_MAX_MB);
  return (Number.isFinite(mb) && mb > 0 ? mb : DEFAULT_MAX_MB) * 1024 * 1024;
}

function sizeOf(path: string): number {
  const stat = lstatSync(path);
  if (!stat.isDirectory()) return stat.size;
  let total = 0;
  for (const name of readdirSync(path)) total += sizeOf(join(path, name));
  return total;
}

export interface CacheEntry {
  path: string;
  bytes: number;
  usedAt: number;
}

/** Every top-level entry of the cache with its size and last use. */
export function cacheEntries(dir = cacheDir()): CacheEntry[] {
  const entries: CacheEntry[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    try {
      entries.push({ path, bytes: sizeOf(path), usedAt: lstatSync(path).mtimeMs });
    } catch {
      // removed by another process while we looked
    }
  }
  return entries;
}

/** The artefacts folder's entries (empty when there is none). */
function artefactEntries(dir: string): CacheEntry[] {
  const folder = join(dir, ARTEFACTS_FOLDER);
  return existsSync(folder) ? cacheEntries(folder) : [];
}

/**
 * Remove what killed processes left (see WORKING) among `top`, the cache's entries, and `artefacts`, the artefacts
 * folder's; returns the bytes freed.
 */
function sweepWorking(dir: string, top: CacheEntry[], artefacts: CacheEntry[], now: number): number {
  const left = [
    ...[...top, ...artefacts].filter((entry) => WORKING.test(basename(entry.path))),
  ];
  let freed = 0;
  for (const entry of left) {
    if (now - entry.usedAt < STALE_MS) continue;
    rmSync(entry.path, { recursive: true, force: true });
    freed += entry.bytes;
  }
  return freed + WORKING_FOLDERS.reduce((sum, folder) => sum + sweepWorkingFolder(folder, dir, now), 0);
}

/**
 * Remove the entries of the working folder `folder` (e.g. 'typecheck') older than WORKING_ENTRY_STALE_MS: what
 * killed processes left. A process that makes entries there calls it once (so the folder stays bounded by what the
 * last half hour's checks made, whether or not anything new enters the cache); returns the bytes freed.
 */
export function sweepWorkingFolder(folder: string, dir = cacheDir(), now = Date.now()): number {
  const path = join(dir, folder);
  if (!existsSync(path)) return 0;
  let freed = 0;
  for (const entry of cacheEntries(path)) {
    if (now - entry.usedAt < WORKING_ENTRY_STALE_MS) continue;
    rmSync(entry.path, { recursive: true, force: true });
    freed += entry.bytes;
  }
  return freed;
}

/** Remove least recently used entries until the cache is under `limit`; returns the bytes freed. */
export function pruneCache(limit = cacheLimitBytes(), dir = cacheDir(), now = Date.now()): number {
  const top = cacheEntries(dir);
  const artefacts = artefactEntries(dir);
  const swept = sweepWorking(dir, top, artefacts, now);
  // Only content-hashed entries are pruned: working folders (a type check in progress) belong to their process.
  const entries = [
    ...top.filter((entry) => CONTENT_HASHED.test(basename(entry.path))),
    ...artefacts.filter((entry) => ARTEFACT_ENTRY.test(basename(entry.path))),
  ].sort((a, b) => a.usedAt - b.usedAt);
  let total = entries.reduce((sum, entry) => sum + entry.bytes, 0);
  let freed = 0;
  for (const entry of entries) {
    if (total <= limit) break;
    if (inUse.has(entry.path)) continue;
    rmSync(entry.path, { recursive: true, force: true });
    total -= entry.bytes;
    freed += entry.bytes;
  }
  return swept + freed;
}

/** Empty the cache (`referee cache clean`); returns the entries and bytes removed. */
export function cleanCache(dir = cacheDir()): { entries: number; bytes: number } {
  const entries = cacheEntries(dir);
  for (const entry of entries) rmSync(entry.path, { recursive: true, force: true });
  return { entries: entries.length, bytes: entries.reduce((sum, entry) => sum + entry.bytes, 0) };
}

/** Mark an entry as used now (LRU) and as in use by this process. */
export function touchCacheEntry(path: string): void {
  inUse.add(path);
  try {
    const now = new Date();
    utimesSync(path, now, now);
  } catch {
    // gone or read-only: it will simply be older
  }
}

/** Write `text` to `name` in the cache unless it is already there; returns the path. Atomic (rename). */
export function cacheFile(name: string, text: string | Uint8Array): string {
  const path = join(cacheDir(), name);
  if (existsSync(path)) {
    touchCacheEntry(path);
    return path;
  }
  return replaceCacheFile(name, text);
}

/**
 * Write (or replace) the entry `name`, for entries named by what they describe rather than by their contents (a
 * kept report that is valid only while what it read is unchanged): written under a temporary name and renamed, so
 * a reader sees the old entry or the new one, never half of one.
 */
export function replaceCacheFile(name: string, text: string | Uint8Array): string {
  const path = join(cacheDir(), name);
  const temporary = `${path}.${process.pid}.tmp`;
  try {
    writeFileSync(temporary, text, { mode: 0o644 });
  } catch (error) {
    throw unwritable(error);
  }
  renameSync(temporary, path);
  touchCacheEntry(path);
  pruneCache();
  return path;
}

/**
 * A copy of `files` in the cache as the folder `<prefix>-<hash>`, the hash over their names in the copy and their
 * bytes: hosts run from a copy no submission can write, one per version of their sources. A file is a path under
 * `root` (named by its path relative to it) or a [name in the copy, path] pair (a game's Board, staged from its
 * game's folder). Written to a temporary folder and renamed, so two processes publishing at once both end with the
 * same complete folder. Returns the folder's path.
 */
export function cacheFolder(prefix: string, root: string, files: (string | readonly [string, string])[]): string {
  const hash = createHash('sha256');
  const named = files.map((file) => (typeof file === 'string' ? [relative(root, file), file] : file));
  const contents = named.map(([name, file]) => {
    const bytes = readFileSync(file);
    hash.update(`${name}\0`).update(bytes).update('\0');
    return bytes;
  });
  const dir = join(cacheDir(), `${prefix}-${hash.digest('hex').slice(0, 16)}`);
  if (!existsSync(dir)) {
    const temporary = `${dir}.${process.pid}.tmp`;
    rmSync(temporary, { recursive: true, force: true });
    try {
      mkdirSync(temporary, { mode: 0o755 });
      named.forEach(([name], i) => {
        const target = join(temporary, name);
        mkdirSync(dirname(target), { recursive: true, mode: 0o755 });
        writeFileSync(target, contents[i], { mode: 0o644 });
      });
    } catch (error) {
      rmSync(temporary, { recursive: true, force: true });
      throw unwritable(error);
    }
    try {
      renameSync(temporary, dir);
    } catch (error) {
      // Another process made the same folder first: the same content, by its name.
      rmSync(temporary, { recursive: true, force: true });
      if (!existsSync(dir)) throw error;
    }
  }
  touchCacheEntry(dir);
  return dir;
}
