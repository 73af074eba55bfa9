/**
 * Intake: an uploaded zip becomes a version. The bytes are unpacked through the same route as `grade sub.zip` and a
 * batch (grading/batch/submission-zip.ts: size and file caps counted on what actually comes out, `..`, absolute
 * paths, symlinks and devices refused — any one refuses the whole upload), hashed (the same files twice are the
 * same version), and only then recorded; a refused upload leaves nothing behind. Checking and validating a
 * version are the service's (service.ts), so a restart resumes them.
 */
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, lstatSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { extractSubmissionZipHashed } from '../batch/submission-zip.js';
import type { SnapshotLimits } from '../batch/snapshot.js';
import { safeRelativePath } from './store.js';

/** An upload refused before anything was stored: one line naming the fix. */
export class UploadRefused extends Error {
  override name = 'UploadRefused';
}

export interface StagedUpload {
  contentHash: string;
  /** The submission inside the data folder, relative to it ('/'-separated): the file or folder to check. */
  path: string;
  /** Remove the staged files if this upload created them (the quota refused it). */
  discard(): void;
}

const ZIP_MAGIC = Buffer.from([0x50, 0x4b]);

/** Unpack `bytes` (a zip) for `student` under dataDir/submissions/<student>/<content hash>/. */
export async function stageUpload(dataDir: string, student: string, bytes: Buffer, limits: SnapshotLimits, entry?: string): Promise<StagedUpload> {
  if (entry !== undefined && !safeRelativePath(entry)) {
    throw new UploadRefused(`--entry ${JSON.stringify(entry).slice(0, 80)} is not a path inside the submission: give it relative to the folder, e.g. --entry src/MyBot.ts`);
  }
  if (bytes.length < 4 || !bytes.subarray(0, 2).equals(ZIP_MAGIC)) {
    throw new UploadRefused('the upload is not a zip: send the submission folder zipped (`referee ladder submit PATH` zips it for you)');
  }
  const incoming = join(dataDir, 'incoming');
  mkdirSync(incoming, { recursive: true, mode: 0o700 });
  const name = randomBytes(9).toString('hex');
  const zipPath = join(incoming, `${name}.zip`);
  const scratch = join(incoming, name);
  writeFileSync(zipPath, bytes, { mode: 0o600 });
  try {
    let extracted: { path: string; hash: string };
    try {
      extracted = await extractSubmissionZipHashed(zipPath, scratch, limits);
    } catch (error) {
      if ((error as Error).name === 'InputError') throw new UploadRefused((error as Error).message.replace(zipPath, 'the upload'));
      throw error;
    }
    const inside = relative(scratch, extracted.path);
    if (entry !== undefined) {
      const named = lstatSync(join(extracted.path, entry), { throwIfNoEntry: false });
      if (!named?.isFile()) throw new UploadRefused(`--entry ${entry} is not a file in the upload: give its path relative to the submitted folder, e.g. --entry src/MyBot.ts`);
    }
    // The same files with another entry are another version.
    const contentHash = entry === undefined ? extracted.hash : createHash('sha256').update(`${extracted.hash}\0entry\0${entry}`).digest('hex');
    const target = join(dataDir, 'submissions', student, extracted.hash);
    // The same files again: the folder already there is that version's, and stays.
    const created = !existsSync(target);
    if (created) {
      mkdirSync(join(dataDir, 'submissions', student), { recursive: true });
      renameSync(scratch, target);
    }
    const path = relative(dataDir, join(target, inside)).split(sep).join('/');
    return {
      contentHash,
      path,
      discard: () => {
        if (created) rmSync(target, { recursive: true, force: true });
      },
    };
  } finally {
    rmSync(zipPath, { force: true });
    rmSync(scratch, { recursive: true, force: true });
  }
}
