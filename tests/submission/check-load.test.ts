/**
 * The interface check's verdict does not depend on the grader's load: `referee check` pinned to one CPU with three
 * CPU hogs pinned beside it (the player gets a quarter of that CPU). A player that needs ~80 ms of CPU a move
 * within a 400 ms limit passes (the time it waited for the CPU does not count); one that never answers still
 * fails with a timeout, not a grader error.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { packageFile } from '../../grading/package-root.js';
import { tempDir } from '../batch/helpers.js';
import { runToEnd, type ChildRun } from '../setup/children.js';

const hogs: ChildProcess[] = [];
const work = tempDir('check-load');
const config = join(work, 'assignment.json');
writeFileSync(config, JSON.stringify({ title: 'load', game: 'reversi', moveTimeoutMs: 400, constructTimeoutMs: 2000, opponents: [{ name: 'random', games: 2, points: 10 }] }));
const looping = join(work, 'loop.ts');
writeFileSync(looping, "import type { Board } from 'referee';\nexport class AIPlayer {\n  getMove(board: Board): string {\n    for (;;) { /* never answers */ }\n  }\n}\n");

beforeAll(() => {
  for (let i = 0; i < 3; i++) hogs.push(spawn('taskset', ['-c', '0', process.execPath, '-e', 'for(;;){}'], { stdio: 'ignore' }));
});

afterAll(() => {
  for (const hog of hogs) hog.kill('SIGKILL');
});

function checkOnCpu0(path: string): Promise<ChildRun> {
  return runToEnd('taskset', ['-c', '0', process.execPath, packageFile('dist', 'cli', 'index.js'), 'check', path, '--config', config, '--no-type-check']);
}

test('under three CPU hogs on its core, a player with time to spare passes and an endless loop still fails its check', async () => {
  const fair = await checkOnCpu0(packageFile('tests', 'fixtures', 'students', 'cpu-80ms', 'AIPlayer.ts'));
  // The failed items, not just the code, so that a failure says which step and why.
  expect({ code: fair.code, failed: fair.stdout.split('\n').filter((line) => line.includes('✗')), stderr: fair.stderr }).toEqual({ code: 0, failed: [], stderr: '' });
  expect(fair.stdout).toMatch(/✓ getMove answers the opening legally within the time limit/);

  const endless = await checkOnCpu0(looping);
  expect(endless.code).toBe(1);
  expect(endless.stdout).toMatch(/✗ getMove answers the opening legally within the time limit: opening \(Black\): timeout/);
}, 120_000);
