/**
 * The command line that starts one sandboxed player, layer by layer:
 *   sh (joins the cgroups, sets rlimits, then execs)
 *   → [without bubblewrap, as root] unshare: own network, IPC, pid and mount namespace, fresh /tmp and /dev/shm
 *   → [as root] setpriv: drop to the unprivileged host uid/gid and every capability
 *   → [when it works] bwrap, with the seccomp filter read from its stdin (`--seccomp 0`)
 *   → [without bubblewrap, node and C++] the Landlock launcher (native/landlock-launch.c): Landlock (and for node
 *     the seccomp filter) on itself, then exec (confinement.ts describes the ruleset)
 *   → node with permission flags, or python3 -I running the Python host (python/host.py), or the C++ host
 *     (cpp/host.cpp), each of which installs the strict seccomp filter on itself before the submission loads (the
 *     Python host, without bubblewrap, the same Landlock ruleset too, through ctypes).
 * The shell joins the cgroups before anything else runs, so no process of the player ever lives outside them.
 * What the child sees of the user's files is its private staged copy (staging.ts), never the user's folder.
 */
import { dirname } from 'node:path';
import type { HostConfig } from './protocol.js';
import { confinementFor, launcherArgs, type Confinement } from './confinement.js';
import { bwrapBaseArgs, dropPrivileges, PRIVATE_SHM_MB, PRIVATE_TMP_MB, type Layers } from './layers.js';
import { memoryWall } from './memory-wall.js';
import { seccompProgram, type SeccompOptions } from './seccomp.js';

/** Filters installed by the process that runs them (hosts, the launcher) may say "only myself" for signals. */
const SELF_SIGNALS: SeccompOptions = { selfSignalsOnly: true };

export interface LaunchPlan {
  command: string;
  args: string[];
  /** Bytes to write to the child's stdin and close (bubblewrap's seccomp program), or null (stdin ignored). */
  stdin: Buffer | null;
}

export interface LaunchInput {
  layers: Layers;
  hostPath: string;
  config: HostConfig;
  /** The player's private staged folder: readable (read-only) inside the sandbox, nothing else of the host is. */
  submissionRoot: string;
  memoryMb: number;
  /** cgroup.procs files to join before exec (empty without cgroups). */
  joinFiles: string[];
  /** The node binary for a node child (node-runtime.ts: a staged copy when the child's uid cannot reach ours). */
  node?: string;
  /**
   * Run the Python host instead of node: `hostPath` is then python/host.py in its cached folder (bound whole) and
   * `config.bundle` the submission's entry .py file.
   */
  python?: PythonProgram;
  /** Run the C++ host (cpp/host.cpp, compiled): `hostPath` is the host binary and `config.bundle` the player's .so. */
  cpp?: CppProgram;
  /**
   * One stream for the player's stdout and stderr (fd 2 made a copy of fd 1 before the sandbox starts): the kernel
   * then keeps what the player wrote in the order it wrote it, which two pipes read by the grader cannot. For hosts
   * that speak on fds 3/4 only; never for a Botzone bot, whose stdout is its answers.
   */
  mergeOutput?: boolean;
  /**
   * Run a whole program that speaks on stdin/stdout (a Botzone bot): its argv and the paths it reads. The no-fork
   * seccomp filter is installed before it (bubblewrap's --seccomp, else the Landlock launcher), and bubblewrap reads
   * the filter from fd 3, not stdin, which is the program's.
   */
  program?: WholeProgram;
}

export interface WholeProgram {
  argv: string[];
  binds: string[];
  /** The filter the sandbox installs before it (default 'no-fork'; 'spawner' for the Botzone spawner, which forks). */
  seccomp?: 'no-fork' | 'spawner';
  /** It reads its own CPU waits from /proc (the Botzone spawner): without bubblewrap the launcher opens them first. */
  readsOwnWaits?: boolean;
}

export interface CppProgram {
  /** The game's side symbols: an AIPlayer is built with AIPlayer(symbols[side]). */
  symbols: readonly string[];
}

export interface PythonProgram {
  /** The real interpreter binary (see python-runtime.ts). */
  interpreter: string;
  /** Folders the interpreter needs beyond /usr, /lib and /bin, bound read-only. */
  binds: string[];
  /** The game's side symbols: the host constructs AIPlayer(symbols[side]). */
  symbols: readonly string[];
}

/**
 * Open files a sandboxed process may hold (soft and hard: it cannot raise it again). node needs ~20, Python ~6. A
 * second wall behind seccomp's memfd refusal: memory held in kernel objects no rlimit counts (pipe and socketpair
 * buffers, files on a tmpfs) is bounded per descriptor, so the number of descriptors bounds it.
 */
