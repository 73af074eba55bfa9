/**
 * Opening a class's submissions: a directory (one entry per student) or an LMS zip. Both become a flat list of
 * readable entries for layout.ts to group. Nothing here follows a symlink inside a submission or reads anything
 * but regular files: a student's symlink to /etc/shadow must not end up in the snapshot we grade.
 */
import { existsSync, lstatSync, readdirSync, readFileSync, realpathSync, statSync, type Stats } from 'node:fs';
import { join, resolve } from 'node:path';
import yauzl from 'yauzl';
import { groupStudents, isOutputMarker, OUTPUT_FOLDER_NOTE, type Grouping, type InputEntry } from './layout.js';

/** An entry whose bytes can be read, at most `maxBytes` of them (more is an error naming the cap). */
export interface ReadableEntry extends InputEntry {
  read(maxBytes: number): Promise<Buffer>;
}

export interface SubmissionInput extends Grouping<ReadableEntry> {
  kind: 'directory' | 'zip';
  path: string;
  close(): void;
}

/** The input as a whole cannot be used (missing, not a zip, empty): a one-line message naming the fix. */
export class InputError extends Error {
  override name = 'InputError';
}

/** Most files walked inside one student's folder; more is reported, not walked (a node_modules, say). */
const MAX_WALK = 5000;

const errorCode = (error: unknown): string => (error as NodeJS.ErrnoException).code ?? (error as Error).message;

export class TooLargeError extends Error {
  override name = 'TooLargeError';
}

function kindProblem(stats: Stats): string | null {
  if (stats.isSymbolicLink()) return 'is a symbolic link: submit the file itself';
  if (!stats.isFile()) return 'is not a regular file (a pipe, socket or device): submit source files only';
  return null;
}

function fileEntry(name: string, path: string, stats: Stats | null, problem: string | null): ReadableEntry {
  return {
    name,
    size: stats?.size ?? 0,
    ...(problem ? { problem } : {}),
    async read(maxBytes) {
      if ((stats?.size ?? 0) > maxBytes) throw new TooLargeError(`${name} is over the size cap`);
      try {
        const bytes = readFileSync(path);
        if (bytes.length > maxBytes) throw new TooLargeError(`${name} is over the size cap`);
        return bytes;
      } catch (error) {
        if (error instanceof TooLargeError) throw error;
        throw new Error(`cannot be read (${errorCode(error)}): check the file's permissions`);
      }
    },
  };
}

/** Every file under a student's folder, without following symlinks. */
function walk(root: string, name: string, out: ReadableEntry[]): void {
  const pending = [name];
  let walked = 0;
  while (pending.length > 0) {
    const dir = pending.pop()!;
    let children: string[];
    try {
      children = readdirSync(join(root, dir)).sort();
    } catch (error) {
      out.push(fileEntry(`${dir}/`, join(root, dir), null, `cannot be listed (${errorCode(error)}): check the folder's permissions`));
      continue;
    }
    for (const child of children) {
      const relative = `${dir}/${child}`;
      if (++walked > MAX_WALK) {
        out.push(fileEntry(`${name}/…`, join(root, name), null, `holds more than ${MAX_WALK} files: remove build output and node_modules`));
        return;
      }
      let stats: Stats;
      try {
        stats = lstatSync(join(root, relative));
      } catch (error) {
        out.push(fileEntry(relative, join(root, relative), null, `cannot be read (${errorCode(error)})`));
        continue;
      }
      if (stats.isDirectory()) pending.push(relative);
      else out.push(fileEntry(relative, join(root, relative), stats, kindProblem(stats)));
    }
  }
}

/** The real path of `path`, or the path itself when it does not exist (yet). */
function realOrSelf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
}

/** Whether a folder is Referee's own output: one of the commands' journals or results sits at its top. */
function isOutputFolder(dir: string): boolean {
  try {
    return readdirSync(dir).some(isOutputMarker);
  } catch {
    return false;
  }
}

function openDirectory(path: string, exclude: string[]): SubmissionInput {
  const entries: ReadableEntry[] = [];
  const skipped: string[] = [];
  const excluded = new Set(exclude.map(realOrSelf));
  for (const name of readdirSync(path).sort()) {
    if (name.startsWith('.')) continue;
    // The top level is the instructor's own folder: a symlink there (to a student's repo, say) is followed.
    let stats: Stats;
    try {
      stats = statSync(join(path, name));
    } catch (error) {
      entries.push(fileEntry(name, join(path, name), null, `cannot be read (${errorCode(error)}): fix or remove it`));
      continue;
    }
    if (stats.isDirectory()) {
      // This command's own --out (or an earlier run's) inside the class folder is output, not a student.
      if (excluded.has(realOrSelf(join(path, name))) || isOutputFolder(join(path, name))) {
        skipped.push(`${name}/ (${OUTPUT_FOLDER_NOTE})`);
        continue;
      }
      // A folder entry too, so a student folder with no files is listed as not graded rather than dropped.
      entries.push({ ...fileEntry(`${name}/`, join(path, name), null, null), folder: true });
      walk(path, name, entries);
    } else {
      entries.push(fileEntry(name, join(path, name), stats, stats.isFile() ? null : kindProblem(stats)));
    }
  }
  const grouping = groupStudents(entries);
  return { kind: 'directory', path, ...grouping, ignored: [...skipped, ...grouping.ignored], close: () => undefined };
}

const S_IFMT = 0o170000;
const S_IFLNK = 0o120000;

async function openZip(path: string): Promise<SubmissionInput> {
  const { entries, close } = await listZip(path);
  return { kind: 'zip', path, ...groupStudents(entries), close };
}

