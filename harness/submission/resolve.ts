/**
 * Finding a submission's entry and root. A submission is a file (its folder is the root, so sibling modules
 * import) or a directory (entry from package.json `main`, else a conventional name). The root is the boundary:
 * nothing outside it is ever read, bundled or executed. Python submissions (the course platform's own language)
 * are a .py file or a folder with AIPlayer.py or main.py.
 */
import { existsSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { dirname, extname, isAbsolute, join, relative, resolve } from 'node:path';

export const SOURCE_EXTENSIONS = ['.ts', '.js', '.mjs', '.cjs', '.py'] as const;
/** Directory entries tried in order after package.json `main`. */
export const ENTRY_CANDIDATES = [
  'src/AIPlayer.ts',
  'AIPlayer.ts',
  'index.ts',
  'src/AIPlayer.js',
  'AIPlayer.js',
  'index.js',
  'AIPlayer.py',
  'main.py',
] as const;

export type SubmissionLanguage = 'TypeScript' | 'JavaScript' | 'Python';

const LANGUAGE_OF: Record<string, SubmissionLanguage> = {
  '.ts': 'TypeScript',
  '.js': 'JavaScript',
  '.mjs': 'JavaScript',
  '.cjs': 'JavaScript',
  '.py': 'Python',
};

/** The language of an entry file, by its extension. */
export function languageOf(entry: string): SubmissionLanguage {
  return LANGUAGE_OF[extname(entry)] ?? 'JavaScript';
}

export interface ResolvedSubmission {
  /** The path as given, made absolute. */
  input: string;
  /** Real path of the folder that bounds the submission. */
  root: string;
  /** Real path of the entry file (inside root). */
  entry: string;
  kind: 'file' | 'directory';
  language: SubmissionLanguage;
}

/** A submission that cannot be found or is not shaped like one; the message names the fix. */
export class SubmissionError extends Error {
  override name = 'SubmissionError';
}

/** Whether `child` is `root` itself or inside it (both real paths). */
export function isInside(root: string, child: string): boolean {
  const rel = relative(root, child);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

function hasSourceExtension(path: string): boolean {
  return SOURCE_EXTENSIONS.some((ext) => path.endsWith(ext));
}

/** Whether a CLI argument names a submission rather than a built-in player (e.g. 'random'). */
export function isSubmissionPath(arg: string): boolean {
  if (/[\\/]/.test(arg) || hasSourceExtension(arg)) return true;
  try {
    return statSync(arg).isDirectory();
  } catch {
    return false;
  }
}

function mainOf(root: string): string | null {
  const manifest = join(root, 'package.json');
  if (!existsSync(manifest)) return null;
  let main: unknown;
  try {
    main = (JSON.parse(readFileSync(manifest, 'utf8')) as { main?: unknown }).main;
  } catch (error) {
    throw new SubmissionError(`${manifest} is not valid JSON (${(error as Error).message}); fix or remove it`);
  }
  if (main === undefined) return null;
  if (typeof main !== 'string' || main === '') {
    throw new SubmissionError(`${manifest}: "main" must be a path like "src/AIPlayer.ts"`);
  }
  const candidates = [main, ...SOURCE_EXTENSIONS.map((ext) => main + ext)].map((path) => resolve(root, path));
  const found = candidates.find((path) => existsSync(path) && statSync(path).isFile());
  if (!found) throw new SubmissionError(`${manifest}: "main" names ${main}, which does not exist; fix the path`);
  return found;
}

export function resolveSubmission(path: string): ResolvedSubmission {
  const input = resolve(path);
  if (!existsSync(input)) {
    throw new SubmissionError(`submission not found: ${input}; pass a file like src/AIPlayer.ts or a folder`);
  }
  const isDirectory = statSync(input).isDirectory();
  const root = realpathSync(isDirectory ? input : dirname(input));
  let entry: string;
  if (isDirectory) {
    const found = mainOf(root) ?? ENTRY_CANDIDATES.map((name) => join(root, name)).find((file) => existsSync(file));
    if (!found) {
      throw new SubmissionError(
        `no entry file in ${input}: add src/AIPlayer.ts (or set "main" in package.json), or AIPlayer.py for Python; looked for ${ENTRY_CANDIDATES.join(', ')}`,
      );
    }
    entry = realpathSync(found);
  } else {
    if (!hasSourceExtension(input)) {
      throw new SubmissionError(`${input} is not a submission: use a ${SOURCE_EXTENSIONS.join(', ')} file or a folder`);
    }
    entry = realpathSync(input);
  }
  if (!isInside(root, entry)) {
    throw new SubmissionError(`the entry ${entry} lies outside the submission folder ${root}; move it inside`);
  }
  return { input, root, entry, kind: isDirectory ? 'directory' : 'file', language: languageOf(entry) };
}
