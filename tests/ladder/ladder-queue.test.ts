/**
 * `referee ladder start --queue`: the ladder of a class whose games are played on other machines. A real
 * redis-server, the ladder and its workers as CLI subprocesses, submissions sent with `referee ladder submit`. Every
 * game (the intake's validation and the rated ones) is played by a worker, never by the ladder's machine; a worker
 * killed with -9 leaves the ladder saying no worker is connected, and the next worker to connect takes the waiting
 * games, so the submission sent meanwhile is rated. Waits are on the CLIs' output and the API, never the clock.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { packageFile } from '../../grading/package-root.js';
import { tempDir } from '../batch/helpers.js';
import { Cli, redisForTests, sleep, startWorker } from '../queue/helpers.js';
import { requireBuild } from '../web/serve-helpers.js';
import { LADDER_ASSIGNMENT } from './assignment.js';

interface Row {
  player: string;
  kind: string;
  version: number | null;
  games: number;
}

const redis = redisForTests();
let root: string;
let ladder: Cli;
let url: string;
let tokens: Record<string, string>;

beforeAll(async () => {
  requireBuild();
  root = tempDir('ladder-queue');
  writeFileSync(join(root, 'assignment.json'), JSON.stringify(LADDER_ASSIGNMENT));
  writeFileSync(join(root, 'roster.csv'), 'student\nts\npy\n');
  // --jobs 1: the ladder's own machine would play one game at a time, were it to play any.
  ladder = new Cli(['ladder', 'start', '--config', join(root, 'assignment.json'), '--roster', join(root, 'roster.csv'), '--data', join(root, 'data'), '--port', '0', '--queue', redis().url, '--cooldown', '0', '--jobs', '1']);
  url = (await ladder.waitFor(/referee ladder: (http:\/\/\S+?)\/? /))[1];
  const lines = readFileSync(join(root, 'data', 'tokens.csv'), 'utf8').trim().split('\n').slice(1);
  tokens = Object.fromEntries(lines.map((line) => line.split(',')));
});

afterAll(async () => {
  await ladder?.stop();
});

async function rows(): Promise<Row[]> {
  const response = await fetch(`${url}/api/leaderboard`);
  return ((await response.json()) as { rows: Row[] }).rows;
}

test('the games of a submission are played by the workers; a worker lost with -9 is said, and the next one takes over', async () => {
  const first = startWorker(redis().url, 'w1');
  await first.waitFor(/waiting for games/);
  const ts = new Cli(['ladder', 'submit', packageFile('student-template', 'src', 'AIPlayer.ts'), '--url', url, '--token', tokens.ts]);
  expect(await ts.closed).toEqual({ code: 0, signal: null });
  expect(ts.stdout).toMatch(/^Version 1 is checked, validated and rated: /m);
  // Its validation games and rated games alike came back from the worker (its log names the version and the kind).
  await first.waitFor(/played .*v1 .*\(validation\)/);
  await first.waitFor(/played .*v1 .*\(rated\)/);

  first.process.kill('SIGKILL');
  await first.exited;
  // Sent while no worker is connected: its check runs on the ladder's machine, its games wait in Redis.
  const py = new Cli(['ladder', 'submit', packageFile('student-template', 'python', 'src', 'AIPlayer.py'), '--url', url, '--token', tokens.py]);
  await ladder.waitFor(/queued and no referee worker of harness \S+ is connected: start `referee worker --queue …`/, 'both');
  // The ladder's machine plays none of them itself: the submission is still waiting for its validation.
  expect(py.process.exitCode).toBeNull();
  expect(py.stdout).not.toMatch(/rated/);
  const second = startWorker(redis().url, 'w2');
  expect(await py.closed).toEqual({ code: 0, signal: null });
  expect(py.stdout).toMatch(/^Version 2 is checked, validated and rated: /m);
  await second.waitFor(/played .*v2 .*\(validation\)/);
  await second.waitFor(/played .*v2 .*\(rated\)/);

  // Both versions on the leaderboard with games.
  for (;;) {
    const now = await rows();
    const students = now.filter((row) => row.kind === 'student');
    if (students.length === 2 && students.every((row) => row.games > 0)) break;
    await sleep(250);
  }
  await second.stop();
});
