/**
 * One CommonJS bundle per submission, built by esbuild and cached by content hash. The boundary is enforced
 * here: every import is resolved by us first, and anything outside the submission's root — a relative path,
 * an absolute path, a symlink, a bare package not on the assignment's allowlist — is refused by name.
 * `referee` (the Board and MoveInfo types) is left external: the sandbox host provides it at run time.
 */
import { createHash } from 'node:crypto';
import { realpathSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { basename, dirname, isAbsolute, relative } from 'node:path';
import type { Message, Plugin } from 'esbuild';
import { esbuild } from '../sandbox/lazy-esbuild.js';
import { cacheFile } from '../sandbox/cache-dir.js';
import { compileBotzoneSubmission } from './compile-botzone.js';
import { compileCppSubmission } from './compile-cpp.js';
import { compilePythonSubmission } from './compile-python.js';
import { isInside, type ResolvedSubmission } from './resolve.js';

/** A problem in the student's source, located for the checklist (1-based line and column). */
export interface SourceProblem {
  file: string;
  line: number;
  column: number;
  text: string;
}

export interface CompiledSubmission {
  /** The cached bundle (CommonJS, inline source map); for Python, the entry file itself. */
  bundlePath: string;
  /** Content hash of the bundle. */
  hash: string;
  /** esbuild's warnings (e.g. a require it could not follow). */
  warnings: SourceProblem[];
  /** Python: the submission's own files the entry imports (the entry first), staged for the sandbox; C++: the library. */
  files?: string[];
}

export class CompileError extends Error {
  override name = 'CompileError';
  constructor(readonly problems: SourceProblem[]) {
    super(problems.map(formatProblem).join('\n'));
  }
}

export function formatProblem(problem: SourceProblem): string {
  return problem.file ? `${problem.file}:${problem.line}:${problem.column}: ${problem.text}` : problem.text;
}

function toProblem(message: Message, root: string): SourceProblem {
  const location = message.location;
  if (!location) return { file: '', line: 0, column: 0, text: message.text };
  const file = isAbsolute(location.file) ? relative(root, location.file) : location.file;
  return { file, line: location.line, column: location.column + 1, text: message.text };
}

/** 'lodash/fp' → 'lodash', '@scope/pkg/x' → '@scope/pkg', 'node:fs' → 'fs'. */
export function packageName(specifier: string): string {
  const bare = specifier.replace(/^node:/, '');
  const parts = bare.split('/');
  return bare.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

const RESOLVING = Symbol('resolving');

/** The one-line refusal of a single file's local import: a file is graded alone; its folder is the fix. */
export function aloneMessage(submission: ResolvedSubmission, imported: string): string {
  const folder = relative(process.cwd(), dirname(submission.input)) || '.';
  return `${basename(submission.entry)} imports ${imported}: a single file is graded alone; grade its folder: referee grade ${folder}/`;
}

function boundary(root: string, allow: ReadonlySet<string>, alone: ResolvedSubmission | null): Plugin {
  return {
    name: 'submission-boundary',
    setup(build) {
      build.onResolve({ filter: /.*/ }, async (args) => {
        if (args.pluginData === RESOLVING || args.kind === 'entry-point') return undefined;
        if (args.path === 'referee' || args.path === 'board-referee') return { path: args.path, external: true };
        const bare = !args.path.startsWith('.') && !isAbsolute(args.path);
        if (bare) {
          const name = packageName(args.path);
          if (!allow.has(name)) {
            const allowed = allow.size > 0 ? `allowed: ${[...allow].join(', ')}` : 'this assignment allows no packages';
            return { errors: [{ text: `import '${args.path}' is not allowed (${allowed}); use only your own files and 'board-referee'` }] };
          }
          if (isBuiltin(args.path)) return { path: args.path, external: true };
        }
        const found = await build.resolve(args.path, {
          kind: args.kind,
          importer: args.importer,
          resolveDir: args.resolveDir,
          pluginData: RESOLVING,
        });
        if (found.errors.length > 0) return { errors: found.errors };
        const real = realpathSync(found.path);
        if (!isInside(root, real)) {
          return {
            errors: [{ text: `import '${args.path}' resolves to ${real}, outside the submission folder ${root}; copy it inside` }],
          };
        }
        if (alone && real !== alone.entry) return { errors: [{ text: aloneMessage(alone, args.path) }] };
        return { path: real };
      });
    },
  };
}

/** Bundle a resolved submission; throws CompileError with every problem located. Python is checked, not bundled. */
export async function compileSubmission(
  submission: ResolvedSubmission,
  options: { allowImports?: readonly string[] } = {},
): Promise<CompiledSubmission> {
  if (submission.botzone) return compileBotzoneSubmission(submission);
  if (submission.language === 'Python') return compilePythonSubmission(submission);
  if (submission.language === 'C++') return compileCppSubmission(submission);
  const allow = new Set((options.allowImports ?? []).map(packageName));
  let result;
  try {
    result = await esbuild().build({
      entryPoints: [submission.entry],
      absWorkingDir: submission.root,
      bundle: true,
      write: false,
      format: 'cjs',
      platform: 'node',
      target: 'node20',
      // import() becomes require(), so it meets the host's guarded require instead of node's ESM loader.
      supported: { 'dynamic-import': false },
      sourcemap: 'inline',
      sourcesContent: false,
      // No tsconfig lookup: esbuild would otherwise read tsconfig.json files above the submission's root.
      tsconfigRaw: {},
      logLevel: 'silent',
      plugins: [boundary(submission.root, allow, submission.kind === 'file' ? submission : null)],
    });
  } catch (error) {
    const failure = error as { errors?: Message[] };
    if (!failure.errors) throw error;
    throw new CompileError(failure.errors.map((message) => toProblem(message, submission.root)));
  }
  const text = result.outputFiles[0].text;
  const hash = createHash('sha256').update(text).digest('hex').slice(0, 20);
  return {
    bundlePath: cacheFile(`submission-${hash}.cjs`, text),
    hash,
    warnings: result.warnings.map((message) => toProblem(message, submission.root)),
  };
}
