/**
 * A restart-per-turn Botzone bot on a grader with no C compiler and nothing built ahead (#34): the spawner kept in the
 * bot's sandbox cannot be built, so each turn starts a whole sandbox, and the bot still plays its games. The bot
 * prints its own pid as its debug: under bubblewrap's private pid namespace a whole sandbox a turn gives the same
 * small pid every turn, while the spawner (the control, with the compiler on PATH) forks each turn's bot in one
 * namespace, so the pids climb. Through the CLI as a subprocess with the real bubblewrap and python3.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { beforeAll, expect, test } from '@jest/globals';
import { runToEnd } from '../setup/children.js';
import { hasBwrap } from '../setup/sandbox-modes.js';
import { scratch } from '../sandbox/support.js';
import { REVERSI_PY } from './python-bots.js';

const CLI = resolve('dist/cli/index.js');
const BOT = `# Botzone Reversi bot (JSON, restarted every turn): the first legal move; its debug is its pid.
import json, os
${REVERSI_PY}
full = json.loads(input())
requests = [(r["x"], r["y"]) for r in full["requests"]]
responses = [(r["x"], r["y"]) for r in full["responses"]]
turn, (x, y) = choose(requests, responses)
print(json.dumps({"response": {"x": x, "y": y}, "debug": "pid %d" % os.getpid()}))
`;

let work: string;
let bot: string;

beforeAll(() => {
  work = scratch('botzone-no-cc');
  bot = join(work, 'bot');
  mkdirSync(bot);
  writeFileSync(join(bot, 'main.py'), BOT);
});

/** One game against random under Botzone's rules; the bot's turns' debug (its pids) and the game's end. */
async function play(name: string, env: Record<string, string>): Promise<{ pids: number[]; reason: string; stderr: string }> {
  const out = join(work, name);
  // To its own end however loaded the machine (a failed or timed-out test stops it).
  const run = await runToEnd(process.execPath, [CLI, 'play', '--black', bot, '--white', 'random', '--games', '1', '--platform', 'botzone', '--save', out], { HOME: work, ...env });
  expect(run.code).toBe(0);
  const [file] = readdirSync(out);
  const record = JSON.parse(readFileSync(join(out, file), 'utf8')) as { end: { reason: string }; turns: { side: number; kind: string; debug?: string }[] };
  const pids = record.turns.filter((turn) => turn.side === 0 && turn.kind === 'move').map((turn) => Number(/^pid (\d+)$/.exec(turn.debug ?? '')?.[1]));
  return { pids, reason: record.end.reason, stderr: run.stderr };
}

(hasBwrap ? test : test.skip)('no C compiler and no tools built ahead: a whole sandbox a turn, and the bot plays its game; with the compiler, the spawner', async () => {
  // A PATH with bubblewrap and python3 and no C compiler of any name; a cache with nothing built in it.
  const bin = join(work, 'bin');
  mkdirSync(bin);
  for (const tool of ['bwrap', 'python3']) {
    const found = spawnSync('sh', ['-c', `command -v ${tool}`], { encoding: 'utf8' }).stdout.trim();
    symlinkSync(found, join(bin, tool));
  }
  const bare = await play('no-cc', { PATH: bin, REFEREE_CXX: '/nonexistent/g++', REFEREE_NO_PREBUILT: '1', REFEREE_CACHE_DIR: join(work, 'empty-cache') });
  expect(bare.reason).toBe('score');
  expect(bare.pids.length).toBeGreaterThan(10);
  expect(bare.pids.every((pid) => Number.isInteger(pid))).toBe(true);
  // Every turn in a fresh pid namespace: one pid, every time.
  expect(new Set(bare.pids).size).toBe(1);

  // The control: the compiler on PATH (a cache of its own), so the spawner is built and forks each turn's bot.
  const spawned = await play('with-cc', { PATH: process.env.PATH ?? '/usr/bin:/bin', REFEREE_CACHE_DIR: join(work, 'cc-cache') });
  expect(spawned.reason).toBe('score');
  expect(new Set(spawned.pids).size).toBe(spawned.pids.length);
}, 300_000);
