/**
 * The command line that starts one sandboxed player, layer by layer:
 *   sh (joins the cgroups, sets rlimits, then execs) → bwrap (when available) → node with permission flags,
 *   or python3 -I running the Python host (python/host.py) for Python submissions.
 * The shell joins the cgroups before anything else runs, so no process of the player ever lives outside them.
 */
import { dirname } from 'node:path';
import type { HostConfig } from './protocol.js';
import type { Layers } from './layers.js';

export interface LaunchPlan {
  command: string;
  args: string[];
}

export interface LaunchInput {
  layers: Layers;
  hostPath: string;
  config: HostConfig;
  /** The submission's root folder: readable (read-only) inside the sandbox, nothing else of the host is. */
  submissionRoot: string;
  memoryMb: number;
  /** cgroup.procs files to join before exec (empty without cgroups). */
  joinFiles: string[];
  /**
   * Run the Python host instead of node: `hostPath` is then python/host.py in its cached folder (bound whole) and
   * `config.bundle` the submission's entry .py file.
   */
  python?: PythonProgram;
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
 * Address-space headroom over the heap ceiling: node reserves ~900 MB of virtual memory at start-up, so the
 * rlimit must leave room for that while still turning a Buffer bomb into a catchable allocation failure.
 */
const ADDRESS_SPACE_HEADROOM_MB = 1536;

// Join each cgroup (args before "--"), forbid core dumps, cap the address space, then exec the rest.
const SHELL = [
  'for f do [ "$f" = -- ] && break; echo $$ > "$f" || exit 125; shift; done; shift',
  'ulimit -c 0 2>/dev/null; ulimit -v "$1" 2>/dev/null; shift',
  'exec "$@"',
].join('; ');

function supportsDisableWarning(version: string): boolean {
  const [major, minor] = version.replace(/^v/, '').split('.').map(Number);
  return major > 21 || (major === 21 && minor >= 3) || (major === 20 && minor >= 11);
}

function nodeArgs(input: LaunchInput): string[] {
  const { layers, hostPath, config, submissionRoot, memoryMb } = input;
  const args = [`--max-old-space-size=${memoryMb}`, '--enable-source-maps'];
  if (layers.permissionFlag) {
    args.push(layers.permissionFlag, `--allow-fs-read=${hostPath}`, `--allow-fs-read=${config.bundle}`);
    args.push(`--allow-fs-read=${submissionRoot}`);
    // The permission model announces itself on every start; the student's own warnings still show.
    if (supportsDisableWarning(process.version)) args.push('--disable-warning=ExperimentalWarning');
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
    tmp: input.layers.bwrap ? '/tmp' : null,
  };
  return ['-I', '-B', '-u', input.hostPath, JSON.stringify(config)];
}

/** The program bubblewrap (or the shell, without it) execs, and the paths it must see. */
function program(input: LaunchInput): { command: string[]; binds: string[] } {
  const python = input.python;
  if (python) {
    return {
      command: [python.interpreter, ...pythonArgs(input, python)],
      binds: [...python.binds, dirname(input.hostPath), input.submissionRoot],
    };
  }
  const node = process.execPath;
  return {
    command: [node, ...nodeArgs(input)],
    binds: [node, input.hostPath, input.config.bundle, input.submissionRoot],
  };
}

function bwrapArgs(input: LaunchInput): string[] {
  const args = ['--unshare-all', '--die-with-parent', '--new-session', '--cap-drop', 'ALL'];
  args.push('--uid', '65534', '--gid', '65534', '--clearenv', '--chdir', '/');
  args.push('--proc', '/proc', '--dev', '/dev', '--tmpfs', '/tmp');
  for (const dir of ['/usr', '/lib', '/lib64', '/lib32', '/bin']) args.push('--ro-bind-try', dir, dir);
  const { command, binds } = program(input);
  // Binds after --tmpfs /tmp, so a cache or submission under /tmp shows through.
  for (const path of new Set(binds)) args.push('--ro-bind', path, path);
  args.push(...command);
  return args;
}

export function launchPlan(input: LaunchInput): LaunchPlan {
  const addressSpaceKb = String((input.memoryMb + ADDRESS_SPACE_HEADROOM_MB) * 1024);
  const target = input.layers.bwrap ? [input.layers.bwrap, ...bwrapArgs(input)] : program(input).command;
  return {
    command: '/bin/sh',
    args: ['-c', SHELL, 'sh', ...input.joinFiles, '--', addressSpaceKb, ...target],
  };
}

