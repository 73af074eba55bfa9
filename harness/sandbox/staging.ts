/**
 * Private staged copies of what a sandboxed player runs: never a mount of the user's folder. Each player gets a
 * folder of its own holding only its program (the JS bundle, or the Python submission's own .py files), under a
 * per-process base that others may traverse but not list (0711), with an unguessable name. The shared runtime
 * (the node host bundle, the Python host's folder) is copied where a child dropped to an unprivileged uid can read
 * it even when the cache lives in root's home (0700): once per content into referee-runtime-<uid> beside the bases
 * (kept across graders), or, where that folder cannot be trusted, once per process into the base.
 *
 * The base is /run/referee-<pid>-<random> for root when /run is writable (not under /tmp, which a player's mount
 * namespace replaces with an empty tmpfs), else the OS temp folder. It is removed when the process exits; a grader
 * killed outright (SIGKILL, OOM) cannot do that, so the first staging of every process sweeps the bases of dead
 * graders (sweepStaleBases).
 */
import { createHash, randomBytes } from 'node:crypto';
import { chmodSync, copyFileSync, cpSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { portable } from './portable.js';

let base: string | null = null;
let swept = false;
const shared = new Map<string, string>();

/** A base's name: the owner's pid, then 8 random hex digits (nothing else in /run or /tmp is swept). */
const BASE_NAME = /^referee-(\d+)-[0-9a-f]{8}$/;
/** In each base: who made it, so a sweep can tell a dead owner from a live one (and from a reused pid). */
const OWNER_FILE = 'owner.json';
/** A dead grader's base is left alone this long after its last change. */
export const STALE_AFTER_MS = 60_000;

interface Owner {
  pid: number;
  /** The process's start time in clock ticks since boot (/proc/<pid>/stat field 22): a reused pid has another. */
  start: string | null;
  boot: string | null;
  /** The pid namespace: pids of another namespace say nothing here. */
  pidns: string | null;
}

const readOr = <T>(read: () => T, fallback: T): T => {
  try {
    return read();
  } catch {
    return fallback;
  }
};

/** Field 22 of /proc/<pid>/stat, or null when there is no such process (or no /proc). */
function processStart(pid: number): string | null {
  if (portable()) return null;
  return readOr(() => {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may hold spaces and parentheses: count from its closing parenthesis.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? null;
  }, null);
}

function thisOwner(): Owner {
  if (portable()) return { pid: process.pid, start: null, boot: null, pidns: null };
  return {
    pid: process.pid,
    start: processStart(process.pid),
    boot: readOr(() => readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim(), null),
    pidns: readOr(() => readlinkSync('/proc/self/ns/pid'), null),
  };
}

/** Whether a process with this pid exists (one we may not signal exists too). */
function pidExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Whether the grader that made a base may still be running; in doubt, yes. */
function ownerMayLive(dir: string, namePid: number, me: Owner): boolean {
  const owner = readOr(() => JSON.parse(readFileSync(join(dir, OWNER_FILE), 'utf8')) as Owner, null);
  if (!owner || typeof owner.pid !== 'number') return pidExists(namePid); // an older grader's base, or one just made
  if (owner.boot && me.boot && owner.boot !== me.boot) return false; // from before a reboot (/tmp may survive one)
  if (owner.pidns !== me.pidns) return true; // another pid namespace's grader: its pid means nothing here
  if (owner.start === null || me.start === null) return pidExists(owner.pid);
  return processStart(owner.pid) === owner.start; // gone, or the pid now names another process
}

/**
 * Remove the bases under `root` left by graders that died without cleaning up: named like ours, owned by our uid,
 * unchanged for `staleAfterMs`, and whose owner is no longer running (by pid and start time, so a reused pid does
 * not keep a dead grader's folder, and a live grader's folder is never touched). Returns the folders removed.
 */
export function sweepStaleBases(root: string, options: { staleAfterMs?: number; now?: number } = {}): string[] {
  const staleAfterMs = options.staleAfterMs ?? STALE_AFTER_MS;
  const now = options.now ?? Date.now();
  const me = thisOwner();
  const uid = process.getuid?.();
  const removed: string[] = [];
  for (const name of readOr(() => readdirSync(root), [] as string[])) {
    const match = BASE_NAME.exec(name);
    if (!match) continue;
    const dir = join(root, name);
    if (dir === base) continue;
    const stat = readOr(() => lstatSync(dir), null);
    if (!stat || !stat.isDirectory() || (uid !== undefined && stat.uid !== uid)) continue;
    if (now - stat.mtimeMs < staleAfterMs) continue;
    if (ownerMayLive(dir, Number(match[1]), me)) continue;
    try {
      rmSync(dir, { recursive: true, force: true });
      removed.push(dir);
    } catch {
      // Another sweeper got there first, or it is not ours to remove: either way, not this grader's problem.
    }
  }
  return removed;
}

let stagingRoot: string | null = null;

/** Where bases and the runtime folder go: /run for root when writable (not /tmp: see the top), else the OS temp folder. */
function stageRoot(): string {
  stagingRoot ??= process.getuid?.() === 0 && isWritableDir('/run') ? '/run' : tmpdir();
  return stagingRoot;
}

function stageBase(): string {
  if (base && existsSync(base)) return base;
  const root = stageRoot();
  if (!swept) {
    swept = true;
    sweepStaleBases(root);
  }
  base = join(root, `referee-${process.pid}-${randomBytes(4).toString('hex')}`);
  mkdirSync(base, { mode: 0o711 });
  chmodSync(base, 0o711);
  writeFileSync(join(base, OWNER_FILE), JSON.stringify(thisOwner()), { mode: 0o600 });
  const made = base;
  process.once('exit', () => rmSync(made, { recursive: true, force: true }));
  return base;
}

function isWritableDir(dir: string): boolean {
  try {
    const probe = join(dir, `.referee-probe-${process.pid}`);
    mkdirSync(probe);
    rmSync(probe, { recursive: true });
    return true;
  } catch {
    return false;
  }
}

/**
 * A world-readable copy of a runtime file or folder (the Python host's folder, the node host bundle, the C++ host,
 * the Landlock launcher, the SDK headers, a private node binary). Kept across graders in the runtime folder when
 * that folder is safe to use (keptCopy), else made once per process in its base and removed with it.
 */
export function stageShared(path: string): string {
  const known = shared.get(path);
  if (known && existsSync(known)) return known;
  const kept = keptCopy(path);
  if (kept) {
    shared.set(path, kept);
    return kept;
  }
  const dir = join(stageBase(), 'shared');
  mkdirSync(dir, { recursive: true, mode: 0o711 });
  const target = join(dir, basename(path));
  if (!existsSync(target)) copyInto(path, target);
  shared.set(path, target);
  return target;
}

/** The folder of kept runtime copies: one per uid beside the bases, never swept with them (its name is no base's). */
const RUNTIME_NAME = (uid: number): string => `referee-runtime-${uid}`;
/** A kept copy unused this long is removed by the next grader that stages one; a use touches it once a day. */
export const KEPT_UNUSED_MS = 30 * 24 * 3600_000;
const TOUCH_AFTER_MS = 24 * 3600_000;
let runtimeDir: string | null | undefined;

/** The runtime folder of this uid, or null when it cannot be trusted (trustedRuntimeDir); pruned on first use. */
function keptRuntimeDir(): string | null {
  if (runtimeDir !== undefined) return runtimeDir;
  const uid = process.getuid?.();
  const dir = uid === undefined || portable() ? null : join(stageRoot(), RUNTIME_NAME(uid));
  runtimeDir = dir && trustedRuntimeDir(dir) ? dir : null;
  if (runtimeDir) pruneKept(runtimeDir);
  return runtimeDir;
}

/**
 * Make `dir` (0711) unless it exists; true when it is a real folder (not a link) owned by this uid that no one
 * else may write, so that a copy found there is one a grader of this uid made.
 */
export function trustedRuntimeDir(dir: string): boolean {
  try {
    mkdirSync(dir, { mode: 0o711 });
    chmodSync(dir, 0o711);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') return false;
  }
  const stat = readOr(() => lstatSync(dir), null);
  return stat !== null && stat.isDirectory() && stat.uid === process.getuid?.() && (stat.mode & 0o022) === 0;
}

/**
 * What a kept copy is a copy of: every file under `path` by name, kind, mode and content (sha-256). Content, not
 * times: cache entries are touched on every use, and a name alone would keep an old copy of a rebuilt file (a
 * compiled __pycache__, a new node). Hashing the Python host's folder costs ~1.5 ms; copying it cost ~10 ms of CPU.
 * A hash-checked .pyc counts by its 16-byte header (magic number, flags, the source's hash): marshal's bytes differ
 * from one compile to the next, and Python itself accepts any such file whose header matches its source.
 */
function sourceIdentity(path: string): string {
  const hash = createHash('sha256');
  const visit = (file: string, name: string): void => {
    const stat = lstatSync(file);
    hash.update(`\0${name}\0${stat.isDirectory() ? 'd' : stat.isFile() ? 'f' : 'o'}${stat.mode & 0o777}\0`);
    if (stat.isDirectory()) for (const entry of readdirSync(file).sort()) visit(join(file, entry), `${name}/${entry}`);
    else if (stat.isFile()) {
      const content = readFileSync(file);
      hash.update(name.endsWith('.pyc') && content.length >= 16 && (content.readUInt32LE(4) & 1) === 1 ? content.subarray(0, 16) : content);
    } else throw new Error(`${file} is neither a file nor a folder`);
  };
  visit(path, '.');
  return hash.digest('hex').slice(0, 24);
}

/**
 * The kept copy of `path` in the runtime folder, made now if no grader made it yet (copied under a temporary name
 * and renamed into place, so a copy is never seen half made); null when the folder cannot be used or copying fails.
 * A kept copy costs nothing after the first grader: no copy at start and no removal at exit (~40 files of the
 * Python host, written and unlinked on the cache's disk by every check before).
 */
function keptCopy(path: string): string | null {
  const dir = keptRuntimeDir();
  return dir ? keptCopyIn(dir, path) : null;
}

/**
 * keptCopy in a given (trusted) runtime folder: <dir>/<content id>/<the same name as path>, so paths in stacks and
 * tracebacks end as they did in a per-process copy (host-<hash>.cjs, python-<hash>/host.py).
 */
export function keptCopyIn(dir: string, path: string): string | null {
  try {
    const folder = join(dir, sourceIdentity(path));
    const target = join(folder, basename(path));
    if (existsSync(target)) {
      if (Date.now() - lstatSync(folder).mtimeMs > TOUCH_AFTER_MS) utimesSync(folder, new Date(), new Date());
      return target;
    }
    const partial = join(dir, `.partial-${process.pid}-${randomBytes(6).toString('hex')}`);
    try {
      mkdirSync(partial, { mode: 0o755 });
      chmodSync(partial, 0o755);
      copyInto(path, join(partial, basename(path)));
      renameSync(partial, folder);
    } catch (error) {
      rmSync(partial, { recursive: true, force: true });
      // Another grader renamed the same copy into place first: theirs is as good.
      if (!existsSync(target)) throw error;
    }
    return target;
  } catch {
    return null;
  }
}

/** Copies unused for KEPT_UNUSED_MS, and partial copies of graders that died an hour ago, are removed. */
export function pruneKept(dir: string): void {
  const now = Date.now();
  for (const name of readOr(() => readdirSync(dir), [] as string[])) {
    const entry = join(dir, name);
    const stat = readOr(() => lstatSync(entry), null);
    if (!stat) continue;
    const age = now - stat.mtimeMs;
    if (name.startsWith('.partial-') ? age > 3600_000 : age > KEPT_UNUSED_MS) rmSync(entry, { recursive: true, force: true });
  }
}

function copyInto(path: string, target: string): void {
  if (statSync(path).isDirectory()) cpSync(path, target, { recursive: true });
  else copyFileSync(path, target);
  chmodTree(target);
}

/**
 * Folders 0755, programs (the C++ host) 0755, everything else 0644, whatever the source's modes: a sandboxed
 * player (another uid) may read the copy and never write it, here or in a copy kept for later graders.
 */
function chmodTree(path: string): void {
  const stat = lstatSync(path);
  if (stat.isDirectory()) {
    chmodSync(path, 0o755);
    for (const entry of readdirSync(path)) chmodTree(join(path, entry));
  } else if (stat.isFile()) chmodSync(path, stat.mode & 0o100 ? 0o755 : 0o644);
}

export interface StagedProgram {
  /** The player's private folder. */
  dir: string;
  /** The staged entry (bundle or entry .py) inside it. */
  entry: string;
  remove(): void;
}

/**
 * Copy `files` (absolute paths under `root`) into a fresh private folder, keeping their paths relative to root;
 * `entry` is one of them. Files are 0644 and folders 0755 inside a 0711 base with a random name.
 */
export function stageProgram(root: string, files: string[], entry: string, tag = 'p'): StagedProgram {
  const dir = join(stageBase(), `${tag}-${randomBytes(12).toString('hex')}`);
  mkdirSync(dir, { mode: 0o755 });
  let stagedEntry = '';
  for (const file of files) {
    const relative = file === root ? basename(file) : file.slice(root.length + 1);
    const target = join(dir, relative);
    mkdirSync(dirname(target), { recursive: true, mode: 0o755 });
    copyFileSync(file, target);
    chmodSync(target, 0o644);
    if (file === entry) stagedEntry = target;
  }
  if (!stagedEntry) throw new Error(`staging: the entry ${entry} is not among the staged files`);
  return { dir, entry: stagedEntry, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
