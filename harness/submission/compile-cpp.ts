/**
 * The compile step for C++ submissions: the student's sources become one shared library (`g++ -std=c++17 -O2
 * -fPIC -shared`), compiled inside the sandbox (cpp-build.ts) and cached by content hash, which the C++ host
 * dlopens. Two shapes:
 *   - the Connect Four course's `Strategy.cpp` (any entry but AIPlayer.cpp) with its sibling .cpp files, exporting
 *     getPoint/clearPoint; the course SDK's headers (Point.h, Strategy.h, Judge.h and Judge.cpp's helpers) are the
 *     project's own and used where the submission ships none (its own copies win);
 *   - Referee's C++ `AIPlayer.cpp` (student-template/cpp): a small glue file includes it and exports the functions
 *     the host calls (referee_player_*), with the game's header-only Board.
 * A prebuilt `.so` (the course's compiled test AIs) is taken as it is: it is checked to be an ELF shared object and
 * runs sandboxed like any submission.
 *
 * Errors come from g++'s JSON diagnostics (-fdiagnostics-format=json), each once, as file:line:col; Windows-only
 * code (conio.h, windows.h, atlstr.h, __declspec, __int8) is named in one line with the fix.
 */
import { createHash } from 'node:crypto';
import { chmodSync, closeSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, readSync, writeFileSync } from 'node:fs';
import { basename, dirname, extname, join, relative, sep } from 'node:path';
import { cacheDir, cacheFile, touchCacheEntry } from '../sandbox/cache-dir.js';
import { runSandboxedBuild } from '../sandbox/cpp-build.js';
import { buildCppHostAhead, cppHeadersDir, findCompiler, NO_COMPILER, stopCppHostAhead } from '../sandbox/cpp-runtime.js';
import type { Layers } from '../sandbox/layers.js';
import { stageProgram, stageShared } from '../sandbox/staging.js';
import { describeStop, toolCpuMs } from '../sandbox/tool-bound.js';
import { CompileError, type CompiledSubmission, type SourceProblem } from './compile.js';
import { compilerUnsafeNames, CPP_HEADER_EXTENSIONS, CPP_SOURCE_EXTENSIONS, type ResolvedSubmission } from './resolve.js';

const SOURCES = CPP_SOURCE_EXTENSIONS;
const HEADERS = CPP_HEADER_EXTENSIONS;
const SKIPPED_DIRS = new Set(['node_modules', '.git', 'referee-report', 'build', 'cmake-build-debug', 'Debug', 'Release', 'x64', '.vs']);
const FLAGS = ['-std=c++17', '-O2', '-fPIC', '-shared', '-pthread', '-fdiagnostics-format=json', '-fmax-errors=20'];
/** The glue that turns Referee's C++ AIPlayer into what the host calls (the student's file is included by it). */
const GLUE_NAME = '.referee-aiplayer-glue.cpp';
const MOST_PROBLEMS = 20;
/** g++'s CPU bound: the template starter builds in about a second of CPU; two minutes is a computation that never ends. */
const COMPILE_CPU_MS = 120_000;

export interface CppCompileOptions {
  layers?: Layers;
  /** The compiler's CPU bound (default 120 s, REFEREE_TOOL_CPU_S; tool-bound.ts) and memory ceiling (default 1024 MB). */
  cpuMs?: number;
  memoryMb?: number;
}

/** Whether this entry is Referee's C++ AIPlayer (else the Connect Four SDK's getPoint interface). */
export function isAIPlayerEntry(entry: string): boolean {
  return basename(entry) === 'AIPlayer.cpp';
}

export function sourceFiles(dir: string, depth = 0): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      // referee/: the starter's copies of the Board headers; the grader's own are used (-idirafter), as for board.py.
      const ownCopy = depth === 0 && entry.name === 'referee';
      if (depth < 3 && !ownCopy && !entry.name.startsWith('.') && !SKIPPED_DIRS.has(entry.name)) found.push(...sourceFiles(path, depth + 1));
    } else if (entry.isFile()) {
      const ext = extname(entry.name).toLowerCase();
      if (SOURCES.has(ext) || HEADERS.has(ext)) found.push(path);
    }
  }
  return found.sort();
}

