/**
 * The processes behind one player. bubblewrap's --new-session puts the sandboxed node in a session (and process
 * group) of its own, so signalling the group we spawned is not enough: we walk /proc for descendants and signal
 * each of their groups, plus every pid the player's cgroup holds.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync, readdirSync, readFileSync, readSync } from 'node:fs';
import { portable } from './portable.js';

function childrenOf(pid: number): number[] {
  const children: number[] = [];
  let tasks: string[];
  if (portable()) return children;
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    return children;
  }
  for (const task of tasks) {
    try {
      for (const child of readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').split(' ')) {
        if (child.trim()) children.push(Number(child));
      }
    } catch {
      // the task ended while we looked
    }
  }
  return children;
}

/** The pid and all its descendants (just the pid where /proc is missing). */
export function processTree(pid: number): number[] {
  const seen = [pid];
  for (let i = 0; i < seen.length; i++) for (const child of childrenOf(seen[i])) if (!seen.includes(child)) seen.push(child);
  return seen;
}

/**
 * The fields of a /proc stat text after the command name (which may hold spaces and parentheses): state(0) ppid(1)
 * pgrp(2) … utime(11) stime(12) cutime(13) cstime(14) … num_threads(17), times in 10 ms clock ticks.
 */
export function statFieldsOf(stat: string): string[] {
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
}

/** statFieldsOf /proc/<pid>/stat (or a thread's, /proc/<pid>/task/<tid>/stat); null when it cannot be read. */
export function statFields(pid: number | string, task?: string): string[] | null {
  try {
    return statFieldsOf(readFileSync(task ? `/proc/${pid}/task/${task}/stat` : `/proc/${pid}/stat`, 'utf8'));
  } catch {
    return null;
  }
}

/** The process group of a pid, or the pid itself where /proc is missing. */
export function processGroup(pid: number): number {
  if (portable()) return pid;
  const fields = statFields(pid);
  return fields ? Number(fields[2]) : pid;
}

/** Signal each group (negative pid), ignoring groups that are already gone. Windows has none (see endPortableTree). */
export function signalGroups(groups: Iterable<number>, signal: NodeJS.Signals): void {
  if (process.platform === 'win32') return;
  for (const group of groups) {
    try {
      process.kill(-group, signal);
    } catch {
      // already gone
    }
  }
}

export function signalPids(pids: Iterable<number>, signal: NodeJS.Signals): void {
  for (const pid of pids) {
    try {
      process.kill(pid, signal);
    } catch {
      // already gone
    }
  }
}

/** Whether a pid still exists (a zombie counts as gone). */
export function isAlive(pid: number): boolean {
  try {
    if (portable()) throw new Error('no /proc on the portable path');
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    try {
      process.kill(pid, 0);
      return process.platform !== 'linux' || portable();
    } catch {
      return false;
    }
  }
}

/** A /proc file read again through its open descriptor: one pread at offset 0 (procfs regenerates the text). */
function reread(fd: number, buffer: Buffer): string {
  return buffer.toString('latin1', 0, readSync(fd, buffer, 0, buffer.length, 0));
}

function closeQuietly(fd: number | null): void {
  if (fd === null) return;
  try {
    closeSync(fd);
  } catch {
    // already closed
  }
}

/**
 * What the scheduler says of a process's threads: time run and time waited runnable for a CPU (ms, summed over
 * threads), and whether any thread is held by the machine now (runnable, or stopped by the grader's freeze). The
 * kernel adds a wait to schedstat only when the thread gets the CPU, so a thread starved right now shows as
 * runnable while its run time stands still. Both figures count threads that have ended: game.py's func_timeout runs
 * each call in a thread of its own, and a sum over the living threads alone missed nearly all of a demo game played
 * at import (time run), and charged a func_timeout player beside busy neighbours for the waits of its ended threads.
 * Where taskstats answers (taskstats.ts: a root grader outside a container) both come from the kernel's sums over
 * every thread the process had; elsewhere time run is the larger of the living threads' sum and the process's own
 * utime+stime, and waits are the living threads' plus, for each thread seen that has since ended, its waits when last
 * seen (what it waited after that look is lost: less credit, the safe side). The source is chosen at the first read
 * and kept: a reader never compares one source's figure with the other's.
 *
 * Read on every move, so it keeps its /proc files open and reads each again with one pread (a fresh open, read and
 * close of every file cost ~4x as much): the thread list is read again only when the process's thread count
 * changed or a thread's file says it has gone. `close` releases the descriptors.
 */
export class SchedulingReader {
  private stat: number | null = null;
  private readonly tasks = new Map<string, { schedstat: number; stat: number | null; waitedNs: number }>();
  private threads = -1;
  private readonly buffer = Buffer.alloc(1024);
  /** Waits (ns) of threads seen and since ended, as last read (the fallback without taskstats). */
  private endedWaitNs = 0;
  /** Whether this reader's figures come from taskstats (decided at its first read). */
  private group: boolean | null = null;

  /** `groupCpu`: the kernel's sums over every thread the process had (taskstats.ts `threadGroupCpu`), if any. */
  constructor(
    readonly pid: number,
    private readonly groupCpu?: (pid: number) => { waitedMs: number; ranMs: number } | null,
  ) {}

