/**
 * The command line that starts one sandboxed player, layer by layer:
 *   sh (joins the cgroups, sets rlimits, then execs) → bwrap (when available) → node with permission flags.
 * The shell joins the cgroups before anything else runs, so no process of the player ever lives outside them.
 */
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

function bwrapArgs(input: LaunchInput): string[] {
  const node = process.execPath;
  const args = ['--unshare-all', '--die-with-parent', '--new-session', '--cap-drop', 'ALL'];
  args.push('--uid', '65534', '--gid', '65534', '--clearenv', '--chdir', '/');
  args.push('--proc', '/proc', '--dev', '/dev', '--tmpfs', '/tmp');
  for (const dir of ['/usr', '/lib', '/lib64', '/lib32', '/bin']) args.push('--ro-bind-try', dir, dir);
  // Binds after --tmpfs /tmp, so a cache or submission under /tmp shows through.
  for (const path of new Set([node, input.hostPath, input.config.bundle, input.submissionRoot])) {
    args.push('--ro-bind', path, path);
  }
  args.push(node, ...nodeArgs(input));
  return args;
}

export function launchPlan(input: LaunchInput): LaunchPlan {
  const addressSpaceKb = String((input.memoryMb + ADDRESS_SPACE_HEADROOM_MB) * 1024);
  const target = input.layers.bwrap
    ? [input.layers.bwrap, ...bwrapArgs(input)]
    : [process.execPath, ...nodeArgs(input)];
  return {
    command: '/bin/sh',
    args: ['-c', SHELL, 'sh', ...input.joinFiles, '--', addressSpaceKb, ...target],
  };
}

