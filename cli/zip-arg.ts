/**
 * A submission argument that is a zip (check, grade, play): unpacked once into a private temporary folder that
 * goes when the process exits; the commands then see a plain folder.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isZipName } from '../grading/batch/layout.js';
import { UsageError } from './args.js';

let scratch: string | null = null;

/** `arg` itself, or for a .zip the folder it was extracted to; a hostile or broken zip is a one-line UsageError. */
export async function submissionArg(arg: string): Promise<string> {
  if (!isZipName(arg)) return arg;
  if (scratch === null) {
    const dir = mkdtempSync(join(tmpdir(), 'referee-unzipped-'));
    scratch = dir;
    process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
  }
  try {
    // The unpacker (yauzl and the batch's snapshot rules) only for a zip: start-up of every other check.
    const { extractSubmissionZip } = await import('../grading/batch/submission-zip.js');
    return await extractSubmissionZip(arg, mkdtempSync(join(scratch, 'sub-')));
  } catch (error) {
    if ((error as Error).name === 'InputError') throw new UsageError((error as Error).message);
    throw error;
  }
}
