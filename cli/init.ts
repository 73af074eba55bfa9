/**
 * `referee init <dir> [--game id] [--python]`: a starter repo that installs on a fresh machine. The running Referee
 * is packed with `npm pack` into the starter's vendor/ and referenced as `file:vendor/board-referee-<version>.tgz`
 * (nothing needs the registry to hold Referee), and `npm install --package-lock-only` writes the lockfile that
 * `npm ci` and setup-node's npm cache need. Exit codes: 0 written, 2 usage error, 3 npm pack failed.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join, relative, resolve } from 'node:path';
import type { Command } from 'commander';
import type { AnyGame } from '../harness/games/game.js';
import { gameIds } from '../harness/games/registry.js';
import { defaultAssignment } from '../grading/assignment.js';
import { harnessVersion, packageFile, packageRoot } from '../grading/package-root.js';
import { referenceNames } from '../reference-ai/index.js';
import { gameArg, UsageError } from './args.js';
import { scaffoldCpp } from './init-cpp.js';

interface InitFlags {
  referee?: string;
  force?: boolean;
  python?: boolean;
  cpp?: boolean;
  game: string;
  lockfile: boolean;
}

export const PACKAGE_NAME = 'board-referee';

/** npm package names: lower case, no spaces; a folder name usually needs only that. */
const packageNameFor = (dir: string, game: string): string =>
  basename(resolve(dir)).toLowerCase().replace(/[^a-z0-9._-]+/g, '-').replace(/^[._-]+/, '') || `${game}-ai`;

/** The limits `npm run check` and `npm run grade` share without a course config, as the README states them. */
function limitsText(gameId: string): string {
  const rules = defaultAssignment(gameId).referee;
  const seconds = (ms: number): string => (ms >= 1000 ? `${ms / 1000} s` : `${ms} ms`);
  return `${seconds(rules.moveTimeoutMs)} a move, ${seconds(rules.constructTimeoutMs ?? rules.moveTimeoutMs)} to build the AIPlayer, the ${ordinal(rules.illegalMoveLimit)} illegal answer of a turn loses`;
}

const ordinal = (n: number): string => `${n}${n % 10 === 1 && n % 100 !== 11 ? 'st' : n % 10 === 2 && n % 100 !== 12 ? 'nd' : n % 10 === 3 && n % 100 !== 13 ? 'rd' : 'th'}`;

function fill(text: string, values: Record<string, string>): string {
  return text.replace(/__([A-Z]+)__/g, (whole, key: string) => values[key] ?? whole);
}

/** The rules file of a game (its folder's README), or null when the game ships none. */
function rulesFor(game: AnyGame): string | null {
  const path = packageFile('harness', 'games', game.files.folder, 'README.md');
  return existsSync(path) ? readFileSync(path, 'utf8') : null;
}

