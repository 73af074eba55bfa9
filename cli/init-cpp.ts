/**
 * `referee init --cpp`: the C++ starter. Reversi and Gomoku get src/AIPlayer.cpp on Referee's header-only Board
 * (a copy in src/referee/ for editors; the grader uses its own); Connect Four (both variants) gets the course SDK's
 * src/Strategy.cpp with copies of Point.h, Strategy.h, Judge.h and Judge.cpp. The npm scripts, CI workflows and
 * README come from the Python starter, which needs no TypeScript.
 */
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import type { AnyGame } from '../harness/games/game.js';
import { gameIds, getGame } from '../harness/games/registry.js';
import { packageFile } from '../grading/package-root.js';
import { referenceNames } from '../reference-ai/index.js';
import { gameArg, UsageError } from './args.js';

/** The games whose starter is the course SDK's Strategy.cpp (the others get AIPlayer.cpp on their folder's board.h). */
const SDK_GAMES = ['connect4', 'connect4-nogo'];

const fill = (text: string, values: Record<string, string>): string => text.replace(/__([A-Z]+)__/g, (whole, key: string) => values[key] ?? whole);

export function scaffoldCpp(dir: string, refereeSpec: string, force: boolean, gameId: string, limits: string): string[] {
  const game: AnyGame = gameArg(gameId);
  const sdk = SDK_GAMES.includes(game.id);
  if (!sdk && !game.files.cpp) {
    const starters = gameIds().filter((id) => SDK_GAMES.includes(id) || getGame(id).files.cpp);
    throw new UsageError(`no C++ Board for ${game.id} yet (C++ starters: ${starters.join(', ')}): use the TypeScript or --python starter`);
  }
  const target = resolve(dir);
  if (existsSync(target) && readdirSync(target).length > 0 && !force) {
    throw new UsageError(`${dir} is not empty: choose a new folder, or pass --force to write into it`);
  }
  const template = packageFile('student-template');
  cpSync(join(template, 'python'), target, { recursive: true, force: true, filter: (path) => !path.endsWith('.py') && !path.includes('node_modules') });
  if (existsSync(join(target, 'gitignore'))) renameSync(join(target, 'gitignore'), join(target, '.gitignore'));
  mkdirSync(join(target, 'src'), { recursive: true });
  const entry = sdk ? 'src/Strategy.cpp' : 'src/AIPlayer.cpp';
  const values = {
    TITLE: game.title,
    GAME: game.id,
    X: game.symbols[0],
    O: game.symbols[1],
    ENTRY: entry,
    LIMITS: limits,
    INTERFACE: sdk
      ? '```cpp\nextern "C" Point* getPoint(const int M, const int N, const int* top, const int* _board,\n                           const int lastX, const int lastY, const int noX, const int noY);\nextern "C" void clearPoint(Point* p);\n```\n\nThe legal point of column `y` is `(top[y] - 1, y)`; rows count from the top; `_board` holds 1 for the opponent, 2 for you.'
      : '```cpp\n#include "referee/' + game.files.folder + '.h"\n\nclass AIPlayer {\n public:\n  explicit AIPlayer(char color);\n  std::string getMove(const Board& board);\n};\n```',
  };
  writeFileSync(join(target, entry), fill(readFileSync(join(template, 'cpp', sdk ? 'Strategy.cpp' : 'AIPlayer.cpp'), 'utf8'), values));
  writeFileSync(join(target, 'README.md'), fill(readFileSync(join(template, 'generic', 'README.md'), 'utf8'), values));
  const files = ['package.json', 'README.md', '.gitignore', entry, '.github/workflows/grade.yml', '.github/workflows/classroom.yml'];
  const rules = packageFile('harness', 'games', game.files.folder, 'README.md');
  if (existsSync(rules)) {
    cpSync(rules, join(target, 'RULES.md'));
    files.push('RULES.md');
  }
  // Local copies of what the grader provides, for editors and local builds (the grader uses its own).
  const sdkHeaders = packageFile('harness', 'sandbox', 'cpp', 'sdk');
  const copies = sdk
    ? ['Point.h', 'Strategy.h', 'Judge.h', 'Judge.cpp'].map((name) => [join(sdkHeaders, name), `src/${name}`])
    : [
        [packageFile('harness', 'games', game.files.folder, 'board.h'), `src/referee/${game.files.folder}.h`],
        [packageFile('harness', 'games', 'common', 'actions.h'), 'src/referee/actions.h'],
      ];
  for (const [from, to] of copies) {
    mkdirSync(join(target, to, '..'), { recursive: true });
    cpSync(from, join(target, to));
    files.push(to);
  }
  for (const workflow of ['grade.yml', 'classroom.yml']) {
    const path = join(target, '.github', 'workflows', workflow);
    if (existsSync(path)) writeFileSync(path, readFileSync(path, 'utf8').replace(/--game reversi\b/g, `--game ${game.id}`));
  }
  const manifestPath = join(target, 'package.json');
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as { name: string; description: string; scripts: Record<string, string>; devDependencies: Record<string, string> };
  manifest.name = basename(resolve(dir)).toLowerCase().replace(/[^a-z0-9._-]+/g, '-').replace(/^[._-]+/, '') || `${game.id}-ai`;
  manifest.description = `My ${game.title} AI (C++)`;
  manifest.scripts.check = `referee check src --game ${game.id}`;
  manifest.scripts.grade = `referee grade src --game ${game.id} --out referee-report`;
  manifest.scripts.play = `referee play --game ${game.id} --black src --white ${referenceNames(game.id)[0]} --games 2 --show`;
  manifest.devDependencies = { 'board-referee': refereeSpec };
  writeFileSync(manifestPath, `${JSON.stringify(manifest, null, 2)}\n`);
  rmSync(join(target, 'src', '__pycache__'), { recursive: true, force: true });
  return files.filter((file) => existsSync(join(target, file)));
}
