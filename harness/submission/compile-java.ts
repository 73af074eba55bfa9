/**
 * The compile step for a Java Botzone bot. Botzone takes one source, saves it as Main.java, compiles it with
 * `javac -encoding utf-8` and runs `java Main`; so does this: the bot's one .java file (whatever its name) is staged
 * as ./Main.java and javac runs in the sandbox like g++ (cpp-build.ts: a private staged copy, the cgroup and rlimits,
 * bubblewrap or Landlock, no network, the unprivileged uid, a CPU bound), with no annotation processors (they would
 * run code the bot ships at compile time) and no path of the student's on its command line. The classes are cached
 * by the source's content: a folder of .class files whose Main.class is the bundle.
 *
 * javac is itself a JVM: its heap, class space and code cache are capped so that it starts under the compiler's
 * address-space limit and its memory ceiling, and it runs at C1 only (it compiles one file; C2 would cost CPU).
 */
import { createHash } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync } from 'node:fs';
import { basename, dirname, join, relative } from 'node:path';
import { GraderError } from '../referee/grader-error.js';
import { cacheDir, cacheFile, cacheFolder, touchCacheEntry } from '../sandbox/cache-dir.js';
import { runSandboxedBuild } from '../sandbox/cpp-build.js';
import { findJava, JAVA_MAIN_CLASS, noJava } from '../sandbox/java-runtime.js';
import type { Layers } from '../sandbox/layers.js';
import { stageProgram } from '../sandbox/staging.js';
import { describeStop, toolCpuMs } from '../sandbox/tool-bound.js';
import { CompileError, type CompiledSubmission, type SourceProblem } from './compile.js';
import type { ResolvedSubmission } from './resolve.js';

/** What javac's own JVM may use: it starts under the build's address-space limit (memory + 1 GB) this way. */
const JAVAC_JVM = ['-J-Xmx512m', '-J-XX:CompressedClassSpaceSize=64m', '-J-XX:ReservedCodeCacheSize=64m', '-J-XX:+UseSerialGC', '-J-XX:-UsePerfData', '-J-XX:TieredStopAtLevel=1'];
/** Botzone's: UTF-8 sources. No annotation processing, only the one file, errors only. */
const JAVAC_FLAGS = ['-encoding', 'utf-8', '-proc:none', '-implicit:none', '-nowarn', '-Xmaxerrs', '20'];
const SOURCE_NAME = `${JAVA_MAIN_CLASS}.java`;
/** javac's CPU bound: a bot compiles in about a second of CPU; two minutes is a compiler that never ends. */
const COMPILE_CPU_MS = 120_000;
/** `static void main(String` in some spelling (String[] args, String... args, final String a[]). */
const MAIN_METHOD = /\bstatic\s+(?:final\s+)?void\s+main\s*\(\s*(?:final\s+)?String\b/;
const MAIN_CLASS = /\bclass\s+Main\b/;

const problem = (text: string): CompileError => new CompileError([{ file: '', line: 0, column: 0, text }]);

/** The class files under `dir` (a bot's inner and anonymous classes are files of their own). */
function classFiles(dir: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) found.push(...classFiles(path));
    else if (entry.isFile() && entry.name.endsWith('.class')) found.push(path);
  }
  return found.sort();
}

/**
 * javac's errors as located problems: `./Main.java:12: error: ';' expected`, the source line, then a caret under
 * the column. Named by the student's own file name.
 */
export function javacProblems(stderr: string, shownName: string): SourceProblem[] {
  const problems: SourceProblem[] = [];
  const lines = stderr.split('\n');
  for (let i = 0; i < lines.length && problems.length < 20; i++) {
    const match = /^(?:\.\/)?Main\.java:(\d+): error: (.*)$/.exec(lines[i]);
    if (!match) continue;
    const caret = lines[i + 2] !== undefined && /^\s*\^\s*$/.test(lines[i + 2]) ? lines[i + 2].indexOf('^') + 1 : 0;
    problems.push({ file: shownName, line: Number(match[1]), column: caret, text: match[2] });
  }
  if (problems.length === 0 && /^error: /m.test(stderr)) {
    problems.push({ file: '', line: 0, column: 0, text: `javac: ${/^error: (.*)$/m.exec(stderr)![1]}` });
  }
  return problems;
}

