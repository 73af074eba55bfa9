/**
 * A Botzone bot's turn is ruled inside its sandbox, kept running or restarted (#34), through BotzonePlayer itself with
 * the real g++ and the spawner, and no referee timer at all: every answer below comes only because the spawner ended
 * the turn (the marker, the bot's exit, or its deadline).
 *   - a kept-running bot is started in load() and stopped before its first request (it gets no CPU before its turn);
 *     its turns go to the one process, which is stopped again after each answer; each turn is timed by the spawner;
 *   - a kept bot that loops on a later turn is stopped at that turn's deadline by the spawner;
 *   - a bot that holds its memory group at the limit (the kernel reclaiming, not killing) until its deadline loses for
 *     memory, not time; the same bot under a limit it never reaches loses on time.
 */
import { readFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { afterEach, expect, test } from '@jest/globals';
import { getGame } from '../../harness/games/registry.js';
import type { MoveRequest, PlayerAnswer } from '../../harness/referee/player.js';
import { BotzonePlayer } from '../../harness/sandbox/botzone-player.js';
import { processTree } from '../../harness/sandbox/process-tree.js';
import { compileSubmission } from '../../harness/submission/compile.js';
import { resolveSubmission } from '../../harness/submission/resolve.js';

const BOTS = resolve('tests/fixtures/botzone');
const reversi = getGame('reversi');
const state = reversi.encode(reversi.initial(1));
const open: BotzonePlayer[] = [];

afterEach(async () => {
  await Promise.all(open.splice(0).map((player) => player.close()));
});

async function botzone(path: string, memoryMb?: number): Promise<{ player: BotzonePlayer; binary: string }> {
  const submission = resolveSubmission(path);
  if (!submission.botzone) throw new Error(`${path} was not taken for a Botzone bot`);
  const compiled = await compileSubmission(submission);
  const player = new BotzonePlayer({
    name: basename(path),
    bundlePath: compiled.bundlePath,
    submissionRoot: submission.root,
    language: 'C++',
    interaction: submission.botzone.interaction,
    keepRunning: submission.botzone.keepRunning,
    game: 'reversi',
    ...(memoryMb ? { memoryMb } : {}),
  });
  open.push(player);
  return { player, binary: basename(compiled.bundlePath) };
}

/** The states (/proc stat letters) of this test's processes running `binary` (the bot, inside its sandbox). */
function botStates(binary: string): string[] {
  const states: string[] = [];
  for (const pid of processTree(process.pid)) {
    try {
      const command = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')[0];
      if (basename(command) !== binary) continue;
      states.push(/^\d+ \(.*\) (\S)/s.exec(readFileSync(`/proc/${pid}/stat`, 'utf8'))![1]);
    } catch {
      // it ended meanwhile
    }
  }
  return states;
}

function ask(player: BotzonePlayer, history: MoveRequest['history'], deadlineMs: number): Promise<PlayerAnswer> {
  const info = { color: 'X', timeLimitMs: deadlineMs, moveNumber: 1 + (history?.length ?? 0) / 2, timeUsedMs: 0, attempt: 1, attemptsAllowed: 1, lastMove: null };
  return player.requestMove({ state, info, history, deadlineMs });
}

/** The history after the bot's first answer (Black) and White's first legal reply. */
function afterFirst(answer: PlayerAnswer): NonNullable<MoveRequest['history']> {
  const move = String((answer as { value: string }).value);
  const after = reversi.apply(reversi.initial(1), reversi.parseMove(move)!);
  return [
    { side: 0, kind: 'move', move },
    { side: 1, kind: 'move', move: reversi.formatMove(reversi.legalMoves(after)[0]) },
  ];
}

const start = { game: 'reversi', side: 0 as const, seed: 1, initialState: state, timeLimitMs: 10_000 };

test('a kept-running bot is started in load() and stopped until its turn; one process answers each turn, timed in the sandbox, and is stopped again', async () => {
  const { player, binary } = await botzone(join(BOTS, 'reversi-simple-keep'));
  expect(await player.load()).toEqual({ kind: 'ready' });
  // Started, and stopped before its first request: it has no CPU before its turn.
  expect(botStates(binary)).toEqual(['T']);
  expect(player.keepsTime).toBe(true);
  expect(await player.startGame(start)).toEqual({ kind: 'ready' });
  expect(botStates(binary)).toEqual(['T']);

  const first = await ask(player, [], 60_000);
  expect(first).toMatchObject({ kind: 'move', debug: expect.stringMatching(/^turn 1 took/) });
  expect(typeof first.timedMs).toBe('number');
  expect(botStates(binary)).toEqual(['T']);
  const second = await ask(player, afterFirst(first), 60_000);
  // The same process (its own turn counter), stopped again after its answer.
  expect(second).toMatchObject({ kind: 'move', debug: expect.stringMatching(/^turn 2 took/) });
  expect(botStates(binary)).toEqual(['T']);
  // The game's end ends the bot; the next game's load starts the next one, stopped until it is asked.
  await player.endGame();
  expect(botStates(binary)).toEqual([]);
  await player.load();
  expect(botStates(binary)).toEqual(['T']);
  expect(await player.startGame(start)).toEqual({ kind: 'ready' });
  expect(await ask(player, [], 60_000)).toMatchObject({ kind: 'move', debug: expect.stringMatching(/^turn 1 took/) });
});

test('a kept bot that loops on its second turn is stopped at that turn deadline by the spawner', async () => {
  const { player, binary } = await botzone(join(BOTS, 'hostile', 'keep-loop.cpp'));
  await player.load();
  await player.startGame(start);
  const first = await ask(player, [], 60_000);
  expect(first).toMatchObject({ kind: 'move', debug: 'first' });
  const looped = await ask(player, afterFirst(first), 300);
  expect(looped.kind).toBe('timeout');
  expect(looped.timedMs).toBeGreaterThanOrEqual(300);
  expect(botStates(binary)).toEqual([]);
});

test('a bot held at its memory limit until its deadline loses for memory; under a limit it never reaches, for time', async () => {
  const bot = join(BOTS, 'hostile', 'reclaim.cpp');
  const { player: held } = await botzone(bot, 64);
  await held.load();
  await held.startGame(start);
  const atLimit = await ask(held, [], 1500);
  expect({ kind: atLimit.kind, message: 'message' in atLimit ? atLimit.message : undefined }).toEqual({ kind: 'memory', message: expect.stringMatching(/reached its 64 MB memory limit .*was still running at its deadline/) });

  const { player: roomy } = await botzone(bot, 256);
  await roomy.load();
  await roomy.startGame(start);
  expect((await ask(roomy, [], 1500)).kind).toBe('timeout');
});
