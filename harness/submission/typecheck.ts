/**
 * Type errors as warnings: `tsc --noEmit` (TypeScript 5.9) on the submission, in a separate process so it runs
 * while the sandbox plays (a type check in the parent's event loop would eat into the student's measured time).
 * `referee` resolves to the game's own folder (its student Board and helpers) plus MoveInfo.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve as resolvePath } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cacheDir } from '../sandbox/cache-dir.js';
import type { SourceProblem } from './compile.js';
import { isInside, type ResolvedSubmission } from './resolve.js';

export interface TypeCheckResult {
  /** False when TypeScript is not installed (the check says so instead of passing silently). */
  ran: boolean;
  problems: SourceProblem[];
  note?: string;
}

const require = createRequire(import.meta.url);

function findPackage(name: string): string | null {
  try {
    return dirname(require.resolve(`${name}/package.json`));
  } catch {
    return null;
  }
}

/** A module file next to this one's folder structure: .ts under ts-jest, .d.ts when compiled. */
function harnessModule(path: string): string {
  const base = fileURLToPath(new URL(`../${path}`, import.meta.url));
  return existsSync(`${base}.ts`) || existsSync(`${base}.d.ts`) ? `${base}.js` : base;
}

/** The `referee` module students type against: everything the game's folder exports, plus MoveInfo. */
function writeRefereeTypes(game: string, folder: string): string {
  const file = join(folder, 'referee.d.ts');
  // Variants live in their base game's folder (connect4-nogo in connect4/, gomoku-exact5 in gomoku/).
  const gameIndex = harnessModule(`games/${game.split('-')[0]}/index`);
  const player = harnessModule('referee/player');
  const named = harnessModule('index');
  writeFileSync(
    file,
    `export * from '${gameIndex}';\nexport type { MoveInfo } from '${player}';\n` +
      `export type { ReversiBoard, Connect4Board, GomokuBoard, NoGoBoard } from '${named}';\n`,
  );
  return file;
}

const LINE = /^(.+?)\((\d+),(\d+)\): error (TS\d+): (.*)$/;

export function typeCheck(submission: ResolvedSubmission, game: string): Promise<TypeCheckResult> {
  const typescript = findPackage('typescript');
  if (!typescript) {
    return Promise.resolve({ ran: false, problems: [], note: 'TypeScript is not installed, so types were not checked' });
  }
  const folder = join(cacheDir(), 'typecheck', `${process.pid}-${Date.now().toString(36)}`);
  mkdirSync(folder, { recursive: true });
  const nodeTypes = findPackage('@types/node');
  const refereeTypes = writeRefereeTypes(game, folder);
  const tsconfig = {
    compilerOptions: {
      target: 'ES2022',
      module: 'ESNext',
      moduleResolution: 'Bundler',
      strict: true,
      noEmit: true,
      skipLibCheck: true,
      allowJs: false,
      lib: nodeTypes ? ['ES2022'] : ['ES2022', 'DOM'],
      // Only the harness's own @types/node: never type packages from folders around the submission.
      typeRoots: nodeTypes ? [dirname(nodeTypes)] : [],
      types: nodeTypes ? ['node'] : [],
      // 'board-referee' is the published name (the starter imports it); 'referee' the historical one.
      paths: { referee: [refereeTypes], 'board-referee': [refereeTypes] },
    },
    files: [submission.entry],
  };
  writeFileSync(join(folder, 'tsconfig.json'), JSON.stringify(tsconfig));
  return new Promise((settle) => {
    execFile(
      process.execPath,
      [join(typescript, 'bin', 'tsc'), '-p', join(folder, 'tsconfig.json'), '--pretty', 'false'],
      // Run from the root so tsc prints the student's paths relative to it.
      { cwd: submission.root, timeout: 60_000, maxBuffer: 4 * 1024 * 1024 },
      (error, stdout) => {
        const problems: SourceProblem[] = [];
        for (const line of stdout.split('\n')) {
          const match = LINE.exec(line.trim());
          if (!match) continue;
          const [, file, row, column, code, text] = match;
          const path = resolvePath(submission.root, file);
          if (!isInside(submission.root, path)) continue; // the harness's own declarations are not the student's
          problems.push({ file: relative(submission.root, path), line: Number(row), column: Number(column), text: `${code}: ${text}` });
        }
        const failed = error && problems.length === 0 && (error as { code?: unknown }).code !== 2;
        settle(failed ? { ran: false, problems, note: `the type check could not run: ${error.message.split('\n')[0]}` } : { ran: true, problems });
      },
    );
  });
}
