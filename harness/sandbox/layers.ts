/**
 * Which isolation layers this machine offers, decided once per process at start-up by a live probe: bubblewrap
 * is not trusted because its binary exists (in Docker without user namespaces, on Gradescope, on Ubuntu 24.04
 * with AppArmor's userns restriction it is installed but cannot start), it is run once with the same flags, the
 * same unprivileged identity and the same seccomp filter the players get. A layer that is present but cannot
 * start is reported by name with the fix, and the sandbox falls back to the next configuration (see policy below);
 * `referee doctor` prints the same report. Nothing here is trusted from the environment except explicit opt-outs
 * used to exercise the fallbacks (REFEREE_SANDBOX_NO_BWRAP=1, REFEREE_SANDBOX_NO_CGROUP=1,
 * REFEREE_SANDBOX_NO_SECCOMP=1) and the demand for full isolation (REFEREE_REQUIRE_ISOLATION=1).
 *
 * Policy when bubblewrap is broken: grade with the remaining layers (as when it is absent), marked
 * "not isolated" in every result with the reason; with REFEREE_REQUIRE_ISOLATION=1 refuse instead: every
 * sandboxed player then fails to start with a grader error (exit 3), never a student's verdict.
 */
import { createHash } from 'node:crypto';
import { accessSync, constants, existsSync, readFileSync, readlinkSync, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import type { PlayerIsolation } from '../referee/player.js';
import { detectCgroups, type CgroupSupport } from './cgroup.js';
import { landlockComplete, type ConfinementReport } from './confinement.js';
import { nativeTools } from './native-tools.js';
import { portable, portableReason } from './portable.js';
import { forgetProbe, keptProbe, keptProbeFile } from './probe-cache.js';
import { seccompProgram, seccompSupported } from './seccomp.js';
import { PROBE_BOUND, spawnToolSync } from './tool-bound.js';
import { SYSTEM_READ_DIRS, systemLibraryLinks } from './system-paths.js';

/** The size of a player's private /tmp and /dev/shm (bubblewrap's and the unshare fallback's tmpfs). */
export const PRIVATE_TMP_MB = 64;
export const PRIVATE_SHM_MB = 16;

/** The host uid/gid a sandboxed child runs as when the grader runs as root (nobody/nogroup). */
export const UNPRIVILEGED_ID = 65534;

export interface Identity {
  uid: number;
  gid: number;
  /** util-linux setpriv, which drops to uid/gid (and every capability) right before exec. */
  setpriv: string;
}

export interface Layers {
  /** Layer 1: a process per player with V8 heap flags and rlimits (via sh's ulimit). Always present. */
  process: { rlimits: boolean };
  /** Layer 2: a bubblewrap binary that was seen to start a sandbox here, or null. */
  bwrap: string | null;
  /** bubblewrap is installed but failed its start-up probe: what it said and the fix (null when fine or absent). */
  bwrapProblem: string | null;
  /** Layer 3: writable cgroup controllers, or null. */
  cgroup: CgroupSupport | null;
  /** Layer 4: Node's permission flag for this Node version, or null when Node has none. */
  permissionFlag: '--permission' | '--experimental-permission' | null;
  /**
   * Layer 5: the seccomp filter against new processes (seccomp.ts) can be applied: through bubblewrap's
   * `--seccomp` for every player, and by the Python host on itself (with or without bubblewrap).
   */
  seccomp: boolean;
  /** Layer 6: the unprivileged host identity children drop to (grader running as root), or null. */
  identity: Identity | null;
  /**
   * Without bubblewrap, as root: util-linux unshare gives each player its own network (no connections, private
   * abstract sockets), IPC and pid namespace (it sees and signals only its own processes). null otherwise.
   */
  unshare: string | null;
  /**
   * Without bubblewrap (Linux): Landlock, which every child installs on itself before student code runs (the node
   * host through the launcher, the Python host through ctypes; confinement.ts). null with bubblewrap or off Linux.
   */
  landlock: LandlockSupport | null;
  /**
   * Without bubblewrap (whose --die-with-parent does it): util-linux setpriv, through which a player's first
   * process takes SIGKILL when the grader dies (`--pdeathsig`), so a grader killed with -9 leaves no player behind
   * (stopped between turns, it would wait forever). Absent or null: none (the next grader's sweep ends them).
   */
  diesWithGrader?: string | null;
}

export interface LandlockSupport {
  /** The kernel's Landlock ABI (0: none); ABI >= 6 holds files, TCP and scoping. */
  abi: number;
  /** The compiled launcher node children start through, or null (no compiler: node children go without). */
  launcher: string | null;
  /** Why Landlock or the launcher is missing, or null. */
  problem: string | null;
}

function findOnPath(name: string): string | null {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return null;
}

/** setpriv when it knows --pdeathsig (util-linux 2.33, 2018), asked of the binary itself. */
function pdeathsigTool(): string | null {
  const setpriv = findSystemTool('setpriv');
  if (!setpriv) return null;
  const probe = spawnToolSync(setpriv, ['--pdeathsig', 'KILL', '--', 'true'], PROBE_BOUND, { stdio: 'ignore' });
  return probe.status === 0 ? setpriv : null;
}

function findSystemTool(name: string): string | null {
  for (const dir of ['/usr/bin', '/bin', '/usr/sbin', '/sbin']) {
    const candidate = join(dir, name);
    if (existsSync(candidate)) return candidate;
  }
  return findOnPath(name);
}

/**
 * Node's permission flag, from the flags this very Node accepts (players run on process.execPath), not from its
 * version number: `--permission` arrived in 22.13 (22.0-22.12 know only `--experimental-permission`, 24 only
 * `--permission`), and a wrong guess made every grade a grader error ("bad option").
 */
export function permissionFlagFor(accepted: ReadonlySet<string> = process.allowedNodeEnvironmentFlags): Layers['permissionFlag'] {
  if (accepted.has('--permission')) return '--permission';
  if (accepted.has('--experimental-permission')) return '--experimental-permission';
  return null;
}

/** The bubblewrap flags every player gets before its binds (launch.ts adds the binds and the program). */
export function bwrapBaseArgs(): string[] {
  const args = ['--unshare-all', '--die-with-parent', '--new-session', '--cap-drop', 'ALL', '--clearenv', '--chdir', '/'];
  // Sized like the unshare fallback's (launch.ts): an unsized tmpfs lets a player fill the machine's memory.
  args.push('--proc', '/proc', '--dev', '/dev');
  args.push('--size', String(PRIVATE_TMP_MB * 1024 * 1024), '--tmpfs', '/tmp', '--size', String(PRIVATE_SHM_MB * 1024 * 1024), '--tmpfs', '/dev/shm');
  for (const dir of SYSTEM_READ_DIRS) args.push('--ro-bind-try', dir, dir);
  // Shared libraries reached through /etc/alternatives (numpy's BLAS): the links only, not /etc (system-paths.ts).
  for (const link of systemLibraryLinks()) args.push('--symlink', link.target, link.path);
  return args;
}

/** The setpriv words that drop a command to `identity` (empty when there is none). */
export function dropPrivileges(identity: Identity | null): string[] {
  if (!identity) return [];
  return [identity.setpriv, `--reuid=${identity.uid}`, `--regid=${identity.gid}`, '--clear-groups', '--inh-caps=-all', '--bounding-set=-all'];
}

/** The fix for a bubblewrap that cannot start, from what it printed. */
export function bwrapFix(stderr: string): string {
  if (/apparmor|uid map|setting up uid|RTM_NEWADDR|loopback/i.test(stderr)) {
    return 'allow unprivileged user namespaces: sysctl -w kernel.apparmor_restrict_unprivileged_userns=0 (Ubuntu >= 23.10, GitHub ubuntu-latest)';
  }
  if (/namespace|Operation not permitted|No permissions/i.test(stderr)) {
    return 'in Docker, run the container with --privileged (or --security-opt seccomp=unconfined --security-opt apparmor=unconfined); elsewhere enable user namespaces (sysctl -w user.max_user_namespaces=10000)';
  }
  return 'run `bwrap --unshare-all --ro-bind / / true` to see why, or uninstall bubblewrap to grade without it';
}

/** The probe's command line: bubblewrap as a player gets it (identity, flags, seccomp), running `exit 0`. */
function bwrapProbeCommand(bwrap: string, identity: Identity | null, seccomp: boolean): string[] {
  const args = [...bwrapBaseArgs(), ...(seccomp ? ['--seccomp', '0'] : []), '/bin/sh', '-c', 'exit 0'];
  return [...dropPrivileges(identity), bwrap, ...args];
}

/** A file's text, or what reading it said (a missing setting is part of the picture too). */
function readSetting(path: string): string {
  try {
    return readFileSync(path, 'utf8').trim();
  } catch (error) {
    return (error as NodeJS.ErrnoException).code ?? 'unreadable';
  }
}

/**
 * Everything besides bubblewrap's own binary that decides whether it can start here: the kernel and this boot (a
 * reboot may change any setting), the user-namespace switches (Debian's, Ubuntu's AppArmor restriction, the namespace
 * limits), this process's privileges, limits, seccomp, namespaces and security label (another container, user or sudo is a
 * new context), setpriv's binary, and the probe's exact command and filter. A kept "it works" holds only in the same
 * context; a change in any of these probes again.
 */
function bwrapContext(command: string[], filter: Buffer | undefined, identity: Identity | null): unknown {
  const status = readSetting('/proc/self/status')
    .split('\n')
    .filter((line) => /^(Uid|Gid|Groups|Cap(Inh|Prm|Eff|Bnd|Amb)|NoNewPrivs|Seccomp|Seccomp_filters):/.test(line));
  const namespaces = ['user', 'mnt', 'pid', 'net', 'cgroup'].map((ns) => {
    try {
      return readlinkSync(`/proc/self/ns/${ns}`);
    } catch {
      return `${ns}:none`;
    }
  });
  const settings = [
    '/proc/sys/kernel/random/boot_id',
    '/proc/sys/kernel/osrelease',
    '/proc/sys/kernel/unprivileged_userns_clone',
    '/proc/sys/kernel/apparmor_restrict_unprivileged_userns',
    '/proc/sys/kernel/apparmor_restrict_unprivileged_unconfined',
    '/proc/sys/kernel/yama/ptrace_scope',
    '/proc/self/attr/current',
    '/proc/self/limits', // a process limit (nproc) can stop bubblewrap's clone
    ...['user', 'mnt', 'pid', 'net', 'ipc', 'uts', 'cgroup'].map((ns) => `/proc/sys/user/max_${ns}_namespaces`),
  ].map(readSetting);
  let setpriv: unknown = null;
  if (identity) {
    const stat = statSync(identity.setpriv);
    setpriv = [identity.setpriv, stat.dev, stat.ino, stat.size, stat.mtimeMs, stat.ctimeMs];
  }
  const filterHash = filter ? createHash('sha256').update(filter).digest('hex') : null;
  return { command, filterHash, status, namespaces, settings, setpriv };
}

/**
 * Whether bubblewrap starts a sandbox here: null when it does, else why not. A success is kept in the cache
 * (probe-cache.ts) under the binary and bwrapContext, so a start in the same context skips the probe's three
 * processes; a failure is never kept, and a player whose bubblewrap fails to start forgets the kept success
 * (forgetBwrapProbe). `referee doctor` always probes live.
 */
function probeBwrap(bwrap: string, identity: Identity | null, seccomp: boolean, live: boolean): string | null {
  const command = bwrapProbeCommand(bwrap, identity, seccomp);
  const filter = seccomp ? seccompProgram('no-fork') : undefined;
  if (live) return probeBwrapLive(command, filter, bwrap);
  let context: unknown;
  try {
    context = bwrapContext(command, filter, identity);
  } catch {
    return probeBwrapLive(command, filter, bwrap);
  }
  keptBwrapContext = { bwrap, context };
  let problem: string | null = null;
  const kept = keptProbe(
    'bwrap',
    bwrap,
    () => {
      problem = probeBwrapLive(command, filter, bwrap);
      return problem === null ? { starts: true } : null;
    },
    (value): value is { starts: true } => (value as { starts?: unknown } | null)?.starts === true,
    undefined,
    context,
  );
  return kept ? null : problem;
}

/** What this process's bubblewrap probe was kept under, so a failed start can forget it. */
let keptBwrapContext: { bwrap: string; context: unknown } | null = null;

/** bubblewrap failed to start a player: the kept probe is dropped, so the next process probes live and falls back. */
export function forgetBwrapProbe(): void {
  if (keptBwrapContext) forgetProbe('bwrap', keptBwrapContext.bwrap, keptBwrapContext.context);
}

/** Where this process's bubblewrap probe is (or would be) kept; for tests that plant a stale answer. */
export function keptBwrapProbeFile(): string | null {
  return keptBwrapContext && keptProbeFile('bwrap', keptBwrapContext.bwrap, keptBwrapContext.context);
}

/** Run bubblewrap once as a player would be; null when it works, else why not. */
function probeBwrapLive(command: string[], filter: Buffer | undefined, bwrap: string): string | null {
  const seccomp = filter !== undefined;
  const run = spawnToolSync(command[0], command.slice(1), PROBE_BOUND, {
    input: filter,
    stdio: [seccomp ? 'pipe' : 'ignore', 'ignore', 'pipe'],
    env: {},
  });
  if (run.status === 0) return null;
  const said = (run.stderr?.toString('utf8') ?? '').trim().split('\n').filter(Boolean).pop() ?? '';
  // What bubblewrap said comes first: an EPIPE on its filter (it exited before reading it) says nothing.
  const why = said || (run.error ? run.error.message : `exit ${run.status ?? run.signal}`);
  return `${bwrap} is installed but cannot start a sandbox here (${why.slice(0, 300)}): ${bwrapFix(said)}`;
}

/** The kernel's Landlock ABI through the launcher's --probe (none without a launcher: the Python host probes itself). */
function probeLandlock(): LandlockSupport {
  const tools = nativeTools();
  if (process.env.REFEREE_SANDBOX_NO_LANDLOCK === '1') {
    return { abi: 0, launcher: tools.launcher, problem: 'turned off (REFEREE_SANDBOX_NO_LANDLOCK=1)' };
  }
  if (!tools.launcher) return { abi: 0, launcher: null, problem: tools.problem };
  const run = spawnToolSync(tools.launcher, ['--probe'], PROBE_BOUND, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], env: {} });
  const said = String(run.stdout ?? '').trim();
  const abi = Number.parseInt(said, 10);
  if (run.status !== 0 || !Number.isFinite(abi)) return { abi: 0, launcher: tools.launcher, problem: `the launcher's probe failed: ${run.error?.message ?? run.stderr}`.slice(0, 300) };
  if (abi === 0) return { abi: 0, launcher: tools.launcher, problem: said.replace(/^0 /, '') };
  return { abi, launcher: tools.launcher, problem: abi < 6 ? `Landlock ABI ${abi} (Linux < 6.12): files only${abi < 4 ? ', no TCP rules' : ''}, no signal or abstract-socket scoping` : null };
}

