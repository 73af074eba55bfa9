import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, jest, test } from '@jest/globals';
import { Command } from 'commander';
import { UsageError } from '../../cli/args.js';
import { progressWriter, register } from '../../cli/grade.js';
import { readGradeResult } from '../../grading/grade-result.js';
import { SMALL_ASSIGNMENT_JSON } from './helpers.js';

const HOSTILE_DIR = join(process.cwd(), 'tests', 'fixtures', 'hostile');

async function run(args: string[]): Promise<string> {
  const program = new Command().exitOverride().configureOutput({ writeErr: () => undefined });
  register(program);
  const lines: string[] = [];
  const log = jest.spyOn(console, 'log').mockImplementation((line: string) => void lines.push(line));
  const error = jest.spyOn(console, 'error').mockImplementation(() => undefined);
  try {
    await program.parseAsync(['node', 'referee', 'grade', ...args]);
  } finally {
    log.mockRestore();
    error.mockRestore();
  }
  return lines.join('\n');
}

function setup(config: unknown = SMALL_ASSIGNMENT_JSON): { dir: string; config: string } {
  const dir = mkdtempSync(join(tmpdir(), 'referee-cli-'));
  writeFileSync(join(dir, 'a.json'), JSON.stringify(config));
  return { dir, config: join(dir, 'a.json') };
}

