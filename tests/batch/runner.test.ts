import { cpSync, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from '@jest/globals';
import { XMLParser } from 'fast-xml-parser';
import { compareBatches } from '../../grading/batch/compare.js';
import { openSubmissions } from '../../grading/batch/input.js';
import { BATCH_JOURNAL_FILE, BatchJournal } from '../../grading/batch/journal-db.js';
import { BatchUsageError, runBatch, type BatchEvent, type BatchOptions } from '../../grading/batch/runner.js';
import { readGradeResult } from '../../grading/grade-result.js';
import { makeClass, tempDir, TINY_ASSIGNMENT_JSON, tinyAssignment, workerScript } from './helpers.js';

const journalStats = (outDir: string) => {
  const journal = BatchJournal.open(join(outDir, BATCH_JOURNAL_FILE), { readonly: true });
  try {
    return { ...journal.gameStats(), grades: journal.grades().length, integrity: journal.integrityCheck() };
  } finally {
    journal.close();
  }
};

async function batch(classDir: string, outDir: string, options: Partial<BatchOptions> = {}) {
  const input = await openSubmissions(classDir);
  try {
    return await runBatch({ input, assignment: tinyAssignment(), assignmentSource: 'test', outDir, jobs: 2, workerScript: workerScript(), ...options });
  } finally {
    input.close();
  }
}

let workerPid: number | undefined;

describe('runBatch on a small class', () => {
  let classDir: string;
  let outDir: string;
  let first: Awaited<ReturnType<typeof batch>>;
  const events: BatchEvent[] = [];

  beforeAll(async () => {
    classDir = makeClass({ alice: 'fair', bob: 'weak', carol: 'broken', 'dave.ts': 'killer' });
    outDir = join(tempDir('out'), 'out');
    first = await batch(classDir, outDir, { onEvent: (event) => events.push(event) });
  });

  test('every student gets a result: compile errors and sandbox killers are failed checks, never a batch abort', () => {
    expect(first.students.map((student) => [student.id, student.status, student.interfaceCheck.passed])).toEqual([
      ['alice', 'graded', true],
      ['bob', 'graded', true],
      ['carol', 'graded', false],
      ['dave', 'graded', false],
    ]);
    expect(first.students[2].interfaceCheck.reason).toMatch(/compiles failed/);
    expect(first.students[3].interfaceCheck.reason).toMatch(/crash|killed|SIGKILL/i);
    expect(first.graded).toBe(4);
    expect(first.gamesPlayed).toBe(8);
    expect(events.find((event) => event.type === 'plan')).toEqual({ type: 'plan', students: 4, cached: 0, toGrade: 4, gamesPerStudent: 4 });
    expect(events.filter((event) => event.type === 'game')).toHaveLength(8);
  });

  test('per student: a valid grade.json and the exports; for the class: grades.csv; the journal holds every game once', () => {
    for (const id of ['alice', 'bob', 'carol', 'dave']) {
      const dir = join(outDir, 'students', id);
      const result = readGradeResult(join(dir, 'grade.json'));
      expect(result.submission.name).toBe(id);
      const gradescope = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')) as { score: number };
      expect(gradescope.score).toBe(result.score);
      const classroom = JSON.parse(readFileSync(join(dir, 'classroom.json'), 'utf8')) as Record<'referee' | 'refereemissed', { max_score: number }>;
      expect(classroom.referee.max_score + classroom.refereemissed.max_score).toBe(60);
      const junit = new XMLParser({ ignoreAttributes: false }).parse(readFileSync(join(dir, 'junit.xml'), 'utf8')) as { testsuite: { '@_name': string } };
      expect(junit.testsuite['@_name']).toBe(id);
    }
    const csvText = readFileSync(join(outDir, 'grades.csv'), 'utf8');
    expect(csvText.startsWith('\ufeffstudent,')).toBe(true); // the BOM that makes Excel read UTF-8
    const csv = csvText.trim().split('\n');
    expect(csv[0]).toBe('student,name,lms_id,late,language,total,max,Interface check,vs random,vs greedy,status,note');
    expect(csv.slice(1).map((line) => line.split(',')[0])).toEqual(['alice', 'bob', 'carol', 'dave']);
    expect(csv[3]).toMatch(/^carol,carol,,,[A-Za-z]*,0,60,0,0,0,interface check failed,/);
    expect(journalStats(outDir)).toEqual({ games: 8, maxPlays: 1, grades: 4, integrity: 'ok' });
    expect(existsSync(join(outDir, 'submissions', 'dave', 'dave.ts'))).toBe(true);
  });

  test('without --resume an out/ holding a journal is refused; with it nothing is graded or played again', async () => {
    await expect(batch(classDir, outDir)).rejects.toThrow(BatchUsageError);
    const again = await batch(classDir, outDir, { resume: true });
    expect(again).toMatchObject({ graded: 0, cached: 4, errors: 0, gamesPlayed: 0 });
    expect(again.students.map((student) => student.score)).toEqual(first.students.map((student) => student.score));
    expect(journalStats(outDir)).toMatchObject({ games: 8, maxPlays: 1 });
  });

  test('a config that only moves points re-grades everyone but replays nothing; --compare names the moved item', async () => {
    const before = join(tempDir('old'), 'out');
    cpSync(outDir, before, { recursive: true });
    const opponents = TINY_ASSIGNMENT_JSON.opponents.map((item) => (item.name === 'greedy' ? { ...item, points: 40 } : item));
    const input = await openSubmissions(classDir);
    const moved = await runBatch({ input, assignment: tinyAssignment({ opponents }), assignmentSource: 'test', outDir, jobs: 2, resume: true, workerScript: workerScript() });
    input.close();
    expect(moved).toMatchObject({ graded: 4, cached: 0, gamesPlayed: 0, gamesReused: 8 });
    expect(journalStats(outDir)).toMatchObject({ games: 8, maxPlays: 1 });
    const { changes, unchanged } = compareBatches(before, outDir);
    const greedyWinners = first.students.filter((student) => student.items[1].points > 0).map((student) => student.id);
    expect(changes.map((change) => change.student)).toEqual(greedyWinners);
    for (const change of changes) {
      expect(change.reasons.join('; ')).toMatch(/vs greedy: 30 → 40 \/ 40, same win rate; \(config changed\)/);
    }
    expect(unchanged).toBe(4 - greedyWinners.length);
  });

  test('a grading worker killed mid-grade fails only its student; a resume grades it without replaying finished games', async () => {
    const out = join(tempDir('out'), 'out');
    const killed = await batch(classDir, out, {
      only: ['alice', 'bob'],
      jobs: 1,
      onEvent: (event) => {
        if (event.type === 'game' && event.student === 'alice' && event.finished === 2) process.kill(workerPid!, 'SIGKILL');
        if (event.type === 'student-start') workerPid = event.worker;
      },
    });
    expect(killed.students.map((student) => [student.id, student.status])).toEqual([['alice', 'error'], ['bob', 'graded']]);
    expect(killed.students[0].error).toMatch(/the grading worker died \(killed by SIGKILL\).*--resume/);
    const stored = journalStats(out).games;
    expect(stored).toBeGreaterThanOrEqual(2 + 4);
    const resumed = await batch(classDir, out, { only: ['alice', 'bob'], resume: true });
    expect(resumed.students.map((student) => student.status)).toEqual(['graded', 'graded']);
    expect(resumed.gamesPlayed).toBe(8 - stored);
    expect(journalStats(out)).toMatchObject({ games: 8, maxPlays: 1 });
  });

  test('an abort (Ctrl-C) stops at once, keeps finished work, and the resume completes without replays', async () => {
    const out = join(tempDir('out'), 'out');
    const controller = new AbortController();
    const stopped = await batch(classDir, out, {
      only: ['alice', 'bob'],
      signal: controller.signal,
      onEvent: (event) => {
        if (event.type === 'game' && event.finished === 1) controller.abort();
      },
    });
    expect(stopped.interrupted).toBe(true);
    expect(existsSync(join(out, 'grades.csv'))).toBe(false);
    const stored = journalStats(out).games;
    expect(stored).toBeGreaterThanOrEqual(1);
    expect(stored).toBeLessThan(8);
    const resumed = await batch(classDir, out, { only: ['alice', 'bob'], resume: true });
    expect(resumed.interrupted).toBe(false);
    expect(resumed.gamesPlayed).toBe(8 - stored);
    expect(journalStats(out)).toMatchObject({ games: 8, maxPlays: 1 });
  });
});