/** Compile (or find in the cache) a Java bot; throws CompileError with the problems located, or the fix. */
export async function compileJavaBot(submission: ResolvedSubmission, options: { layers?: Layers; cpuMs?: number; memoryMb?: number } = {}): Promise<CompiledSubmission> {
  const java = findJava();
  // The grader's machine lacks the JDK: the grader's error with the fix, never the student's compile failure.
  if (!java) throw new GraderError(noJava());
  const shown = basename(submission.entry);
  const source = readFileSync(submission.entry);
  const text = source.toString('latin1');
  if (!MAIN_CLASS.test(text) || !MAIN_METHOD.test(text)) {
    throw problem(`${shown}: Botzone runs \`java Main\`: the bot needs a class Main with public static void main(String[] args), in no package`);
  }
  const hash = createHash('sha256').update(`botzone-java/1\0${java.home}\0${[...JAVAC_FLAGS].join(' ')}\0`).update(source).digest('hex').slice(0, 20);
  // The source's hash names the class folder (a folder is cached by its own content: cache-dir.ts).
  const index = join(cacheDir(), `botzone-java-${hash}.dir`);
  if (existsSync(index)) {
    const folder = join(cacheDir(), readFileSync(index, 'utf8').trim());
    if (existsSync(join(folder, `${JAVA_MAIN_CLASS}.class`))) {
      touchCacheEntry(index);
      touchCacheEntry(folder);
      return { bundlePath: join(folder, `${JAVA_MAIN_CLASS}.class`), hash, warnings: [], files: classFiles(folder) };
    }
  }

  const staged = stageProgram(dirname(submission.entry), [submission.entry], submission.entry, 'jv');
  try {
    // Botzone saves the one source as Main.java (a public class Main must live there).
    if (basename(staged.entry) !== SOURCE_NAME) renameSync(staged.entry, join(staged.dir, SOURCE_NAME));
    const outDir = join(staged.dir, '.out');
    mkdirSync(outDir, { mode: 0o777 });
    chmodSync(outDir, 0o777); // javac may run as nobody
    const classes = join(outDir, 'classes');
    mkdirSync(classes, { mode: 0o777 });
    chmodSync(classes, 0o777);
    const cpuMs = options.cpuMs ?? toolCpuMs(COMPILE_CPU_MS);
    const memoryMb = options.memoryMb ?? 1024;
    const what = 'javac compiling the bot';
    const outcome = await runSandboxedBuild({
      command: [java.javac, ...JAVAC_JVM, ...JAVAC_FLAGS, '-sourcepath', staged.dir, '-classpath', staged.dir, '-d', classes, `./${SOURCE_NAME}`],
      sourceDir: staged.dir,
      outDir,
      readOnly: java.binds,
      cpuMs,
      what,
      memoryMb,
      layers: options.layers,
    });
    if (outcome.result === 'timeout') throw problem(`${describeStop(outcome.stop!, what, { cpuMs })}: look for a huge constant table or generated code`);
    if (outcome.result === 'memory') throw problem(`javac ran out of its ${memoryMb} MB memory compiling the bot: look for a huge constant table`);
    if (outcome.result === 'failed') {
      const problems = javacProblems(outcome.stderr, shown);
      throw new CompileError(problems.length > 0 ? problems : [{ file: '', line: 0, column: 0, text: `javac failed: ${outcome.stderr.trim().split('\n').slice(-3).join(' ⏎ ').slice(0, 500)}` }]);
    }
    if (!existsSync(join(classes, `${JAVA_MAIN_CLASS}.class`))) {
      throw problem(`${shown}: javac made no Main.class at the top (a package line puts it elsewhere): Botzone runs \`java Main\`, so remove the package declaration`);
    }
    const folder = cacheFolder('botzone-java-classes', classes, classFiles(classes));
    cacheFile(basename(index), relative(cacheDir(), folder));
    return { bundlePath: join(folder, `${JAVA_MAIN_CLASS}.class`), hash, warnings: [], files: classFiles(folder) };
  } finally {
    staged.remove();
  }
}
