/**
 * `npm run bench -- thread-credit`: the CPU-wait credit of a player whose work runs in short-lived threads (a
 * func_timeout-style search: each move spins ~80 ms of CPU in one new thread, joined), pinned to CPU 0 beside CPU hogs
 * that lead sessions of their own. Each move is looked at three ways at once, as askCrediting does (at the ask, at a
 * 250 ms deadline and again while the move lasts, and at the answer): before (one look at the living threads only,
 * the old reader), the fallback (a kept reader that remembers an ended thread's waits as last seen) and taskstats (the
 * kernel's sums over every thread, ended ones included). Prints, per way, the median and worst own time (wall less
 * credit) against the CPU the move really used, and how many moves a 250 ms limit would have ruled late. Asserts
 * nothing. BENCH_THREAD_MOVES (default 20) and BENCH_CREDIT_HOGS (default 3) change the run.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { creditedWaitMs, creditLook } from '../harness/referee/ask.js';
import type { PlayerScheduling } from '../harness/referee/player.js';
import { scheduling, SchedulingReader } from '../harness/sandbox/process-tree.js';
import { taskstatsState, threadGroupCpu } from '../harness/sandbox/taskstats.js';
import { percentile } from './bench-support.js';

const LIMIT_MS = 250;
const PLAYER = `
import sys, threading, time
def search():
    end = time.thread_time() + 0.08
    while time.thread_time() < end: pass
print('ready', flush=True)
for line in sys.stdin:
    t = threading.Thread(target=search); t.start(); t.join()
    print('move', flush=True)
`;

type Way = 'before' | 'fallback' | 'taskstats';

export async function benchThreadCredit(): Promise<void> {
  const moves = Number(process.env.BENCH_THREAD_MOVES ?? 20);
  const hogCount = Number(process.env.BENCH_CREDIT_HOGS ?? 3);
  console.log(`## CPU-wait credit of a player working in short-lived threads (${moves} moves of ~80 ms CPU, ${hogCount} hogs on its CPU, limit ${LIMIT_MS} ms)`);
  console.log(`taskstats: ${taskstatsState()}`);
  const hogs: ChildProcess[] = [];
  const spin = 'const end = Date.now() + 600000; while (Date.now() < end) {}';
  for (let i = 0; i < hogCount; i++) hogs.push(spawn('taskset', ['-c', '0', process.execPath, '-e', spin], { stdio: 'ignore', detached: true }));
  const player = spawn('taskset', ['-c', '0', 'python3', '-c', PLAYER], { stdio: ['pipe', 'pipe', 'inherit'], detached: true });
  try {
    const kept = new SchedulingReader(player.pid as number);
    const group = new SchedulingReader(player.pid as number, threadGroupCpu);
    // Each counted with the grader's own waits, as creditLook does for every credited ask.
    const look = (): Record<Way, PlayerScheduling | null> => ({
      before: creditLook(() => scheduling(player.pid as number), true),
      fallback: creditLook((withState) => kept.read(withState), true),
      taskstats: creditLook((withState) => group.read(withState), true),
    });
    const own: Record<Way, number[]> = { before: [], fallback: [], taskstats: [] };
    const used: number[] = [];
    const lines = player.stdout.setEncoding('utf8');
    await once(lines, 'data'); // started: its start-up is no move's
    for (let move = 0; move < moves; move++) {
      const first = look();
      const ran = threadGroupCpu(player.pid as number)?.ranMs ?? 0;
      const started = performance.now();
      player.stdin.write('go\n');
      const answered = once(lines, 'data');
      // Looks while the move lasts, as the credited deadline's looks are (the fallback remembers what they saw).
      let done = false;
      void answered.then(() => (done = true));
      while (!done) {
        await Promise.race([answered, new Promise((resolve) => setTimeout(resolve, LIMIT_MS))]);
        if (!done) look();
      }
      const wallMs = performance.now() - started;
      const now = look();
      used.push((threadGroupCpu(player.pid as number)?.ranMs ?? 0) - ran);
      for (const way of Object.keys(own) as Way[]) {
        const a = first[way];
        const b = now[way];
        own[way].push(a && b ? wallMs - creditedWaitMs(a, b, wallMs) : wallMs);
      }
    }
    const sortedUsed = [...used].sort((x, y) => x - y);
    console.log(`CPU used a move (taskstats): median ${percentile(sortedUsed, 50).toFixed(0)} ms; load average ${loadavg()[0].toFixed(1)}`);
    for (const way of Object.keys(own) as Way[]) {
      const sorted = [...own[way]].sort((x, y) => x - y);
      const late = sorted.filter((ms) => ms > LIMIT_MS).length;
      console.log(`${way.padEnd(9)}: own time a move median ${percentile(sorted, 50).toFixed(0)} ms, worst ${sorted[sorted.length - 1].toFixed(0)} ms; ruled late at ${LIMIT_MS} ms: ${late}/${moves}`);
    }
  } finally {
    player.kill('SIGKILL');
    for (const hog of hogs) hog.kill('SIGKILL');
  }
}
