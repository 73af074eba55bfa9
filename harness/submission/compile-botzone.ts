/**
 * The compile step for Botzone bots. A C++ bot is a whole program: its sources become one executable as Botzone's
 * compiler builds it (g++ -O2 -D_BOTZONE_ONLINE, jsoncpp linked, nlohmann json on the include path), inside the
 * sandbox (cpp-build.ts, the same confined g++ as every C++ submission) and cached by content hash. "jsoncpp/json.h"
 * (Botzone's layout) and "json/json.h" (Debian's) both resolve. The standard is C++17 unless a source or a
 * compile_flags.txt asks for another with -std=c++NN. Python and JavaScript bots run as they are (Python's syntax
 * is checked first, as for every Python submission). A Java bot is compiled as Botzone compiles it (one source,
 * saved as Main.java: `javac -encoding utf-8`) by javac in the same sandbox, and its classes cached by content
 * (compile-java.ts).
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { basename, dirname, extname, join, relative } from 'node:path';
import { cacheFolder } from '../sandbox/cache-dir.js';
import { cppSourceDir, findCompiler, NO_COMPILER } from '../sandbox/cpp-runtime.js';
import type { Layers } from '../sandbox/layers.js';
import { CompileError, type CompiledSubmission } from './compile.js';
import { cachedSandboxBuild, sourceFiles } from './compile-cpp.js';
import { compileJavaBot } from './compile-java.js';
import { compilePythonSubmission } from './compile-python.js';
import type { ResolvedSubmission } from './resolve.js';

const SOURCES = new Set(['.cpp', '.cc', '.cxx', '.c++']);
/** Where Debian's libjsoncpp-dev puts json/json.h. */
const JSONCPP_INCLUDE = '/usr/include/jsoncpp';
const BASE_FLAGS = ['-O2', '-D_BOTZONE_ONLINE', '-pthread', '-fdiagnostics-format=json', '-fmax-errors=20'];
/** The executable's name in the build and in the artefact. */
export const BOTZONE_EXECUTABLE = 'bot';

/** The C++ standard a bot asks for (-std=c++NN in a source comment or compile_flags.txt), else c++17. */
export function requestedStandard(texts: string[]): string {
  for (const text of texts) {
    const match = /-std=((?:c|gnu)\+\+(?:11|14|17|20|2a|23|2b))\b/.exec(text);
    if (match) return match[1];
  }
  return 'c++17';
}

let includes: string | null = null;

/** The cached shim folder that makes "jsoncpp/json.h" resolve (cpp/botzone/jsoncpp/json.h). */
function botzoneIncludeDir(): string {
  if (includes && existsSync(includes)) return includes;
  const source = join(cppSourceDir(), 'botzone');
  includes = cacheFolder('cpp-botzone', source, [join(source, 'jsoncpp', 'json.h')]);
  return includes;
}

export interface BotzoneCompileOptions {
  layers?: Layers;
  /** The compiler's CPU bound (ms; tool-bound.ts). */
  cpuMs?: number;
  memoryMb?: number;
}

/** Compile (or find cached) a Botzone bot; Python and JavaScript are returned as they are. */
export async function compileBotzoneSubmission(submission: ResolvedSubmission, options: BotzoneCompileOptions = {}): Promise<CompiledSubmission> {
  if (submission.language === 'Python') {
    const compiled = await compilePythonSubmission(submission);
    return { ...compiled, hash: createHash('sha256').update(`botzone\0${compiled.hash}`).digest('hex').slice(0, 20) };
  }
  if (submission.language === 'Java') return compileJavaBot(submission, options);
  if (submission.language !== 'C++') {
    const hash = createHash('sha256').update('botzone-js\0').update(readFileSync(submission.entry)).digest('hex').slice(0, 20);
    return { bundlePath: submission.entry, hash, warnings: [], files: [submission.entry] };
  }
  const compiler = findCompiler();
  if (!compiler) throw new CompileError([{ file: '', line: 0, column: 0, text: NO_COMPILER }]);
  const root = submission.kind === 'file' ? dirname(submission.entry) : submission.root;
  const files = submission.kind === 'file' ? [submission.entry] : sourceFiles(root);
  const units = files.filter((file) => SOURCES.has(extname(file).toLowerCase()));
  const flagsFile = join(root, 'compile_flags.txt');
  const texts = [...(submission.kind === 'directory' && existsSync(flagsFile) ? [readFileSync(flagsFile, 'latin1')] : []), ...files.map((file) => readFileSync(file, 'latin1'))];
  const flags = [`-std=${requestedStandard(texts)}`, ...BASE_FLAGS];
  const shim = botzoneIncludeDir();

  return cachedSandboxBuild({
    keyPrefix: `botzone-cpp/1\0${compiler.version}\0${flags.join(' ')}\0${basename(shim)}\0`,
    cacheName: (hash) => `botzone-${hash}`,
    submission,
    root,
    files,
    stagePrefix: 'bz',
    headers: shim,
    what: 'the bot',
    options,
    command: (_staged, stagedShim, outDir) => {
      const output = join(outDir, BOTZONE_EXECUTABLE);
      const argv = [compiler.path, ...flags, '-isystem', JSONCPP_INCLUDE, '-idirafter', stagedShim, ...units.map((file) => `./${relative(root, file)}`), '-o', output, '-ljsoncpp'];
      return { argv, output, mode: 0o755 };
    },
  });
}
