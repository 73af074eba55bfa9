/**
 * Per-player cgroups for memory, pids and CPU accounting, v1 or v2, whichever this machine lets us write.
 * Groups are created under the cgroup the harness itself runs in (read from /proc/self/cgroup), so a harness
 * that is itself confined stays confined. The child joins its groups before it execs anything (launch.ts).
 */
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, readSync, rmdirSync, writeFileSync, writeSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

type Controller = 'memory' | 'pids' | 'cpu';

export interface CgroupSupport {
  version: 'v1' | 'v2';
  /** Where groups are made, for display (v1: the memory hierarchy's). */
  base: string;
  controllers: Controller[];
  /** The parent directory of new groups, per controller. */
  dirs: Partial<Record<Controller, string>>;
  /**
   * Where a player's freezer group is made (v1: the freezer hierarchy's dir; v2: the same unified dir, whose
   * groups have cgroup.freeze), or null: then only the process groups are stopped between turns.
   */
  freezer: string | null;
}

const ROOT = '/sys/fs/cgroup';
const V1_NAMES: Record<Controller, string> = { memory: 'memory', pids: 'pids', cpu: 'cpuacct' };

function ownPaths(): Map<string, string> {
  const paths = new Map<string, string>();
  for (const line of readFileSync('/proc/self/cgroup', 'utf8').trim().split('\n')) {
    const [, names, path] = line.split(':');
    for (const name of names.split(',')) paths.set(name === '' ? 'unified' : name, path);
  }
  return paths;
}

function writable(dir: string): boolean {
  const probe = join(dir, `referee-probe-${process.pid}`);
  try {
    mkdirSync(probe);
    rmdirSync(probe);
    return true;
  } catch {
    return false;
  }
}

export function detectCgroups(): CgroupSupport | null {
  let paths: Map<string, string>;
  try {
    paths = ownPaths();
  } catch {
    return null;
  }
  const v1: CgroupSupport = { version: 'v1', base: '', controllers: [], dirs: {}, freezer: null };
  for (const controller of ['memory', 'pids', 'cpu'] as Controller[]) {
    const name = V1_NAMES[controller];
    const dir = join(ROOT, name, paths.get(name) ?? '/');
    if (paths.has(name) && existsSync(join(dir, 'cgroup.procs')) && writable(dir)) {
      v1.controllers.push(controller);
      v1.dirs[controller] = dir;
    }
  }
  if (v1.controllers.includes('memory')) {
    const freezer = join(ROOT, 'freezer', paths.get('freezer') ?? '/');
    if (paths.has('freezer') && existsSync(join(freezer, 'cgroup.procs')) && writable(freezer)) v1.freezer = freezer;
    return { ...v1, base: v1.dirs.memory as string };
  }
  const unified = join(ROOT, paths.get('unified') ?? '/');
  try {
    const enabled = readFileSync(join(unified, 'cgroup.subtree_control'), 'utf8').split(/\s+/);
    const controllers = (['memory', 'pids', 'cpu'] as Controller[]).filter((c) => enabled.includes(c));
    if (controllers.includes('memory') && writable(unified)) {
      // Every non-root v2 group has cgroup.freeze (Linux >= 5.2); probed on the group itself when it is made.
      return { version: 'v2', base: unified, controllers, dirs: Object.fromEntries(controllers.map((c) => [c, unified])), freezer: unified };
    }
  } catch {
    // no unified hierarchy here
  }
  return null;
}

function readNumber(file: string): number | null {
  try {
    const value = Number(readFileSync(file, 'utf8').trim());
    return Number.isFinite(value) ? value : null;
  } catch {
    return null;
  }
}

function readField(file: string, field: string): number | null {
  try {
    const match = new RegExp(`^${field} (\\d+)$`, 'm').exec(readFileSync(file, 'utf8'));
    return match ? Number(match[1]) : null;
  } catch {
    return null;
  }
}

/**
 * A kernel counter file read once per move: opened once and re-read from offset 0 (cgroup files regenerate on
 * every read), which saves an open/close pair per move on the sandbox's hot path.
 */
class CounterFile {
  private fd: number | null = null;
  private readonly buffer = Buffer.alloc(4096);

  constructor(private readonly path: string) {}

  read(): string | null {
    try {
      this.fd ??= openSync(this.path, 'r');
      const length = readSync(this.fd, this.buffer, 0, this.buffer.length, 0);
      return this.buffer.toString('latin1', 0, length);
    } catch {
      this.close();
      return null;
    }
  }

