/**
 * Type errors as warnings: `tsc --noEmit` (TypeScript 5.9) on the submission, in a separate process so it runs
 * while the sandbox plays (a type check in the parent's event loop would eat into the student's measured time).
 * `referee` resolves to the game's own folder (its student Board and helpers) plus MoveInfo.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve as resolvePath } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cacheDir, cacheFile, pruneCache, sweepWorkingFolder, touchCacheEntry } from '../sandbox/cache-dir.js';
import { gameIds, getGame } from '../games/registry.js';
import type { SourceProblem } from './compile.js';
import { isInside, type ResolvedSubmission } from './resolve.js';
import { DONE_MARK, SNAPSHOT_SCRIPT } from './typecheck-snapshot.js';
import { portable } from '../sandbox/portable.js';
import { describeStop, runTool, toolCpuMs, type ToolRun } from '../sandbox/tool-bound.js';

export interface TypeCheckResult {
  /** False when TypeScript is not installed (the check says so instead of passing silently). */
  ran: boolean;
  problems: SourceProblem[];
  note?: string;
  /**
   * Set when the machine starved the check past its wall backstop: the caller raises it as a GraderError (a check
   * that silently lost its type errors at load would differ from the same check idle).
   */
  graderError?: string;
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

/** The `referee` module students type against: everything the game's folder exports, MoveInfo and moveInfo(). */
function writeRefereeTypes(game: string, folder: string): string {
  const file = join(folder, 'referee.d.ts');
  // Variants live in their base game's folder (connect4-nogo in connect4/, gomoku-exact5 in gomoku/).
  const gameIndex = harnessModule(`games/${getGame(game).files.folder}/index`);
  const boardTypes = [...new Set(gameIds().map((id) => getGame(id).files.boardType))].join(', ');
  const player = harnessModule('referee/player');
  const named = harnessModule('index');
  writeFileSync(
    file,
    `export * from '${gameIndex}';\nimport type { MoveInfo } from '${player}';\nexport type { MoveInfo };\n` +
      `export type { ${boardTypes} } from '${named}';\n` +
      '/** The current ask\'s limits while getMove runs (null before the game\'s first ask). */\n' +
      'export declare function moveInfo(): Readonly<MoveInfo> | null;\n',
  );
  return file;
}

/** Whether this TypeScript knows `libReplacement` (5.8 and later); older ones would call it an unknown option. */
function libReplacementOption(typescript: string): boolean {
  try {
    const [major, minor] = (JSON.parse(readFileSync(join(typescript, 'package.json'), 'utf8')) as { version: string }).version.split('.').map(Number);
    return major > 5 || (major === 5 && minor >= 8);
  } catch {
    return false;
  }
}

/**
 * The type check's environment: the grader's, less NODE_EXTRA_CA_CERTS. The check opens no connection, and node
 * parses that file at every start (~40 ms of CPU for Debian's 140 certificates).
 */
function typeCheckEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env = { ...process.env, ...extra };
  delete env.NODE_EXTRA_CA_CERTS;
  return env;
}

/** Whether this process has swept the type checks' working folder (sweepWorkingFolder). */
let swept = false;

const LINE = /^(.+?)\((\d+),(\d+)\): error (TS\d+): (.*)$/;

export function typeCheck(submission: ResolvedSubmission, game: string): Promise<TypeCheckResult> {
  const typescript = findPackage('typescript');
  if (!typescript) {
    return Promise.resolve({ ran: false, problems: [], note: 'TypeScript is not installed, so types were not checked' });
  }
  if (!swept) {
    // What killed checks left (they remove their own folder when they end): once a process, so it stays bounded.
    swept = true;
    try {
      sweepWorkingFolder('typecheck');
    } catch {
      // a folder another process is sweeping too, or a read-only cache: the next check sweeps
    }
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
      // No @typescript/lib-* packages from folders around the submission either (TypeScript >= 5.8 looks for them
      // in every node_modules above each lib reference: ~100 ms of a warm check).
      ...(libReplacementOption(typescript) ? { libReplacement: false } : {}),
    },
    files: [submission.entry],
  };
  const configPath = join(folder, 'tsconfig.json');
  writeFileSync(configPath, JSON.stringify(tsconfig));
  // The folder is read once the check has printed its lines (a snapshot build writes its blob elsewhere after):
  // removed then, so checks leave nothing behind (700 such folders once sat in a cache).
  const removeFolder = (): void => rmSync(folder, { recursive: true, force: true });
  return checkWith(typescript, nodeTypes, configPath, submission.root).finally(removeFolder);
}

function checkWith(typescript: string, nodeTypes: string | null, configPath: string, root: string): Promise<TypeCheckResult> {
  const plan = snapshotPlan(typescript, nodeTypes);
  const plain = () => runTsc(typescript, configPath, root);
  if (!plan) return plain();
  let viaSnapshot: Promise<TypeCheckResult | null>;
  if (existsSync(plan.blob)) {
    touchCacheEntry(plan.blob); // a use (LRU), and never pruned under this process
    viaSnapshot = runSnapshot(plan, configPath, root);
  } else {
    pruneCache(); // a new ~40 MB snapshot is coming: older ones (another Node's, another TypeScript's) make room
    viaSnapshot = buildSnapshot(plan, configPath, root);
  }
  return viaSnapshot.then((result) => result ?? plain());
}

