/**
 * The processes behind one player. bubblewrap's --new-session puts the sandboxed node in a session (and process
 * group) of its own, so signalling the group we spawned is not enough: we walk /proc for descendants and signal
 * each of their groups, plus every pid the player's cgroup holds.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
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

/** The process group of a pid, or the pid itself where /proc is missing. */
export function processGroup(pid: number): number {
  if (portable()) return pid;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces and parentheses): state ppid pgrp …
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]);
  } catch {
    return pid;
  }
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

/**
 * What the scheduler says of a process's threads: time run and time waited runnable for a CPU (ms, summed over
 * threads), and whether any thread is held by the machine now (runnable, or stopped by the grader's freeze). The
 * kernel adds a wait to schedstat only when the thread gets the CPU, so a thread starved right now shows as
 * runnable while its run time stands still. Time run also counts threads that have ended (the process's own CPU
 * time): game.py's func_timeout runs each call in a thread of its own, and a sum over the living threads alone
 * missed nearly all of a demo game played at import. null where the kernel does not say.
 */
export function scheduling(pid: number): { ranMs: number; waitedMs: number; runnable: boolean } | null {
  if (!pid || portable()) return null;
  try {
    let ranNs = 0;
    let waitedNs = 0;
    let runnable = false;
    for (const task of readdirSync(`/proc/${pid}/task`)) {
      let fields: string[];
      let stat: string;
      try {
        fields = readFileSync(`/proc/${pid}/task/${task}/schedstat`, 'utf8').split(' ');
        stat = readFileSync(`/proc/${pid}/task/${task}/stat`, 'utf8');
      } catch {
        continue; // a thread that ended while we looked
      }
      ranNs += Number(fields[0]) || 0;
      waitedNs += Number(fields[1]) || 0;
      // The state follows the command name's closing parenthesis (which may itself hold spaces or parentheses):
      // R waits for (or has) a CPU; T is stopped by the grader's freeze between turns, waiting for its wake-up.
      const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
      if (state === 'R' || state === 'T') runnable = true;
    }
    return { ranMs: Math.max(ranNs / 1e6, processCpuMs(pid) ?? 0), waitedMs: waitedNs / 1e6, runnable };
  } catch {
    return null;
  }
}

/** utime + stime of a process from /proc, ended threads included, in ms (clock ticks are 10 ms); null without /proc. */
export function processCpuMs(pid: number): number | null {
  if (portable()) return null;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return null;
  }
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