/** Every file entry of a zip (folders skipped), readable until close(); symlinks and encrypted entries carry a problem. */
export async function listZip(source: string | Buffer, label: string = typeof source === 'string' ? source : 'the zip'): Promise<{ entries: ReadableEntry[]; close(): void }> {
  const path = label;
  let zip: yauzl.ZipFile;
  try {
    // decodeStrings off: yauzl would fail the whole zip on one `..` entry; we refuse such entries one by one.
    const options = { lazyEntries: true, decodeStrings: false, autoClose: false } as const;
    zip = typeof source === 'string' ? await yauzl.openPromise(source, options) : await yauzl.fromBufferPromise(source, options);
  } catch (error) {
    throw new InputError(`${path} is not a readable zip (${(error as Error).message}): download it again from the LMS`);
  }
  const raw = await new Promise<yauzl.Entry[]>((resolve, reject) => {
    const found: yauzl.Entry[] = [];
    zip.on('entry', (entry: yauzl.Entry) => {
      found.push(entry);
      zip.readEntry();
    });
    zip.on('end', () => resolve(found));
    zip.on('error', (error: Error) => reject(new InputError(`${path} is a damaged zip (${error.message}): download it again from the LMS`)));
    zip.readEntry();
  }).catch((error: unknown) => {
    zip.close();
    throw error;
  });
  const entries: ReadableEntry[] = [];
  for (const entry of raw) {
    const nameBytes = entry.fileName as unknown as Buffer;
    const name = entryName(entry, nameBytes);
    if (name.endsWith('/')) {
      // Kept as a marker only (an empty student folder must still be listed); never extracted.
      entries.push({ name, size: 0, folder: true, read: () => Promise.resolve(Buffer.alloc(0)) });
      continue;
    }
    const mode = (entry.externalFileAttributes >>> 16) & S_IFMT;
    const problem = mode === S_IFLNK ? 'is a symbolic link: submit the file itself' : entry.isEncrypted() ? 'is encrypted: submit it unencrypted' : null;
    entries.push({
      name,
      size: entry.uncompressedSize,
      ...(problem ? { problem } : {}),
      read: (maxBytes) => readZipEntry(zip, entry, name, maxBytes),
    });
  }
  return { entries, close: () => zip.close() };
}

const UTF8_FLAG = 0x800;
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });
let strictGbk: TextDecoder | null | undefined;

/**
 * An entry's name. With the UTF-8 flag (or an Info-ZIP Unicode path field) yauzl's reading is right. Without them
 * the zip format says CP437, but LMS downloads and the archivers students use write UTF-8 bytes without the flag
 * (macOS, many libraries) or the Windows code page (GBK on a Chinese Windows): a name that is valid UTF-8 is read
 * as UTF-8, one that is valid GBK as GBK, and only what is neither as CP437.
 */
function entryName(entry: yauzl.Entry, bytes: Buffer): string {
  const lowLevel = (): string => yauzl.getFileNameLowLevel(entry.generalPurposeBitFlag, bytes, entry.extraFields, false);
  if (entry.generalPurposeBitFlag & UTF8_FLAG || bytes.every((byte) => byte < 0x80)) return lowLevel();
  if (entry.extraFields.some((field) => field.id === 0x7075)) return lowLevel();
  try {
    return strictUtf8.decode(bytes);
  } catch {
    // not UTF-8
  }
  if (strictGbk === undefined) {
    try {
      strictGbk = new TextDecoder('gbk', { fatal: true });
    } catch {
      strictGbk = null; // a Node built without full ICU
    }
  }
  try {
    if (strictGbk) return strictGbk.decode(bytes);
  } catch {
    // not GBK either
  }
  return lowLevel();
}

function readZipEntry(zip: yauzl.ZipFile, entry: yauzl.Entry, name: string, maxBytes: number): Promise<Buffer> {
  if (entry.uncompressedSize > maxBytes) return Promise.reject(new TooLargeError(`${name} is over the size cap`));
  return new Promise((resolve, reject) => {
    zip.openReadStream(entry, (error, stream) => {
      if (error) return reject(new Error(`cannot be extracted (${error.message}): export the zip again`));
      const chunks: Buffer[] = [];
      let length = 0;
      stream.on('data', (chunk: Buffer) => {
        length += chunk.length;
        // A zip bomb lies about its sizes; count what actually comes out.
        if (length > maxBytes) {
          stream.destroy();
          reject(new TooLargeError(`${name} is over the size cap`));
        } else {
          chunks.push(chunk);
        }
      });
      stream.on('error', (streamError: Error) => reject(new Error(`cannot be extracted (${streamError.message}): export the zip again`)));
      stream.on('end', () => resolve(Buffer.concat(chunks)));
    });
  });
}

/**
 * Open a class directory or zip and group it into students (nothing is extracted yet). `exclude`: folders that
 * are not students whatever they hold (the command's own --out when it lies inside the class folder).
 */
export async function openSubmissions(path: string, options: { exclude?: string[] } = {}): Promise<SubmissionInput> {
  let stats: Stats;
  try {
    stats = statSync(path);
  } catch (error) {
    throw new InputError(`cannot read ${path} (${errorCode(error)}): pass a folder of submissions or an LMS zip`);
  }
  const input = stats.isDirectory() ? openDirectory(path, options.exclude ?? []) : await openZip(path);
  if (input.students.length === 0) {
    input.close();
    const stray = input.ignored.length > 0 ? ` (ignored: ${input.ignored.slice(0, 3).join(', ')}${input.ignored.length > 3 ? ', …' : ''})` : '';
    throw new InputError(`found no submissions in ${path}${stray}: it needs one folder or .ts/.js file per student, or Canvas-style name_id_submission_AIPlayer.ts files`);
  }
  return input;
}
