/**
 * How a class's files group into students, the same for a directory and a zip: either Canvas-style files
 * (`name_id_submissionid_AIPlayer.ts`, all at the top) or one folder or source file per student. Pure: it sees
 * entry names and sizes only; reading and writing the files is snapshot.ts's job.
 */
import { SOURCE_EXTENSIONS } from '../../harness/submission/resolve.js';

/** Whether a command-line argument names a zip to unpack rather than a source file or folder (kept apart from the unpacker, which a command loads only for a zip). */
export const isZipName = (arg: string): boolean => /\.zip$/i.test(arg);

/** One file of the input, named relative to the input's top with '/' separators. */
export interface InputEntry {
  name: string;
  size: number;
  /** Set when the entry must not be extracted (unsafe name, symlink, unreadable …), phrased as the fix. */
  problem?: string;
  /** A folder rather than a file (named with a trailing '/'): it makes an empty student folder visible. */
  folder?: boolean;
}

export type Layout = 'canvas' | 'moodle' | 'per-student';

export const LAYOUT_NAMES: Record<Layout, string> = {
  canvas: 'Canvas-style files (name_id_submissionid_file)',
  moodle: "Moodle's download (Full Name_id_assignsubmission_file_…)",
  'per-student': 'one folder, source file or zip per student',
};

/** A student's files, named relative to the student's own folder. */
export interface StudentFiles<E extends InputEntry> {
  id: string;
  /** Where the student came from in the input, for messages (e.g. `alice/` or `smith_12_34_AIPlayer.ts`). */
  origins: string[];
  files: { path: string; entry: E }[];
  /** A reason the student cannot be graded (duplicate id, unsafe entry …); set by groupStudents. */
  problem?: string;
  /** The LMS marked the submission late (Canvas's `_late_` in the file name). */
  late?: boolean;
  /** The LMS's user id when the layout carries one (Canvas's name_<id>_…), for a gradebook import. */
  lmsId?: string;
  /** The student's name part of the id (Canvas's sortable name), else the id. */
  name?: string;
}

export interface Grouping<E extends InputEntry> {
  layout: Layout;
  students: StudentFiles<E>[];
  /** Entries that belong to no student (stray files, unsafe names with no student in them). */
  ignored: string[];
}

const CANVAS = /^(?<name>[^_/]+)(?<late>_late)?_(?<user>\d+)_(?<submission>\d+)_(?<file>[^/]+)$/i;
/**
 * Moodle's "Download all submissions": `Full Name_<participant id>_assignsubmission_<plugin>_<file>` (flat), or the
 * same prefix as a folder (`…_assignsubmission_file_/AIPlayer.py`, with or without the trailing underscore) when
 * "Download submissions in folders" is ticked. Only the `file` plugin holds code; `onlinetext` (onlinetext.html),
 * comments and the like are the LMS's, not the student's program.
 */
const MOODLE = /^(?<name>[^/]+?)_(?<user>\d+)_assignsubmission_(?<plugin>[a-z0-9]+)(?:_|\/|$)(?<rest>.*)$/s;
/** Files an LMS adds beside the submissions (Gradescope's index of who submitted what, index pages). */
const LMS_INDEX = /^(submission_metadata\.ya?ml|index\.html?)$/i;
/**
 * Files that mark a folder as Referee's own output (batch, tournament, ladder, similarity): an `--out` inside the
 * class folder is seen on the next run and must not become a student.
 */
const OUTPUT_MARKERS = new Set(['batch.sqlite', 'tournament.sqlite', 'ladder.sqlite', 'similarity.json']);
export const isOutputMarker = (name: string): boolean => OUTPUT_MARKERS.has(name);
/** Why a top-level name is left out as Referee's own output, for the `ignored` list. */
export const OUTPUT_FOLDER_NOTE = "Referee's own output folder, left out";
/** Canvas renames a resubmitted file AIPlayer-1.ts; the entry file gets its name back. */
const CANVAS_RENAMED_ENTRY = /^(AIPlayer|index)-\d+(\.(?:ts|js|mjs|cjs))$/;
export const JUNK_SEGMENT = /^(__MACOSX|\.DS_Store|Thumbs\.db|desktop\.ini|\._.*)$/;

