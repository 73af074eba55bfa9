/**
 * A restarted Botzone bot that ends just before its deadline is ruled on its own end, not on when the grader's side
 * noticed it (#34): the bot (tests/fixtures/botzone/just-in-time) answers and exits 280 ms after its start under a
 * 300 ms limit, on CPU 0 beside three CPU hogs (each in a session of its own, as tests/load/credit-load does), with the
 * spawner at normal priority (REFEREE_BOTZONE_REALTIME=0: a grader that may not grant real time), which at this load
 * often wakes tens of ms after the bot's end. The kernel's timer armed before exec is the witness: a bot still there at
 * its deadline dies of SIGALRM (a 'timeout' at the limit itself), so every turn that came back as a move ended before
 * its deadline, and its time must say so. Nothing here asserts a wall time: only the spawner's figures against the
 * kernel's verdict. The same for a kept-running bot without the spawner (no C compiler to build it; forced here with
 * REFEREE_BOTZONE_SPAWNER=0), whose turn the grader times itself in this very process, beside the hogs: it answers
 * 280 ms after each request, and each answer must be timed within the limit, not at the grader's late read.
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
// Asked until this many turns came back as moves (the figures the assertions read), at most MAX_ASKS times: how many
// make it depends on the machine (CI's shared one: 7 of 30), so the count waits on answers, not on a fixed number.
const WANTED = 15;
const MAX_ASKS = 200;
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

async function botzone(path: string, keepRunning: boolean): Promise<BotzonePlayer> {
  const submission = resolveSubmission(path);
  if (!submission.botzone) throw new Error(`${path} was not taken for a Botzone bot`);
  const compiled = await compileSubmission(submission);
  return new BotzonePlayer({ name: basename(path), bundlePath: compiled.bundlePath, submissionRoot: submission.root, language: 'C++', interaction: 'json', keepRunning, game: 'reversi' });
}

test('beside CPU hogs, a restarted bot that exits 20 ms before its 300 ms deadline is timed at its own end (every answered turn within the limit)', async () => {
  const player = await botzone(resolve('tests/fixtures/botzone/just-in-time'), false);
  const answered: number[] = [];
  const stopped: number[] = [];
  try {
    await player.load();
    await player.startGame({ game: 'reversi', side: 0, seed: 1, initialState: state, timeLimitMs: LIMIT_MS });
    expect(player.keepsTime).toBe(true);
    const info = { color: 'X', timeLimitMs: LIMIT_MS, moveNumber: 1, timeUsedMs: 0, attempt: 1, attemptsAllowed: 1, lastMove: null };
    for (let i = 0; answered.length < WANTED && i < MAX_ASKS; i++) {
      const answer = await player.requestMove({ state, info, history: [], deadlineMs: LIMIT_MS });
      if (answer.kind === 'move') answered.push(answer.timedMs!);
      else if (answer.kind === 'timeout') stopped.push(answer.timedMs!);
      else throw new Error(`ask ${i + 1}: ${answer.kind} ${'message' in answer ? answer.message : ''}`);
    }
  } finally {
    await player.close();
  }
  // The bot often makes it (it sleeps, and a woken sleeper is soon run); each of those answers is within its limit.
  expect(answered.length).toBe(WANTED);
  expect(answered.filter((ms) => ms > LIMIT_MS)).toEqual([]);
  // Those the machine held past the deadline were ended by the kernel's timer there, and ruled at the limit itself.
  expect(stopped.filter((ms) => ms !== LIMIT_MS)).toEqual([]);
});

test('without the spawner, beside CPU hogs, a kept bot that answers 280 ms after each request is timed within its 300 ms limit', async () => {
  process.env.REFEREE_BOTZONE_SPAWNER = '0';
  const player = await botzone(resolve('tests/fixtures/botzone/just-in-time-keep'), true);
  const answered: number[] = [];
  let stopped = 0;
  try {
    await player.load();
    await player.startGame({ game: 'reversi', side: 0, seed: 1, initialState: state, timeLimitMs: LIMIT_MS });
    expect(player.keepsTime).toBe(true);
    // Each turn one more pair of moves (Black D3, White C3: notation only, the player judges no rule); a turn that
    // starts the bot (its whole sandbox) gets ten seconds.
    const history: { side: 0 | 1; kind: 'move'; move: string }[] = [];
    for (let i = 0; answered.length < WANTED && i < MAX_ASKS; i++) {
      const fresh = history.length === 0;
      const limit = fresh ? 10_000 : LIMIT_MS;
      const info = { color: 'X', timeLimitMs: limit, moveNumber: i + 1, timeUsedMs: 0, attempt: 1, attemptsAllowed: 1, lastMove: null };
      const answer = await player.requestMove({ state, info, history: [...history], deadlineMs: limit });
      if (answer.kind === 'timeout') {
        // Ruled at the grader's deadline (the bot is gone): the next ask starts a fresh one, with ten seconds again.
        if (!fresh) stopped += 1;
        history.length = 0;
        continue;
      }
      if (answer.kind !== 'move') throw new Error(`ask ${i + 1}: ${answer.kind} ${'message' in answer ? answer.message : ''}`);
      if (!fresh) answered.push(answer.timedMs!);
      history.push({ side: 0, kind: 'move', move: 'D3' }, { side: 1, kind: 'move', move: 'C3' });
    }
  } finally {
    await player.close();
    delete process.env.REFEREE_BOTZONE_SPAWNER;
  }
  expect(answered.length).toBe(WANTED);
  expect({ late: answered.filter((ms) => ms > LIMIT_MS), stopped }).toEqual({ late: [], stopped });
});
