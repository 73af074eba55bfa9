import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, jest, test } from '@jest/globals';
import { Command } from 'commander';
import { register as registerCheck } from '../../cli/check.js';
import { register as registerGrade } from '../../cli/grade.js';
import { register as registerInit, scaffold } from '../../cli/init.js';
import { readGradeResult } from '../../grading/grade-result.js';
import { harnessVersion, packageFile, packageRoot } from '../../grading/package-root.js';
import { defaultCheckLimits } from '../../grading/check-limits.js';
import { gameIds, getGame } from '../../harness/games/registry.js';
import { checkSubmission } from '../../harness/submission/check.js';
import { SMALL_ASSIGNMENT_JSON } from '../grading/helpers.js';

function program(): Command {
  const command = new Command().exitOverride().configureOutput({ writeErr: () => undefined });
  registerGrade(command);
  registerCheck(command);
  registerInit(command);
  return command;
}

async function referee(args: string[], cwd: string): Promise<void> {
  const previous = process.cwd();
  const log = jest.spyOn(console, 'log').mockImplementation(() => undefined);
  process.chdir(cwd);
  try {
    await program().parseAsync(['node', 'referee', ...args]);
  } finally {
    process.chdir(previous);
    log.mockRestore();
  }
}

describe('student template', () => {
  afterEach(() => {
    process.exitCode = undefined;
  });

  test('referee init copies the template and wires the dependency', async () => {
    const parent = mkdtempSync(join(tmpdir(), 'referee-init-'));
    await referee(['init', 'My AI', '--referee', `^${harnessVersion()}`, '--no-lockfile'], parent);
    const dir = join(parent, 'My AI');
    for (const file of ['src/AIPlayer.ts', 'README.md', 'tsconfig.json', '.gitignore', '.github/workflows/grade.yml', '.github/workflows/classroom.yml', '.github/workflows/laptops.yml']) {
      expect(existsSync(join(dir, file))).toBe(true);
    }
    // The TypeScript starter carries none of the other languages' folders.
    for (const stray of ['cpp', 'python', 'generic']) expect(existsSync(join(dir, stray))).toBe(false);
    // The laptops workflow: the same bash commands on Linux, Windows and macOS, through the starter's npm scripts.
    const laptops = readFileSync(join(dir, '.github', 'workflows', 'laptops.yml'), 'utf8');
    expect(laptops).toMatch(/os: \[ubuntu-latest, windows-latest, macos-latest\]/);
    expect(laptops).toMatch(/shell: bash/);
    for (const command of laptops.match(/^\s+run: (.+)$/gm) ?? []) expect(command).toMatch(/run: (npm run --silent (check|play|grade)|if \[ -f package-lock.json \]; then|\|)/);
    const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name: string; devDependencies: Record<string, string> };
    expect(manifest.name).toBe('my-ai');
    expect(manifest.devDependencies['board-referee']).toBe(`^${harnessVersion()}`);
    expect(manifest.devDependencies.referee).toBeUndefined();
    await expect(referee(['init', 'My AI'], parent)).rejects.toThrow('is not empty');
    await expect(referee(['init', 'other', '--game', 'chess'], parent)).rejects.toThrow(/unknown game 'chess'/);
  });

  test.each(gameIds().flatMap((game) => [[game, false], [game, true]] as const))('init --game %s (python: %s): a baseline for the game that passes its check', async (game, python) => {
    const parent = mkdtempSync(join(tmpdir(), 'referee-init-game-'));
    await referee(['init', 'ai', '--game', game, ...(python ? ['--python'] : []), '--referee', 'file:unused', '--no-lockfile'], parent);
    const dir = join(parent, 'ai');
    const entry = join(dir, 'src', python ? 'AIPlayer.py' : 'AIPlayer.ts');
    expect(existsSync(entry)).toBe(true);
    const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    expect(manifest.scripts.check).toBe(`referee check src --game ${game}`);
    expect(manifest.scripts.grade).toBe(`referee grade src --game ${game} --out referee-report`);
    expect(readFileSync(join(dir, '.github', 'workflows', 'grade.yml'), 'utf8')).toContain('npm run --silent grade');
    if (game !== 'reversi') {
      expect(readFileSync(join(dir, 'README.md'), 'utf8')).toContain(getGame(game).title);
      expect(existsSync(join(dir, 'RULES.md'))).toBe(true);
    }
    if (python) expect(existsSync(join(dir, 'src', 'board.py'))).toBe(true);
    const result = await checkSubmission(join(dir, 'src'), { ...defaultCheckLimits(game), typeCheck: !python });
    expect(result.steps.filter((step) => step.status === 'fail' || step.status === 'warn')).toEqual([]);
    expect(result.ok).toBe(true);
  }); // jest's 5-minute limit: a TS starter's type check passed 60 s at load 50 (three of five failed there)

  test('the workflow uploads the report, writes a step summary and fails under MIN_SCORE', () => {
    const workflow = readFileSync(join(packageRoot(), 'student-template', '.github', 'workflows', 'grade.yml'), 'utf8');
    expect(workflow).toContain('actions/upload-artifact');
    expect(workflow).toContain('referee-report/report.html');
    expect(workflow).toContain('$GITHUB_STEP_SUMMARY');
    expect(workflow).toContain('MIN_SCORE');
  });

  test('a scaffolded project passes `npm run check` and grades with `npm run grade`', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'referee-template-')), 'ai');
    scaffold(dir, `file:${packageRoot()}`);
    process.exitCode = undefined;
    writeFileSync(join(dir, 'small.json'), JSON.stringify(SMALL_ASSIGNMENT_JSON));
    const scripts = (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
    const argv = (script: string): string[] => {
      const words = scripts[script].split(' ');
      expect(words[0]).toBe('referee');
      return words.slice(1);
    };

    // The built CLI as a subprocess, as `npm run` starts it (the reference AIs at full speed, not in jest's VM).
    const cli = (args: string[]) => spawnSync(process.execPath, [packageFile('dist', 'cli', 'index.js'), ...args], { cwd: dir, encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' } });
    const check = cli(argv('check'));
    expect({ status: check.status, stderr: check.stderr }).toEqual({ status: 0, stderr: '' });
    expect(check.stdout).toMatch(/PASS/);

    // As the README says a course does: --config in place of --game.
    const grade = cli([...argv('grade').join(' ').replace(/--game \S+ ?/, '').trim().split(' '), '--config', 'small.json', '--quiet']);
    expect({ status: grade.status, stderr: grade.stderr }).toEqual({ status: 0, stderr: '' });
    const graded = readGradeResult(join(dir, 'referee-report', 'grade.json'));
    expect(graded.interfaceCheck.passed).toBe(true);
    expect(graded.games).toHaveLength(4);
    expect(graded.games.every((entry) => entry.record.end.loser?.side !== entry.studentSide)).toBe(true);
    expect(existsSync(join(dir, 'referee-report', 'report.html'))).toBe(true);
  });
});