export const OPEN_FILES_LIMIT = 64;

// Join each cgroup (args before "--"), forbid core dumps, set the address-space limit (KiB, or 'unlimited' where the
// cgroup holds resident memory: memory-wall.ts), cap the size of any one file written (in 512-byte blocks: the
// private tmpfs's size) and the open files, then exec the rest.
// Exported for the sandboxed C++ compiler (cpp-build.ts), which starts the same way.
export const SHELL = [
  'for f do [ "$f" = -- ] && break; echo $$ > "$f" || exit 125; shift; done; shift',
  `ulimit -c 0 2>/dev/null; ulimit -v "$1" 2>/dev/null; ulimit -f ${PRIVATE_TMP_MB * 2048} 2>/dev/null; ulimit -n ${OPEN_FILES_LIMIT} 2>/dev/null; shift`,
  'exec "$@"',
].join('; ');
/** SHELL with the program's stderr sent into its stdout pipe (LaunchInput.mergeOutput). */
const SHELL_MERGED = `${SHELL} 2>&1`;

/** `--disable-warning` (Node 20.11, 21.3), asked of the running Node like the permission flag (layers.ts). */
function supportsDisableWarning(): boolean {
  return process.allowedNodeEnvironmentFlags.has('--disable-warning');
}

function nodeArgs(input: LaunchInput): string[] {
  const { layers, hostPath, config, submissionRoot, memoryMb } = input;
  // No eval/new Function: a string compiled at run time could reach the ESM loader (import()) past the host's require.
  const args = [`--max-old-space-size=${memoryMb}`, '--enable-source-maps', '--disallow-code-generation-from-strings'];
  if (layers.permissionFlag) {
    args.push(layers.permissionFlag, `--allow-fs-read=${hostPath}`, `--allow-fs-read=${config.bundle}`);
    args.push(`--allow-fs-read=${submissionRoot}`);
    // The permission model announces itself on every start; the student's own warnings still show.
    if (supportsDisableWarning()) args.push('--disable-warning=ExperimentalWarning');
  }
  args.push(hostPath, JSON.stringify(config));
  return args;
}

/**
 * What the Python host is told: the entry, the folder that bounds it, the game, and the one folder it may write
 * in (bubblewrap's private /tmp; none without bubblewrap, where /tmp is the machine's).
 */
function pythonArgs(input: LaunchInput, python: PythonProgram): string[] {
  const config = {
    entry: input.config.bundle,
    root: input.submissionRoot,
    game: input.config.game,
    symbols: python.symbols,
    stopAfterAnswer: input.config.stopAfterAnswer ?? false,
    // Packages the platform's Python offers, loaded before the audit hook when the submission imports them.
    packages: ['numpy', ...(input.config.allow ?? []).filter((name) => /^[A-Za-z_][A-Za-z0-9_]*$/.test(name))],
    tmp: input.layers.bwrap || input.layers.unshare ? '/tmp' : null,
    // The host installs it on itself before student code: no execve, fork or process clone, bwrap or not.
    // Signals only to itself: without a pid namespace (no bubblewrap, not root) nothing else stops kill(-1, …).
    seccomp: input.layers.seccomp ? seccompProgram('strict', process.arch, SELF_SIGNALS).toString('hex') : null,
    // Without bubblewrap, the Landlock ruleset it installs on itself first (python/landlock.py).
    landlock: confinement(input, [...python.binds, dirname(input.hostPath), input.submissionRoot, python.interpreter]),
  };
  return ['-I', '-B', '-u', input.hostPath, JSON.stringify(config)];
}

/** The Landlock ruleset for a child without bubblewrap that reads `binds`, or null (bubblewrap, or no Landlock). */
function confinement(input: LaunchInput, binds: string[]): Confinement | null {
  const { layers } = input;
  if (layers.bwrap || !layers.landlock) return null;
  return confinementFor(binds, layers.unshare ? ['/tmp', '/dev/shm'] : []);
}

