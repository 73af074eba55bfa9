/** A full disk under out/ stops the batch (every later write would fail too) instead of failing students one by one. */

const DISK_FULL_CODES = new Set(['ENOSPC', 'EDQUOT', 'SQLITE_FULL']);

/** ENOSPC and friends; SQLite reports a full disk as SQLITE_FULL, or as an I/O error when it cannot grow its WAL. */
export function isDiskFull(error: unknown): boolean {
  const code = typeof error === 'object' && error !== null ? ((error as { code?: unknown }).code ?? '') : '';
  return typeof code === 'string' && (DISK_FULL_CODES.has(code) || code.startsWith('SQLITE_IOERR'));
}

export class DiskFullError extends Error {
  override name = 'DiskFullError';
  constructor(outDir: string, detail: string) {
    super(
      `the disk holding ${outDir} is full or failing (${detail}): free some space, then run the same command with --resume; ` +
        'every game and grade finished so far is safe in the journal',
    );
  }
}
