/**
 * The Landlock ruleset a child confines itself with when bubblewrap is missing, described once here for every
 * runtime: the node host gets it as the launcher's command line (native/landlock-launch.c), the Python host as
 * JSON in its config (python/landlock.py, through ctypes). Both install it on themselves before student code runs
 * and tell the parent what held (`confinementReport`), which the isolation record then states.
 *
 * What a confined child may do: read (and execute) the runtime (/usr, /lib*, /bin, the interpreter, the host) and
 * its private staged submission; write only its private temporary folders (the unshare fallback's own tmpfs /tmp
 * and /dev/shm as root; none otherwise) and /dev/null; no TCP bind or connect (ABI >= 4); no signal to, and no
 * abstract unix socket of, any process outside its own sandbox (ABI >= 6). Everything else of the machine — other
 * students' files, the grader's folder and /proc entries, /var/tmp, /run/lock — is refused by the kernel.
 */
import { SYSTEM_READ_DIRS } from './system-paths.js';

/** The shared description. `refuse` acts as a kernel without Landlock (REFEREE_SANDBOX_NO_LANDLOCK=1). */
export interface Confinement {
  read: string[];
  write: string[];
  /** Read without execute (a compiler's sources), and write without execute (its output folder). */
  data?: string[];
  scratch?: string[];
  noTcp: boolean;
  scope: boolean;
  refuse: boolean;
  /** The program reads its own CPU waits (/proc/thread-self/schedstat), which Landlock shuts: opened for it first. */
  schedstat?: boolean;
}

/** What every runtime needs to read beyond its own files: the system's libraries and a few device files. */
// node reads OpenSSL's configuration at start-up and fails on EACCES (bubblewrap simply has no /etc: ENOENT is fine).
// The folders are system-paths.ts's, the one list bubblewrap binds too.
const SYSTEM_READ = [...SYSTEM_READ_DIRS, '/etc/ld.so.cache', '/etc/ssl/openssl.cnf', '/dev/urandom', '/dev/random'];

/** The ruleset for a child that reads `binds` (its program, host and staged folder) and may write `privateTmp`. */
export function confinementFor(binds: string[], privateTmp: string[]): Confinement {
  return {
    read: [...new Set([...SYSTEM_READ, ...binds])],
    write: ['/dev/null', ...privateTmp],
    noTcp: true,
    scope: true,
    refuse: process.env.REFEREE_SANDBOX_NO_LANDLOCK === '1',
  };
}

/**
 * The ruleset for the sandboxed C++ compiler: it runs the toolchain (/usr, /lib*, /bin and the compiler binary),
 * reads the staged sources and the project's headers but executes none of them, and writes only its output folder.
 */
export function compileConfinement(toolchain: string[], sources: string[], outDir: string): Confinement {
  return {
    read: [...new Set([...SYSTEM_READ, ...toolchain])],
    write: ['/dev/null'],
    data: [...new Set(sources)],
    scratch: [outDir],
    noTcp: true,
    scope: true,
    refuse: process.env.REFEREE_SANDBOX_NO_LANDLOCK === '1',
  };
}

/** The launcher's words for a ruleset, the seccomp program (hex) it installs too, then `--`. */
export function launcherArgs(launcher: string, rules: Confinement, seccompHex: string | null): string[] {
  const args = [launcher];
  for (const path of rules.read) args.push('--read', path);
  for (const path of rules.write) args.push('--write', path);
  for (const path of rules.data ?? []) args.push('--data', path);
  for (const path of rules.scratch ?? []) args.push('--scratch', path);
  if (rules.noTcp) args.push('--no-tcp');
  if (rules.scope) args.push('--scope');
  if (rules.refuse) args.push('--refuse');
  if (rules.schedstat) args.push('--schedstat');
  if (seccompHex) args.push('--seccomp', seccompHex);
  args.push('--');
  return args;
}

/**
 * What a child says held, from the launcher's REFEREE_CONFINEMENT or the Python host's own install:
 * `landlock` is 'abi7 net scope' style when installed (the features that held), else 'missing: why'.
 */
export interface ConfinementReport {
  landlock: string;
  seccomp: string;
}

/** Parse "landlock=…;seccomp=…" (the launcher's words); null when it is not that. */
export function parseConfinement(text: string | undefined): ConfinementReport | null {
  const match = /^landlock=([^;]{1,300});seccomp=(.{1,300})$/.exec(text ?? '');
  return match ? { landlock: match[1], seccomp: match[2] } : null;
}

/** Whether a reported Landlock holds everything the sandbox promises (files, TCP and scoping: ABI >= 6). */
export function landlockComplete(landlock: string | null | undefined): boolean {
  return typeof landlock === 'string' && /^abi\d+ net scope$/.test(landlock);
}