/** Why a name is unsafe to extract (absolute, `..`, control characters), or null when it is fine. */
export function unsafeName(name: string): string | null {
  if (/^[a-zA-Z]:/.test(name) || name.startsWith('/')) return `has an absolute path (${JSON.stringify(name)})`;
  if (name.split('/').includes('..')) return `climbs out of its folder with .. (${JSON.stringify(name)})`;
  if (/[\u0000-\u001f\u007f]/.test(name)) return `has control characters in its name (${JSON.stringify(name)})`;
  return null;
}

/** Names Windows reserves whatever the extension (a folder named CON cannot be created or copied there). */
const RESERVED = /^(con|prn|aux|nul|com[0-9]|lpt[0-9])(\..*)?$/i;

/** Why one path segment cannot be a file or folder name on every system, or null. */
export function unsafeSegment(segment: string): string | null {
  if (segment === '.' || segment === '..') return `is ${JSON.stringify(segment)}, which names a folder, not a file`;
  if (RESERVED.test(segment)) return `is ${JSON.stringify(segment)}, a name Windows reserves`;
  if (/[\\:*?"<>|]/.test(segment)) return `has a character file systems refuse (${JSON.stringify(segment)})`;
  if (/[. ]$/.test(segment)) return `ends with a dot or a space (${JSON.stringify(segment)})`;
  if (Buffer.byteLength(segment) > 200) return 'is longer than 200 bytes';
  return null;
}

/**
 * A student id that is safe as a folder name (out/students/<id>/): '.', '..', reserved and odd names get a
 * visible replacement, so the student is graded (and listed) rather than refused or, worse, written elsewhere.
 */
export function safeStudentId(id: string): string {
  let safe = id.replace(/[\u0000-\u001f\u007f\\/:*?"<>|]/g, '_').replace(/[. ]+$/, (tail) => '_'.repeat(tail.length));
  if (safe === '' || /^\.+$/.test(safe)) safe = safe.replace(/\./g, '_') || '_';
  if (RESERVED.test(safe)) safe = `_${safe}`;
  if (safe.startsWith('.')) safe = `_${safe.slice(1)}`;
  if (Buffer.byteLength(safe) > 120) safe = `${safe.slice(0, 100)}_${Buffer.from(id).toString('hex').slice(-16)}`;
  return safe;
}

const segmentsOf = (name: string): string[] => name.split('/').filter((segment) => segment !== '' && segment !== '.');

/** The first path segment that could name a student, even in an unsafe name (`/alice/x.ts` → alice). */
function ownerSegment(name: string): string | null {
  const first = segmentsOf(name.replace(/^[a-zA-Z]:/, ''))[0];
  return first === undefined || first === '..' ? null : first;
}

const isSource = (name: string): boolean => SOURCE_EXTENSIONS.some((extension) => name.endsWith(extension));
const stripExtension = (name: string): string => name.replace(/\.[^.]+$/, '');

/** A zip that wraps every student folder in one top folder (`submissions/alice/…`) is read from inside it. */
function unwrap<E extends InputEntry>(entries: E[]): { entries: E[]; prefix: string } {
  const firsts = new Set(entries.map((entry) => segmentsOf(entry.name)[0]));
  if (firsts.size !== 1 || entries.some((entry) => segmentsOf(entry.name).length < 3)) return { entries, prefix: '' };
  const children = new Set(entries.map((entry) => segmentsOf(entry.name)[1]));
  if (children.size < 2) return { entries, prefix: '' };
  const [wrapper] = firsts;
  return { entries: entries.map((entry) => ({ ...entry, name: segmentsOf(entry.name).slice(1).join('/') })), prefix: `${wrapper}/` };
}

/** Top-level folders holding one of Referee's output markers (their entries are left out whole). */
function outputFolders(entries: InputEntry[]): Set<string> {
  const found = new Set<string>();
  for (const entry of entries) {
    const segments = segmentsOf(entry.name);
    if (segments.length === 2 && OUTPUT_MARKERS.has(segments[1])) found.add(segments[0]);
  }
  return found;
}

/**
 * Group entries into students. Unsafe or unreadable entries become a problem of the student they belong to;
 * ids that clash (case-insensitively, as on macOS and Windows file systems) become a problem of every clashing
 * student. Neither stops the others from being graded. A student folder with nothing in it (a folder entry and
 * no files) is listed with its problem, never dropped: the gradebook shows "not graded" and why.
 */
export function groupStudents<E extends InputEntry>(all: E[]): Grouping<E> {
  const ignored: string[] = [];
  const notJunk = all.filter((entry) => !segmentsOf(entry.name).some((segment) => JUNK_SEGMENT.test(segment)));
  const lmsIndex = (entry: E): boolean => !entry.folder && segmentsOf(entry.name).length <= 2 && LMS_INDEX.test(segmentsOf(entry.name).at(-1) ?? '');
  for (const entry of notJunk) if (lmsIndex(entry)) ignored.push(`${entry.name} (the LMS's index, not a submission)`);
  const folders = notJunk.filter((entry) => entry.folder);
  const { entries: unwrapped, prefix } = unwrap(notJunk.filter((entry) => !entry.folder && !lmsIndex(entry)));
  const outputs = outputFolders(unwrapped);
  for (const folder of [...outputs].sort()) ignored.push(`${prefix}${folder}/ (${OUTPUT_FOLDER_NOTE})`);
  const entries = unwrapped.filter((entry) => !outputs.has(segmentsOf(entry.name)[0]));
  const canvas = entries.some((entry) => !unsafeName(entry.name) && segmentsOf(entry.name).length === 1 && CANVAS.test(entry.name));
  const moodle = !canvas && entries.some((entry) => !unsafeName(entry.name) && MOODLE.test(entry.name));
  const byKey = new Map<string, StudentFiles<E>>();
  const absolutes: { owner: string | null; name: string; unsafe: string }[] = [];
  /** Moodle students who handed in something other than files (online text …), for their message. */
  const lmsOnly = new Map<string, string>();
  const student = (rawId: string, origin: string): StudentFiles<E> => {
    const id = safeStudentId(rawId);
    let found = byKey.get(id);
    if (!found) {
      found = { id, origins: [], files: [] };
      byKey.set(id, found);
    }
    if (!found.origins.includes(origin)) found.origins.push(origin);
    return found;
  };
  const moodleStudent = (match: RegExpExecArray): StudentFiles<E> => {
    const { name, user } = match.groups!;
    const owner = student(`${name}_${user}`, `${prefix}${name}_${user}_assignsubmission_…`);
    owner.name = name;
    owner.lmsId = user;
    return owner;
  };
  for (const entry of entries) {
    const unsafe = unsafeName(entry.name);
    const segments = segmentsOf(entry.name);
    if (unsafe) {
      const owner = ownerSegment(entry.name);
      const match = owner ? CANVAS.exec(owner) : null;
      // An absolute path invents no student (`/tmp/x.ts` must not make a student "tmp"): it is the problem of a
      // student the input names anyway, else ignored (decided once every entry is seen).
      const absolute = /^[a-zA-Z]:/.test(entry.name) || entry.name.startsWith('/');
      if (absolute && !canvas) {
        absolutes.push({ owner: owner && segments.length > 1 ? owner : null, name: entry.name, unsafe });
        continue;
      }
      const moodleMatch = moodle ? MOODLE.exec(entry.name) : null;
      if (moodleMatch) {
        moodleStudent(moodleMatch).problem ??= `the entry ${prefix}${entry.name} ${unsafe}: refused; export the submission again without it`;
        continue;
      }
      const id = canvas ? (match ? `${match.groups!.name}_${match.groups!.user}` : null) : owner && segments.length > 1 ? owner : null;
      const origin = canvas ? `submission ${match?.groups!.submission}` : `${prefix}${id}/`;
      if (id === null) ignored.push(`${prefix}${entry.name} (${unsafe})`);
      else student(id, origin).problem ??= `the entry ${prefix}${entry.name} ${unsafe}: refused; export the submission again without it`;
      continue;
    }
    if (canvas) {
      const match = segments.length === 1 ? CANVAS.exec(entry.name) : null;
      if (!match) {
        ignored.push(`${prefix}${entry.name}`);
        continue;
      }
      const { name, user, submission, file, late } = match.groups!;
      const owner = student(`${name}_${user}`, `submission ${submission}`);
      owner.name = name;
      owner.lmsId = user;
      if (late) owner.late = true;
      owner.files.push({ path: file.replace(CANVAS_RENAMED_ENTRY, '$1$2'), entry });
    } else if (moodle) {
      const match = MOODLE.exec(segments.join('/'));
      if (!match) {
        ignored.push(`${prefix}${entry.name}`);
        continue;
      }
      const owner = moodleStudent(match);
      const path = segmentsOf(match.groups!.rest).join('/');
      if (match.groups!.plugin !== 'file') {
        lmsOnly.set(owner.id, match.groups!.plugin);
        ignored.push(`${prefix}${entry.name} (Moodle's ${match.groups!.plugin} submission, not code)`);
      } else if (path !== '') {
        owner.files.push({ path, entry });
      }
    } else if (segments.length > 1) {
      student(segments[0], `${prefix}${segments[0]}/`).files.push({ path: segments.slice(1).join('/'), entry });
    } else if (isSource(entry.name) || isZipName(entry.name)) {
      student(stripExtension(entry.name), `${prefix}${entry.name}`).files.push({ path: entry.name, entry });
    } else {
      ignored.push(`${prefix}${entry.name}`);
    }
  }
  // Student folders with no file left in them: listed (not graded, with the reason) rather than dropped.
  if (!canvas) {
    for (const folder of folders) {
      let segments = segmentsOf(folder.name);
      if (prefix !== '') {
        if (segments[0] !== prefix.slice(0, -1)) continue;
        segments = segments.slice(1);
      }
      if (segments.length !== 1 || unsafeName(folder.name) || outputs.has(segments[0])) continue;
      const match = moodle ? MOODLE.exec(segments[0]) : null;
      if (moodle && !match) continue;
      if (match) {
        const owner = moodleStudent(match);
        if (match.groups!.plugin !== 'file') lmsOnly.set(owner.id, match.groups!.plugin);
      } else if (!byKey.has(safeStudentId(segments[0]))) {
        student(segments[0], `${prefix}${segments[0]}/`);
      }
    }
  }
  for (const { owner, name, unsafe } of absolutes) {
    const known = owner === null ? undefined : byKey.get(safeStudentId(owner));
    if (known) known.problem ??= `the entry ${prefix}${name} ${unsafe}: refused; export the submission again without it`;
    else ignored.push(`${prefix}${name} (${unsafe})`);
  }
  const students = [...byKey.values()];
  const byLowerId = new Map<string, StudentFiles<E>[]>();
  for (const each of students) byLowerId.set(each.id.toLowerCase(), [...(byLowerId.get(each.id.toLowerCase()) ?? []), each]);
  for (const each of students) {
    const clash = byLowerId.get(each.id.toLowerCase())!;
    const origins = clash.flatMap((other) => other.origins);
    if (clash.length > 1 || origins.length > 1) {
      each.problem = `duplicate student id ${JSON.stringify(each.id)} (${origins.join(', ')}): keep exactly one submission per student`;
    }
    const badName = each.files.map((file) => ({ file, why: file.path.split('/').map(unsafeSegment).find((why) => why !== null) })).find((found) => found.why);
    if (badName && !each.problem) each.problem = `the file name ${JSON.stringify(badName.file.path)} ${badName.why}: refused; rename it and submit again`;
    const unreadable = each.files.find((file) => file.entry.problem);
    if (unreadable && !each.problem) each.problem = `${unreadable.path} ${unreadable.entry.problem}`;
    if (!each.problem && each.files.length === 0) {
      const plugin = lmsOnly.get(each.id);
      each.problem = plugin
        ? `the submission holds no files, only Moodle's ${plugin} submission: ask the student to upload the code as a file`
        : 'the submission is empty (its folder holds no files): ask the student to submit again';
    }
  }
  students.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return { layout: canvas ? 'canvas' : moodle ? 'moodle' : 'per-student', students, ignored };
}

/**
 * The files of one student's zip, as `referee grade x.zip` takes them: junk left out, any unsafe entry (absolute,
 * `..`, symlink, encrypted, a name a file system refuses) refuses the whole zip, since the student's own zip has
 * nobody else's work to go on with.
 */
export function submissionZipFiles<E extends InputEntry>(entries: E[]): { files: { path: string; entry: E }[] } | { refused: string } {
  const files: { path: string; entry: E }[] = [];
  for (const entry of entries) {
    if (entry.folder) continue;
    const segments = segmentsOf(entry.name);
    if (segments.some((segment) => JUNK_SEGMENT.test(segment))) continue;
    const refused = unsafeName(entry.name) ?? entry.problem ?? segments.map(unsafeSegment).find((why) => why !== null);
    if (refused) return { refused: `the entry ${JSON.stringify(entry.name)} ${refused}: refused; zip the submission again without it` };
    files.push({ path: segments.join('/'), entry });
  }
  return { files };
}
