/**
 * Botzone bots, unchanged, through the CLI as a subprocess with the real g++, python3 and node (#34): check in
 * Botzone's terms, play under the Botzone preset (records carry debug, per-language limits and the first turn's
 * doubling, and replay), grade with "platform": "botzone", a tournament that mixes a Botzone bot with the course's
 * Python, TypeScript and C++ AIPlayers, and hostile bots (endless loop, output flood, memory, fork/socket/file)
 * ruled as the judge would. Compiled bots land in the shared cache, so a rerun compiles nothing.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import type { GameRecord } from '../../harness/referee/record.js';
import { Cli, freePort, RedisServer, startWorker } from '../queue/helpers.js';
import { scratch } from '../sandbox/support.js';

const BOTS = resolve('tests/fixtures/botzone');
const FIXTURES = resolve('tests/fixtures');
let work: string;

async function referee(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const cli = new Cli(args, { FORCE_COLOR: '0' });
  const { code } = await cli.exited;
  return { code, stdout: cli.stdout, stderr: cli.stderr };
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
    if (!kept.stdout.trimStart().startsWith('{')) expect({ code: kept.code, stderr: kept.stderr }).toEqual({ code: 0, stderr: '' });
    const result = JSON.parse(kept.stdout) as { ok: boolean; limits: { moveTimeoutMs: number; memoryMb: number; source: string }; steps: { id: string; status: string; detail?: string; title: string; output?: string[] }[] };
    // A failed check shows which step failed and what the bot printed, not only its exit code.
    expect(result.steps.filter((step) => step.status === 'fail')).toEqual([]);
    expect(kept.code).toBe(0);
    expect(result.ok).toBe(true);
    expect(result.limits.source).toMatch(/Botzone's judge/);
    // Botzone's 256 MB, not the course game's 512 MB (no --memory-mb, no --config).
    expect(result.limits.memoryMb).toBe(256);
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

describe('Amazons', () => {
  test('a C++ jsoncpp Amazons bot (history replay, territory search on a clock() budget) checks with --protocol botzone, beats a reference AI, grades', async () => {
    const bot = join(BOTS, 'amazons-jsoncpp');
    const checked = await referee(['check', bot, '--protocol', 'botzone', '--game', 'amazons']);
    expect(checked.code).toBe(0);
    expect(checked.stdout).toMatch(/✓ speaks Botzone's protocol: JSON interaction, restarted every turn; tests _BOTZONE_ONLINE/);
    // Botzone's six numbers decoded into the game's notation; 1232 first moves, as perft(1) says.
    expect(checked.stdout).toMatch(/Black: [A-H][1-8]-[A-H][1-8]\/[A-H][1-8] in \d+ ms \(debug: moves=1232 deep=\d+\)/);
    expect(checked.stdout).toMatch(/✓ plays a whole game/);

    const out = join(work, 'amazons-play');
    const played = await referee(['play', '--game', 'amazons', '--black', bot, '--white', 'random', '--games', '2', '--platform', 'botzone', '--save', out]);
    expect(played.code).toBe(0);
    for (const record of records(out)) {
      const side = record.players.indexOf('amazons-jsoncpp') as 0 | 1;
      // Territory by queen distance against uniform random moves: the bot walls it in every time.
      expect(record.end).toMatchObject({ reason: 'score', winner: side });
      const turns = record.turns.filter((turn) => turn.side === side && turn.kind === 'move');
      expect(turns[0].limitMs).toBe(2000);
      expect(turns[0].move).toMatch(/^[A-H][1-8]-[A-H][1-8]\/[A-H][1-8]$/);
      expect(turns.at(-1)!.debug).toMatch(/^moves=\d+ deep=\d+$/);
    }

    const config = join(work, 'amazons.json');
    writeFileSync(config, JSON.stringify({ title: 'Amazons on Botzone', game: 'amazons', platform: 'botzone', opponents: [{ name: 'heuristic', games: 2, points: 100 }] }));
    const gradeOut = join(work, 'amazons-grade');
    const graded = await referee(['grade', bot, '--config', config, '--out', gradeOut]);
    expect(graded.code).toBe(0);
    const grade = JSON.parse(readFileSync(join(gradeOut, 'grade.json'), 'utf8')) as { status: string; games: unknown[]; interfaceCheck: { passed: boolean } };
    expect(grade).toMatchObject({ status: 'graded', interfaceCheck: { passed: true } });
    expect(grade.games).toHaveLength(2);
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
    // The memory and flood cases get 10 s a turn: at load 30 a bot given a few % of a CPU may not touch 256 MB within
    // Botzone's 2 s first turn, and at load 60 the grader may not read 1 MB of a flood through the spawner in 2 s (the
    // bot blocks on the full pipe); its loss would then be (rightly) a timeout; the cases are about their verdicts.
    const cases: { bot: string; verdict: string; message: RegExp; flags?: string[] }[] = [
      { bot: 'loop.cpp', verdict: 'timeout', message: /no answer within 1000 ms/ },
      { bot: 'flood.cpp', verdict: 'protocol', message: /printed over 1024 KB in one turn/, flags: ['--move-timeout', '10000'] },
      { bot: 'memory.cpp', verdict: 'memory', message: /256 MB/, flags: ['--move-timeout', '10000'] },
    ];
    for (const { bot, verdict, message, flags = [] } of cases) {
      const dir = join(out, bot);
      const played = await referee(['play', '--black', join(BOTS, 'hostile', bot), '--white', 'random', '--games', '1', '--platform', 'botzone', ...flags, '--save', dir]);
      expect(played.code).toBe(0);
      const [record] = records(dir);
      // One assertion, so a failure shows the verdict with its message and wall time.
      const loser = record.end.loser as { side: number; verdict: string; message: string; wallMs?: number };
      expect({ side: loser.side, verdict: loser.verdict, message: loser.message, wallMs: loser.wallMs }).toEqual({ side: 0, verdict, message: expect.stringMatching(message), wallMs: loser.wallMs });
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
  });
});

describe('--protocol botzone on grade, batch (through the Redis queue) and tournament', () => {
  // A simple-interaction Python bot with none of Botzone's signs in its source: only --protocol botzone makes it one.
  let redis: RedisServer;
  beforeAll(async () => {
    redis = new RedisServer(await freePort());
    await redis.start();
  });
  afterAll(async () => {
    await redis?.stop();
  });

  test('without the flag the sign-less bot is taken for an AIPlayer and fails; with it, it grades, is graded by a queue worker in a batch, and plays a tournament', async () => {
    const config = join(work, 'protocol.json');
    writeFileSync(config, JSON.stringify({ title: 'Reversi on Botzone', game: 'reversi', platform: 'botzone', opponents: [{ name: 'random', games: 2, points: 100 }] }));
    const plain = join(BOTS, 'reversi-simple-python');

    const unnamed = await referee(['grade', plain, '--config', config, '--out', join(work, 'protocol-unnamed')]);
    const refused = JSON.parse(readFileSync(join(work, 'protocol-unnamed', 'grade.json'), 'utf8')) as { interfaceCheck: { passed: boolean; items: { id: string; fix?: string }[] } };
    expect(refused.interfaceCheck.passed).toBe(false);
    // The failure says how to run it as what it is.
    expect(refused.interfaceCheck.items.find((item) => item.id === 'export')!.fix).toMatch(/whole program with no class AIPlayer: if it is a Botzone bot, grade it with --protocol botzone/);
    expect(unnamed.code).not.toBe(0);
    const named = await referee(['grade', plain, '--config', config, '--out', join(work, 'protocol-named'), '--protocol', 'botzone']);
    expect(named.code).toBe(0);

    const roster = join(work, 'protocol-class');
    mkdirSync(roster);
    for (const [student, bot] of [['alice', 'reversi-simple-python'], ['bob', 'reversi-python']]) {
      mkdirSync(join(roster, student));
      writeFileSync(join(roster, student, 'main.py'), readFileSync(join(BOTS, bot, 'main.py')));
    }
    const out = join(work, 'protocol-batch');
    const worker = startWorker(redis.url, 'bz');
    try {
      const batch = await referee(['batch', roster, '--config', config, '--out', out, '--quiet', '--protocol', 'botzone', '--queue', redis.url]);
      expect(batch.code).toBe(0);
    } finally {
      await worker.stop();
    }
    expect(worker.stdout + worker.stderr).toMatch(/\[bz\] played alice vs random/);
    const csv = readFileSync(join(out, 'grades.csv'), 'utf8');
    expect(csv).toMatch(/^alice,.*,110,110,10,100,graded,/m);
    expect(csv).toMatch(/^bob,.*,graded,/m);
    const alice = JSON.parse(readFileSync(join(out, 'students', 'alice', 'grade.json'), 'utf8')) as { interfaceCheck: { items: { id: string; detail?: string }[] } };
    expect(alice.interfaceCheck.items.find((item) => item.id === 'export')!.detail).toBe('simple interaction, restarted every turn; named with --protocol botzone');

    const tournament = join(work, 'protocol-tournament');
    mkdirSync(tournament);
    const ran = await referee(['tournament', join(roster, 'alice'), join(roster, 'bob'), '--protocol', 'botzone', '--config', config, '--games-per-pair', '2', '--out', tournament]);
    expect(ran.code).toBe(0);
    const summary = readFileSync(join(tournament, 'tournament.json'), 'utf8');
    expect(summary).not.toMatch(/"verdict":"(protocol|crash)"/);
    expect(readFileSync(join(tournament, 'ranking.csv'), 'utf8')).toMatch(/,alice,.*\n?/);
  });
});