/** tsc's lines `file(line,col): error TSnnnn: text` for the submission's own files. */
function problemsIn(stdout: string, root: string): SourceProblem[] {
  const problems: SourceProblem[] = [];
  for (const line of stdout.split('\n')) {
    const match = LINE.exec(line.trim());
    if (!match) continue;
    const [, file, row, column, code, text] = match;
    const path = resolvePath(root, file);
    if (!isInside(root, path)) continue; // the harness's own declarations are not the student's
    problems.push({ file: relative(root, path), line: Number(row), column: Number(column), text: `${code}: ${text}` });
  }
  return problems;
}

function runTsc(typescript: string, configPath: string, root: string): Promise<TypeCheckResult> {
  // Run from the root so tsc prints the student's paths relative to it.
  return runTool(process.execPath, [join(typescript, 'bin', 'tsc'), '-p', configPath, '--pretty', 'false'], bound(), { cwd: root, maxBuffer: 4 * 1024 * 1024, env: typeCheckEnv() }).then((run) => {
    const stopped = stopResult(run);
    if (stopped) return stopped;
    const problems = problemsIn(run.stdout, root);
    const failed = (run.error || run.code !== 0) && problems.length === 0 && run.code !== 2;
    const why = run.error?.message ?? (run.stderr.trim().split('\n')[0] || `exit ${run.code ?? run.signal}`);
    return failed ? { ran: false, problems, note: `the type check could not run: ${why}` } : { ran: true, problems };
  });
}

/**
 * tsc's CPU bound (tool-bound.ts): a check costs 0.5–2 s of CPU, a snapshot build a few more; a type that makes
 * tsc work for a minute is the submission's (its check is skipped, with the line saying so).
 */
const TYPECHECK_CPU_MS = 60_000;
const bound = () => ({ cpuMs: toolCpuMs(TYPECHECK_CPU_MS) });

/** What a stopped type check reports, or null when it ended by itself. */
function stopResult(run: ToolRun): TypeCheckResult | null {
  if (!run.stop) return null;
  const line = describeStop(run.stop, 'the type check', bound());
  return run.stop.reason === 'starved' ? { ran: false, problems: [], note: line, graderError: line } : { ran: false, problems: [], note: line };
}

interface SnapshotPlan {
  /** The snapshot for this node, TypeScript and @types/node. */
  blob: string;
  script: string;
  /** typescript.js and the folders whose files never change under this plan. */
  env: string;
}

/** Where this installation's snapshot lives, or null where snapshots are off (REFEREE_TYPECHECK_SNAPSHOT=0, Windows). */
function snapshotPlan(typescript: string, nodeTypes: string | null): SnapshotPlan | null {
  if (process.env.REFEREE_TYPECHECK_SNAPSHOT === '0' || portable() || !existsSync('/bin/sh')) return null;
  const roots = [join(typescript, 'lib') + '/'];
  if (nodeTypes) {
    roots.push(nodeTypes + '/');
    try {
      roots.push(dirname(createRequire(join(nodeTypes, 'package.json')).resolve('undici-types/package.json')) + '/');
    } catch {
      // an @types/node without undici-types: nothing more is fixed
    }
  }
  const fixed = [join(typescript, 'lib', 'typescript.js'), ...roots];
  const versions = [typescript, nodeTypes ?? ''].map((dir) => (dir ? readFileSync(join(dir, 'package.json'), 'utf8') : ''));
  const key = createHash('sha256')
    .update(JSON.stringify([SNAPSHOT_SCRIPT, process.version, process.execPath, process.arch, fixed, versions]))
    .digest('hex')
    .slice(0, 16);
  return {
    blob: join(cacheDir(), `typecheck-${key}.blob`),
    script: cacheFile(`typecheck-snapshot-${key}.cjs`, SNAPSHOT_SCRIPT),
    env: JSON.stringify(fixed),
  };
}

/**
 * Run a child that prints tsc's lines and then DONE_MARK: the problems once the mark is seen, or null when it
 * ends without it (a snapshot that will not run: the caller falls back to tsc). `detach` lets the child finish
 * on its own after the mark (writing the snapshot) without holding this process open.
 */
function collect(command: string, args: string[], root: string, env: NodeJS.ProcessEnv, detach: boolean): Promise<TypeCheckResult | null> {
  const marked = (stdout: string): boolean => stdout.includes(DONE_MARK);
  return runTool(command, args, bound(), { cwd: root, env, maxBuffer: 4 * 1024 * 1024, enough: detach ? marked : undefined }).then((run) => {
    const stopped = stopResult(run);
    if (stopped) return stopped;
    const end = run.stdout.indexOf(DONE_MARK);
    return end < 0 ? null : { ran: true, problems: problemsIn(run.stdout.slice(0, end), root) };
  });
}

function runSnapshot(plan: SnapshotPlan, configPath: string, root: string): Promise<TypeCheckResult | null> {
  return collect(process.execPath, ['--snapshot-blob', plan.blob, configPath], root, typeCheckEnv(), false).then((result) => {
    if (result === null) rmSync(plan.blob, { force: true }); // built by another node or damaged: rebuild next time
    return result;
  });
}

/** Type-check while building the snapshot; the snapshot is renamed into place only once node has written it. */
function buildSnapshot(plan: SnapshotPlan, configPath: string, root: string): Promise<TypeCheckResult | null> {
  const partial = `${plan.blob}.${process.pid}.tmp`;
  return collect(
    '/bin/sh',
    ['-c', '"$0" --snapshot-blob "$1" --build-snapshot "$2" "$3" && mv -f "$1" "$4" || rm -f "$1"', process.execPath, partial, plan.script, configPath, plan.blob],
    root,
    typeCheckEnv({ REFEREE_TS_SNAPSHOT: plan.env }),
    true,
  );
}
