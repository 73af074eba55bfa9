/**
 * One student's submission handed in as a zip (`referee check sub.zip`, grade, play): extracted through the same
 * route as a batch's zip (input.ts reads it, snapshot.ts writes it under caps), but any unsafe entry refuses the
 * whole zip, since there is no other student to go on grading.
 */
import { basename } from 'node:path';
import { InputError, listZip } from './input.js';
import { JUNK_SEGMENT, safeStudentId, unsafeName, unsafeSegment } from './layout.js';
import { DEFAULT_LIMITS, snapshotStudent, type SnapshotLimits } from './snapshot.js';

/**
 * Extract `zipPath` into a folder named after the zip under `root` and return what to grade there: the folder
 * itself, or the one top folder students often zip (`mine.zip` holding `mine/Strategy.cpp`).
 */
export async function extractSubmissionZip(zipPath: string, root: string, limits: SnapshotLimits = DEFAULT_LIMITS): Promise<string> {
  return (await extractSubmissionZipHashed(zipPath, root, limits)).path;
}

/** As extractSubmissionZip, with the hash of the files extracted (the ladder's "same content, same version"). */
export async function extractSubmissionZipHashed(zipPath: string, root: string, limits: SnapshotLimits = DEFAULT_LIMITS): Promise<{ path: string; hash: string }> {
  const { entries, close } = await listZip(zipPath);
  try {
    const files = [];
    for (const entry of entries) {
      const segments = entry.name.split('/').filter((segment) => segment !== '' && segment !== '.');
      if (segments.some((segment) => JUNK_SEGMENT.test(segment))) continue;
      const refused = unsafeName(entry.name) ?? entry.problem ?? segments.map(unsafeSegment).find((why) => why !== null);
      if (refused) throw new InputError(`${zipPath}: the entry ${JSON.stringify(entry.name)} ${refused}: refused; zip the submission again without it`);
      files.push({ path: segments.join('/'), entry });
    }
    if (files.length === 0) throw new InputError(`${zipPath} holds no files: zip the folder with Strategy.cpp (or AIPlayer.ts / AIPlayer.py) in it`);
    const id = safeStudentId(basename(zipPath).replace(/\.zip$/i, ''));
    const snapshot = await snapshotStudent({ id, origins: [zipPath], files }, root, limits);
    if (snapshot.problem !== undefined) throw new InputError(`${zipPath}: ${snapshot.problem}`);
    return { path: snapshot.path, hash: snapshot.hash };
  } finally {
    close();
  }
}
