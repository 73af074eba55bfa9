/**
 * `referee play --explain` and the game.py parity flags, through the built CLI as a subprocess: which rule decided
 * each game, 'Q' under --quit-ends-game, a game's own rule switch, and one-line usage errors for bad switches.
 */
import { describe, expect, test } from '@jest/globals';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { runToEnd } from '../setup/children.js';

const CLI = resolve('dist/cli/index.js');

/** The CLI run to its end, however long a loaded machine takes (runToEnd: a failed test stops it). */
async function referee(...args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const run = await runToEnd(process.execPath, [CLI, ...args]);
  return { code: run.code, stdout: run.stdout, stderr: run.stderr };
}

describe('referee play --explain', () => {
  test('names the rule that decided a loss (illegal answers before a changed board, as game.py)', async () => {
    const run = await referee('play', '--black', 'tests/fixtures/parity/illegal-and-changed.ts', '--white', 'random', '--games', '1', '--explain');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(
      /^game 1: random \(White\) wins: illegal-and-changed\.ts \(Black\) lost by illegal at ply 1 — rule: illegalMoveLimit: the 3rd illegal answer in one turn loses; checked before the board/m,
    );
  });

  test("a game decided on the board, and 'Q' under --quit-ends-game; replay says the same", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'referee-explain-'));
    const run = await referee('play', '--black', 'tests/fixtures/python/parity/quits.py', '--white', 'random', '--games', '2', '--explain', '--quit-ends-game', '--save', dir);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^game 1: .*quits\.py \(Black\) answered 'Q' and quitEndsGame is on, so the count decided \(\d+-\d+\)$/m);
    expect(run.stdout).toMatch(/Ended by score: 0; by 'Q' \(quitEndsGame\): 2/);
    const record = JSON.parse(readFileSync(join(dir, 'game-1.json'), 'utf8'));
    expect(record.config).toMatchObject({ quitEndsGame: true, turnTimeoutMs: 60000 });
    const replay = await referee('replay', join(dir, 'game-1.json'));
    expect(replay.code).toBe(0);
    expect(replay.stdout).toMatch(/decided by: .*answered 'Q'/);
    rmSync(dir, { recursive: true, force: true });
  });

  test('NoGo: --game-rule centerFirstMoveBanned=false lifts the centre rule; an unknown switch is a usage error', async () => {
    const banned = await referee('perft', '1', '--game', 'nogo');
    expect(banned.stdout).toMatch(/perft\(1\) = 80/);
    const run = await referee('play', '--black', 'random', '--white', 'random', '--game', 'nogo', '--games', '1', '--explain', '--game-rule', 'centerFirstMoveBanned=false');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^game 1: random \((Black|White)\) wins on the board \(\d-\d\): the game ended by its own rules$/m);
    const bad = await referee('play', '--black', 'random', '--white', 'random', '--game', 'nogo', '--game-rule', 'centreBan=true');
    expect(bad.code).toBe(2);
    expect(bad.stderr.trim()).toBe('referee: referee config: gameRules.centreBan is not a rule of nogo; its rules are centerFirstMoveBanned');
  });
});