/** Copy the template for `game` (TS or Python) into `dir` and point its referee dependency at `refereeSpec`. */
export function scaffold(dir: string, refereeSpec: string, force = false, python = false, gameId = 'reversi'): string[] {
  const game: AnyGame = gameArg(gameId);
  const target = resolve(dir);
  if (existsSync(target) && readdirSync(target).length > 0 && !force) {
    throw new UsageError(`${dir} is not empty: choose a new folder, or pass --force to write into it`);
  }
  const template = packageFile('student-template');
  const source = python ? join(template, 'python') : template;
  // The TS template is the folder itself: leave out its siblings (python/, cpp/, generic/) and anything installed.
  const skip = new Set([
    ...(python ? [] : [join(template, 'python'), join(template, 'cpp'), join(template, 'generic')]),
    ...['node_modules', 'vendor', 'referee-report', 'package-lock.json'].map((name) => join(source, name)),
  ]);
  cpSync(source, target, { recursive: true, force: true, filter: (path) => !skip.has(path) });
  // npm drops .gitignore files from published packages, so the template ships it as `gitignore`.
  if (existsSync(join(target, 'gitignore'))) renameSync(join(target, 'gitignore'), join(target, '.gitignore'));
  const entry = python ? 'src/AIPlayer.py' : 'src/AIPlayer.ts';
  const folder = game.files.folder;
  if (game.id !== 'reversi') {
    const values = {
      TITLE: game.title,
      GAME: game.id,
      X: game.symbols[0],
      O: game.symbols[1],
      BOARD: game.files.boardType,
      ENTRY: entry,
      LIMITS: limitsText(game.id),
      INTERFACE: python
        ? '```python\nclass AIPlayer:\n    def __init__(self, color): ...\n    def get_move(self, board): ...   # or get_move(self, board, info=None)\n```'
        : `\`\`\`ts\nimport type { ${game.files.boardType} as Board, MoveInfo } from 'board-referee';\n\nexport class AIPlayer {\n  constructor(color: '${game.symbols[0]}' | '${game.symbols[1]}') { … }\n  getMove(board: Board, info?: MoveInfo): string { … }\n}\n\`\`\``,
    };
    const generic = join(template, 'generic');
    writeFileSync(join(target, entry), fill(readFileSync(join(generic, python ? 'AIPlayer.py' : 'AIPlayer.ts'), 'utf8'), values));
    writeFileSync(join(target, 'README.md'), fill(readFileSync(join(generic, 'README.md'), 'utf8'), values));
    const rules = rulesFor(game);
    if (rules) writeFileSync(join(target, 'RULES.md'), rules);
  }
  if (python) {
    // Local copies of what the grader provides, so `python3 AIPlayer.py` and editors find them (the grader
    // always uses its own).
    if (!game.files.python) throw new UsageError(`no Python Board for ${game.id} yet: use the TypeScript starter`);
    // The same laptops workflow as the TypeScript starter (one file): Windows' runners have python.exe on PATH.
    cpSync(join(template, '.github', 'workflows', 'laptops.yml'), join(target, '.github', 'workflows', 'laptops.yml'));
    cpSync(packageFile('harness', 'games', folder, 'board.py'), join(target, 'src', 'board.py'));
    cpSync(packageFile('harness', 'sandbox', 'python', 'func_timeout.py'), join(target, 'src', 'func_timeout.py'));
  }
  for (const workflow of ['grade.yml', 'classroom.yml']) {
    const path = join(target, '.github', 'workflows', workflow);
    if (existsSync(path)) writeFileSync(path, readFileSync(path, 'utf8').replace(/--game reversi\b/g, `--game ${game.id}`));
  }

  const manifestPath = join(target, 'package.json');
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as {
    name: string;
    description: string;
    scripts: Record<string, string>;
    devDependencies: Record<string, string>;
  };
  manifest.name = packageNameFor(dir, game.id);
  manifest.description = `My ${game.title} AI${python ? ' (Python)' : ''}`;
  const weakest = referenceNames(game.id)[0];
  manifest.scripts.check = `referee check src --game ${game.id}`;
  manifest.scripts.grade = `referee grade src --game ${game.id} --out referee-report`;
  manifest.scripts.play = `referee play --game ${game.id} --black src --white ${weakest} --games 2 --show`;
  delete manifest.devDependencies.referee;
  manifest.devDependencies[PACKAGE_NAME] = refereeSpec;
  writeFileSync(manifestPath, `${JSON.stringify(manifest, null, 2)}\n`);

  const files = ['package.json', 'README.md', '.gitignore', entry, '.github/workflows/grade.yml', '.github/workflows/classroom.yml', '.github/workflows/ladder.yml', '.github/workflows/laptops.yml'];
  if (python) files.push('src/board.py', 'src/func_timeout.py');
  else files.push('tsconfig.json');
  if (existsSync(join(target, 'RULES.md'))) files.push('RULES.md');
  return files.filter((file) => existsSync(join(target, file)));
}

/**
 * `npm pack` of the running Referee into `<target>/vendor/`; returns the tarball's path relative to the target.
 * The pack runs where Referee is installed (a source checkout needs `npm run build` first: dist/ is what ships).
 */
