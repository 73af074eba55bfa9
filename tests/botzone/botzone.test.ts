/**
 * Botzone bots, unchanged, through the CLI as a subprocess with the real g++, python3 and node (#34): check in
 * Botzone's terms, play under the Botzone preset (records carry debug, per-language limits and the first turn's
 * doubling, and replay), grade with "platform": "botzone", a tournament that mixes a Botzone bot with the course's
 * Python, TypeScript and C++ AIPlayers, and hostile bots (endless loop, output flood, memory, fork/socket/file)
 * ruled as the judge would. Compiled bots land in the shared cache, so a rerun compiles nothing.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { beforeAll, describe, expect, test } from '@jest/globals';
import { Cli } from '../queue/helpers.js';
import { scratch } from '../sandbox/support.js';

const BOTS = resolve('tests/fixtures/botzone');
const FIXTURES = resolve('tests/fixtures');
let work: string;

async function referee(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const cli = new Cli(args, { FORCE_COLOR: '0' });
  const { code } = await cli.exited;
  return { code, stdout: cli.stdout, stderr: cli.stderr };
}

interface Turn {
  side: 0 | 1;
  kind: string;
  move?: string;
  debug?: string;
  limitMs?: number;
  wallMs?: number;
}
interface GameRecord {
  players: [string, string];
  turns: Turn[];
  config: { moveTimeoutMs: number; firstMoveFactor?: number; illegalMoveLimit: number };
  end: { reason: string; winner: 0 | 1 | null; loser?: { side: 0 | 1; verdict: string; message: string; rule?: string; output?: { text: string } } };
}

function records(dir: string): GameRecord[] {
  return readdirSync(dir)
    .filter((name) => name.endsWith('.json'))
    .sort()
    .map((name) => JSON.parse(readFileSync(join(dir, name), 'utf8')) as GameRecord);
}

beforeAll(() => {
  work = scratch('botzone');
});

describe('check', () => {
  test('a kept-running simple-interaction C++ bot (GBK source, 64 MB static table) passes in Botzone terms; a Python bot on a game it cannot play fails with its traceback', async () => {
    const kept = await referee(['check', join(BOTS, 'reversi-simple-keep'), '--json']);
    expect(kept.code).toBe(0);
    const result = JSON.parse(kept.stdout) as { ok: boolean; limits: { moveTimeoutMs: number; source: string }; steps: { id: string; status: string; detail?: string; title: string }[] };
    expect(result.ok).toBe(true);
    expect(result.limits.source).toMatch(/Botzone's judge/);
    const protocol = result.steps.find((step) => step.id === 'export')!;
    expect(protocol.title).toBe("speaks Botzone's protocol");
    expect(protocol.detail).toMatch(/simple interaction, kept running/);
    expect(result.steps.find((step) => step.id === 'later')!.status).toBe('pass');

    const wrongGame = await referee(['check', join(BOTS, 'reversi-python'), '--game', 'gomoku']);
    expect(wrongGame.code).toBe(1);
    expect(wrongGame.stdout).toMatch(/✗ answers its first turn within the limit: as (Black|White), turn 1: crash/);
    expect(wrongGame.stdout).toMatch(/IndexError: list index out of range/);
    expect(wrongGame.stdout).toMatch(/fix: a runtime error loses on Botzone/);
  });

  test('a NoGo bot reading stdin to EOF with nlohmann (-std=c++20, two files, a 900 ms search thread) passes; so does a Python Amazons bot', async () => {
    const nogo = await referee(['check', join(BOTS, 'nogo-nlohmann'), '--game', 'nogo']);
    expect(nogo.code).toBe(0);
    expect(nogo.stdout).toMatch(/✓ speaks Botzone's protocol: JSON interaction, restarted every turn/);
    expect(nogo.stdout).toMatch(/✓ answers its first turn within the limit: Black: [A-J]\d in \d+ ms \(debug: evaluated \d+\)/);
    // Amazons (Botzone's 8x8, six numbers a move): 1232 first moves, as perft(1) says.
    const amazons = await referee(['check', join(BOTS, 'amazons-python'), '--game', 'amazons']);
    expect(amazons.code).toBe(0);
    expect(amazons.stdout).toMatch(/Black: [A-H][1-8]-[A-H][1-8]\/[A-H][1-8] in \d+ ms \(debug: 1232 candidates\)/);
  });
});

describe('play', () => {
  test('C++ (jsoncpp) vs Python under --platform botzone: debug and per-language limits in the records, first turn doubled, records replay', async () => {
    const out = join(work, 'cpp-vs-python');
    const played = await referee(['play', '--black', join(BOTS, 'reversi-jsoncpp'), '--white', join(BOTS, 'reversi-python'), '--games', '2', '--platform', 'botzone', '--save', out]);
    expect(played.code).toBe(0);
    const games = records(out);
    expect(games).toHaveLength(2);
    for (const record of games) {
      expect(record.end.reason).toBe('score');
      expect(record.config).toMatchObject({ moveTimeoutMs: 1000, firstMoveFactor: 2, illegalMoveLimit: 1 });
      const python = record.players.indexOf('reversi-python') as 0 | 1;
      const cpp = (1 - python) as 0 | 1;
      const pythonTurns = record.turns.filter((turn) => turn.side === python && turn.kind === 'move');
      const cppTurns = record.turns.filter((turn) => turn.side === cpp && turn.kind === 'move');
      // Python's 6x, doubled on its first turn; C++'s first turn doubled, then the plain 1 s.
      expect(pythonTurns[0].limitMs).toBe(12_000);
      expect(pythonTurns[1].limitMs).toBe(6000);
      expect(cppTurns[0].limitMs).toBe(2000);
      expect(cppTurns[1].limitMs).toBeUndefined();
      expect(pythonTurns[1].debug).toMatch(/^turn \d+, \d+ moves$/);
      expect(cppTurns[0].debug).toMatch(/^sims=\d+ moves=\d+$/);
    }
    for (const name of readdirSync(out)) {
      const replayed = await referee(['replay', join(out, name)]);
      expect(replayed.code).toBe(0);
    }
  });

  test('hostile bots: an endless loop is ruled a timeout at its limit, a flood is stopped, 600 MB is a memory loss, fork/socket/file fail inside and the bot plays on', async () => {
    const out = join(work, 'hostile');
    const cases: { bot: string; verdict: string; message: RegExp }[] = [
      { bot: 'loop.cpp', verdict: 'timeout', message: /no answer within 1000 ms/ },
      { bot: 'flood.cpp', verdict: 'protocol', message: /printed over 1024 KB in one turn/ },
      { bot: 'memory.cpp', verdict: 'memory', message: /256 MB/ },
    ];
    for (const { bot, verdict, message } of cases) {
      const dir = join(out, bot);
      const played = await referee(['play', '--black', join(BOTS, 'hostile', bot), '--white', 'random', '--games', '1', '--platform', 'botzone', '--save', dir]);
      expect(played.code).toBe(0);
      const [record] = records(dir);
      expect(record.end.loser).toMatchObject({ side: 0, verdict });
      expect(record.end.loser!.message).toMatch(message);
    }
    const dir = join(out, 'fork');
    const played = await referee(['play', '--black', join(BOTS, 'hostile', 'fork.cpp'), '--white', 'random', '--games', '1', '--platform', 'botzone', '--save', dir]);
    expect(played.code).toBe(0);
    const [record] = records(dir);
    expect(record.turns[0]).toMatchObject({ side: 0, move: 'D3', debug: 'fork blocked, socket blocked, /etc/shadow blocked' });
    // It answers D3 again on its second turn: an invalid action, which loses at once on Botzone.
    expect(record.end.loser).toMatchObject({ side: 0, verdict: 'illegal' });
    expect(record.end.loser!.rule).toMatch(/the 1st illegal answer in one turn loses/);
  });
});

describe('grade and tournament', () => {
  test('grade with "platform": "botzone" scores a Botzone bot; a tournament mixes it with the course contracts (Python, TypeScript, C++ AIPlayers)', async () => {
    const config = join(work, 'botzone.json');
    writeFileSync(config, JSON.stringify({ title: 'Reversi on Botzone', game: 'reversi', platform: 'botzone', opponents: [{ name: 'random', games: 2, points: 100 }] }));
    const out = join(work, 'grade');
    const graded = await referee(['grade', join(BOTS, 'reversi-js'), '--config', config, '--out', out]);
    expect(graded.code).toBe(0);
    const grade = JSON.parse(readFileSync(join(out, 'grade.json'), 'utf8')) as { status: string; isolation: { hardened: boolean }; assignment: { config: { referee: { timeMultipliers: Record<string, number> } } } };
    expect(grade.status).toBe('graded');
    expect(grade.isolation.hardened).toBe(true);
    expect(grade.assignment.config.referee.timeMultipliers).toMatchObject({ 'C++': 1, JavaScript: 2, Python: 6 });

    const tournament = join(work, 'tournament');
    mkdirSync(tournament);
    const ran = await referee([
      'tournament', join(BOTS, 'reversi-jsoncpp'), join(FIXTURES, 'python', 'greedy'), join(FIXTURES, 'students', 'fair'), join(FIXTURES, 'cpp', 'aiplayer-reversi'),
      '--config', config, '--games-per-pair', '2', '--out', tournament, '--jobs', '2',
    ]);
    expect(ran.code).toBe(0);
    const ranking = readFileSync(join(tournament, 'ranking.csv'), 'utf8');
    for (const name of ['reversi-jsoncpp', 'greedy', 'fair', 'aiplayer-reversi']) expect(ranking).toContain(name);
    const summary = JSON.parse(readFileSync(join(tournament, 'tournament.json'), 'utf8')) as { games?: unknown };
    expect(JSON.stringify(summary)).not.toMatch(/"verdict":"(protocol|crash)"/);
    // A grade and a 12-game tournament in one case: 28 s idle, over the default minute at load 20-50.
  }, 240_000);
});
