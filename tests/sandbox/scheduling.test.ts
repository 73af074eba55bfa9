/**
 * What the scheduler says of a player's process is what the grader credits CPU waits on. A Python player that plays
 * game.py's Game at import (func_timeout: one short-lived thread per get_move) does its work in threads that have
 * ended by the time the grader looks: their time run must still count, or a slow load looks like a process that
 * barely ran and is given time it already used.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import type { Readable } from 'node:stream';
import { expect, test } from '@jest/globals';
import { creditedWaitMs } from '../../harness/referee/ask.js';
import { scheduling, SchedulingReader } from '../../harness/sandbox/process-tree.js';
import { taskstatsState, threadGroupCpu } from '../../harness/sandbox/taskstats.js';

test('time run counts threads that have ended (a thread per call, as func_timeout does)', async () => {
  // Each call spins ~5 ms of CPU in a thread of its own and joins it; the process prints once it has used 300 ms.
  const script = [
    'import threading, time',
    'def spin():',
    '    end = time.thread_time() + 0.005',
    '    while time.thread_time() < end: pass',
    'while time.process_time() < 0.3:',
    '    t = threading.Thread(target=spin); t.start(); t.join()',
    'print("done", flush=True)',
    'import sys; sys.stdin.read()',
  ].join('\n');
  const child = spawn('python3', ['-c', script], { stdio: ['pipe', 'pipe', 'inherit'] });
  try {
    await new Promise<void>((done) => child.stdout.on('data', () => done()));
    const seen = scheduling(child.pid as number);
    expect(seen).not.toBeNull();
    // The main thread itself ran almost nothing: without the ended threads this is a few ms.
    expect(seen?.ranMs).toBeGreaterThanOrEqual(250);
  } finally {
    child.kill('SIGKILL');
  }
});

/** A python3 process that runs `calls` calls in threads of their own, each spinning `ms` of CPU, then waits. */
async function threadedProcess(calls: number, ms: number): Promise<ChildProcess & { stdout: Readable }> {
  const script = [
    'import sys, threading, time',
    'def spin():',
    `    end = time.thread_time() + ${ms / 1000}`,
    '    while time.thread_time() < end: pass',
    `for _ in range(${calls}):`,
    '    t = threading.Thread(target=spin); t.start(); t.join()',
    'print("done", flush=True)',
    'sys.stdin.read()',
  ].join('\n');
  const child = spawn('python3', ['-c', script], { stdio: ['pipe', 'pipe', 'inherit'] });
  await new Promise<void>((done) => child.stdout.on('data', () => done()));
  return child as ChildProcess & { stdout: Readable };
}

test("waits count threads that have ended: the kernel's group sums where taskstats answers, else the waits last seen", async () => {
  const child = await threadedProcess(20, 5);
  try {
    const pid = child.pid as number;
    const living = scheduling(pid);
    expect(living).not.toBeNull();
    if (taskstatsState() === 'on') {
      // Every thread's wait from its start to its first turn on a CPU is in the group's sum: 20 ended threads add some.
      const group = scheduling(pid, threadGroupCpu);
      expect(group!.waitedMs).toBeGreaterThan(living!.waitedMs);
      expect(group!.ranMs).toBeGreaterThanOrEqual(95);
    }
    // A reader never mixes sources: once its figures come from taskstats, a process taskstats no longer answers for
    // has no figure at all (no credit), never the smaller /proc one.
    let answers = true;
    const reader = new SchedulingReader(pid, () => (answers ? { waitedMs: 5000, ranMs: 100 } : null));
    expect(reader.read(false)).toEqual({ waitedMs: 5000, ranMs: expect.any(Number), runnable: false });
    answers = false;
    expect(reader.read(false)).toBeNull();
    reader.close();
  } finally {
    child.kill('SIGKILL');
  }
});

test('without taskstats a kept reader keeps the waits of a thread it saw, after the thread has ended', async () => {
  // The thread spins 30 ms of CPU beside a hog on the same CPU (so it waits), is seen, then ends: its waits stay in
  // the kept reader's figure, while a fresh look at the living threads has lost them.
  // The hog says when it spins: started before it runs, the thread's 30 ms could pass with nobody beside it to wait
  // for (a Node 24 subset in CI: the thread's waits under 1 ms, and the control failed by 1 ms).
  const hog = spawn('taskset', ['-c', '0', process.execPath, '-e', 'process.stdout.write("spinning\\n"); for (;;) {}'], { stdio: ['ignore', 'pipe', 'ignore'], detached: true });
  await new Promise<void>((running) => hog.stdout!.on('data', (data: Buffer) => data.toString().includes('spinning') && running()));
  const script = [
    'import sys, threading, time',
    'go = threading.Event()',
    'def work():',
    '    end = time.thread_time() + 0.03',
    '    while time.thread_time() < end: pass',
    '    print("spun", flush=True)',
    '    go.wait()',
    't = threading.Thread(target=work); t.start()',
    'sys.stdin.readline(); go.set(); t.join()',
    'print("ended", flush=True)',
    'sys.stdin.read()',
  ].join('\n');
  const child = spawn('taskset', ['-c', '0', 'python3', '-c', script], { stdio: ['pipe', 'pipe', 'inherit'] });
  try {
    const said = (word: string) => new Promise<void>((done) => child.stdout.on('data', (data: Buffer) => data.toString().includes(word) && done()));
    await said('spun');
    hog.kill('SIGKILL');
    const reader = new SchedulingReader(child.pid as number);
    const seen = reader.read(false)!;
    // The main thread's own waits (it sits in readline now, in read() at the end): what it waits meanwhile — long at
    // load — is taken off, so the control compares only the ended thread's part.
    const mainWaitedMs = (): number => Number(readFileSync(`/proc/${child.pid}/task/${child.pid}/schedstat`, 'utf8').split(' ')[1]) / 1e6;
    const mainAtSeen = mainWaitedMs();
    child.stdin.write('\n');
    await said('ended');
    const living = scheduling(child.pid as number)!.waitedMs;
    expect(living - (mainWaitedMs() - mainAtSeen)).toBeLessThan(seen.waitedMs);
    expect(reader.read(false)!.waitedMs).toBeGreaterThanOrEqual(seen.waitedMs);
    reader.close();
  } finally {
    hog.kill('SIGKILL');
    child.kill('SIGKILL');
  }
});

test('the credit is the waits, never more than the wall time less the time run, never negative', () => {
  const at = (ranMs: number, waitedMs: number) => ({ ranMs, waitedMs, runnable: false });
  expect(creditedWaitMs(at(0, 0), at(80, 500), 600)).toBe(500);
  // Waits summed over threads beyond the wall time: capped so the player's own time is the CPU it used.
  expect(creditedWaitMs(at(0, 0), at(80, 5000), 600)).toBe(520);
  // A figure that went down (a source that lost ended threads): no credit, not a negative one.
  expect(creditedWaitMs(at(0, 900), at(80, 100), 600)).toBe(0);
});