export function packInto(target: string): string {
  const root = packageRoot();
  if (!existsSync(join(root, 'dist', 'cli', 'index.js'))) {
    throw new UsageError(`${root} has no dist/: run \`npm run build\` there before \`referee init\`, or pass --referee <spec>`);
  }
  const vendor = join(target, 'vendor');
  mkdirSync(vendor, { recursive: true });
  let output: string;
  try {
    output = execFileSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', vendor], {
      cwd: root,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  } catch (error) {
    const stderr = String((error as { stderr?: unknown }).stderr ?? (error as Error).message).trim().split('\n').slice(-3).join(' ');
    throw new Error(`npm pack of Referee (${root}) failed: ${stderr}`);
  }
  const [packed] = JSON.parse(output) as Array<{ filename: string }>;
  const tarball = join(vendor, basename(packed.filename));
  if (!existsSync(tarball)) throw new Error(`npm pack reported ${packed.filename} but ${tarball} is missing`);
  return relative(target, tarball).split('\\').join('/');
}

/** `npm install --package-lock-only`: the lockfile without node_modules. Returns an error line, or null. */
export function writeLockfile(target: string): string | null {
  rmSync(join(target, 'package-lock.json'), { force: true });
  try {
    execFileSync('npm', ['install', '--package-lock-only', '--ignore-scripts', '--no-audit', '--no-fund'], {
      cwd: target,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    return null;
  } catch (error) {
    return String((error as { stderr?: unknown }).stderr ?? (error as Error).message).trim().split('\n').filter(Boolean).slice(-2).join(' ');
  }
}

export function register(program: Command): void {
  program
    .command('init')
    .description('create a starter repo for a student: src/AIPlayer.ts (or src/AIPlayer.py), npm scripts, README, CI workflows, Referee packed into vendor/')
    .argument('<dir>', 'folder to create')
    .option('--game <id>', `the game: ${gameIds().join(', ')}`, 'reversi')
    .option('--python', "the Python variant: src/AIPlayer.py with the platform's get_move(self, board)")
    .option('--cpp', 'the C++ variant: src/AIPlayer.cpp on a header-only Board (reversi, gomoku), or the course SDK\'s src/Strategy.cpp (connect4, connect4-nogo)')
    .option('--referee <spec>', 'write this board-referee dependency instead of packing this Referee into vendor/ (e.g. ^0.1.0 once published)')
    .option('--no-lockfile', 'do not run `npm install --package-lock-only` (CI then has no lockfile to cache by)')
    .option('--force', 'write into a folder that is not empty')
    .action((dir: string, flags: InitFlags) => {
      gameArg(flags.game);
      const target = resolve(dir);
      if (flags.cpp && flags.python) throw new UsageError('choose one of --python and --cpp');
      const files = flags.cpp
        ? scaffoldCpp(dir, flags.referee ?? 'file:vendor/pending.tgz', flags.force === true, flags.game, limitsText(flags.game))
        : scaffold(dir, flags.referee ?? 'file:vendor/pending.tgz', flags.force === true, flags.python === true, flags.game);
      let spec = flags.referee;
      if (spec === undefined) {
        const tarball = packInto(target);
        spec = `file:${tarball}`;
        const manifestPath = join(target, 'package.json');
        const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as { devDependencies: Record<string, string> };
        manifest.devDependencies[PACKAGE_NAME] = spec;
        writeFileSync(manifestPath, `${JSON.stringify(manifest, null, 2)}\n`);
        files.push(tarball);
      }
      if (flags.lockfile) {
        const failed = writeLockfile(target);
        if (failed) console.error(`referee: warning: no package-lock.json (${failed}); run \`npm install\` in ${dir} before you push`);
        else files.push('package-lock.json');
      }
      console.log(`Created ${dir}: ${flags.game}${flags.python ? ', Python' : flags.cpp ? ', C++' : ''}, ${PACKAGE_NAME} ${spec} (Referee ${harnessVersion()})`);
      for (const file of files) console.log(`  ${file}`);
      console.log(`Next: cd ${dir} && npm install && npm run check`);
    });
}
