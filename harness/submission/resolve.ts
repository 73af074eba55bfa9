/**
 * Finding a submission's entry and root. A submission is exactly what the user names: a file means that file
 * alone (the compile step refuses its local imports with the fix: grade the folder), a directory means that
 * directory (entry from package.json `main`, else a conventional name). The root is the boundary: nothing outside
 * it is ever read, bundled or executed. Before anything is compiled the submission is measured: over
 * `maxSubmissionMb` or `maxFiles`, a symlink that leaves it, or a file name that is not UTF-8, and it is refused
 * with a one-line reason. Python submissions (the course platform's own language) are a .py file or a folder with
 * AIPlayer.py or main.py; C++ submissions a folder with Strategy.cpp (the Connect Four course's SDK) or AIPlayer.cpp,
 * or a compiled .so (the course's test AIs).
 */
import { existsSync, lstatSync, readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { basename, dirname, extname, isAbsolute, join, relative, resolve } from 'node:path';

export const SOURCE_EXTENSIONS = ['.ts', '.js', '.mjs', '.cjs', '.py', '.cpp', '.cc', '.so', '.java'] as const;
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
  'Strategy.cpp',
  'src/AIPlayer.cpp',
  'AIPlayer.cpp',
  'Strategy/Strategy.cpp',
] as const;

/**
 * Python entries in a folder, in the order they are tried (the course notebook's main.py, the names students use).
 * After these: a file named aiplayer.py in any case (taken with a warning), then the one .py file at the top of
 * the folder that defines `class AIPlayer`.
 */
