/**
 * Private staged copies of what a sandboxed player runs: never a mount of the user's folder. Each player gets a
 * folder of its own holding only its program (the JS bundle, or the Python submission's own .py files), under a
 * per-process base that others may traverse but not list (0711), with an unguessable name. The shared runtime
 * (the node host bundle, the Python host's folder) is copied there once per process, so a child dropped to an
 * unprivileged uid can read it even when the cache lives in root's home (0700).
 *
 * The base is /run/referee-<pid> for root when /run is writable (not under /tmp, which a player's mount namespace
 * replaces with an empty tmpfs), else the OS temp folder. It is removed when the process exits.
 */
import { randomBytes } from 'node:crypto';
import { chmodSync, copyFileSync, cpSync, existsSync, mkdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';

let base: string | null = null;
const shared = new Map<string, string>();

function stageBase(): string {
  if (base && existsSync(base)) return base;
  const root = process.getuid?.() === 0 && isWritableDir('/run') ? '/run' : tmpdir();
  base = join(root, `referee-${process.pid}-${randomBytes(4).toString('hex')}`);
  mkdirSync(base, { mode: 0o711 });
  chmodSync(base, 0o711);
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
  chmodSync(path, 0o644);
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
