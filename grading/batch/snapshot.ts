/**
 * Each student's files copied into a folder of their own under out/submissions/: the code that is graded is a
 * snapshot (the class folder may change while a batch runs), each submission is its own sandbox root (a file
 * next to other students' files could otherwise import them), and the snapshot's hash keys the journal.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import type { ReadableEntry } from './input.js';
import { listZip, TooLargeError } from './input.js';
import { isZipName, submissionZipFiles, type StudentFiles } from './layout.js';

export interface SnapshotLimits {
  /** Most bytes one submission may hold (all its files together). */
  maxBytes: number;
  /** Most files one submission may hold. */
  maxFiles: number;
}

export const DEFAULT_LIMITS: SnapshotLimits = { maxBytes: 5 * 1024 * 1024, maxFiles: 500 };

/** A student ready to grade (path and hash) or one that cannot be (problem). */
export type Snapshot =
  | { id: string; path: string; hash: string; problem?: undefined }
  | { id: string; problem: string; path?: undefined; hash?: undefined };

const megabytes = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(bytes < 1024 * 1024 ? 2 : 1)} MB`;

/** sha256 over the sorted (path, content hash) pairs: equal files, equal hash, whatever order they came in. */
function treeHash(files: { path: string; bytes: Buffer }[]): string {
  const hash = createHash('sha256');
  for (const file of [...files].sort((a, b) => (a.path < b.path ? -1 : 1))) {
    hash.update(`${file.path}\u0000${createHash('sha256').update(file.bytes).digest('hex')}\n`);
  }
  return hash.digest('hex');
}

/**
 * Copy one student's files into `root`/<id>/ (replacing what was there) and hash them. A submission that is one
 * zip is unpacked first, as `referee grade x.zip` would (the hash is of what it holds, so a re-zipped copy of the
 * same files is the same submission); a zip inside that zip is not unpacked again.
 */
export async function snapshotStudent(student: StudentFiles<ReadableEntry>, root: string, limits: SnapshotLimits, unpackZip = true): Promise<Snapshot> {
  const { id } = student;
  if (student.problem) return { id, problem: student.problem };
  if (unpackZip && student.files.length === 1 && isZipName(student.files[0].path)) return snapshotZip(student, root, limits);
  if (student.files.length > limits.maxFiles) {
    return { id, problem: `the submission holds ${student.files.length} files, over the cap of ${limits.maxFiles}: remove build output and node_modules (or raise --max-files)` };
  }
  const declared = student.files.reduce((sum, file) => sum + file.entry.size, 0);
  const overCap = (size: number): Snapshot => ({
    id,
    problem: `the submission is ${megabytes(size)}, over the cap of ${megabytes(limits.maxBytes)}: remove build output and node_modules (or raise --max-submission-mb)`,
  });
  if (declared > limits.maxBytes) return overCap(declared);
  const files: { path: string; bytes: Buffer }[] = [];
  let total = 0;
  for (const file of student.files) {
    try {
      const bytes = await file.entry.read(limits.maxBytes - total);
      total += bytes.length;
      files.push({ path: file.path, bytes });
    } catch (error) {
      if (error instanceof TooLargeError) return overCap(Math.max(declared, total + 1));
      return { id, problem: `${file.path} ${(error as Error).message}` };
    }
  }
  const dir = join(root, id);
  // layout.ts made the id and the paths safe; a name this file system still refuses fails this student only.
  if (relative(root, dir).startsWith('..') || relative(root, dir) === '') return { id, problem: `the student id ${JSON.stringify(id)} is not a usable folder name` };
  try {
    rmSync(dir, { recursive: true, force: true });
    for (const file of files) {
      const target = join(dir, file.path);
      if (relative(dir, target).startsWith('..')) return { id, problem: `the file name ${JSON.stringify(file.path)} leaves its folder: refused; rename it and submit again` };
      mkdirSync(dirname(target), { recursive: true });
      writeFileSync(target, file.bytes);
    }
    mkdirSync(dir, { recursive: true });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    // A full disk is the grader's problem, not this student's: the batch stops with its own message.
    if (code === 'ENOSPC' || code === 'EDQUOT') throw error;
    return { id, problem: `the files could not be copied for grading (${code}): rename odd file names and submit again` };
  }
  return { id, path: join(dir, submissionEntry(files.map((file) => file.path))), hash: treeHash(files) };
}

async function snapshotZip(student: StudentFiles<ReadableEntry>, root: string, limits: SnapshotLimits): Promise<Snapshot> {
  const { id } = student;
  const zip = student.files[0];
  let bytes: Buffer;
  try {
    bytes = await zip.entry.read(limits.maxBytes);
  } catch (error) {
    if (error instanceof TooLargeError) return { id, problem: `${zip.path} is over the cap of ${megabytes(limits.maxBytes)}: remove build output and node_modules (or raise --max-submission-mb)` };
    return { id, problem: `${zip.path} ${(error as Error).message}` };
  }
  let listed: Awaited<ReturnType<typeof listZip>>;
  try {
    listed = await listZip(bytes, zip.path);
  } catch (error) {
    return { id, problem: `${(error as Error).message.replace(/download it again from the LMS/, 'zip the submission again')}` };
  }
  try {
    const files = submissionZipFiles(listed.entries);
    if ('refused' in files) return { id, problem: `${zip.path}: ${files.refused}` };
    if (files.files.length === 0) return { id, problem: `${zip.path} holds no files: zip the folder with the AIPlayer (or Strategy.cpp) in it` };
    return await snapshotStudent({ ...student, files: files.files }, root, limits, false);
  } finally {
    listed.close();
  }
}

/**
 * What to grade inside the snapshot: a lone top-level file is the submission itself (it may be named anything,
 * e.g. alice.ts); a folder that only wraps another folder (a cloned repo) is looked into.
 */
function submissionEntry(paths: string[]): string {
  if (paths.length === 1 && !paths[0].includes('/')) return paths[0];
  let prefix = '';
  for (;;) {
    const rest = paths.map((path) => path.slice(prefix.length));
    const first = rest[0].split('/')[0];
    if (!rest.every((path) => path.startsWith(`${first}/`))) return prefix.replace(/\/$/, '');
    prefix += `${first}/`;
  }
}
