/**
 * `referee init <dir>`: a copy of the student template with the referee dependency wired in; `--python` gives the
 * Python variant (student-template/python plus local copies of the grader's board.py and func_timeout.py).
 */
import { cpSync, existsSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import type { Command } from 'commander';
import { harnessVersion, packageFile } from '../grading/package-root.js';
import { UsageError } from './args.js';

interface InitFlags {
  referee?: string;
  force?: boolean;
  python?: boolean;
}

/** npm package names: lower case, no spaces; a folder name usually needs only that. */
const packageNameFor = (dir: string): string =>
  basename(resolve(dir)).toLowerCase().replace(/[^a-z0-9._-]+/g, '-').replace(/^[._-]+/, '') || 'reversi-ai';

const PYTHON_TEMPLATE = packageFile('student-template', 'python');

/** Copy the template into `dir` and point its referee dependency at `refereeSpec`. Returns the files written. */
export function scaffold(dir: string, refereeSpec: string, force = false, python = false): string[] {
  const target = resolve(dir);
  if (existsSync(target) && readdirSync(target).length > 0 && !force) {
    throw new UsageError(`${dir} is not empty: choose a new folder, or pass --force to write into it`);
  }
  if (python) {
    cpSync(PYTHON_TEMPLATE, target, { recursive: true, force: true });
    // Local copies of what the grader provides, so `python3 AIPlayer.py` and editors find them.
    cpSync(packageFile('harness', 'sandbox', 'python', 'board_reversi.py'), join(target, 'board.py'));
    cpSync(packageFile('harness', 'sandbox', 'python', 'func_timeout.py'), join(target, 'func_timeout.py'));
  } else {
    cpSync(packageFile('student-template'), target, {
      recursive: true,
      force: true,
      filter: (source) => source !== PYTHON_TEMPLATE,
    });
  }
  // npm drops .gitignore files from published packages, so the template ships it as `gitignore`.
  if (existsSync(join(target, 'gitignore'))) renameSync(join(target, 'gitignore'), join(target, '.gitignore'));
  const manifestPath = join(target, 'package.json');
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as { name: string; devDependencies: Record<string, string> };
  manifest.name = packageNameFor(dir);
  manifest.devDependencies.referee = refereeSpec;
  writeFileSync(manifestPath, `${JSON.stringify(manifest, null, 2)}\n`);
  if (python) return ['package.json', 'README.md', '.gitignore', 'AIPlayer.py', 'board.py', 'func_timeout.py', '.github/workflows/grade.yml'];
  return ['package.json', 'tsconfig.json', 'README.md', '.gitignore', 'src/AIPlayer.ts', '.github/workflows/grade.yml'];
}

export function register(program: Command): void {
  program
    .command('init')
    .description('create a starter repo for a student: src/AIPlayer.ts (or AIPlayer.py), npm scripts, README, CI workflow')
    .argument('<dir>', 'folder to create')
    .option('--referee <spec>', 'the referee dependency to write, e.g. ^0.1.0 or file:../referee (default: this version)')
    .option('--force', 'write into a folder that is not empty')
    .option('--python', "the Python variant: AIPlayer.py with the platform's get_move(self, board)")
    .action((dir: string, flags: InitFlags) => {
      const spec = flags.referee ?? `^${harnessVersion()}`;
      const files = scaffold(dir, spec, flags.force === true, flags.python === true);
      console.log(`Created ${dir} (referee ${spec}):`);
      for (const file of files) console.log(`  ${file}`);
      console.log(`Next: cd ${dir} && npm install && npm run check`);
    });
}