  /** `withState`: also whether a thread is held now (a thread's stat file each); without it, `runnable` is false. */
  read(withState = true): { ranMs: number; waitedMs: number; runnable: boolean } | null {
    if (!this.pid || portable()) return null;
    try {
      return this.tryRead(withState) ?? this.tryRead(withState);
    } catch {
      return null;
    }
  }

  close(): void {
    closeQuietly(this.stat);
    this.stat = null;
    for (const task of this.tasks.values()) {
      closeQuietly(task.schedstat);
      closeQuietly(task.stat);
    }
    this.tasks.clear();
    this.threads = -1;
    this.endedWaitNs = 0;
    this.group = null;
  }

  /** null when a thread went while reading (the list is read afresh for the second try). */
  private tryRead(withState: boolean): { ranMs: number; waitedMs: number; runnable: boolean } | null {
    this.stat ??= openSync(`/proc/${this.pid}/stat`, 'r');
    const processStat = reread(this.stat, this.buffer);
    const fields = statFieldsOf(processStat);
    const cpuMs = (Number(fields[11]) + Number(fields[12])) * 10;
    const threads = Number(fields[17]);
    const group = this.group === false || !this.groupCpu ? null : this.groupCpu(this.pid);
    if (this.group === null) this.group = group !== null;
    else if (this.group && !group) throw new Error('taskstats no longer answers for this process'); // gone: no figure
    if (group && !withState) return { ranMs: Math.max(group.ranMs, cpuMs), waitedMs: group.waitedMs, runnable: false };
    if (threads !== this.threads) this.rescan(threads);
    let ranNs = 0;
    let waitedNs = 0;
    let runnable = false;
    for (const [tid, task] of this.tasks) {
      let schedstat: string[];
      let state = '';
      try {
        schedstat = reread(task.schedstat, this.buffer).split(' ');
        if (withState) {
          task.stat ??= openSync(`/proc/${this.pid}/task/${tid}/stat`, 'r');
          const stat = reread(task.stat, this.buffer);
          // R waits for (or has) a CPU; T is stopped by the grader's freeze between turns, waiting for its wake-up.
          state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
        }
      } catch {
        this.threads = -1; // a thread ended (and maybe another began): read the list again
        return null;
      }
      task.waitedNs = Number(schedstat[1]) || 0;
      ranNs += Number(schedstat[0]) || 0;
      waitedNs += task.waitedNs;
      if (state === 'R' || state === 'T') runnable = true;
    }
    if (group) return { ranMs: Math.max(group.ranMs, ranNs / 1e6, cpuMs), waitedMs: Math.max(group.waitedMs, waitedNs / 1e6), runnable };
    return { ranMs: Math.max(ranNs / 1e6, cpuMs), waitedMs: (waitedNs + this.endedWaitNs) / 1e6, runnable };
  }

  private rescan(threads: number): void {
    const living = new Set(readdirSync(`/proc/${this.pid}/task`));
    for (const [tid, task] of this.tasks) {
      if (living.has(tid)) continue;
      this.endedWaitNs += task.waitedNs;
      closeQuietly(task.schedstat);
      closeQuietly(task.stat);
      this.tasks.delete(tid);
    }
    for (const tid of living) {
      if (this.tasks.has(tid)) continue;
      try {
        this.tasks.set(tid, { schedstat: openSync(`/proc/${this.pid}/task/${tid}/schedstat`, 'r'), stat: null, waitedNs: 0 });
      } catch {
        // the thread ended while we looked
      }
    }
    this.threads = threads;
  }
}

/** One look at a process (SchedulingReader, opened and closed): null where the kernel does not say. */
export function scheduling(pid: number, groupCpu?: (pid: number) => { waitedMs: number; ranMs: number } | null): { ranMs: number; waitedMs: number; runnable: boolean } | null {
  const reader = new SchedulingReader(pid, groupCpu);
  try {
    return reader.read();
  } finally {
    reader.close();
  }
}

/** utime + stime of a process from /proc, ended threads included, in ms (clock ticks are 10 ms); null without /proc. */
export function processCpuMs(pid: number): number | null {
  if (portable()) return null;
  const fields = statFields(pid);
  return fields ? (Number(fields[11]) + Number(fields[12])) * 10 : null;
}

/**
 * End a child and what it started on the portable path, where there is no /proc to walk. macOS (and Linux forced
 * portable): the child was spawned detached, so it leads a process group, and the group's SIGKILL reaches what it
 * started (signalGroups, by the caller); then the child itself. Windows has no process groups, and TerminateProcess
 * ends one process and orphans its children (a compiler's cc1plus, as, ld): `taskkill /T` walks the tree by parent
 * pid, so it runs first, while the parent still exists, and TerminateProcess follows as the backstop. (Players
 * themselves cannot start processes there: node's permission model and the Python audit hook refuse it.)
 */
export function endPortableTree(child: ChildProcess): void {
  const terminate = (): void => {
    child.kill('SIGKILL');
  };
  if (process.platform !== 'win32' || !child.pid || child.exitCode !== null || child.signalCode !== null) {
    terminate();
    return;
  }
  const killer = spawn('taskkill', ['/pid', String(child.pid), '/T', '/F'], { stdio: 'ignore', windowsHide: true });
  killer.once('error', terminate);
  killer.once('exit', terminate);
}
