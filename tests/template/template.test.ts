import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, jest, test } from '@jest/globals';
import { Command } from 'commander';
import { register as registerGrade } from '../../cli/grade.js';
import { register as registerInit, scaffold } from '../../cli/init.js';
import { readGradeResult } from '../../grading/grade-result.js';
import { harnessVersion, packageRoot } from '../../grading/package-root.js';
import { SMALL_ASSIGNMENT_JSON } from '../grading/helpers.js';

function program(): Command {
  const command = new Command().exitOverride().configureOutput({ writeErr: () => undefined });
  registerGrade(command);
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
    await referee(['init', 'My AI'], parent);
    const dir = join(parent, 'My AI');
    for (const file of ['src/AIPlayer.ts', 'README.md', 'tsconfig.json', '.gitignore', '.github/workflows/grade.yml']) {
      expect(existsSync(join(dir, file))).toBe(true);
    }
    const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name: string; devDependencies: Record<string, string> };
    expect(manifest.name).toBe('my-ai');
    expect(manifest.devDependencies.referee).toBe(`^${harnessVersion()}`);
    await expect(referee(['init', 'My AI'], parent)).rejects.toThrow('is not empty');
  });

  test('the workflow uploads the report, writes a step summary and fails under MIN_SCORE', () => {
    const workflow = readFileSync(join(packageRoot(), 'student-template', '.github', 'workflows', 'grade.yml'), 'utf8');
    expect(workflow).toContain('actions/upload-artifact');
    expect(workflow).toContain('referee-report/report.html');
    expect(workflow).toContain('$GITHUB_STEP_SUMMARY');
    expect(workflow).toContain('--min-score "$MIN_SCORE"');
  });

  test('a scaffolded project passes `npm run check` and grades with `npm run grade`', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'referee-template-')), 'ai');
    scaffold(dir, `file:${packageRoot()}`);
    writeFileSync(join(dir, 'small.json'), JSON.stringify(SMALL_ASSIGNMENT_JSON));
    const scripts = (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
    const argv = (script: string): string[] => {
      const words = scripts[script].split(' ');
      expect(words[0]).toBe('referee');
      return words.slice(1);
    };

    await referee(argv('check'), dir);
    const checked = readGradeResult(join(dir, 'referee-report', 'grade.json'));
    expect(checked.interfaceCheck.passed).toBe(true);
    expect(checked.games).toEqual([]);

    await referee([...argv('grade'), '--config', 'small.json'], dir);
    const graded = readGradeResult(join(dir, 'referee-report', 'grade.json'));
    expect(graded.interfaceCheck.passed).toBe(true);
    expect(graded.games).toHaveLength(4);
    expect(graded.games.every((entry) => entry.record.end.loser?.side !== entry.studentSide)).toBe(true);
    expect(existsSync(join(dir, 'referee-report', 'report.html'))).toBe(true);
    expect(process.exitCode ?? 0).toBe(0);
  });
});
