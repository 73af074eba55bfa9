/**
 * Private staged copies of what a sandboxed player runs: never a mount of the user's folder. Each player gets a
 * folder of its own holding only its program (the JS bundle, or the Python submission's own .py files), under a
 * per-process base that others may traverse but not list (0711), with an unguessable name. The shared runtime
 * (the node host bundle, the Python host's folder) is copied there once per process, so a child dropped to an
 * unprivileged uid can read it even when the cache lives in root's home (0700).
 *
 * The base is /run/referee-<pid>-<random> for root when /run is writable (not under /tmp, which a player's mount
 * namespace replaces with an empty tmpfs), else the OS temp folder. It is removed when the process exits; a grader
 * killed outright (SIGKILL, OOM) cannot do that, so the first staging of every process sweeps the bases of dead
 * graders (sweepStaleBases).
 */
import { randomBytes } from 'node:crypto';
import { chmodSync, copyFileSync, cpSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, rmSync, statSync, writeFileSync } from 'node:fs';
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

function stageBase(): string {
  if (base && existsSync(base)) return base;
  const root = process.getuid?.() === 0 && isWritableDir('/run') ? '/run' : tmpdir();
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

/** A world-readable copy of a runtime file or folder (content-addressed by its cache name), made once per process. */
export function stageShared(path: string): string {
  const known = shared.get(path);
  if (known && existsSync(known)) return known;
  const dir = join(stageBase(), 'shared');
  mkdirSync(dir, { recursive: true, mode: 0o711 });
  const target = join(dir, basename(path));
  if (!existsSync(target)) {
    if (statSync(path).isDirectory()) {
      cpSync(path, target, { recursive: true });
      chmodSync(target, 0o755);
    } else {
      copyFileSync(path, target);
    }
    chmodTree(target);
  }
  shared.set(path, target);
  return target;
}

function chmodTree(path: string): void {
  if (statSync(path).isDirectory()) {
    chmodSync(path, 0o755);
    return;
  }
  // A program (the C++ host) stays executable; everything else is plain data.
  chmodSync(path, statSync(path).mode & 0o100 ? 0o755 : 0o644);
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
