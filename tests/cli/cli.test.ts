/**
 * The built `referee` command end to end (npm test builds dist/ first): output, exit codes, one-line errors.
 */
import { describe, expect, test, beforeAll } from '@jest/globals';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { runToEnd } from '../setup/children.js';

const CLI = resolve('dist/cli/index.js');

/** The CLI run to its end, however long a loaded machine takes (runToEnd: a failed test stops it). */
async function referee(...args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const run = await runToEnd(process.execPath, [CLI, ...args]);
  return { code: run.code, stdout: run.stdout, stderr: run.stderr };
}

beforeAll(() => {
  if (!existsSync(CLI)) throw new Error('dist/cli/index.js is missing: run `npm run build` (npm test does it first)');
});

describe('referee play', () => {
  test('plays a seeded series with alternating colours and prints the summary', async () => {
    const run = await referee('play', '--black', 'greedy', '--white', 'random', '--games', '4', '--seed', '5');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/game 1\/4: greedy \(X\) vs random \(O\)/);
    expect(run.stdout).toMatch(/game 2\/4: random \(X\) vs greedy \(O\)/);
    expect(run.stdout).toMatch(/Score of greedy vs random: \d+ - \d+ - \d+/);
  });

  test('--json is machine-readable and the same seed gives the same games', async () => {
    const moves = (out: string) => (JSON.parse(out) as { records: { turns: { move?: string }[] }[] })
      .records.map((r) => r.turns.map((t) => t.move ?? '-').join(' '));
    const a = await referee('play', '--black', 'weighted', '--white', 'random', '--games', '2', '--seed', '9', '--json');
    const b = await referee('play', '--black', 'weighted', '--white', 'random', '--games', '2', '--seed', '9', '--json');
    expect(a.code).toBe(0);
    expect(moves(a.stdout)).toEqual(moves(b.stdout));
    expect(JSON.parse(a.stdout).format).toBe('referee.series/1');
  });

  test.each([
    ['a TypeScript submission', 'tests/fixtures/submissions/any-game/AIPlayer.ts'],
    ['a Python submission', 'tests/fixtures/python/any-game/AIPlayer.py'],
  ])('plays %s in either colour against a reference AI, sandboxed', async (_what, path) => {
    const run = await referee('play', '--black', path, '--white', 'random', '--games', '2', '--move-timeout', '5000', '--json');
    expect(run.code).toBe(0);
    const result = JSON.parse(run.stdout) as { names: string[]; records: { players: string[]; end: { reason: string } }[] };
    expect(result.records.map((r) => r.players)).toEqual([[result.names[0], 'random'], ['random', result.names[0]]]);
    expect(result.records.every((r) => r.end.reason === 'score')).toBe(true);
  });

  test('--show prints the board after each move', async () => {
    const run = await referee('play', '--black', 'greedy', '--white', 'greedy', '--games', '1', '--show');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('ply 1: Black (X) plays');
    expect(run.stdout).toContain('  A B C D E F G H');
  });

  test.each([
    [['play', '--black', 'nobody', '--white', 'random'], /unknown player 'nobody'/],
    [['play', '--black', 'random', '--white', 'random', '--games', 'x'], /--games.*must be a whole number/],
    [['play', '--black', 'random'], /required option '--white/],
    [['play', '--black', 'random', '--white', 'random', '--game', 'chess'], /unknown game 'chess'/],
    [['perft', 'deep'], /must be a whole number/],
    [['replay', '/nonexistent/record.json'], /cannot read record .*no such file/],
    [['play', '--black', 'missing/AIPlayer.ts', '--white', 'random'], /missing\/AIPlayer\.ts/],
    [['grade', 'missing/AIPlayer.ts', '--out', '/tmp/referee-cli-missing'], /submission not found: .*missing\/AIPlayer\.ts/],
    [['grade', 'random', '--config', 'package-lock.json', '--game', 'nogo'], /--game picks a built-in assignment/],
  ])('bad arguments give a one-line error and exit 2: %j', async (args, message) => {
    const run = await referee(...args);
    expect(run.code).toBe(2);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toMatch(message);
  });
});

describe('referee replay', () => {
  test('accepts a saved record and rejects a corrupted one with its turn number', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'referee-cli-'));
    expect((await referee('play', '--black', 'greedy', '--white', 'random', '--games', '1', '--save', dir)).code).toBe(0);
    const file = join(dir, 'game-1.json');
    const ok = await referee('replay', file);
    expect(ok.code).toBe(0);
    expect(ok.stdout).toMatch(/valid: \d+ turns/);

    const record = JSON.parse(readFileSync(file, 'utf8'));
    record.turns[4].move = record.turns[4].move === 'A1' ? 'H8' : 'A1';
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, JSON.stringify(record));
    const run = await referee('replay', bad);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/corrupt record at turn 5/);
  });
});