let detected: Layers | null = null;

/**
 * The layers, probed once per process; `fresh` probes again (tests switch modes through the environment); `live`
 * starts bubblewrap even when a kept probe says it works here (`referee doctor`).
 */
export function detectLayers(options: { fresh?: boolean; live?: boolean } = {}): Layers {
  if (detected && !options.fresh) return detected;
  // The portable path (portable.ts) takes no Linux layer, even on Linux.
  const linux = process.platform === 'linux' && !portable();
  const root = linux && process.getuid?.() === 0;
  const setpriv = root ? findSystemTool('setpriv') : null;
  const identity: Identity | null = setpriv ? { uid: UNPRIVILEGED_ID, gid: UNPRIVILEGED_ID, setpriv } : null;
  const seccomp = linux && seccompSupported() && process.env.REFEREE_SANDBOX_NO_SECCOMP !== '1';
  const found = linux && process.env.REFEREE_SANDBOX_NO_BWRAP !== '1' ? findOnPath('bwrap') : null;
  const bwrapProblem = found ? probeBwrap(found, identity, seccomp, options.live === true) : null;
  const bwrap = found && !bwrapProblem ? found : null;
  const unshare = !bwrap && root ? findSystemTool('unshare') : null;
  const cgroup = linux && process.env.REFEREE_SANDBOX_NO_CGROUP !== '1' ? detectCgroups() : null;
  const layers: Layers = {
    process: { rlimits: !portable() && existsSync('/bin/sh') },
    bwrap,
    bwrapProblem,
    cgroup,
    permissionFlag: permissionFlagFor(),
    seccomp,
    identity,
    unshare,
    landlock: linux && !bwrap ? probeLandlock() : null,
    diesWithGrader: linux && !bwrap ? pdeathsigTool() : null,
  };
  if (!options.fresh) detected = layers;
  return layers;
}

