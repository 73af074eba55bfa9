/**
 * The Python student template: `referee init --python` gives AIPlayer.py with local copies of board.py and
 * func_timeout.py, and its npm scripts check and grade it, with the language in the grade.
 */
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { afterEach, expect, jest, test } from '@jest/globals';
import { Command } from 'commander';
import { register as registerGrade } from '../../cli/grade.js';
import { register as registerInit } from '../../cli/init.js';
import { readGradeResult } from '../../grading/grade-result.js';
import { packageRoot } from '../../grading/package-root.js';
import { findPython } from '../../harness/sandbox/python-runtime.js';
import { SMALL_ASSIGNMENT_JSON } from '../grading/helpers.js';

async function referee(args: string[], cwd: string): Promise<void> {
  const program = new Command().exitOverride().configureOutput({ writeErr: () => undefined });
  registerGrade(program);
  registerInit(program);
  const previous = process.cwd();
  const log = jest.spyOn(console, 'log').mockImplementation(() => undefined);
  process.chdir(cwd);
  try {
    await program.parseAsync(['node', 'referee', ...args]);
  } finally {
    process.chdir(previous);
    log.mockRestore();
  }
}

afterEach(() => {
  process.exitCode = undefined;
});

test('referee init --python scaffolds a Python project that checks and grades', async () => {
  const parent = mkdtempSync(join(tmpdir(), 'referee-init-py-'));
  await referee(['init', 'py-ai', '--python', '--referee', `file:${packageRoot()}`, '--no-lockfile'], parent);
  const dir = join(parent, 'py-ai');
  for (const file of ['src/AIPlayer.py', 'src/board.py', 'src/func_timeout.py', 'README.md', '.gitignore', '.github/workflows/grade.yml']) {
    expect(existsSync(join(dir, file))).toBe(true);
  }
  expect(existsSync(join(dir, 'tsconfig.json'))).toBe(false);
  // The local copies make the platform's own way of testing work: python3 with board.py beside the player.
  const python = findPython();
  const local = 'from board import Board\nfrom AIPlayer import AIPlayer\nprint(AIPlayer("X").get_move(Board()))';
  expect(execFileSync(python?.path ?? 'python3', ['-c', local], { cwd: join(dir, 'src'), encoding: 'utf8' }).trim()).toMatch(/^[C-F][3-6]$/);

  const scripts = (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
  const argv = (script: string): string[] => scripts[script].split(' ').slice(1);
  writeFileSync(join(dir, 'small.json'), JSON.stringify(SMALL_ASSIGNMENT_JSON));
  // As the README says a course does: --config in place of --game.
  await referee([...argv('grade').join(' ').replace(/--game \S+ ?/, '').trim().split(' '), '--config', 'small.json'], dir);
  const graded = readGradeResult(join(dir, 'referee-report', 'grade.json'));
  expect(graded.interfaceCheck.passed).toBe(true);
  expect(graded.submission.language).toBe('Python');
  expect(graded.games).toHaveLength(4);
  expect(graded.games.every((entry) => entry.record.end.loser?.side !== entry.studentSide)).toBe(true);
});

test('the TypeScript template does not carry the Python variant', async () => {
  const parent = mkdtempSync(join(tmpdir(), 'referee-init-ts-'));
  await referee(['init', 'ts-ai', '--referee', `file:${packageRoot()}`, '--no-lockfile'], parent);
  expect(existsSync(join(parent, 'ts-ai', 'src', 'AIPlayer.ts'))).toBe(true);
  expect(existsSync(join(parent, 'ts-ai', 'python'))).toBe(false);
});