describe('referee perft', () => {
  test('counts Reversi leaves and Connect Four leaves', async () => {
    expect((await referee('perft', '6')).stdout).toMatch(/^perft\(6\) = 8200 /);
    expect(JSON.parse((await referee('perft', '4', '--game', 'connect4', '--json')).stdout)).toMatchObject({ leaves: 2401 });
  });

  test("--game-rule counts under a game's rule switch (Amazons on 10x10); an unknown switch names the known ones", async () => {
    expect(JSON.parse((await referee('perft', '2', '--game', 'amazons', '--game-rule', 'board10=true', '--json')).stdout)).toMatchObject({ gameRules: { board10: true }, leaves: 4_307_152 });
    expect((await referee('perft', '1', '--game', 'amazons')).stdout).toMatch(/^perft\(1\) = 1232 /);
    const wrong = await referee('perft', '1', '--game', 'amazons', '--game-rule', 'board12=true');
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toMatch(/gameRules\.board12 is not a rule of amazons; its rules are board10/);
  });
});

describe('the smaller things a first-time user trips over', () => {
  test('a misspelt reference AI gets a "did you mean" (play and grade), exit 2', async () => {
    const play = await referee('play', '--black', 'random', '--white', 'grredy');
    expect(play.code).toBe(2);
    expect(play.stderr).toMatch(/unknown player 'grredy': did you mean 'greedy'\?/);
    const grade = await referee('grade', 'mobilty', '--out', mkdtempSync(join(tmpdir(), 'referee-dym-')));
    expect(grade.code).toBe(2);
    expect(grade.stderr).toMatch(/did you mean 'mobility'\?/);
  });

  test('help texts: play lists the reference AIs of every game; batch --jobs shows one default', async () => {
    const play = await referee('play', '--help');
    expect(play.stdout).not.toMatch(/see `referee play --help`/);
    expect(play.stdout.replace(/\s+/g, ' ')).toMatch(/reversi: random, greedy, weighted, mcts, mobility, alphabeta; connect4: random,/);
    const batch = (await referee('batch', '--help')).stdout.replace(/\s+/g, ' ');
    expect(batch).toMatch(/--jobs <n> games at once, one worker process each \(default: the number of cores, \d+ here\); with --queue, the games all workers play at once \(default 64\) --quiet/);
  });

  test('a config JSON syntax error names line and column; a UTF-8 BOM is accepted', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'referee-json-'));
    writeFileSync(join(dir, 'bad.json'), '{\n  "title": "x",\n  "opponents" [\n}');
    const bad = await referee('grade', 'random', '--config', join(dir, 'bad.json'), '--out', join(dir, 'out'));
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/is not valid JSON \(unexpected "\[" at line 3, column 15\)/);
    const config = { title: 'bom', interfaceCheck: { points: 10 }, opponents: [{ name: 'random', games: 2, points: 90, seed: 1, scoring: { rule: 'linear', minWinRate: 0, fullWinRate: 1 } }] };
    writeFileSync(join(dir, 'bom.json'), `\uFEFF${JSON.stringify(config)}`);
    const bom = await referee('grade', 'greedy', '--config', join(dir, 'bom.json'), '--out', join(dir, 'out'), '--quiet');
    expect(bom.stderr).toBe('');
    expect(bom.code).toBe(0);
    expect(bom.stdout).toMatch(/^bom: greedy/);
  });

  test('check: a missing path is a usage error (2); the limits are stated; a failed check is 1', async () => {
    const missing = await referee('check', 'nowhere/AIPlayer.ts');
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/submission not found: .*nowhere\/AIPlayer\.ts; pass a file like src\/AIPlayer\.ts, a folder or a \.zip/);
    const failed = await referee('check', 'tests/fixtures/hostile/throws.js', '--game', 'reversi');
    expect(failed.code).toBe(1);
    // Without --config, check judges the platform's contract (issue #20) and names the ladder's tighter limit.
    expect(failed.stdout).toMatch(/limits: 60000 ms a move, 60000 ms to construct, 60000 ms to load, 3 asks a turn, 512 MB resident \(the platform's limits; `referee grade` without --config plays the built-in ladder at 500 ms a move\)/);
    expect(failed.stdout).toMatch(/│ {5}at AIPlayer\.getMove \(throws\.js:4:11\)/);
  });
});
