/**
 * Botzone's data and globaldata (#34), in both interaction formats, through `referee play` as a subprocess with
 * python3: data is carried from turn to turn within a game (a JSON bot's number stays a number; the simple
 * interaction's line stays a line), globaldata from game to game, and either over Botzone's 100 KB cap is dropped
 * with a note while the last value that fit is kept. Each bot answers an invalid action on its sixth turn, which
 * loses at once under Botzone's rules, so the games stay short. And a bot named for a game with no Botzone judge is
 * refused.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { beforeAll, expect, test } from '@jest/globals';
import { scratch } from '../sandbox/support.js';
import { REVERSI_PY } from './python-bots.js';
import { runToEnd } from '../setup/children.js';

const CLI = resolve('dist/cli/index.js');

const OVER = 'OVER = "x" * (101 * 1024)';

// JSON interaction: data a number (the turn count so far), globaldata the number of games begun.
const JSON_BOT = `import json
${REVERSI_PY}
${OVER}
full = json.loads(input())
requests = [(r["x"], r["y"]) for r in full["requests"]]
responses = [(r["x"], r["y"]) for r in full["responses"]]
data, globaldata = full.get("data"), full.get("globaldata")
turn, (x, y) = choose(requests, responses, 6)
out = {"response": {"x": x, "y": y}, "debug": "data=%r global=%r" % (data, globaldata)}
out["data"] = OVER if turn == 3 else (data or 0) + 1
if turn == 1:
    out["globaldata"] = (globaldata or 0) + 1
if turn == 5:
    out["globaldata"] = OVER
print(json.dumps(out))
`;

// Simple interaction: the turn number, the alternating request/response lines, then the data and globaldata lines.
const SIMPLE_BOT = `import sys
${REVERSI_PY}
${OVER}
lines = sys.stdin.read().split("\\n")
n = int(lines[0])
pairs = [tuple(int(v) for v in line.split()) for line in lines[1:2 * n]]
requests, responses = pairs[0::2], pairs[1::2]
data, globaldata = lines[2 * n], lines[2 * n + 1]
turn, (x, y) = choose(requests, responses, 6)
new_data = OVER if turn == 3 else str(int(data or 0) + 1)
new_global = str(int(globaldata or 0) + 1) if turn == 1 else OVER if turn == 5 else globaldata
print("%d %d" % (x, y))
print("data=%r global=%r" % (data, globaldata))
print(new_data)
print(new_global)
`;

let work: string;

beforeAll(() => {
  work = scratch('botzone-data');
  for (const [name, text] of [['json-bot', JSON_BOT], ['simple-bot', SIMPLE_BOT]]) {
    mkdirSync(join(work, name));
    writeFileSync(join(work, name, 'main.py'), text);
  }
});

interface Turn {
  side: 0 | 1;
  kind: string;
  debug?: string;
  output?: { text: string };
}

test('data is carried turn to turn, globaldata game to game, in both formats; over 100 KB either is dropped with a note and the last value kept', async () => {
  const out = join(work, 'games');
  // Botzone's rules: one invalid action loses (each bot's sixth turn ends its game).
  const run = await runToEnd(process.execPath, [CLI, 'play', '--black', join(work, 'json-bot'), '--white', join(work, 'simple-bot'), '--games', '2', '--platform', 'botzone', '--protocol', 'botzone', '--save', out]);
  expect(run.stderr).not.toMatch(/error/i);
  expect(run.code).toBe(0);
  const records = readdirSync(out)
    .sort()
    .map((name) => JSON.parse(readFileSync(join(out, name), 'utf8')) as { players: string[]; turns: Turn[]; end: { loser?: { side: number; verdict: string } } });
  expect(records).toHaveLength(2);
  const debugOf = (record: (typeof records)[number], player: string): string[] => {
    const side = record.players.indexOf(player);
    return record.turns.filter((turn) => turn.side === side && turn.kind === 'move').map((turn) => turn.debug ?? '');
  };
  // Black (the first mover) reaches its sixth turn first and loses on it: five turns played each game.
  expect(records.map((record) => record.end.loser?.verdict)).toEqual(['illegal', 'illegal']);
  // Turn 3 asked for 101 KB of data: dropped, so turn 4 gets turn 2's value again. Turn 5's globaldata is dropped too.
  expect(debugOf(records[0], 'json-bot')).toEqual(["data='' global=''", 'data=1 global=1', 'data=2 global=1', 'data=2 global=1', 'data=3 global=1']);
  expect(debugOf(records[1], 'json-bot')).toEqual(["data='' global=1", 'data=1 global=2', 'data=2 global=2', 'data=2 global=2', 'data=3 global=2']);
  const simple0 = debugOf(records[0], 'simple-bot');
  expect(simple0.slice(0, 4)).toEqual(["data='' global=''", "data='1' global='1'", "data='2' global='1'", "data='2' global='1'"]);
  const simple1 = debugOf(records[1], 'simple-bot');
  expect(simple1.slice(0, 4)).toEqual(["data='' global='1'", "data='1' global='2'", "data='2' global='2'", "data='2' global='2'"]);
  // The drops are said in the turn's output, as the report's replay prints it.
  const notes = records.flatMap((record) => record.turns.map((turn) => turn.output?.text ?? '')).join('');
  expect(notes).toMatch(/\[referee\] data is over Botzone's 100 KB cap: dropped/);
  expect(notes).toMatch(/\[referee\] globaldata is over Botzone's 100 KB cap: dropped/);
}, 300_000);

test('a Botzone bot named for a game Botzone has no judge for is refused before any game (exit 2, the games it can play)', async () => {
  const run = await runToEnd(process.execPath, [CLI, 'play', '--black', join(work, 'json-bot'), '--white', 'random', '--game', 'connect4', '--games', '1']);
  expect(run.code).toBe(2);
  expect(run.stderr.trim()).toBe('referee: json-bot is a Botzone bot, and Botzone has no judge for Connect Four, 6 rows x 7 columns: play it at reversi, gomoku, nogo, amazons');
});