/**
 * True when the sandbox guards against attacks, not only accidents: a working bubblewrap (with its sized /tmp),
 * or, without it, Landlock holding files, TCP and scoping (ABI >= 6) plus the seccomp filter, both installed by
 * the child itself (node children need the compiled launcher for that). This is the prediction from the probe;
 * a player's record is decided by what its child reported (isolationRecord with `reported`).
 */
export function isHardened(layers: Layers, runtime: 'node' | 'python' | 'cpp' = 'node'): boolean {
  if (layers.bwrap !== null) return true;
  const landlock = layers.landlock;
  if (!landlock || landlock.abi < 6 || process.env.REFEREE_SANDBOX_NO_LANDLOCK === '1' || !layers.seccomp) return false;
  return runtime === 'python' || landlock.launcher !== null;
}

/**
 * Why untrusted code must not run with these layers, or null. Only when the user demands full isolation
 * (REFEREE_REQUIRE_ISOLATION=1): the sandbox then refuses to start players, a grader error (exit 3).
 */
export function isolationRefusal(layers: Layers): string | null {
  if (process.env.REFEREE_REQUIRE_ISOLATION !== '1' || isHardened(layers)) return null;
  const why = [layers.bwrapProblem ?? 'bubblewrap is not installed (apt-get install bubblewrap)'];
  if (layers.landlock?.problem) why.push(`and Landlock cannot stand in for it: ${layers.landlock.problem}`);
  return `REFEREE_REQUIRE_ISOLATION=1 but the sandbox is not isolated: ${why.join(' ')}`;
}

