/**
 * A busy grader never charges a move to a student: `referee play` pinned to one CPU with three CPU hogs pinned
 * beside it (the player gets about a quarter of that CPU). A player that uses ~80 ms of its own CPU a move within a
 * 250 ms limit plays every move in time: the time it waited for the CPU is credited and the record says how much.
 * Controls: the same kind of player spinning 400 ms of CPU a move loses by timeout, and a player that spins on as many
 * threads as the sandbox allows (their summed waits are many times the wall time) loses by timeout too, not as a
 * grader stall. Nothing here asserts a wall time: only the records' own figures, against each other.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { packageFile } from '../../grading/package-root.js';
import type { GameRecord } from '../../harness/referee/record.js';
import { taskstatsState } from '../../harness/sandbox/taskstats.js';
import { tempDir } from '../batch/helpers.js';
import { runToEnd } from '../setup/children.js';

const LIMIT_MS = 250;
const hogs: ChildProcess[] = [];
const work = tempDir('credit-load');
// The fair fixture spins until it has used 80 ms of CPU; this one, 400 ms (over the limit by its own time).
const spinning = join(work, 'spin400.ts');
writeFileSync(spinning, readFileSync(packageFile('tests', 'fixtures', 'students', 'cpu-80ms', 'AIPlayer.ts'), 'utf8').replace('>= 80)', '>= 400)'));

beforeAll(() => {
  // Each hog leads a session of its own (detached): with the kernel's autogroups, CPU is shared between sessions
  // first, and the sandboxed player has a session of its own (bubblewrap --new-session) — hogs in jest's one session
  // would leave it half the core, not a quarter, and no move would need the credit. A hog ends itself after ten
  // minutes should this file be killed before afterAll.
  const spin = 'const end = Date.now() + 600000; while (Date.now() < end) {}';
  for (let i = 0; i < 3; i++) hogs.push(spawn('taskset', ['-c', '0', process.execPath, '-e', spin], { stdio: 'ignore', detached: true }));
});

afterAll(() => {
  for (const hog of hogs) hog.kill('SIGKILL');
});

/** One game of `black` against the random player, the CLI and its players on CPU 0 beside the hogs. */
async function playOnCpu0(black: string): Promise<GameRecord> {
  const run = await runToEnd('taskset', ['-c', '0', process.execPath, packageFile('dist', 'cli', 'index.js'), 'play', '--black', black, '--white', 'random', '--games', '1', '--move-timeout', String(LIMIT_MS), '--json']);
  // The whole output on failure: a grader error (a stall) must say so here, not as a parse error.
  expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: expect.any(String) });
  const series = JSON.parse(run.stdout) as { records: GameRecord[] };
  return series.records[0];
}

test('beside three CPU hogs on its core, an 80 ms player makes every move in time by credit; 400 ms and a thread hog lose by timeout', async () => {
  const fair = await playOnCpu0(packageFile('tests', 'fixtures', 'students', 'cpu-80ms', 'AIPlayer.ts'));
  expect(fair.end.loser).toBeUndefined();
  expect(fair.end.reason).toBe('score');
  const own = fair.turns.filter((turn) => turn.side === 0 && turn.kind === 'move');
  expect(own.length).toBeGreaterThan(20);
  // Every move over the limit by the wall clock carries the wait that made it in time; at a quarter of a CPU, some do.
  const credited = own.filter((turn) => turn.cpuWaitMs !== undefined);
  expect(credited.length).toBeGreaterThan(0);
  for (const turn of own) {
    if (turn.wallMs! > LIMIT_MS) expect({ ply: turn.ply, credited: turn.cpuWaitMs !== undefined, own: turn.wallMs! - (turn.cpuWaitMs ?? 0) <= LIMIT_MS }).toEqual({ ply: turn.ply, credited: true, own: true });
  }

  const slow = await playOnCpu0(spinning);
  expect(slow.end.loser).toMatchObject({ side: 0, verdict: 'timeout', phase: 'move' });

  // Hostile: its summed waits alone would look like a grader that kept it from running (a stall, a grader error).
  const hog = await playOnCpu0(packageFile('tests', 'fixtures', 'cpp', 'thread-hog', 'AIPlayer.cpp'));
  expect(hog.end.loser).toMatchObject({ side: 0, verdict: 'timeout', phase: 'move' });
  expect(hog.turns.filter((turn) => turn.side === 0)).toEqual([]);
}, 300_000);

test("a func_timeout player (each move's search in a thread that ends before the answer) is credited the waits of its ended threads", async () => {
  // Where taskstats is refused (a non-root grader, a container) ended threads' waits are known only as last seen:
  // the product is on the safe side there, but this test's promise (every move in time) is taskstats' alone.
  if (taskstatsState() !== 'on') {
    console.warn(`skipped: taskstats ${taskstatsState()}`);
    return;
  }
  const record = await playOnCpu0(packageFile('tests', 'fixtures', 'python', 'short-threads', 'AIPlayer.py'));
  expect(record.end.loser).toBeUndefined();
  const own = record.turns.filter((turn) => turn.side === 0 && turn.kind === 'move');
  expect(own.length).toBeGreaterThan(20);
  // Before (waits of the living threads only: the search's thread had ended) most such moves were charged ~600 ms.
  for (const turn of own) expect({ ply: turn.ply, own: turn.wallMs! - (turn.cpuWaitMs ?? 0) <= LIMIT_MS }).toEqual({ ply: turn.ply, own: true });
  expect(own.filter((turn) => turn.wallMs! > LIMIT_MS).length).toBeGreaterThan(0);
}, 300_000);
