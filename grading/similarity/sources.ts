/**
 * The source files a similarity run compares: a submission's own files by language, and the course's base code
 * (Referee's starters, the platform modules it provides, the C++ SDK, and the instructor's --base folders), which
 * is subtracted before anything is scored. Nothing here trusts a file: binary, huge and non-UTF-8 files are
 * skipped or decoded with a note, never a crash.
 */
import { existsSync, lstatSync, readdirSync, readFileSync, type Stats } from 'node:fs';
import { basename, extname, join, relative, sep } from 'node:path';
import { packageFile } from '../package-root.js';

/** The language families compared with each other (JavaScript is read by the TypeScript parser: one family). */
export type SourceLanguage = 'python' | 'cpp' | 'typescript';

export interface SourceFile {
  /** Relative to the submission's root, '/'-separated (for a lone file, its name). */
  path: string;
  language: SourceLanguage;
  text: string;
}

export interface SourceSet {
  id: string;
  files: SourceFile[];
  /** Files left out or read with losses, one line each (shown in the report). */
  notes: string[];
}

const LANGUAGE_OF: Record<string, SourceLanguage> = {
  '.py': 'python',
  '.cpp': 'cpp',
  '.cc': 'cpp',
  '.cxx': 'cpp',
  '.c': 'cpp',
  '.h': 'cpp',
  '.hpp': 'cpp',
  '.hh': 'cpp',
  '.ts': 'typescript',
  '.js': 'typescript',
  '.mjs': 'typescript',
  '.cjs': 'typescript',
};

/** A source file larger than this is generated or data, not a student's code: skipped with a note. */
export const MAX_SOURCE_BYTES = 256 * 1024;
/** Most source files read from one submission (a vendored library beyond this is noted, not read). */
export const MAX_SOURCE_FILES = 200;
const SKIPPED_DIRS = new Set(['node_modules', '__pycache__', 'dist', 'build', 'out', 'venv', '.venv']);

export function languageOf(path: string): SourceLanguage | null {
  const name = basename(path).toLowerCase();
  if (name.endsWith('.d.ts') || name.endsWith('.min.js')) return null;
  return Object.hasOwn(LANGUAGE_OF, extname(name)) ? LANGUAGE_OF[extname(name)] : null;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });
const lenient = new TextDecoder('utf-8', { fatal: false });

/** The file's text, or why it is left out; non-UTF-8 text (GBK comments, Latin-1) is read with replacement characters. */
export function decodeSource(bytes: Buffer, path: string, notes: string[]): string | null {
  if (bytes.length > MAX_SOURCE_BYTES) {
    notes.push(`${path}: ${Math.round(bytes.length / 1024)} KB, over the ${MAX_SOURCE_BYTES / 1024} KB cap for source files: not compared`);
    return null;
  }
  if (bytes.subarray(0, 8192).includes(0)) {
    notes.push(`${path}: binary (holds NUL bytes): not compared`);
    return null;
  }
  try {
    return utf8.decode(bytes);
  } catch {
    notes.push(`${path}: not UTF-8: compared with the undecodable bytes replaced (comments are not compared anyway)`);
    return lenient.decode(bytes);
  }
}

/** Every source file under `root` (a folder, or one file), without following symlinks. */
export function readSources(id: string, root: string): SourceSet {
  const set: SourceSet = { id, files: [], notes: [] };
  let rootStats: Stats;
  try {
    rootStats = lstatSync(root);
  } catch (error) {
    set.notes.push(`cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
    return set;
  }
  const add = (full: string, path: string, size: number): void => {
    const language = languageOf(path);
    if (!language) return;
    if (set.files.length >= MAX_SOURCE_FILES) {
      if (set.files.length === MAX_SOURCE_FILES) set.notes.push(`more than ${MAX_SOURCE_FILES} source files: the rest are not compared`);
      return;
    }
    if (size > MAX_SOURCE_BYTES) {
      set.notes.push(`${path}: ${Math.round(size / 1024)} KB, over the ${MAX_SOURCE_BYTES / 1024} KB cap for source files: not compared`);
      return;
    }
    let bytes: Buffer;
    try {
      bytes = readFileSync(full);
    } catch (error) {
      set.notes.push(`${path}: cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
      return;
    }
    const text = decodeSource(bytes, path, set.notes);
    if (text !== null) set.files.push({ path, language, text });
  };
  if (rootStats.isFile()) {
    add(root, basename(root), rootStats.size);
    return set;
  }
  const pending = [root];
  while (pending.length > 0) {
    const dir = pending.pop()!;
    let names: string[];
    try {
      names = readdirSync(dir).sort();
    } catch {
      continue;
    }
    for (const name of names) {
      if (name.startsWith('.') || SKIPPED_DIRS.has(name)) continue;
      const full = join(dir, name);
      let stats: Stats;
      try {
        stats = lstatSync(full);
      } catch {
        continue;
      }
      if (stats.isDirectory()) pending.push(full);
      else if (stats.isFile()) add(full, relative(root, full).split(sep).join('/'), stats.size);
    }
  }
  set.files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return set;
}

/**
 * The base code Referee itself hands out: every starter (student-template/), the platform modules a Python
 * submission imports (each game's board.py, game.py, func_timeout), each game's C++ and TypeScript Board, and the
 * Connect Four C++ SDK. A student who ships any of these unchanged, or builds on them, shares nothing with a
 * classmate through them.
 */
export function builtInBase(): SourceSet {
  const base: SourceSet = { id: 'built-in base code', files: [], notes: [] };
  for (const root of [packageFile('student-template'), packageFile('harness', 'sandbox', 'cpp', 'sdk')]) {
    base.files.push(...readSources(root, root).files.map((file) => ({ ...file, path: `${basename(root)}/${file.path}` })));
  }
  const games = packageFile('harness', 'games');
  for (const game of readdirSync(games).sort()) {
    for (const name of ['board.py', 'board.h', 'board.ts']) {
      const path = join(games, game, name);
      if (existsSync(path)) base.files.push({ path: `games/${game}/${name}`, language: languageOf(name)!, text: readFileSync(path, 'utf8') });
    }
  }
  const python = packageFile('harness', 'sandbox', 'python');
  for (const name of ['game.py', 'func_timeout.py']) {
    if (existsSync(join(python, name))) base.files.push({ path: `python/${name}`, language: 'python', text: readFileSync(join(python, name), 'utf8') });
  }
  return base;
}