export const FALLBACK_WARNING =
  'WARNING: bubblewrap is not available and Landlock cannot stand in for it, so submissions run without OS ' +
  'isolation: this mode guards against accidents, not attacks. Install it (Debian/Ubuntu: apt-get install ' +
  'bubblewrap) before grading untrusted code.';

/** The warning for this machine: the broken bubblewrap's reason and fix when there is one, and Landlock's. */
export function fallbackWarning(layers: Layers): string {
  if (portable()) {
    return `WARNING: ${portableReason()}, submissions run as plain child processes with Node's permission model and a V8 heap ceiling only: no bubblewrap, Landlock, seccomp, cgroups, rlimits or namespaces, and no freeze between turns. This guards against accidents, not attacks: grade untrusted code on Linux (on Windows, inside WSL: see the student guide).`;
  }
  const landlock = layers.landlock?.problem ? ` Landlock: ${layers.landlock.problem}.` : '';
  if (!layers.bwrapProblem) return `${FALLBACK_WARNING}${landlock}`;
  return `WARNING: ${layers.bwrapProblem}. Grading continues without OS isolation: this mode guards against accidents, not attacks (set REFEREE_REQUIRE_ISOLATION=1 to refuse instead).${landlock}`;
}

let warnedNotIsolated = false;

/** fallbackWarning on stderr at most once per process: the sandbox and the command that started it both want to say it. */
export function warnNotIsolatedOnce(layers: Layers): void {
  if (warnedNotIsolated) return;
  warnedNotIsolated = true;
  process.stderr.write(`${fallbackWarning(layers)}\n`);
}

