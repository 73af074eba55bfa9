/**
 * What the scheduler says of a player's process is what the grader credits CPU waits on. A Python player that plays
 * game.py's Game at import (func_timeout: one short-lived thread per get_move) does its work in threads that have
 * ended by the time the grader looks: their time run must still count, or a slow load looks like a process that
 * barely ran and is given time it already used.
 */
import { spawn } from 'node:child_process';
import { expect, test } from '@jest/globals';
import { scheduling } from '../../harness/sandbox/process-tree.js';

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