export const PYTHON_ENTRY_CANDIDATES = ['AIPlayer.py', 'main.py', 'player.py', 'ai_player.py'] as const;
const TYPESCRIPT_ENTRY_CANDIDATES = ENTRY_CANDIDATES.filter((name) => !name.endsWith('.py'));
const DEFINES_AIPLAYER = /^class[ \t]+AIPlayer\b/m;
/** A module that has AIPlayer in its namespace: defines it, imports it, or assigns it (AIPlayer = MyBot). */
const PROVIDES_AIPLAYER = /^(?:class[ \t]+AIPlayer\b|from[ \t]+\S+[ \t]+import[ \t(][^\n]*\bAIPlayer\b|AIPlayer[ \t]*=)/m;

function providesAIPlayer(file: string): boolean {
  try {
    return PROVIDES_AIPLAYER.test(readFileSync(file, 'utf8'));
  } catch {
    return false;
  }
}

/** Java runs only as a Botzone bot (a program with `class Main`): the courses' contracts have no Java side. */
export type SubmissionLanguage = 'TypeScript' | 'JavaScript' | 'Python' | 'C++' | 'Java';

const LANGUAGE_OF: Record<string, SubmissionLanguage> = {
  '.ts': 'TypeScript',
  '.js': 'JavaScript',
  '.mjs': 'JavaScript',
  '.cjs': 'JavaScript',
  '.py': 'Python',
  '.cpp': 'C++',
  '.cc': 'C++',
  // A compiled C++ player: the Connect Four course's test AIs (TestCases/*.so).
  '.so': 'C++',
  '.java': 'Java',
};

/** The language of an entry file, by its extension. */
export function languageOf(entry: string): SubmissionLanguage {
  return LANGUAGE_OF[extname(entry)] ?? 'JavaScript';
}

/** The sandbox host that runs a submission of this language (a Java bot, like a C++ one, has no in-process layer). */
export function runtimeOf(language: SubmissionLanguage | string | undefined): 'node' | 'python' | 'cpp' {
  return language === 'Python' ? 'python' : language === 'C++' || language === 'Java' ? 'cpp' : 'node';
}

/** How big a submission may be; checked before anything is compiled (the assignment's maxSubmissionMb, maxFiles). */
export interface SubmissionLimits {
  maxBytes: number;
  maxFiles: number;
}

export const DEFAULT_SUBMISSION_LIMITS: SubmissionLimits = { maxBytes: 5 * 1024 * 1024, maxFiles: 500 };

/**
 * Folders that are not part of a submission's code: not counted (node_modules is the package manager's,
 * referee-report is the grader's own output in a starter repo).
 */
const IGNORED_DIRS = new Set(['node_modules', '.git', '__pycache__', '.venv', 'venv', 'referee-report']);

const megabytes = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/** A file or folder name as a byte-faithful, printable string (non-UTF-8 bytes as \xNN). */
function printableName(raw: Buffer): string {
  let text = '';
  const decoded = raw.toString('utf8');
  if (Buffer.from(decoded, 'utf8').equals(raw)) return decoded;
  for (const byte of raw) text += byte >= 0x20 && byte < 0x7f ? String.fromCharCode(byte) : `\\x${byte.toString(16).padStart(2, '0')}`;
  return text;
}

/**
 * Walk a submission folder: refuse non-UTF-8 names, symlinks that leave it and more than the limits allow.
 * Returns the number of files and bytes counted.
 */
function measureFolder(root: string, limits: SubmissionLimits): { files: number; bytes: number } {
  let files = 0;
  let bytes = 0;
  const walk = (dir: string, relative: string): void => {
    for (const raw of readdirSync(dir, { encoding: 'buffer' })) {
      const name = raw.toString('utf8');
      const shown = relative ? `${relative}/${printableName(raw)}` : printableName(raw);
      if (!Buffer.from(name, 'utf8').equals(raw)) {
        throw new SubmissionError(`${shown} has a name that is not UTF-8: rename it (letters, digits, - and _ travel everywhere)`);
      }
      const path = join(dir, name);
      const stat = lstatSync(path);
      if (stat.isSymbolicLink()) {
        let target: string;
        try {
          target = realpathSync(path);
        } catch {
          throw new SubmissionError(`${shown} is a symlink to a path that does not exist: remove it or replace it with the file`);
        }
        if (!isInside(root, target)) {
          throw new SubmissionError(`${shown} is a symlink to ${target}, outside the submission: replace it with a copy of the file`);
        }
        continue; // its target inside the folder is counted where it lives
      }
      if (stat.isDirectory()) {
        if (!IGNORED_DIRS.has(name)) walk(path, relative ? `${relative}/${name}` : name);
        continue;
      }
      files += 1;
      bytes += stat.size;
      if (files > limits.maxFiles) {
        throw new SubmissionError(`the submission holds more than ${limits.maxFiles} files: remove build output and data (or raise maxFiles in the assignment)`);
      }
      if (bytes > limits.maxBytes) {
        throw new SubmissionError(`the submission is over the ${megabytes(limits.maxBytes)} cap (maxSubmissionMb): remove large files such as ${shown}`);
      }
    }
  };
  walk(root, '');
  return { files, bytes };
}

/** How a submission talks to the referee: the course's AIPlayer class, or a Botzone bot (a whole program on stdin/stdout). */
export type SubmissionProtocol = 'course' | 'botzone';

/** What a Botzone bot's source says about how it talks (see botzoneTraits). */
export interface BotzoneTraits {
  /** 'json': one JSON line in, one out; 'simple': Botzone's simple interaction (turn number, then lines). */
  interaction: 'json' | 'simple';
  /** Prints >>>BOTZONE_REQUEST_KEEP_RUNNING<<< and so stays alive between turns, reading one request a turn. */
  keepRunning: boolean;
  /** Why it was taken for a Botzone bot, for the check's entry line. */
  evidence: string;
}

export const KEEP_RUNNING_MARKER = '>>>BOTZONE_REQUEST_KEEP_RUNNING<<<';
/** Source signs of a Botzone bot: the keep-running marker, Botzone's compile macro, its input's field names. */
const BOTZONE_SIGNS: { pattern: RegExp; what: string }[] = [
  { pattern: />>>BOTZONE_REQUEST_KEEP_RUNNING<<</, what: 'prints the keep-running marker' },
  { pattern: /_BOTZONE_ONLINE/, what: 'tests _BOTZONE_ONLINE' },
  // The quotes may be escaped: a hand-written reader looks for the key with its quotes (indexOf("\"requests\"")).
  { pattern: /\[\s*["']requests["']\s*\]|\.requests\b|["']requests(?:\\?["'])+\s*\)/, what: 'reads "requests" from its input' },
  { pattern: /\[\s*["']responses["']\s*\]|\.responses\b/, what: 'reads "responses" from its input' },
];

/** The Botzone signs in a source text, or null when it shows none. */
export function botzoneSigns(text: string): string[] {
  return BOTZONE_SIGNS.filter(({ pattern }) => pattern.test(text)).map(({ what }) => what);
}

/** How a Botzone bot talks, from its sources (`named`: the user said --protocol botzone, so no sign is needed). */
export function botzoneTraits(texts: string[], named: boolean): BotzoneTraits | null {
  const all = texts.join('\n');
  const signs = botzoneSigns(all);
  if (signs.length === 0 && !named) return null;
  // A bot that names neither Botzone's JSON fields nor a JSON reader reads the simple interaction (turn number first).
  const json = /["'](requests|responses)\\?["']|\.(requests|responses)\b|Json::(Reader|Value|CharReader)|json::parse|json\.loads?\(|JSON\.parse\(/.test(all);
  return {
    interaction: json ? 'json' : 'simple',
    keepRunning: all.includes(KEEP_RUNNING_MARKER),
    evidence: signs.length > 0 ? signs.join(', ') : 'named with --protocol botzone',
  };
}

/** Whether a source is a whole program (a Botzone bot) rather than the course's AIPlayer or Strategy. */
function isWholeProgram(text: string, language: SubmissionLanguage): boolean {
  if (language === 'C++') return /\bint\s+main\s*\(/.test(text);
  if (language === 'Python') return !/^class[ \t]+AIPlayer\b/m.test(text);
  if (language === 'Java') return true;
  return !/\bclass\s+AIPlayer\b/.test(text);
}

/** What a C++ submission hands g++: sources and headers (compile-cpp.ts compiles the sources, includes the headers). */
export const CPP_SOURCE_EXTENSIONS = new Set(['.cpp', '.cc', '.cxx', '.c++']);
export const CPP_HEADER_EXTENSIONS = new Set(['.h', '.hpp', '.hh', '.hxx', '.inl', '.ipp']);

function cppFilesUnder(root: string): string[] {
  const found: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory() && !IGNORED_DIRS.has(entry.name)) walk(path);
      else if (entry.isFile() && (CPP_SOURCE_EXTENSIONS.has(extname(entry.name).toLowerCase()) || CPP_HEADER_EXTENSIONS.has(extname(entry.name).toLowerCase()))) found.push(path);
    }
  };
  walk(root);
  return found;
}

/**
 * A file or folder name g++ could read as something other than a file (`@r.cpp` is a response file of options,
 * `-specs=s.cpp` an option) or that cannot be quoted in an #include line: why, as one line with the fix, or null.
 * Sources go to g++ as `./name` as well; this refusal comes first, before anything runs.
 */
export function compilerUnsafeNames(root: string, files: string[]): string | null {
  for (const file of files) {
    for (const segment of relative(root, file).split(/[\\/]/)) {
      if (/^[-@]/.test(segment)) {
        return `${relative(root, file)}: g++ would read a name starting with ${segment[0]} as ${segment[0] === '@' ? 'a file of compiler options' : 'a compiler option'}; rename it (a C++ file or folder name must start with a letter, digit or _)`;
      }
      if (/["\\\u0000-\u001f\u007f]/.test(segment)) {
        return `${JSON.stringify(relative(root, file))}: a C++ file or folder name may not hold quotes, backslashes or control characters; rename it`;
      }
    }
  }
  return null;
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
  /** How the entry was found when that deserves a word (a differently cased name, a class found by content). */
  notes?: string[];
  /** Set for a Botzone bot: it runs as a whole program speaking Botzone's protocol (harness/sandbox/botzone-player.ts). */
  botzone?: BotzoneTraits;
  /**
   * A whole program (no AIPlayer class, a C++ main) with none of Botzone's signs, so run as the course's contract:
   * the check's hint then says how to run it as a Botzone bot.
   */
  wholeProgram?: true;
}

/** A submission that cannot be found or is not shaped like one; the message names the fix. */
export class SubmissionError extends Error {
  override name = 'SubmissionError';

  /** The fix, where it is not the usual one (name or pass the entry). */
  constructor(message: string, readonly hint?: string) {
    super(message);
  }
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

/** The top-level files of a folder (names only), for entry detection and for saying what was seen. */
function topFiles(root: string): string[] {
  try {
    return readdirSync(root, { withFileTypes: true })
      .filter((entry) => entry.isFile() || entry.isSymbolicLink())
      .map((entry) => entry.name)
      .sort();
  } catch {
    return [];
  }
}

/**
 * A Python entry found by content: the one top-level .py file that defines class AIPlayer. Null when there is
 * none or more than one.
 */
function looseFindPython(root: string, files: string[]): { file: string; note: string } | null {
  const defining = files.filter((name) => {
    if (!name.endsWith('.py')) return false;
    try {
      return DEFINES_AIPLAYER.test(readFileSync(join(root, name), 'utf8'));
    } catch {
      return false;
    }
  });
  if (defining.length === 1) return { file: join(root, defining[0]), note: `took ${defining[0]}, the one file that defines class AIPlayer, as the entry` };
  return null;
}

/** Languages a student may bring (Botzone serves them) that Referee does not run, by source extension. */
const NOT_RUN: Record<string, string> = { '.cs': 'C#', '.go': 'Go', '.rs': 'Rust', '.pas': 'Pascal', '.kt': 'Kotlin' };
const NOT_RUN_HINT = 'Referee runs C++, Python, TypeScript and JavaScript, and Java Botzone bots: port the bot to one of them';

/** The language of `file` when it is one Referee does not run, else undefined. */
function notRun(file: string): string | undefined {
  const dot = file.lastIndexOf('.');
  return dot < 0 ? undefined : NOT_RUN[file.slice(dot).toLowerCase()];
}

/** A source in a language Referee does not run, when the folder has no source Referee runs. */
function onlyForeign(files: string[]): string | undefined {
  return files.some((name) => hasSourceExtension(name)) ? undefined : files.find((name) => notRun(name));
}

/** The "no entry" message: what the folder holds, and the names to use for its language. */
function noEntryMessage(input: string, files: string[]): string {
  const foreign = onlyForeign(files);
  if (foreign) return `no entry file in ${input}: ${foreign} is ${notRun(foreign)}, which Referee does not run`;
  const python = files.some((name) => name.endsWith('.py')) && !files.some((name) => /\.(ts|js|mjs|cjs)$/.test(name));
  const seen = files.length === 0 ? 'it holds no files' : `it holds ${files.slice(0, 8).join(', ')}${files.length > 8 ? ` and ${files.length - 8} more` : ''}`;
  if (python) {
    return `no entry file in ${input} (${seen}): name the file with class AIPlayer AIPlayer.py (or main.py, player.py), or pass --entry FILE; looked for ${PYTHON_ENTRY_CANDIDATES.join(', ')} and a single file defining class AIPlayer`;
  }
  return `no entry file in ${input} (${seen}): add src/AIPlayer.ts (or set "main" in package.json), Strategy.cpp or AIPlayer.cpp for C++, or pass --entry FILE; looked for ${TYPESCRIPT_ENTRY_CANDIDATES.join(', ')}, and for Python ${PYTHON_ENTRY_CANDIDATES.join(', ')}`;
}

/**
 * `entry`: a file inside the folder named by the user or the assignment (`--entry`, the config's `entry`),
 * relative to the folder; it overrides every convention.
 */
export function resolveSubmission(
  path: string,
  limits: SubmissionLimits = DEFAULT_SUBMISSION_LIMITS,
  entryName?: string,
  protocol?: SubmissionProtocol,
): ResolvedSubmission {
  const input = resolve(path);
  if (!existsSync(input)) {
    // A name that was not UTF-8 reaches node with U+FFFD in place of its bytes, so it cannot be opened by name.
    if (input.includes('\uFFFD')) {
      throw new SubmissionError(`submission not found: ${input} has bytes that are not UTF-8 (shown as \uFFFD): rename it with UTF-8 characters`);
    }
    throw new SubmissionError(`submission not found: ${input}; pass a file like src/AIPlayer.ts or a folder`);
  }
  const isDirectory = statSync(input).isDirectory();
  const root = realpathSync(isDirectory ? input : dirname(input));
  let entry: string;
  const notes: string[] = [];
  if (isDirectory && entryName !== undefined) {
    const named = resolve(root, entryName);
    if (!existsSync(named) || !statSync(named).isFile()) {
      throw new SubmissionError(`the entry ${entryName} (--entry or the assignment's "entry") is not a file in ${input}: give a path relative to the folder, e.g. --entry AIPlayer.py`);
    }
    if (!hasSourceExtension(named)) {
      throw new SubmissionError(`the entry ${entryName} is not a source file: use a ${SOURCE_EXTENSIONS.join(', ')} file`);
    }
    entry = realpathSync(named);
  } else if (isDirectory) {
    const files = topFiles(root);
    const pythonFirst = files.some((name) => name.endsWith('.py')) && !files.some((name) => /\.(ts|js|mjs|cjs)$/.test(name)) && !existsSync(join(root, 'src'));
    const candidates = pythonFirst ? [...PYTHON_ENTRY_CANDIDATES] : [...ENTRY_CANDIDATES, ...PYTHON_ENTRY_CANDIDATES.slice(2)];
    const cased = files.find((name) => name.toLowerCase() === 'aiplayer.py' && name !== 'AIPlayer.py');
    let found = mainOf(root) ?? candidates.map((name) => join(root, name)).find((file) => existsSync(file));
    if (pythonFirst && cased && (!found || !found.endsWith('AIPlayer.py'))) {
      // The platform's name in another case (AIplayer.py) outranks main.py and player.py.
      found = join(root, cased);
      notes.push(`took ${cased} as the entry (the platform's name is AIPlayer.py: rename it to be safe on case-sensitive systems)`);
    }
    if (pythonFirst && found && found.endsWith('.py') && !providesAIPlayer(found)) {
      // A conventional name (main.py, the notebook's) that holds no AIPlayer, beside the one file that defines it
      // (players.py): that file is the player, as the student's own notebook imports it.
      const loose = looseFindPython(root, files);
      if (loose) {
        notes.push(`${loose.note} (${basename(found)} neither defines nor imports AIPlayer)`);
        found = loose.file;
      }
    }
    if (!found || protocol === 'botzone') {
      const bot = findBotzoneEntry(root, files, protocol === 'botzone');
      if (bot && (!found || protocol === 'botzone')) found = bot;
    }
    if (!found) {
      const loose = looseFindPython(root, files);
      if (loose) {
        found = loose.file;
        notes.push(loose.note);
      }
    }
    if (!found) throw new SubmissionError(noEntryMessage(input, files), onlyForeign(files) ? NOT_RUN_HINT : undefined);
    entry = realpathSync(found);
  } else {
    if (!hasSourceExtension(input)) {
      const language = notRun(input);
      if (language) throw new SubmissionError(`${input} is ${language}, which Referee does not run`, NOT_RUN_HINT);
      throw new SubmissionError(`${input} is not a submission: use a ${SOURCE_EXTENSIONS.join(', ')} file or a folder`);
    }
    entry = realpathSync(input);
    const size = statSync(entry).size;
    if (size > limits.maxBytes) {
      throw new SubmissionError(`${input} is ${megabytes(size)}, over the ${megabytes(limits.maxBytes)} cap (maxSubmissionMb): a submission is source code, not data`);
    }
  }
  if (isDirectory) measureFolder(root, limits);
  if (languageOf(entry) === 'C++' && extname(entry) !== '.so') {
    const unsafe = compilerUnsafeNames(root, isDirectory ? cppFilesUnder(root) : [entry]);
    if (unsafe) throw new SubmissionError(unsafe);
  }
  if (!isInside(root, entry)) {
    throw new SubmissionError(`the entry ${entry} lies outside the submission folder ${root}; move it inside`);
  }
  const language = languageOf(entry);
  const resolved: ResolvedSubmission = { input, root, entry, kind: isDirectory ? 'directory' : 'file', language, ...(notes.length > 0 ? { notes } : {}) };
  if (language === 'Java' && protocol === 'course') {
    throw new SubmissionError(`${basename(entry)} is Java, which Referee runs only as a Botzone bot (the course's contract has no Java side): drop --protocol course`);
  }
  if (protocol !== 'course' && extname(entry) !== '.so') {
    const text = readSource(entry);
    if (protocol === 'botzone' || isWholeProgram(text, language)) {
      const texts = [text, ...(isDirectory && language === 'C++' ? siblingSources(root, entry) : [])];
      // Java has no contract but Botzone's here: a Java program is a Botzone bot with or without its signs.
      const traits = botzoneTraits(texts, protocol === 'botzone' || language === 'Java');
      if (traits && language === 'Java' && protocol !== 'botzone' && botzoneSigns(texts.join('\n')).length === 0) traits.evidence = 'a Java program (Botzone runs its class Main)';
      if (traits) resolved.botzone = traits;
      // A C++ AIPlayer or Strategy that keeps its own test main() is the course's contract (the host never runs main).
      else if (!(language === 'C++' && /\b(class|struct)\s+AIPlayer\b|\bgetPoint\s*\(/.test(text))) resolved.wholeProgram = true;
    }
  }
  return resolved;
}

/** A source as text (bytes that are not UTF-8, a GBK comment, become U+FFFD: the signs are ASCII). */
function readSource(path: string): string {
  try {
    return readFileSync(path, 'latin1');
  } catch {
    return '';
  }
}

/** The other C++ sources of a folder (a multi-file bot's marker may live in any of them). */
function siblingSources(root: string, entry: string): string[] {
  return topFiles(root)
    .filter((name) => /\.(cpp|cc|cxx|h|hpp)$/i.test(name) && join(root, name) !== entry)
    .slice(0, 50)
    .map((name) => readSource(join(root, name)));
}

/** Names a Botzone bot's folder uses for its program (Botzone takes one source; these are the usual file names). */
const BOTZONE_ENTRY_CANDIDATES = ['main.cpp', 'bot.cpp', 'Bot.cpp', 'main.py', 'bot.py', '__main__.py', 'main.js', 'bot.js', 'Main.java'];

/**
 * A Botzone bot's entry in a folder with no course entry: a conventional name, else the one top-level source that
 * is a whole program with Botzone's signs (or any whole program when the user named the protocol).
 */
function findBotzoneEntry(root: string, files: string[], named: boolean): string | null {
  for (const name of BOTZONE_ENTRY_CANDIDATES) if (files.includes(name)) return join(root, name);
  const programs = files.filter((name) => {
    const ext = extname(name);
    if (!['.cpp', '.cc', '.py', '.js', '.java'].includes(ext)) return false;
    const text = readSource(join(root, name));
    // A Java program is a Botzone bot by its language (Botzone runs its class Main; no course contract is in Java).
    return isWholeProgram(text, languageOf(name)) && (named || ext === '.java' || botzoneSigns(text).length > 0);
  });
  return programs.length === 1 ? join(root, programs[0]) : null;
}
