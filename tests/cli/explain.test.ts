/**
 * `referee play --explain` and the game.py parity flags, through the built CLI as a subprocess: which rule decided
 * each game, 'Q' under --quit-ends-game, a game's own rule switch, and one-line usage errors for bad switches.
 */
import { describe, expect, test } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const CLI = resolve('dist/cli/index.js');

function referee(...args: string[]): { code: number | null; stdout: string; stderr: string } {
  const run = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', timeout: 120_000 });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

describe('referee play --explain', () => {
  test('names the rule that decided a loss (illegal answers before a changed board, as game.py)', () => {
    const run = referee('play', '--black', 'tests/fixtures/parity/illegal-and-changed.ts', '--white', 'random', '--games', '1', '--explain');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(
      /^game 1: random \(White\) wins: illegal-and-changed\.ts \(Black\) lost by illegal at ply 1 — rule: illegalMoveLimit: the 3rd illegal answer in one turn loses; checked before the board/m,
    );
  });

  test("a game decided on the board, and 'Q' under --quit-ends-game; replay says the same", () => {
    const dir = mkdtempSync(join(tmpdir(), 'referee-explain-'));
    const run = referee('play', '--black', 'tests/fixtures/python/parity/quits.py', '--white', 'random', '--games', '2', '--explain', '--quit-ends-game', '--save', dir);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^game 1: .*quits\.py \(Black\) answered 'Q' and quitEndsGame is on, so the count decided \(\d+-\d+\)$/m);
    expect(run.stdout).toMatch(/Ended by score: 0; by 'Q' \(quitEndsGame\): 2/);
    const record = JSON.parse(readFileSync(join(dir, 'game-1.json'), 'utf8'));
    expect(record.config).toMatchObject({ quitEndsGame: true, turnTimeoutMs: 60000 });
    const replay = referee('replay', join(dir, 'game-1.json'));
    expect(replay.code).toBe(0);
    expect(replay.stdout).toMatch(/decided by: .*answered 'Q'/);
    rmSync(dir, { recursive: true, force: true });
  });

  test('NoGo: --game-rule centerFirstMoveBanned=false lifts the centre rule; an unknown switch is a usage error', () => {
    const banned = referee('perft', '1', '--game', 'nogo');
    expect(banned.stdout).toMatch(/perft\(1\) = 80/);
    const run = referee('play', '--black', 'random', '--white', 'random', '--game', 'nogo', '--games', '1', '--explain', '--game-rule', 'centerFirstMoveBanned=false');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^game 1: random \((Black|White)\) wins on the board \(\d-\d\): the game ended by its own rules$/m);
    const bad = referee('play', '--black', 'random', '--white', 'random', '--game', 'nogo', '--game-rule', 'centreBan=true');
    expect(bad.code).toBe(2);
    expect(bad.stderr.trim()).toBe('referee: referee config: gameRules.centreBan is not a rule of nogo; its rules are centerFirstMoveBanned');
  });
});