/**
 * The isolation a result records: the active layer names per runtime and whether they amount to a hardened
 * sandbox. `runtime` decides layer 4 (node's permission model or the Python audit hook).
 */
export type IsolationRecord = PlayerIsolation;

export function isolationRecord(layers: Layers, runtime: 'node' | 'python' | 'cpp', reported?: Partial<ConfinementReport> | null): IsolationRecord {
  let names = describeLayers(layers).filter((layer) => layer.active).map((layer) => layer.layer);
  if (runtime === 'python') names = [...names.filter((name) => name !== 'node-permissions'), 'python-audit-hook'];
  // Native code has no in-process layer: the C++ host's own seccomp filter and the OS layers are all there is.
  if (runtime === 'cpp') names = names.filter((name) => name !== 'node-permissions');
  const problems = layers.bwrapProblem ? [layers.bwrapProblem] : [];
  let hardened = isHardened(layers, runtime);
  if (!layers.bwrap) {
    // Without bubblewrap the child installs seccomp and Landlock on itself: what it reported is what ran (before
    // any child started, the probe's prediction). Node needs the launcher for both; the Python and C++ hosts
    // install seccomp themselves (C++ gets Landlock from the launcher, which it does not report: the prediction).
    const canSelfInstall = runtime !== 'node' || layers.landlock?.launcher != null;
    const seccomp = reported?.seccomp !== undefined ? reported.seccomp === 'on' : layers.seccomp && canSelfInstall;
    const landlock = reported?.landlock !== undefined ? landlockComplete(reported.landlock) : hardened;
    names = names.filter((name) => name !== 'seccomp' && name !== 'landlock');
    if (seccomp) names.push('seccomp');
    if (landlock) names.push('landlock');
    if (reported?.seccomp !== undefined && !seccomp && layers.seccomp) problems.push(`seccomp: ${reported.seccomp}`);
    if (reported?.landlock !== undefined && !landlock) problems.push(`landlock: ${reported.landlock}`);
    else if (reported?.landlock === undefined && !landlock && layers.landlock?.problem) problems.push(`landlock: ${layers.landlock.problem}`);
    hardened = seccomp && landlock;
  }
  return { hardened, layers: names, ...(problems.length > 0 ? { problem: problems.join('; ') } : {}) };
}