function glue(entryRelative: string): string {
  return [
    '// Written by Referee: builds the AIPlayer of the file below for the C++ host.',
    `#include "${entryRelative.split(sep).join('/')}"`,
    '#include <cstring>',
    '#include <string>',
    'extern "C" void* referee_player_new(char color) { return new AIPlayer(color); }',
    'extern "C" void referee_player_delete(void* player) { delete static_cast<AIPlayer*>(player); }',
    'extern "C" const char* referee_player_game() { return Board::GAME; }',
    'extern "C" void referee_player_set_game(const char* game) { referee::playedGame() = game; }',
    'extern "C" int referee_player_move(void* player, const char* state, char* out, int size) {',
    '  std::string why;',
    '  int status = 0;',
    '  std::string text;',
    '  Board board;',
    '  if (!Board::fromState(state, board, why)) { text = why; status = 1; }',
    '  else { text = static_cast<AIPlayer*>(player)->getMove(static_cast<const Board&>(board)); if (static_cast<int>(text.size()) >= size) { text.resize(static_cast<size_t>(size) - 1); status = 2; } }',
    '  std::memcpy(out, text.c_str(), text.size() + 1 > static_cast<size_t>(size) ? static_cast<size_t>(size) : text.size() + 1);',
    '  out[size - 1] = 0;',
    '  return status;',
    '}',
    '',
  ].join('\n');
}