describe('referee grade', () => {
  afterEach(() => {
    process.exitCode = undefined;
  });

  test('grades, writes grade.json and report.html, prints one line per item, exits 0', async () => {
    const { dir, config } = setup();
    const out = join(dir, 'out');
    const printed = await run(['greedy', '--config', config, '--out', out]);
    const result = readGradeResult(join(out, 'grade.json'));
    expect(existsSync(join(out, 'report.html'))).toBe(true);
    expect(printed).toContain(`Score: ${result.score} / ${result.maxScore}`);
    expect(printed).toContain('vs random');
    expect(printed).toContain('vs greedy');
    expect(process.exitCode ?? 0).toBe(0);
    expect(result.command).toBe(`referee grade greedy --config ${config}`);
    // For `referee serve --watch`: no game in play any more, and the run says it finished.
    expect(JSON.parse(readFileSync(join(out, 'live.json'), 'utf8'))).toMatchObject({ format: 'referee.live/1', state: 'done', games: [] });
  });

  test('--min-score above the score exits 1; --json prints the summary', async () => {
    const { dir, config } = setup();
    const printed = await run(['random', '--config', config, '--out', join(dir, 'out'), '--min-score', '1000', '--json']);
    const summary = JSON.parse(printed) as { score: number; maxScore: number; items: unknown[] };
    expect(summary.items).toHaveLength(2);
    expect(process.exitCode).toBe(1);
  });

  test('a failed interface check exits 1 and prints the failure in full: the stack in the student file, the output, the fix', async () => {
    const { dir, config } = setup();
    const printed = await run([join(HOSTILE_DIR, 'throws.js'), '--config', config, '--out', join(dir, 'out')]);
    expect(process.exitCode).toBe(1);
    expect(printed).toMatch(/getMove answers the opening legally/);
    expect(printed).toMatch(/│ {5}at AIPlayer\.getMove \(throws\.js:4:11\)/);
    expect(printed).toMatch(/fix: fix the error above/);
    const json = JSON.parse(await run([join(HOSTILE_DIR, 'throws.js'), '--config', config, '--out', join(dir, 'out2'), '--json'])) as {
      interfaceCheck: { passed: boolean; items: { id: string; status: string; stack?: string }[] };
    };
    expect(json.interfaceCheck.passed).toBe(false);
    expect(json.interfaceCheck.items.find((item) => item.id === 'moves')?.stack).toMatch(/throws\.js:4:11/);
    const graded = readGradeResult(join(dir, 'out2', 'grade.json'));
    expect(graded.interfaceCheck.items.find((item) => item.id === 'moves')?.stack).toMatch(/throws\.js:4:11/);
  });

  test('a loss by an error in a game: the first forced loss with its stack, output and a deep link; --json carries it', async () => {
    const { dir, config } = setup();
    const printed = await run([join(HOSTILE_DIR, 'throws-late.ts'), '--config', config, '--out', join(dir, 'out')]);
    expect(process.exitCode ?? 0).toBe(0);
    expect(printed).toMatch(/warning: later positions/);
    expect(printed).toMatch(/First game lost by a rule vs random, game 1 at ply \d+: it threw an error: Error: gave up at \d+ discs/);
    expect(printed).toMatch(/│ {5}at explode \(throws-late\.ts:16:9\)/);
    expect(printed).toMatch(/> discs on the board: \d+/);
    expect(printed).toMatch(/replay it: .*report\.html#game=1&ply=\d+/);
    const json = JSON.parse(await run([join(HOSTILE_DIR, 'throws-late.ts'), '--config', config, '--out', join(dir, 'out2'), '--json'])) as {
      forcedLosses: { stack?: string; output: string[]; ply: number }[];
    };
    expect(json.forcedLosses[0].stack).toMatch(/throws-late\.ts:16:9/);
    expect(json.forcedLosses[0].output.at(-1)).toMatch(/^discs on the board: \d+$/);
  });

  test('a malformed config is a usage error naming the pointer', async () => {
    const { dir, config } = setup({ opponents: [{ name: 'random', games: 3, points: 1 }] });
    await expect(run(['random', '--config', config, '--out', join(dir, 'out')])).rejects.toThrow(UsageError);
    await expect(run(['random', '--config', config, '--out', join(dir, 'out')])).rejects.toThrow('/opponents/0/games: must be an even number ≥ 2');
  });

  test('an unknown player is a usage error; --only plays one game', async () => {
    const { dir, config } = setup();
    await expect(run(['nobody', '--config', config])).rejects.toThrow(/neither a submission .* nor a reference AI/);
    await run(['random', '--config', config, '--out', join(dir, 'one'), '--only', '1:1']);
    const result = readGradeResult(join(dir, 'one', 'grade.json'));
    expect(result.games.map((entry) => [entry.item, entry.index])).toEqual([[1, 1]]);
    expect(result.items[1].status).toBe('partial');
    expect(readFileSync(join(dir, 'one', 'report.html'), 'utf8')).toContain('not a complete grade');
  });
});

describe('progress without a terminal', () => {
  const CLI = join(process.cwd(), 'dist', 'cli', 'index.js');
  test('a piped grade writes throttled progress lines to stderr, always the last one; --quiet writes none', () => {
    const { dir, config } = setup();
    const piped = spawnSync(process.execPath, [CLI, 'grade', 'greedy', '--config', config, '--out', join(dir, 'out')], { encoding: 'utf8' });
    expect(piped.status).toBe(0);
    const lines = piped.stderr.trim().split('\n').filter((line) => /^\[\d+\/\d+\]/.test(line));
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.at(-1)).toMatch(/^\[4\/4\] vs greedy, game 2 as (Black|White): (win|draw|loss)$/);
    const quiet = spawnSync(process.execPath, [CLI, 'grade', 'greedy', '--config', config, '--out', join(dir, 'out2'), '--quiet'], { encoding: 'utf8' });
    expect(quiet.status).toBe(0);
    expect(quiet.stderr).toBe('');
  });

  test('the throttle: on a terminal every line, without one at most one per interval plus the last', () => {
    const written: string[] = [];
    const piped = progressWriter((line) => written.push(line), false, 60_000);
    for (let i = 1; i <= 5; i++) piped(`[${i}/5]`, i === 5);
    expect(written).toEqual(['[1/5]\n', '[5/5]\n']);
    const lines: string[] = [];
    const tty = progressWriter((line) => lines.push(line), true, 60_000);
    for (let i = 1; i <= 3; i++) tty(`[${i}/3]`, i === 3);
    expect(lines).toHaveLength(3);
  });
});