/** One line per layer, for `referee doctor` and logs. */
/** `deliberate`: left out on purpose (a choice, not a missing layer): doctor shows it without a red mark. */
export function describeLayers(layers: Layers): { layer: string; active: boolean; deliberate?: boolean; detail: string }[] {
  const cg = layers.cgroup;
  return [
    {
      layer: 'process',
      active: true,
      detail: `child process per player, V8 heap ceiling${layers.process.rlimits ? `, rlimits (core, file size${layers.cgroup?.controllers.includes('memory') ? '' : '; address space as a backstop, with the resident-memory watchdog: no memory cgroup'})` : ''}`,
    },
    {
      layer: 'bubblewrap',
      active: layers.bwrap !== null,
      detail: layers.bwrap
        ? `${layers.bwrap}: no network, own pid/IPC namespaces, read-only runtime, private /tmp and /dev/shm (probed live)`
        : layers.bwrapProblem
          ? `BROKEN: ${layers.bwrapProblem}`
          : process.platform === 'linux'
            ? 'not installed: apt-get install bubblewrap'
            : `not available on ${process.platform}`,
    },
    {
      layer: 'cgroups',
      active: cg !== null,
      detail: cg
        ? `${cg.version} (${cg.controllers.join(', ')}${cg.freezer ? ', freezer' : ''}) under ${cg.base}${cg.controllers.includes('memory') ? ': the memory limit is on resident memory, no address-space limit' : ''}`
        : 'no writable memory/pids/cpu controllers (run as root or delegate a cgroup)',
    },
    {
      layer: 'node-permissions',
      active: layers.permissionFlag !== null,
      detail: layers.permissionFlag
        ? `${layers.permissionFlag}: reads only the host and the staged submission, no writes, child processes, workers or addons`
        : `Node ${process.version} has no permission model`,
    },
    {
      layer: 'seccomp',
      active: layers.seccomp,
      detail: layers.seccomp
        ? `no fork/vfork/clone of processes (threads allowed), no sockets, no io_uring${layers.bwrap ? ' for every player through bubblewrap' : layers.landlock?.launcher ? ' for every player (node through the launcher, Python on itself)' : ' for Python players (node needs the launcher, which could not be built)'}; Python also no execve`
        : process.env.REFEREE_SANDBOX_NO_SECCOMP === '1'
          ? 'turned off (REFEREE_SANDBOX_NO_SECCOMP=1)'
          : `no filter for ${process.platform}/${process.arch}`,
    },
    {
      layer: 'unprivileged-uid',
      active: layers.identity !== null,
      detail: layers.identity
        ? `children run as host uid/gid ${layers.identity.uid}/${layers.identity.gid} (setpriv), not root`
        : process.getuid?.() === 0
          ? 'grader runs as root but setpriv (util-linux) is missing: children run as root'
          : "grader is not root: children run as the grader's own user (they could read what it can read and signal its processes were it not for bubblewrap or Landlock)",
    },
    {
      layer: 'namespaces',
      active: layers.bwrap !== null || layers.unshare !== null,
      detail: layers.bwrap
        ? 'through bubblewrap'
        : layers.unshare
          ? `${layers.unshare}: own network (no connections, private abstract sockets), IPC and pid namespace per player`
          : layers.landlock && layers.landlock.abi >= 6
            ? 'none without bubblewrap and root: Landlock and seccomp refuse files, sockets and signals instead'
            : 'none: without bubblewrap and root, players share the network, /tmp and /dev/shm with the grader',
    },
    {
      layer: 'landlock',
      active: layers.landlock !== null && layers.landlock.abi > 0 && process.env.REFEREE_SANDBOX_NO_LANDLOCK !== '1',
      detail: layers.bwrap
        ? 'not needed: bubblewrap confines the players'
        : !layers.landlock
          ? `not available on ${process.platform}`
          : layers.landlock.abi > 0 && process.env.REFEREE_SANDBOX_NO_LANDLOCK !== '1'
            ? `ABI ${layers.landlock.abi}: each child confines itself (reads only the runtime and its staged copy, writes only its private tmp${layers.landlock.abi >= 4 ? ', no TCP' : ''}${layers.landlock.abi >= 6 ? ', no signals or abstract sockets outside it' : ''})${layers.landlock.launcher ? '' : `; node children cannot (${layers.landlock.problem ?? 'no launcher'}), Python children through ctypes`}${layers.landlock.problem && layers.landlock.launcher ? `; ${layers.landlock.problem}` : ''}`
            : `MISSING: ${layers.landlock.problem ?? 'the kernel has no Landlock'}`,
    },
    {
      layer: 'vm2',
      active: false,
      deliberate: true,
      detail: 'left out: the host restricts require itself; vm2 cannot be a defence on its own (see sandbox README)',
    },
  ];
}
