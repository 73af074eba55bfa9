/**
 * The compile step for Python submissions: no bundle (the sandbox runs the student's own files, so sibling
 * modules import as they would on the platform), but the same guarantees before any student code runs: every
 * file the entry imports from the submission folder parses, and the hash covers exactly those files.
 * Parsing is done by python/syntax.py with the grader's interpreter; it runs nothing of the student's.
 */
import { createHash } from 'node:crypto';
import { readFileSync, realpathSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { cacheDir, replaceCacheFile, touchCacheEntry } from '../sandbox/cache-dir.js';
import { GraderError } from '../referee/grader-error.js';
import { findPython, noPython, pythonRuntimeDir } from '../sandbox/python-runtime.js';
import { describeStop, runTool, starvedError, toolCpuMs } from '../sandbox/tool-bound.js';
import { aloneMessage, CompileError, type CompiledSubmission, type SourceProblem } from './compile.js';
import type { ResolvedSubmission } from './resolve.js';

/** Modules the Python host provides under these names, whatever the submission folder holds. */
const PROVIDED = new Set(['board.py', 'game.py', 'func_timeout.py', 'func_timeout/__init__.py']);

interface SyntaxReport {
  files: string[];
  problems: SourceProblem[];
  /** Code that runs here but fails on the platform (a get_move game.py cannot call by keyword). */
  warnings?: SourceProblem[];
  /** Every path syntax.py looked at to follow an import: its real path, or null where it found no file. */
  probed?: Record<string, string | null>;
  /** The sha256 of the bytes syntax.py parsed, per file it read. */
  contents?: Record<string, string>;
}

const contentHash = (file: string): string => createHash('sha256').update(readFileSync(file)).digest('hex');

/** A probed path's real path as syntax.py saw it (os.path.isfile, then realpath), or null. */
function probe(candidate: string): string | null {
  try {
    return statSync(candidate).isFile() ? realpathSync(candidate) : null;
  } catch {
    return null;
  }
}

/**
 * Where the syntax report of this entry is kept: one file per interpreter, syntax.py and submission paths (a check
 * of an edited file replaces its entry), or null when the cache cannot name one.
 */
function syntaxReportFile(interpreter: string, version: string, script: string, submission: ResolvedSubmission): string | null {
  try {
    const binary = statSync(interpreter);
    const key = createHash('sha256')
      .update(JSON.stringify([interpreter, version, binary.ino, binary.size, binary.mtimeMs, readFileSync(script, 'utf8'), submission.root, submission.entry, realpathSync(submission.root), realpathSync(submission.entry)]))
      .digest('hex')
      .slice(0, 16);
    return `python-syntax-${key}.json`;
  } catch {
    return null;
  }
}

/** The kept report when the files it read and the paths it probed are unchanged, else null (parse again). */
function keptSyntaxReport(name: string): SyntaxReport | null {
  const path = join(cacheDir(), name);
  try {
    const report = JSON.parse(readFileSync(path, 'utf8')) as SyntaxReport;
    const contents = report?.contents;
    if (!Array.isArray(report?.files) || !Array.isArray(report.problems) || typeof contents !== 'object' || contents === null) return null;
    // A file that would not open has no hash: such a report is parsed again, never kept.
    for (const file of report.files) if (typeof contents[file] !== 'string' || contents[file] !== contentHash(file)) return null;
    for (const [candidate, real] of Object.entries(report.probed ?? {})) if (probe(candidate) !== real) return null;
    touchCacheEntry(path);
    return report;
  } catch {
    return null; // not kept, half-written, or a file it read is gone
  }
}

/** syntax.py's CPU bound (tool-bound.ts): it parses in well under a second; half a minute is a file built to stall it. */
const SYNTAX_CPU_MS = 30_000;

/**
 * The submission's syntax report: kept in the cache (python-syntax-<key>.json) and reused while the files it parsed
 * have the same contents and every path it probed for an import is as it was, so a warm check starts no interpreter
 * for it (~15–20 ms of CPU); else syntax.py parses again.
 */
async function syntaxReport(interpreter: string, version: string, submission: ResolvedSubmission): Promise<SyntaxReport> {
  const script = join(pythonRuntimeDir(), 'syntax.py');
  const name = syntaxReportFile(interpreter, version, script, submission);
  const kept = name ? keptSyntaxReport(name) : null;
  if (kept) return kept;
  const report = await runSyntaxCheck(interpreter, script, submission);
  // Kept with the hashes of the bytes syntax.py parsed (a file edited since is parsed again next time).
  if (name && report.contents) {
    try {
      replaceCacheFile(name, JSON.stringify(report));
    } catch {
      // a read-only cache: parsed again next time
    }
  }
  return report;
}

async function runSyntaxCheck(interpreter: string, script: string, submission: ResolvedSubmission): Promise<SyntaxReport> {
  const bound = { cpuMs: toolCpuMs(SYNTAX_CPU_MS) };
  // -S: no site module. The check reads files and needs nothing from site-packages, while site runs every .pth
  // file there at start (on this machine one imports certifi: 120 → 80 ms of python3's start at load 38).
  const run = await runTool(interpreter, ['-I', '-B', '-S', script, submission.root, submission.entry], bound, { env: {} });
  const failed = (text: string): CompileError => new CompileError([{ file: '', line: 0, column: 0, text: `the Python syntax check failed: ${text}` }]);
  if (run.stop) {
    // Starved by the machine: the grader's error; its own CPU bound: the submission's.
    if (run.stop.reason === 'starved') throw starvedError(run.stop, 'the Python syntax check', bound);
    throw failed(describeStop(run.stop, 'it', bound));
  }
  if (run.error) throw new GraderError(`the Python syntax check could not start: ${run.error.message}`);
  if (run.code !== 0) throw failed(run.stderr.trim().split('\n').pop() || `exit ${run.code ?? run.signal}`);
  return JSON.parse(run.stdout) as SyntaxReport;
}

/** Parse the submission's own modules; throws CompileError with every syntax error located. */
export async function compilePythonSubmission(submission: ResolvedSubmission): Promise<CompiledSubmission> {
  const python = findPython();
  // No interpreter is the grader's problem, never a compile failure charged to the student.
  if (!python) throw new GraderError(noPython());
  const report = await syntaxReport(python.path, python.version, submission);
  if (report.problems.length > 0) throw new CompileError(report.problems);
  // board.py, game.py and func_timeout.py are the grader's own (the host registers them first): a local copy is not an import.
  const own = report.files.filter((file) => file !== submission.entry && !PROVIDED.has(relative(submission.root, file)));
  if (submission.kind === 'file' && own.length > 0) {
    const imported = relative(submission.root, own[0]);
    throw new CompileError([{ file: '', line: 0, column: 0, text: aloneMessage(submission, imported) }]);
  }
  const hash = createHash('sha256');
  for (const file of [...report.files].sort()) {
    hash.update(`${relative(submission.root, file)}\0`);
    hash.update(readFileSync(file));
    hash.update('\0');
  }
  return { bundlePath: submission.entry, hash: hash.digest('hex').slice(0, 20), warnings: report.warnings ?? [], files: report.files };
}
