/**
 * A restarted Botzone bot that ends just before its deadline is ruled on its own end, not on when the grader's side
 * noticed it (#34): the bot (tests/fixtures/botzone/just-in-time) answers and exits 280 ms after its start under a
 * 300 ms limit, on CPU 0 beside three CPU hogs (each in a session of its own, as tests/load/credit-load does), with the
 * spawner at normal priority (REFEREE_BOTZONE_REALTIME=0: a grader that may not grant real time), which at this load
 * often wakes tens of ms after the bot's end. The kernel's timer armed before exec is the witness: a bot still there at
 * its deadline dies of SIGALRM (a 'timeout' at the limit itself), so every turn that came back as a move ended before
 * its deadline, and its time must say so. Nothing here asserts a wall time: only the spawner's figures against the
 * kernel's verdict.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { cpus } from 'node:os';
import { basename, resolve } from 'node:path';
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { getGame } from '../../harness/games/registry.js';
import { BotzonePlayer } from '../../harness/sandbox/botzone-player.js';
import { compileSubmission } from '../../harness/submission/compile.js';
import { resolveSubmission } from '../../harness/submission/resolve.js';

const LIMIT_MS = 300;
const ASKS = 30;
const hogs: ChildProcess[] = [];
const reversi = getGame('reversi');
const state = reversi.encode(reversi.initial(1));

beforeAll(() => {
  process.env.REFEREE_BOTZONE_REALTIME = '0';
  // This worker (and so the spawner's sandbox and the bot) on CPU 0, with the hogs; put back in afterAll.
  spawnSync('taskset', ['-p', '-c', '0', String(process.pid)], { stdio: 'ignore' });
  const spin = 'const end = Date.now() + 600000; while (Date.now() < end) {}';
  for (let i = 0; i < 3; i++) hogs.push(spawn('taskset', ['-c', '0', process.execPath, '-e', spin], { stdio: 'ignore', detached: true }));
});

afterAll(() => {
  for (const hog of hogs) hog.kill('SIGKILL');
  spawnSync('taskset', ['-p', '-c', `0-${cpus().length - 1}`, String(process.pid)], { stdio: 'ignore' });
  delete process.env.REFEREE_BOTZONE_REALTIME;
});

test('beside CPU hogs, a restarted bot that exits 20 ms before its 300 ms deadline is timed at its own end (every answered turn within the limit)', async () => {
  const path = resolve('tests/fixtures/botzone/just-in-time');
  const submission = resolveSubmission(path);
  if (!submission.botzone) throw new Error(`${path} was not taken for a Botzone bot`);
  const compiled = await compileSubmission(submission);
  const player = new BotzonePlayer({ name: basename(path), bundlePath: compiled.bundlePath, submissionRoot: submission.root, language: 'C++', interaction: 'json', keepRunning: false, game: 'reversi' });
  const answered: number[] = [];
  const stopped: number[] = [];
  try {
    await player.load();
    await player.startGame({ game: 'reversi', side: 0, seed: 1, initialState: state, timeLimitMs: LIMIT_MS });
    expect(player.keepsTime).toBe(true);
    const info = { color: 'X', timeLimitMs: LIMIT_MS, moveNumber: 1, timeUsedMs: 0, attempt: 1, attemptsAllowed: 1, lastMove: null };
    for (let i = 0; i < ASKS; i++) {
      const answer = await player.requestMove({ state, info, history: [], deadlineMs: LIMIT_MS });
      if (answer.kind === 'move') answered.push(answer.timedMs!);
      else if (answer.kind === 'timeout') stopped.push(answer.timedMs!);
      else throw new Error(`ask ${i + 1}: ${answer.kind} ${'message' in answer ? answer.message : ''}`);
    }
  } finally {
    await player.close();
  }
  // The bot mostly makes it (it sleeps, and a woken sleeper is soon run); each of those answers is within its limit.
  expect(answered.length).toBeGreaterThan(ASKS / 3);
  expect(answered.filter((ms) => ms > LIMIT_MS)).toEqual([]);
  // Those the machine held past the deadline were ended by the kernel's timer there, and ruled at the limit itself.
  expect(stopped.filter((ms) => ms !== LIMIT_MS)).toEqual([]);
}, 120_000);
