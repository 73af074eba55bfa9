/**
 * One student's submission handed in as a zip (`referee check sub.zip`, grade, play): extracted through the same
 * route as a batch's zip (input.ts reads it, snapshot.ts writes it under caps), but any unsafe entry refuses the
 * whole zip, since there is no other student to go on grading.
 */
import { basename } from 'node:path';
import { InputError, listZip } from './input.js';
import { safeStudentId, submissionZipFiles } from './layout.js';
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
    const listed = submissionZipFiles(entries);
    if ('refused' in listed) throw new InputError(`${zipPath}: ${listed.refused}`);
    const { files } = listed;
    if (files.length === 0) throw new InputError(`${zipPath} holds no files: zip the folder with Strategy.cpp (or AIPlayer.ts / AIPlayer.py) in it`);
    const id = safeStudentId(basename(zipPath).replace(/\.zip$/i, ''));
    const snapshot = await snapshotStudent({ id, origins: [zipPath], files }, root, limits);
    if (snapshot.problem !== undefined) throw new InputError(`${zipPath}: ${snapshot.problem}`);
    return { path: snapshot.path, hash: snapshot.hash };
  } finally {
    close();
  }
}