  close(): void {
    if (this.fd === null) return;
    try {
      closeSync(this.fd);
    } catch {
      // already closed
    }
    this.fd = null;
  }
}

/** One player's groups: made with limits set, joined by the child, read while it runs, removed at close. */
export class PlayerCgroup {
  private readonly dirs: Partial<Record<Controller, string>> = {};
  private cpuCounter: CounterFile | null = null;
  /** The file written to freeze and thaw the whole group (v1 freezer.state, v2 cgroup.freeze), or null. */
  private freezeFile: string | null = null;
  private freezeFd: number | null = null;
  private freezerDir: string | null = null;

  constructor(
    private readonly support: CgroupSupport,
    memoryMb: number,
    pidsMax: number,
  ) {
    const name = `referee-${process.pid}-${randomBytes(6).toString('hex')}`;
    const dirs = new Set<string>();
    for (const controller of support.controllers) {
      const dir = join(support.dirs[controller] as string, name);
      if (!dirs.has(dir)) mkdirSync(dir);
      dirs.add(dir);
      this.dirs[controller] = dir;
    }
    const bytes = String(memoryMb * 1024 * 1024);
    if (support.version === 'v1') {
      writeFileSync(join(this.dirs.memory as string, 'memory.limit_in_bytes'), bytes);
      const swap = join(this.dirs.memory as string, 'memory.memsw.limit_in_bytes');
      if (existsSync(swap)) writeFileSync(swap, bytes);
    } else {
      writeFileSync(join(this.dirs.memory as string, 'memory.max'), bytes);
      const swap = join(this.dirs.memory as string, 'memory.swap.max');
      if (existsSync(swap)) writeFileSync(swap, '0');
    }
    if (this.dirs.pids) writeFileSync(join(this.dirs.pids, 'pids.max'), String(pidsMax));
    if (support.freezer) {
      if (support.version === 'v1') {
        const dir = join(support.freezer, name);
        try {
          mkdirSync(dir);
          this.freezerDir = dir;
          this.freezeFile = join(dir, 'freezer.state');
        } catch {
          // no freezer group: process-group stops only
        }
      } else {
        const file = join(this.dirs.memory as string, 'cgroup.freeze');
        if (existsSync(file)) this.freezeFile = file;
      }
    }
  }

  /** Whether freeze()/thaw() stop the whole group (everything the player started, whatever its process group). */
  get canFreeze(): boolean {
    return this.freezeFile !== null;
  }

  /**
   * Freeze or thaw every task of the player's groups: a helper that left the process group (setsid) is stopped
   * too. Written through a kept-open fd: one write per turn. Returns false when the kernel refused.
   */
  setFrozen(frozen: boolean): boolean {
    if (!this.freezeFile) return false;
    const v1 = this.support.version === 'v1';
    try {
      this.freezeFd ??= openSync(this.freezeFile, 'w');
      writeSync(this.freezeFd, v1 ? (frozen ? 'FROZEN' : 'THAWED') : frozen ? '1' : '0');
      return true;
    } catch {
      return false;
    }
  }

  /** The cgroup.procs files the child writes its pid into before exec. */
  joinFiles(): string[] {
    const dirs = new Set(Object.values(this.dirs));
    if (this.freezerDir) dirs.add(this.freezerDir);
    return [...dirs].map((dir) => join(dir, 'cgroup.procs'));
  }

  /** Every pid in the player's groups (the child and anything it managed to start). */
  pids(): number[] {
    const pids = new Set<number>();
    for (const file of this.joinFiles()) {
      try {
        for (const line of readFileSync(file, 'utf8').split('\n')) if (line) pids.add(Number(line));
      } catch {
        // group already gone
      }
    }
    return [...pids];
  }

  /** CPU time used by the group so far, in ms, or null without a CPU controller. */
  cpuMs(): number | null {
    const dir = this.dirs.cpu;
    if (!dir) return null;
    const v1 = this.support.version === 'v1';
    this.cpuCounter ??= new CounterFile(join(dir, v1 ? 'cpuacct.usage' : 'cpu.stat'));
    const text = this.cpuCounter.read();
    if (text === null) return null;
    if (v1) {
      const ns = Number(text.trim());
      return Number.isFinite(ns) ? ns / 1e6 : null;
    }
    const match = /^usage_usec (\d+)$/m.exec(text);
    return match ? Number(match[1]) / 1e3 : null;
  }

