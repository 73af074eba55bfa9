import { spawn, execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, statfsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from '@jest/globals';
import { isAlive } from '../../harness/sandbox/process-tree.js';
import { DiskFullError } from '../../grading/batch/disk-full.js';
import { openSubmissions } from '../../grading/batch/input.js';
import { BATCH_JOURNAL_FILE, BatchJournal } from '../../grading/batch/journal-db.js';
import { runBatch, type BatchOptions } from '../../grading/batch/runner.js';
import { packageFile } from '../../grading/package-root.js';
import { makeClass, tempDir, TINY_ASSIGNMENT_JSON, tinyAssignment, workerScript } from './helpers.js';
import { stopAfterwards } from '../setup/children.js';

const stats = (outDir: string) => {
  const journal = BatchJournal.open(join(outDir, BATCH_JOURNAL_FILE), { readonly: true });
  try {
    return { ...journal.gameStats(), students: journal.grades().map((grade) => grade.student), integrity: journal.integrityCheck() };
  } finally {
    journal.close();
  }
};

async function batch(classDir: string, outDir: string, options: Partial<BatchOptions> = {}) {
  const input = await openSubmissions(classDir);
  try {
    return await runBatch({ input, assignment: tinyAssignment(), assignmentSource: 'test', outDir, jobs: 1, workerScript: workerScript(), ...options });
  } finally {
    input.close();
  }
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

test('a batch killed with kill -9 half-way resumes without replaying a finished game', async () => {
  const classDir = makeClass({ alice: 'fair', bob: 'weak' });
  const outDir = join(tempDir('kill'), 'out');
  const script = packageFile('node_modules', '.referee-test', `batch-child-${process.pid}.mjs`);
  mkdirSync(packageFile('node_modules', '.referee-test'), { recursive: true });
  writeFileSync(
    script,
    `import { resolveAssignment } from '../../dist/grading/assignment.js';
import { openSubmissions } from '../../dist/grading/batch/input.js';
import { runBatch } from '../../dist/grading/batch/runner.js';
const [classDir, outDir, json] = process.argv.slice(2);
await runBatch({ input: await openSubmissions(classDir), assignment: resolveAssignment(JSON.parse(json)), assignmentSource: 'test', outDir, jobs: 1,
  onEvent: (event) => { if (event.type === 'student-start') console.log('worker ' + event.worker); } });
console.log('finished without being killed');
`,
  );
  const child = stopAfterwards(spawn(process.execPath, [script, classDir, outDir, JSON.stringify(TINY_ASSIGNMENT_JSON)], { stdio: ['ignore', 'pipe', 'inherit'] }));
  const workers: number[] = [];
  let printed = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    printed += chunk;
    for (const match of chunk.matchAll(/worker (\d+)/g)) workers.push(Number(match[1]));
  });
  let over = false;
  const exited = new Promise((resolve) => child.once('exit', (_code, signal) => resolve(signal))).finally(() => (over = true));
  // Half-way: once three of the eight games are journaled (or the run ended: the checks below say so), however long
  // a loaded machine takes; no clock bound.
  while (!over) {
    await sleep(50);
    try {
      if (stats(outDir).games >= 3) break;
    } catch {
      // no journal yet
    }
  }
  child.kill('SIGKILL');
  expect(await exited).toBe('SIGKILL');
  rmSync(script);
  expect(printed).not.toContain('finished without being killed');
  // The orphaned worker notices its parent is gone and exits, killing its sandboxes.
  for (let waited = 0; waited < 10_000 && workers.some(isAlive); waited += 50) await sleep(50);
  expect(workers.filter(isAlive)).toEqual([]);

  const before = stats(outDir);
  expect(before.games).toBeGreaterThanOrEqual(3);
  expect(before.games).toBeLessThan(8);
  expect(before.integrity).toBe('ok');
  const resumed = await batch(classDir, outDir, { resume: true });
  expect(resumed.students.map((student) => student.status)).toEqual(['graded', 'graded']);
  expect(resumed.gamesPlayed).toBe(8 - before.games);
  expect(stats(outDir)).toMatchObject({ games: 8, maxPlays: 1 });
});

describe('a full disk under out/', () => {
  test('(injected ENOSPC while writing a grade) stops the batch with a clear error; the journal is intact and resumes', async () => {
    const classDir = makeClass({ alice: 'weak', bob: 'fair' });
    const outDir = join(tempDir('enospc'), 'out');
    let writes = 0;
    // Two games a student (random only): the injected failure needs grades to write, not the greedy games too.
    const assignment = tinyAssignment({ opponents: [TINY_ASSIGNMENT_JSON.opponents[0]] });
    const full = batch(classDir, outDir, {
      assignment,
      onGraded: () => {
        if (++writes === 2) throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
      },
    });
    await expect(full).rejects.toThrow(DiskFullError);
    await expect(full).rejects.toThrow(/is full or failing \(ENOSPC.*run the same command with --resume/);
    const after = stats(outDir);
    expect(after).toMatchObject({ games: 4, maxPlays: 1, students: ['alice'], integrity: 'ok' });
    const resumed = await batch(classDir, outDir, { assignment, resume: true });
    expect(resumed).toMatchObject({ cached: 1, graded: 1, gamesPlayed: 0, gamesReused: 2 });
  });

  const mountPoint = tempDir('tmpfs');
  let mounted = false;
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=6m', 'tmpfs', mountPoint], { stdio: 'ignore' });
    mounted = true;
  } catch {
    // Not root, or no mount in this container: the injected test above covers the handling.
  }
  // Lazily (-l): a case that timed out may still hold files open on it (its batch goes on in this process), and a
  // plain umount would then fail and leave the tmpfs mounted after the suite.
  afterAll(() => {
    if (mounted) execFileSync('umount', ['-l', mountPoint]);
  });

  (mounted ? test : test.skip)('(a real 6 MB tmpfs filled up) stops with a clear error; freeing space and resuming completes', async () => {
    const classDir = makeClass({ alice: 'weak', bob: 'fair', carol: 'weak' });
    const outDir = join(mountPoint, 'out');
    await batch(classDir, outDir, { only: ['alice'] });
    const filler = join(mountPoint, 'filler');
    const { bavail, bsize } = statfsSync(mountPoint);
    // Leave room for the snapshots, not for the games' records and grades.
    writeFileSync(filler, Buffer.alloc(Math.max(0, bavail * bsize - 24 * 1024)));
    await expect(batch(classDir, outDir, { resume: true })).rejects.toThrow(/is full or failing .*--resume/);
    // Free the space (SQLite cannot even open the journal read-only on a full disk), then look: nothing was lost.
    rmSync(filler);
    const after = stats(outDir);
    expect(after.integrity).toBe('ok');
    expect(after.students).toContain('alice');
    expect(after.maxPlays).toBe(1);
    const resumed = await batch(classDir, outDir, { resume: true });
    expect(resumed.students.map((student) => student.status)).toEqual(['graded', 'graded', 'graded']);
    expect(resumed.cached).toBeGreaterThanOrEqual(1);
    // carol submitted alice's code: the same games, journaled once.
    expect(stats(outDir)).toMatchObject({ games: 8, maxPlays: 1 });
  });
});
