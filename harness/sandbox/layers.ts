/**
 * Which isolation layers this machine offers, detected once per process at start-up. The sandbox uses every
 * layer it finds; `referee doctor` prints the same report. Nothing here is trusted from the environment except
 * explicit opt-outs (REFEREE_SANDBOX_NO_BWRAP=1, REFEREE_SANDBOX_NO_CGROUP=1) used to exercise the fallbacks.
 */
import { accessSync, constants, existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { detectCgroups, type CgroupSupport } from './cgroup.js';

export interface Layers {
  /** Layer 1: a process per player with V8 heap flags and rlimits (via sh's ulimit). Always present. */
  process: { rlimits: boolean };
  /** Layer 2: the bubblewrap binary, or null (not Linux, not installed, or opted out). */
  bwrap: string | null;
  /** Layer 3: writable cgroup controllers, or null. */
  cgroup: CgroupSupport | null;
  /** Layer 4: Node's permission flag for this Node version, or null when Node has none. */
  permissionFlag: '--permission' | '--experimental-permission' | null;
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

function permissionFlagFor(version: string): Layers['permissionFlag'] {
  const [major, minor] = version.replace(/^v/, '').split('.').map(Number);
  if (major >= 22) return '--permission';
  if (major === 21 || (major === 20 && minor >= 0)) return '--experimental-permission';
  return null;
}

let detected: Layers | null = null;

export function detectLayers(): Layers {
  if (detected) return detected;
  const linux = process.platform === 'linux';
  const bwrap = linux && process.env.REFEREE_SANDBOX_NO_BWRAP !== '1' ? findOnPath('bwrap') : null;
  const cgroup = linux && process.env.REFEREE_SANDBOX_NO_CGROUP !== '1' ? detectCgroups() : null;
  detected = {
    process: { rlimits: process.platform !== 'win32' && existsSync('/bin/sh') },
    bwrap,
    cgroup,
    permissionFlag: permissionFlagFor(process.version),
  };
  return detected;
}

/** True when the sandbox guards against attacks, not only accidents (needs bubblewrap at least). */
export function isHardened(layers: Layers): boolean {
  return layers.bwrap !== null;
}

export const FALLBACK_WARNING =
  'WARNING: bubblewrap is not available, so submissions run without OS isolation: this mode guards against ' +
  'accidents, not attacks. Install it (Debian/Ubuntu: apt-get install bubblewrap) before grading untrusted code.';

/** One line per layer, for `referee doctor` and logs. */
export function describeLayers(layers: Layers): { layer: string; active: boolean; detail: string }[] {
  const cg = layers.cgroup;
  return [
    {
      layer: 'process',
      active: true,
      detail: `child process per player, V8 heap ceiling${layers.process.rlimits ? ', rlimits (address space, core)' : ''}`,
    },
    {
      layer: 'bubblewrap',
      active: layers.bwrap !== null,
      detail: layers.bwrap
        ? `${layers.bwrap}: no network, read-only runtime, uid nobody, tmpfs /tmp`
        : process.platform === 'linux'
          ? 'not installed: apt-get install bubblewrap'
          : `not available on ${process.platform}`,
    },
    {
      layer: 'cgroups',
      active: cg !== null,
      detail: cg
        ? `${cg.version} (${cg.controllers.join(', ')}) under ${cg.base}`
        : 'no writable memory/pids/cpu controllers (run as root or delegate a cgroup)',
    },
    {
      layer: 'node-permissions',
      active: layers.permissionFlag !== null,
      detail: layers.permissionFlag
        ? `${layers.permissionFlag}: reads only the host and the submission, no writes, child processes, workers or addons`
        : `Node ${process.version} has no permission model`,
    },
    {
      layer: 'vm2',
      active: false,
      detail: 'left out: the host restricts require itself; vm2 cannot be a defence on its own (see sandbox README)',
    },
  ];
}