  /** Whether the kernel's OOM killer acted in the memory group (the `memory` verdict). */
  oomKilled(): boolean {
    const dir = this.dirs.memory as string;
    if (this.support.version === 'v1') {
      // Kernels before 4.13 have no oom_kill counter; hitting the limit at all is the nearest sign there.
      const kills = readField(join(dir, 'memory.oom_control'), 'oom_kill');
      return (kills ?? readNumber(join(dir, 'memory.failcnt')) ?? 0) > 0;
    }
    return (readField(join(dir, 'memory.events'), 'oom_kill') ?? 0) > 0;
  }

  /**
   * Whether the group's memory ever reached its limit (v1 memory.failcnt, v2 memory.events `max`): the kernel then
   * reclaimed or killed to keep it under. A player that ran out of time without this never grew past the limit.
   */
  limitReached(): boolean {
    const dir = this.dirs.memory as string;
    if (this.support.version === 'v1') return (readNumber(join(dir, 'memory.failcnt')) ?? 0) > 0 || this.peakAtLimit() || this.oomKilled();
    return (readField(join(dir, 'memory.events'), 'max') ?? 0) > 0 || this.oomKilled();
  }

  /**
   * How many times the group's memory has reached its limit so far (v1 memory.failcnt, v2 memory.events `max`, plus
   * OOM kills): a count that grew during a turn says the limit was reached in that turn, in a group that outlives it.
   */
  limitHits(): number {
    const dir = this.dirs.memory as string;
    const kills = readField(join(dir, this.support.version === 'v1' ? 'memory.oom_control' : 'memory.events'), 'oom_kill') ?? 0;
    if (this.support.version === 'v2') return (readField(join(dir, 'memory.events'), 'max') ?? 0) + kills;
    return (readNumber(join(dir, 'memory.failcnt')) ?? 0) + (this.peakAtLimit() ? 1 : 0) + kills;
  }

  /**
   * v1: the peak has reached the limit. Kernel 6.18 left memory.failcnt at 0 while a group sat at its limit, the
   * kernel reclaiming (max_usage_in_bytes equal to the limit): the peak is the sign that holds.
   */
  private peakAtLimit(): boolean {
    const dir = this.dirs.memory as string;
    const peak = readNumber(join(dir, 'memory.max_usage_in_bytes'));
    const limit = readNumber(join(dir, 'memory.limit_in_bytes'));
    return peak !== null && limit !== null && peak >= limit;
  }

  /** Start a new peak (v1 max_usage_in_bytes; v2's counters need no reset): for a group that outlives a turn. */
  resetPeak(): void {
    if (this.support.version !== 'v1') return;
    try {
      writeFileSync(join(this.dirs.memory as string, 'memory.max_usage_in_bytes'), '0');
    } catch {
      // Refused: the peak then covers the group's life, which only makes the memory ruling broader.
    }
  }

  /** The group's peak memory in MB (v1 max_usage_in_bytes, v2 memory.peak from Linux 5.19), or null. */
  peakMb(): number | null {
    const dir = this.dirs.memory as string;
    const bytes = readNumber(join(dir, this.support.version === 'v1' ? 'memory.max_usage_in_bytes' : 'memory.peak'));
    return bytes === null ? null : bytes / (1024 * 1024);
  }

  /**
   * Remove the groups once their processes are gone. The kernel may still hold a group for a moment after its
   * last process exits (EBUSY), so this retries for up to about a second.
   */
  async destroy(): Promise<boolean> {
    this.cpuCounter?.close();
    if (this.freezeFd !== null) {
      // A frozen group's processes cannot die of SIGKILL until thawed.
      this.setFrozen(false);
      try {
        closeSync(this.freezeFd);
      } catch {
        // already closed
      }
      this.freezeFd = null;
    }
    const left = new Set(Object.values(this.dirs));
    if (this.freezerDir) left.add(this.freezerDir);
    for (let attempt = 0; attempt < 50 && left.size > 0; attempt++) {
      if (attempt > 0) await sleep(20);
      for (const dir of left) {
        try {
          rmdirSync(dir);
          left.delete(dir);
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code === 'ENOENT') left.delete(dir);
        }
      }
    }
    return left.size === 0;
  }
}
