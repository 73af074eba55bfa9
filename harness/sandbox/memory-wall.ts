/**
 * What bounds a player's memory. The course platforms bound resident memory (a container's cgroup; Saiblo's 1 GB),
 * not address space: real submissions declare static pools sized for the contest machine (one real Strategy.cpp
 * has an 8 GB .bss touched lazily, ~40 MB resident) and an address-space limit refuses to map them ("failed to map
 * segment from shared object"). Node 22's WebAssembly reserves ~10 GB of address space per memory too.
 *
 *  - cgroup: where a memory controller is writable, the group's limit on resident memory (v1 memory.limit_in_bytes
 *    with memsw, v2 memory.max with swap 0) is the wall; no address-space limit at all.
 *  - watchdog: elsewhere (a non-root grader, Docker without delegation) the parent samples the player's resident
 *    memory (VmRSS of its processes) every WATCHDOG_INTERVAL_MS while it runs and kills it past the limit with a
 *    `memory` verdict naming the figure; an address-space limit far above any real pool (ADDRESS_SPACE_FLOOR_MB, or
 *    16x the limit) stays as a backstop, so a lazily touched pool maps and a bomb is still stopped.
 */
import { closeSync, openSync, readFileSync, readSync } from 'node:fs';
import type { Layers } from './layers.js';
import { portable } from './portable.js';

export interface MemoryWall {
  kind: 'cgroup' | 'watchdog';
  /** The address-space limit the launch shell sets (`ulimit -v`), in KiB, or 'unlimited'. */
  addressSpace: string;
  /** One line for the isolation record and `referee doctor`: which wall holds, and how high. */
  description: string;
}

/** Without a cgroup, the address-space backstop: at least this, in MB (room for an 8 GB pool and node's reservations). */
export const ADDRESS_SPACE_FLOOR_MB = 32 * 1024;
/** How often the watchdog samples resident memory while the player runs. */
export const WATCHDOG_INTERVAL_MS = 20;

export function memoryWall(layers: Pick<Layers, 'cgroup'>, memoryMb: number): MemoryWall {
  if (layers.cgroup?.controllers.includes('memory')) {
    return {
      kind: 'cgroup',
      addressSpace: 'unlimited',
      description: `resident memory ${memoryMb} MB, held by the cgroup (${layers.cgroup.version}); no address-space limit`,
    };
  }
  const addressMb = Math.max(ADDRESS_SPACE_FLOOR_MB, memoryMb * 16);
  return {
    kind: 'watchdog',
    addressSpace: String(addressMb * 1024),
    description: `resident memory ${memoryMb} MB, held by the grader's watchdog (VmRSS every ${WATCHDOG_INTERVAL_MS} ms; no writable cgroup); address space ${Math.round(addressMb / 1024)} GB`,
  };
}

/** The kernel's page size in kB, from the grader's own VmRSS (kB) over its statm resident pages; 4 when unreadable. */
let pageKb: number | null = null;
function pageSizeKb(): number {
  if (pageKb !== null) return pageKb;
  pageKb = 4;
  try {
    const rssKb = Number(/^VmRSS:\s+(\d+) kB$/m.exec(readFileSync('/proc/self/status', 'utf8'))?.[1]);
    const pages = Number(readFileSync('/proc/self/statm', 'latin1').split(' ')[1]);
    if (rssKb > 0 && pages > 0) pageKb = 2 ** Math.round(Math.log2(rssKb / pages));
  } catch {
    // no /proc: the default
  }
  return pageKb;
}

/**
 * Resident memory of a fixed set of processes, read the way a watchdog samples it every few milliseconds: each
 * /proc/<pid>/statm opened once and re-read from offset 0 (pread), about an eighth of an open-read-close per pid.
 */
export class ResidentSampler {
  private readonly fds: number[] = [];
  private readonly buffer = Buffer.alloc(128);

  constructor(pids: readonly number[]) {
    // No /proc on the portable path: nothing to sample, the V8 heap ceiling is the bound (portable.ts).
    if (portable()) return;
    for (const pid of pids) {
      try {
        this.fds.push(openSync(`/proc/${pid}/statm`, 'r'));
      } catch {
        // gone already
      }
    }
  }

  /** The processes' resident memory together in MB, or null when none of them can be read any more. */
  sampleMb(): number | null {
    let pages = 0;
    let read = false;
    for (const fd of this.fds) {
      try {
        const length = readSync(fd, this.buffer, 0, this.buffer.length, 0);
        const text = this.buffer.toString('latin1', 0, length);
        const resident = Number(text.slice(text.indexOf(' ') + 1, text.indexOf(' ', text.indexOf(' ') + 1)));
        if (Number.isFinite(resident)) {
          pages += resident;
          read = true;
        }
      } catch {
        // this process has exited
      }
    }
    return read ? (pages * pageSizeKb()) / 1024 : null;
  }

  close(): void {
    for (const fd of this.fds.splice(0)) {
      try {
        closeSync(fd);
      } catch {
        // already closed
      }
    }
  }
}

/** Resident memory of these processes together in MB, read once each (a tree that may grow), or null. */
export function residentMb(pids: readonly number[]): number | null {
  const sampler = new ResidentSampler(pids);
  try {
    return sampler.sampleMb();
  } finally {
    sampler.close();
  }
}