/** The program bubblewrap (or the shell, without it) execs, and the paths it must see. */
function program(input: LaunchInput): { command: string[]; binds: string[] } {
  if (input.program) {
    const binds = [...input.program.binds, input.submissionRoot];
    const ruleset = confinement(input, binds);
    const rules = ruleset && input.program.readsOwnWaits ? { ...ruleset, schedstat: true } : ruleset;
    const launcher = rules ? input.layers.landlock?.launcher : null;
    const seccomp = input.layers.seccomp ? seccompProgram(input.program.seccomp ?? 'no-fork').toString('hex') : null;
    return { command: [...(rules && launcher ? launcherArgs(launcher, rules, seccomp) : []), ...input.program.argv], binds };
  }
  if (input.cpp) {
    // The host installs the strict filter (no exec either) on itself before it dlopens the player.
    const filter = input.layers.seccomp ? seccompProgram('strict', process.arch, SELF_SIGNALS).toString('hex') : '-';
    const binds = [input.hostPath, input.submissionRoot];
    // Without bubblewrap it starts through the Landlock launcher, like node (its own filter is the seccomp layer).
    const rules = confinement(input, binds);
    const launcher = rules ? input.layers.landlock?.launcher : null;
    return {
      command: [...(rules && launcher ? launcherArgs(launcher, rules, null) : []), input.hostPath, input.config.bundle, input.config.game, input.cpp.symbols.join(''), filter],
      binds,
    };
  }
  const python = input.python;
  if (python) {
    return {
      command: [python.interpreter, ...pythonArgs(input, python)],
      binds: [...python.binds, dirname(input.hostPath), input.submissionRoot],
    };
  }
  const node = input.node ?? process.execPath;
  const binds = [node, input.hostPath, input.config.bundle, input.submissionRoot];
  // Without bubblewrap, node starts through the launcher, which installs Landlock and the seccomp filter first.
  const rules = confinement(input, binds);
  const launcher = rules ? input.layers.landlock?.launcher : null;
  const seccomp = input.layers.seccomp ? seccompProgram('no-fork', process.arch, SELF_SIGNALS).toString('hex') : null;
  return {
    command: [...(rules && launcher ? launcherArgs(launcher, rules, seccomp) : []), node, ...nodeArgs(input)],
    binds,
  };
}

function bwrapArgs(input: LaunchInput): string[] {
  const args = bwrapBaseArgs();
  if (input.layers.seccomp) args.push('--seccomp', input.program ? String(PROGRAM_SECCOMP_FD) : '0');
  // A whole program starts in its staged folder (a bot reads its own files by relative path).
  if (input.program) args[args.indexOf('--chdir') + 1] = input.submissionRoot;
  const { command, binds } = program(input);
  // Binds after --tmpfs /tmp, so a cache or submission under /tmp shows through.
  for (const path of new Set(binds)) args.push('--ro-bind', path, path);
  args.push(...command);
  return args;
}

// Inside a fresh mount namespace (root, no bubblewrap): an empty /tmp and /dev/shm of the player's own. The shell
// stays as the pid namespace's init rather than exec'ing: the kernel ignores a SIGSTOP that the namespace's init
// sends itself, and the host stops itself after each answer (HostConfig.stopAfterAnswer). It exits with the
// player's status (128 + N for a signal, as bubblewrap reports it).
const PRIVATE_TMP = `mount -t tmpfs -o size=${PRIVATE_TMP_MB}m,mode=1777 referee-tmp /tmp && mount -t tmpfs -o size=${PRIVATE_SHM_MB}m,mode=1777 referee-shm /dev/shm && "$@"`;

/** Without bubblewrap, as root: unshare's namespaces, a private /tmp and /dev/shm, then the rest. */
export function unshareArgs(unshare: string): string[] {
  return [unshare, '--net', '--ipc', '--pid', '--fork', '--kill-child', '--mount', '--mount-proc', '--propagation', 'private', '/bin/sh', '-c', PRIVATE_TMP, 'sh'];
}

/** The fd bubblewrap reads a whole program's seccomp filter from (its stdin is the program's protocol). */
export const PROGRAM_SECCOMP_FD = 3;

export function launchPlan(input: LaunchInput): LaunchPlan {
  const { layers } = input;
  const addressSpace = memoryWall(layers, input.memoryMb).addressSpace;
  const sandboxed = layers.bwrap ? [layers.bwrap, ...bwrapArgs(input)] : program(input).command;
  // Without bubblewrap, the first process takes the grader's death as SIGKILL (a stopped player would outlive it);
  // before unshare, whose --kill-child passes it on to the namespace's init, and before any change of uid clears it.
  const dies = !layers.bwrap && layers.diesWithGrader ? [layers.diesWithGrader, '--pdeathsig', 'KILL', '--'] : [];
  const target = [...dies, ...(!layers.bwrap && layers.unshare ? unshareArgs(layers.unshare) : []), ...dropPrivileges(layers.identity), ...sandboxed];
  // No shell (Windows has none; the portable path, portable.ts): the program itself, without rlimits or cgroups.
  if (!layers.process.rlimits) return { command: target[0], args: target.slice(1), stdin: null };
  return {
    command: '/bin/sh',
    args: ['-c', input.mergeOutput && !input.program ? SHELL_MERGED : SHELL, 'sh', ...input.joinFiles, '--', addressSpace, ...target],
    stdin: layers.bwrap && layers.seccomp ? seccompProgram(input.program?.seccomp ?? 'no-fork') : null,
  };
}

