/**
 * Compiled submissions as content-addressed artefacts: the files a worker needs to play a submission (a
 * TypeScript/JavaScript submission's one bundle; a Python submission's staged files; a C++ submission's library), named by the sha256 of
 * their content. The coordinator builds and publishes them; a worker keeps them in its own cache folder under
 * that hash and checks the hash before use, so an artefact is exactly what the coordinator compiled and a job
 * can never point a worker at any other file.
 */
import { createHash } from 'node:crypto';
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { ARTEFACTS_FOLDER, cacheDir, pruneCache, touchCacheEntry } from '../../harness/sandbox/cache-dir.js';
import { compileSubmission } from '../../harness/submission/compile.js';
import { BOTZONE_EXECUTABLE } from '../../harness/submission/compile-botzone.js';
import { resolveSubmission, type SubmissionProtocol } from '../../harness/submission/resolve.js';
import type { ArtefactSpec } from './job.js';

export interface ArtefactFile {
  /** Relative, '/'-separated, no '..' (see safeArtefactPath). */
  path: string;
  bytes: Buffer;
}

export interface Artefact {
  hash: string;
  runtime: 'node' | 'python' | 'cpp' | 'botzone';
  entry: string;
  files: ArtefactFile[];
}

/** Most bytes and files one artefact may hold (a batch snapshot is capped at 5 MB, 500 files). */
export const ARTEFACT_LIMITS = { maxBytes: 8 * 1024 * 1024, maxFiles: 500 };

const NODE_BUNDLE = 'submission.cjs';
/** In a Botzone bot's artefact: { language, interaction, keepRunning } (see harness/sandbox/botzone-player.ts). */
export const BOTZONE_TRAITS_FILE = 'botzone.json';
const CPP_LIBRARY = 'player.so';
const HASH = /^[0-9a-f]{64}$/;

/** A path an artefact may hold: relative, plain segments, nothing hidden above or beside the artefact folder. */
export function safeArtefactPath(path: string): boolean {
  if (path.length === 0 || path.length > 300 || path.startsWith('/') || path.includes('\\') || path.includes('\0')) return false;
  return path.split('/').every((segment) => segment !== '' && segment !== '.' && segment !== '..');
}

export function isArtefactHash(hash: string): boolean {
  return HASH.test(hash);
}

/** sha256 over the sorted (path, content hash) pairs, and the runtime and entry. */
export function artefactHash(runtime: string, entry: string, files: ArtefactFile[]): string {
  const hash = createHash('sha256').update(`${runtime}\0${entry}\n`);
  for (const file of [...files].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))) {
    hash.update(`${file.path}\0${createHash('sha256').update(file.bytes).digest('hex')}\n`);
  }
  return hash.digest('hex');
}

function pythonFiles(root: string): ArtefactFile[] {
  const files: ArtefactFile[] = [];
  let bytes = 0;
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir).sort()) {
      const full = join(dir, name);
      const stat = lstatSync(full);
      if (stat.isDirectory()) {
        if (name === '__pycache__' || name === 'node_modules' || name.startsWith('.')) continue;
        walk(full);
      } else if (stat.isFile()) {
        const path = relative(root, full).split(sep).join('/');
        if (!safeArtefactPath(path)) continue;
        bytes += stat.size;
        if (files.length >= ARTEFACT_LIMITS.maxFiles || bytes > ARTEFACT_LIMITS.maxBytes) {
          throw new Error(`the submission folder ${root} is over the artefact cap (${ARTEFACT_LIMITS.maxFiles} files, ${ARTEFACT_LIMITS.maxBytes / 1024 / 1024} MB): remove build output and data files`);
        }
        files.push({ path, bytes: readFileSync(full) });
      }
    }
  };
  walk(root);
  return files;
}

/**
 * The artefact of a submission (a file or folder), compiled as grading compiles it. Throws the compile or
 * resolve error (the interface check reports those first, so a batch only builds artefacts of passing code).
 */