const WINDOWS_ONLY: { pattern: RegExp; what: string }[] = [
  { pattern: /^\s*#\s*include\s*[<"]\s*conio\.h\s*[>"]/i, what: '<conio.h>' },
  { pattern: /^\s*#\s*include\s*[<"]\s*windows\.h\s*[>"]/i, what: '<windows.h>' },
  { pattern: /^\s*#\s*include\s*[<"]\s*atlstr\.h\s*[>"]/i, what: '<atlstr.h>' },
  { pattern: /\b__declspec\b/, what: '__declspec' },
  { pattern: /\b__int8\b/, what: '__int8' },
];

/** Comments blanked out (line structure kept), so a commented-out #include <conio.h> is not named. */
function withoutComments(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\/|\/\/[^\n]*/g, (comment) => comment.replace(/[^\n]/g, ' '));
}

/** Where the sources use Windows-only headers or MSVC keywords, as 'file:line what'. */
export function windowsOnlyCode(root: string, files: string[]): string[] {
  const found: string[] = [];
  for (const file of files) {
    const lines = withoutComments(readFileSync(file, 'utf8')).split('\n');
    lines.forEach((line, i) => {
      for (const { pattern, what } of WINDOWS_ONLY) if (pattern.test(line)) found.push(`${relative(root, file)}:${i + 1} ${what}`);
    });
  }
  return found;
}

export function windowsOnlyMessage(found: string[]): string {
  const shown = found.length > 6 ? [...found.slice(0, 6), `and ${found.length - 6} more`] : found;
  return (
    `Windows-only code, which g++ on Linux cannot build: ${shown.join(', ')}. Fix: delete the <conio.h>, <windows.h> and <atlstr.h> includes ` +
    'and their calls (_getch, _kbhit, Sleep, CString, system("pause")), write int8_t from <cstdint> for __int8, and drop __declspec(...)'
  );
}

interface GccDiagnostic {
  kind: string;
  message: string;
  locations?: { caret?: { file: string; line: number; column: number } }[];
}

/** The problems of a failed build: g++'s JSON diagnostics (errors, each once) and the linker's errors. */
export function buildProblems(stderr: string, stagedDir: string, headersDir: string): SourceProblem[] {
  const problems: SourceProblem[] = [];
  const seen = new Set<string>();
  const add = (problem: SourceProblem): void => {
    const key = `${problem.file}:${problem.line}:${problem.column}:${problem.text}`;
    if (seen.has(key) || problems.length >= MOST_PROBLEMS) return;
    seen.add(key);
    problems.push(problem);
  };
  const shownPath = (file: string): string => {
    if (file.startsWith(headersDir)) return `<referee sdk>/${relative(headersDir, file).replace(/^sdk\//, '')}`;
    if (file.startsWith(stagedDir)) return relative(stagedDir, file);
    return file.startsWith('./') ? file.slice(2) : file;
  };
  for (const line of stderr.split('\n')) {
    if (line.startsWith('[')) {
      let diagnostics: GccDiagnostic[];
      try {
        diagnostics = JSON.parse(line) as GccDiagnostic[];
      } catch {
        continue;
      }
      for (const diagnostic of diagnostics) {
        if (!/error/.test(diagnostic.kind)) continue;
        const caret = diagnostic.locations?.[0]?.caret;
        add({ file: caret ? shownPath(caret.file) : '', line: caret?.line ?? 0, column: caret?.column ?? 0, text: diagnostic.message });
      }
    } else if (/\.s:\d+: Error: /.test(line)) {
      // The assembler (inline asm: .incbin, .include): its message, without the temporary file's name.
      add({ file: '', line: 0, column: 0, text: `assembler: ${line.replace(/^.*\.s:\d+: Error: /, '')}` });
    } else if (/undefined reference|multiple definition|cannot find -l/.test(line)) {
      // The linker has no structured output: its line, without the temporary object file's name and offsets.
      add({ file: '', line: 0, column: 0, text: `link: ${line.replace(/^\/usr\/bin\/ld: (\/tmp\/[^:]+: )?/, '').replace(/\(\.text[^)]*\)/g, '').trim()}` });
    }
  }
  return problems;
}

function isElfSharedObject(path: string): boolean {
  const header = Buffer.alloc(18);
  const fd = openSync(path, 'r');
  try {
    readSync(fd, header, 0, 18, 0);
  } finally {
    closeSync(fd);
  }
  // \x7fELF, then e_type (offset 16, little-endian) 3 = ET_DYN.
  return header.subarray(0, 4).equals(Buffer.from([0x7f, 0x45, 0x4c, 0x46])) && header.readUInt16LE(16) === 3;
}

/** A compiled test AI (.so) taken as it is. */
function prebuilt(submission: ResolvedSubmission): CompiledSubmission {
  if (!isElfSharedObject(submission.entry)) {
    throw new CompileError([{ file: '', line: 0, column: 0, text: `${basename(submission.entry)} is not a Linux shared library (ELF .so): build it with g++ -std=c++17 -O2 -fPIC -shared, or give the Strategy.cpp folder` }]);
  }
  const hash = createHash('sha256').update(readFileSync(submission.entry)).digest('hex').slice(0, 20);
  return { bundlePath: submission.entry, hash, warnings: [], files: [submission.entry] };
}

/** Compile (or find in the cache) a C++ submission; throws CompileError with its problems located. */
export async function compileCppSubmission(submission: ResolvedSubmission, options: CppCompileOptions = {}): Promise<CompiledSubmission> {
  if (extname(submission.entry) === '.so') return prebuilt(submission);
  const compiler = findCompiler();
  if (!compiler) throw new CompileError([{ file: '', line: 0, column: 0, text: NO_COMPILER }]);
  const root = submission.kind === 'file' ? dirname(submission.entry) : submission.root;
  const files = submission.kind === 'file' ? [submission.entry] : sourceFiles(root);
  // resolve.ts refused these already; a caller that built its ResolvedSubmission itself meets the same refusal.
  const unsafe = compilerUnsafeNames(root, files);
  if (unsafe) throw new CompileError([{ file: '', line: 0, column: 0, text: unsafe }]);
  const aiPlayer = isAIPlayerEntry(submission.entry);
  const entryRelative = relative(root, submission.entry);
  const units = files.filter((file) => SOURCES.has(extname(file).toLowerCase()) && !(aiPlayer && file === submission.entry));
  const headers = cppHeadersDir();
  // The SDK's Judge helpers are linked in when the submission has no Judge.cpp (its own definitions win: weak).
  const ownJudge = units.some((file) => basename(file).toLowerCase() === 'judge.cpp');

  // The C++ host is built meanwhile when the cache has none (stopped if this compile fails: no player follows).
  void buildCppHostAhead();
  const built = cachedSandboxBuild({
    keyPrefix: `cpp/1\0${compiler.version}\0${FLAGS.join(' ')}\0${basename(headers)}\0${aiPlayer ? glue(entryRelative) : 'sdk'}\0${ownJudge}\0`,
    cacheName: (hash) => `cpp-${hash}.so`,
    submission,
    root,
    files,
    stagePrefix: 'cc',
    headers,
    what: 'the submission',
    options,
    command: (staged, sharedHeaders, outDir) => {
      const stagedSdk = join(sharedHeaders, 'sdk');
      // Every source as ./name: nothing the student named can read as an option or a response file (@file).
      const translationUnits = units.map((file) => `./${relative(root, file).split(sep).join('/')}`);
      if (aiPlayer) {
        writeFileSync(join(staged, GLUE_NAME), glue(entryRelative), { mode: 0o644 });
        translationUnits.push(`./${GLUE_NAME}`);
      }
      if (!ownJudge) translationUnits.push(join(stagedSdk, 'Judge.cpp'));
      const output = join(outDir, 'player.so');
      return { argv: [compiler.path, ...FLAGS, '-idirafter', stagedSdk, '-idirafter', sharedHeaders, ...translationUnits, '-Wl,-z,defs', '-o', output], output };
    },
  });
  built.catch(stopCppHostAhead);
  return built;
}

export interface CachedBuild {
  /** What the cache key starts with: the compiler, flags and anything else the output depends on besides the sources. */
  keyPrefix: string;
  /** The cache entry's file name for a content hash. */
  cacheName: (hash: string) => string;
  submission: ResolvedSubmission;
  root: string;
  files: string[];
  /** The staged folder's prefix (staging.ts). */
  stagePrefix: string;
  /** A trusted header folder staged world-readable and mounted read-only for the compiler. */
  headers: string;
  /** How errors name what was compiled ("the submission", "the bot"). */
  what: string;
  options: CppCompileOptions;
  /** The compiler's command line, given the staged sources, the staged headers and the writable output folder. */
  command: (staged: string, headers: string, outDir: string) => { argv: string[]; output: string; mode?: number };
}

/**
 * One content-addressed, sandboxed g++ build, shared by C++ AIPlayers and Botzone bots: the key (prefix, then each
 * file's relative name and bytes), the cache lookup, the private staged copy with its writable output folder, the
 * confined compiler, its failures as located problems, and the result cached under the key.
 */
export async function cachedSandboxBuild(build: CachedBuild): Promise<CompiledSubmission> {
  const { root, files, options } = build;
  const key = createHash('sha256').update(build.keyPrefix);
  for (const file of files) key.update(`${relative(root, file)}\0`).update(readFileSync(file)).update('\0');
  const hash = key.digest('hex').slice(0, 20);
  const cached = join(cacheDir(), build.cacheName(hash));
  if (existsSync(cached)) {
    touchCacheEntry(cached);
    return { bundlePath: cached, hash, warnings: [], files: [cached] };
  }

  const staged = stageProgram(root, files, build.submission.entry, build.stagePrefix);
  try {
    const sharedHeaders = stageShared(build.headers);
    const outDir = join(staged.dir, '.out');
    mkdirSync(outDir, { mode: 0o777 });
    chmodSync(outDir, 0o777);
    const { argv, output, mode } = build.command(staged.dir, sharedHeaders, outDir);
    const cpuMs = options.cpuMs ?? toolCpuMs(COMPILE_CPU_MS);
    const outcome = await runSandboxedBuild({
      command: argv,
      sourceDir: staged.dir,
      outDir,
      readOnly: [sharedHeaders],
      cpuMs,
      what: `g++ compiling ${build.what}`,
      memoryMb: options.memoryMb ?? 1024,
      layers: options.layers,
    });
    const problem = (text: string): CompileError => new CompileError([{ file: '', line: 0, column: 0, text }]);
    if (outcome.result === 'timeout') {
      const line = describeStop(outcome.stop!, `g++ compiling ${build.what}`, { cpuMs });
      throw problem(`${line}: look for a template or constexpr computation that never ends${outcome.stop?.reason === 'stalled' ? ', or an #include of a device or a pipe' : ''}`);
    }
    if (outcome.result === 'memory') throw problem(`g++ ran out of its ${options.memoryMb ?? 1024} MB memory compiling ${build.what}: look for a template or constexpr blow-up`);
    if (outcome.result === 'failed') {
      const windows = windowsOnlyCode(root, files);
      if (windows.length > 0) throw problem(windowsOnlyMessage(windows));
      const problems = buildProblems(outcome.stderr, staged.dir, sharedHeaders);
      throw new CompileError(problems.length > 0 ? problems : [{ file: '', line: 0, column: 0, text: `g++ failed: ${outcome.stderr.trim().split('\n').slice(-3).join(' ⏎ ').slice(0, 500)}` }]);
    }
    const bundlePath = cacheFile(build.cacheName(hash), readFileSync(output));
    if (mode !== undefined) chmodSync(bundlePath, mode);
    return { bundlePath, hash, warnings: [], files: [bundlePath] };
  } finally {
    staged.remove();
  }
}