export async function buildArtefact(path: string, entryName?: string, protocol?: SubmissionProtocol): Promise<Artefact> {
  const submission = resolveSubmission(path, undefined, entryName, protocol);
  const compiled = await compileSubmission(submission);
  let runtime: Artefact['runtime'];
  let entry: string;
  let files: ArtefactFile[];
  if (submission.botzone) {
    // A Botzone bot: its program (the executable, or its scripts) and how it talks, in botzone.json.
    runtime = 'botzone';
    const traits = { language: submission.language === 'TypeScript' ? 'JavaScript' : submission.language, interaction: submission.botzone.interaction, keepRunning: submission.botzone.keepRunning };
    if (submission.language === 'C++') {
      entry = BOTZONE_EXECUTABLE;
      files = [{ path: BOTZONE_EXECUTABLE, bytes: readFileSync(compiled.bundlePath) }];
    } else if (submission.language === 'Java') {
      // The class folder: Main.class and the bot's inner classes.
      const classes = dirname(compiled.bundlePath);
      entry = relative(classes, compiled.bundlePath);
      files = (compiled.files ?? [compiled.bundlePath]).map((file) => ({ path: relative(classes, file).split(sep).join('/'), bytes: readFileSync(file) }));
    } else {
      entry = relative(submission.root, submission.entry).split(sep).join('/');
      files = submission.language === 'Python' ? pythonFiles(submission.root) : [{ path: entry, bytes: readFileSync(submission.entry) }];
    }
    files.push({ path: BOTZONE_TRAITS_FILE, bytes: Buffer.from(JSON.stringify(traits)) });
  } else if (submission.language === 'Python') {
    runtime = 'python';
    entry = relative(submission.root, submission.entry).split(sep).join('/');
    files = pythonFiles(submission.root);
  } else if (submission.language === 'C++') {
    // The compiled library (or the course's test AI as given): native code, run by the C++ host in the sandbox.
    runtime = 'cpp';
    entry = CPP_LIBRARY;
    files = [{ path: CPP_LIBRARY, bytes: readFileSync(compiled.bundlePath) }];
  } else {
    runtime = 'node';
    entry = NODE_BUNDLE;
    files = [{ path: NODE_BUNDLE, bytes: readFileSync(compiled.bundlePath) }];
  }
  const size = files.reduce((sum, file) => sum + file.bytes.length, 0);
  if (size > ARTEFACT_LIMITS.maxBytes) throw new Error(`the compiled submission is ${size} bytes, over the artefact cap of ${ARTEFACT_LIMITS.maxBytes}`);
  return { hash: artefactHash(runtime, entry, files), runtime, entry, files };
}

export function artefactSpec(artefact: Artefact, name: string): ArtefactSpec {
  return { kind: 'artefact', name, artefact: artefact.hash, runtime: artefact.runtime, entry: artefact.entry };
}

/** The folder artefacts are kept in: <cache>/artefacts (REFEREE_CACHE_DIR, else ~/.cache/referee). */
export function artefactRoot(): string {
  const root = join(cacheDir(), ARTEFACTS_FOLDER);
  mkdirSync(root, { recursive: true, mode: 0o755 });
  return root;
}

/**
 * The folder of an artefact already in the cache, or null. A hit is a use: it refreshes the entry's time (the
 * cache's LRU, cache-dir.ts) and this process's games are never pruned under it.
 */
export function cachedArtefact(hash: string, root = artefactRoot()): string | null {
  if (!isArtefactHash(hash)) return null;
  const dir = join(root, hash);
  if (!existsSync(join(dir, '.complete'))) return null;
  touchCacheEntry(dir);
  return dir;
}

/**
 * Write an artefact into the cache under its hash (checked against its content first), atomically: a folder
 * appears complete or not at all. World-readable, because the sandboxed child runs as uid nobody.
 */
export function storeArtefact(artefact: Artefact, root = artefactRoot()): string {
  if (!isArtefactHash(artefact.hash)) throw new Error(`not an artefact hash: ${JSON.stringify(artefact.hash)}`);
  if (artefactHash(artefact.runtime, artefact.entry, artefact.files) !== artefact.hash) {
    throw new Error(`artefact ${artefact.hash.slice(0, 12)} does not match its content (corrupt or forged): refused`);
  }
  if (!safeArtefactPath(artefact.entry) || !artefact.files.some((file) => file.path === artefact.entry)) {
    throw new Error(`artefact ${artefact.hash.slice(0, 12)} has no entry file ${JSON.stringify(artefact.entry)}: refused`);
  }
  const existing = cachedArtefact(artefact.hash, root);
  if (existing) return existing;
  const dir = join(root, artefact.hash);
  const temporary = `${dir}.${process.pid}.${Date.now()}.tmp`;
  mkdirSync(temporary, { recursive: true, mode: 0o755 });
  try {
    for (const file of artefact.files) {
      if (!safeArtefactPath(file.path)) throw new Error(`artefact ${artefact.hash.slice(0, 12)} names the path ${JSON.stringify(file.path)}: refused`);
      const target = join(temporary, ...file.path.split('/'));
      mkdirSync(dirname(target), { recursive: true, mode: 0o755 });
      writeFileSync(target, file.bytes, { mode: 0o644, flag: 'wx' });
    }
    writeFileSync(join(temporary, '.complete'), artefact.hash, { mode: 0o644 });
    try {
      renameSync(temporary, dir);
    } catch (error) {
      // Another process stored the same artefact first: theirs is identical.
      if (!cachedArtefact(artefact.hash, root)) throw error;
    }
  } finally {
    rmSync(temporary, { recursive: true, force: true });
  }
  touchCacheEntry(dir);
  // A new entry: the cache's cap holds for artefacts too (the cache's own folder only: a test's root is its own).
  if (root === join(cacheDir(), ARTEFACTS_FOLDER)) pruneCache();
  return dir;
}
