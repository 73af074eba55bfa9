import { describe, expect, test } from '@jest/globals';
import { groupStudents, safeStudentId, unsafeName, unsafeSegment } from '../../grading/batch/layout.js';

const entries = (...names: string[]) => names.map((name) => ({ name, size: 10 }));
const summary = (names: string[]) =>
  groupStudents(entries(...names)).students.map((student) => ({ id: student.id, files: student.files.map((file) => file.path), problem: student.problem ?? null }));

describe('groupStudents', () => {
  test('Canvas-style files group by name_id; resubmitted entry files get their name back; a late mark is not part of the id', () => {
    const grouping = groupStudents(entries('smithjohn_123_456_AIPlayer-1.ts', 'smithjohn_123_456_helper.ts', 'doejane_late_77_88_AIPlayer.ts', 'notes.txt'));
    expect(grouping.layout).toBe('canvas');
    expect(grouping.students.map((student) => [student.id, student.files.map((file) => file.path), student.problem])).toEqual([
      ['doejane_77', ['AIPlayer.ts'], undefined],
      ['smithjohn_123', ['AIPlayer.ts', 'helper.ts'], undefined],
    ]);
    expect(grouping.ignored).toEqual(['notes.txt']);
  });

  test('one folder or source file per student; junk and stray files are left out; a wrapping folder is looked into', () => {
    expect(summary(['alice/src/AIPlayer.ts', 'alice/.DS_Store', 'bob.ts', '__MACOSX/alice/._AIPlayer.ts'])).toEqual([
      { id: 'alice', files: ['src/AIPlayer.ts'], problem: null },
      { id: 'bob', files: ['bob.ts'], problem: null },
    ]);
    const wrapped = groupStudents(entries('export/alice/AIPlayer.ts', 'export/bob/AIPlayer.ts'));
    expect(wrapped.students.map((student) => student.id)).toEqual(['alice', 'bob']);
    // One student's folder alone is not a wrapper.
    expect(summary(['alice/src/AIPlayer.ts', 'alice/src/util.ts']).map((student) => student.id)).toEqual(['alice']);
  });

  test('duplicate ids (a folder and a file, two Canvas submissions, names differing in case) fail every copy, nobody else', () => {
    const grouped = summary(['alice/AIPlayer.ts', 'alice.ts', 'Bob/AIPlayer.ts', 'bob/AIPlayer.ts', 'carol/AIPlayer.ts']);
    expect(grouped.find((student) => student.id === 'alice')?.problem).toMatch(/duplicate student id "alice" \(alice\/, alice\.ts\)/);
    expect(grouped.filter((student) => /duplicate/.test(student.problem ?? '')).map((student) => student.id).sort()).toEqual(['Bob', 'alice', 'bob']);
    expect(grouped.find((student) => student.id === 'carol')?.problem).toBeNull();
    const canvas = summary(['smith_1_10_AIPlayer.ts', 'smith_1_11_AIPlayer.ts']);
    expect(canvas[0].problem).toMatch(/duplicate student id "smith_1" \(submission 10, submission 11\)/);
  });

  test('absolute and .. entries are refused as a problem of their student, or ignored when they name none', () => {
    const grouping = groupStudents(entries('alice/AIPlayer.ts', 'alice/../../etc/cron.d/x', '/bob/AIPlayer.ts', 'bob/AIPlayer.ts', '../../evil.ts', 'carol/AIPlayer.ts'));
    const byId = new Map(grouping.students.map((student) => [student.id, student]));
    expect(byId.get('alice')?.problem).toMatch(/climbs out of its folder with \.\./);
    expect(byId.get('bob')?.problem).toMatch(/has an absolute path/);
    expect(byId.get('carol')?.problem).toBeUndefined();
    expect(grouping.ignored.join()).toContain('../../evil.ts');
    expect(unsafeName('C:/x.ts')).toMatch(/absolute/);
    expect(unsafeName('a/b.ts')).toBeNull();
  });

  test('an unreadable file is its student\'s problem', () => {
    const grouping = groupStudents([{ name: 'dave/AIPlayer.ts', size: 0, problem: 'is not a regular file' }, { name: 'erin/AIPlayer.ts', size: 1 }]);
    expect(grouping.students.map((student) => student.problem)).toEqual(['AIPlayer.ts is not a regular file', undefined]);
  });

  test('every entry name is made safe or refused per student: ., .., reserved names, absolute paths invent no student', () => {
    const canvas = groupStudents(entries('a_1_2_..', 'b_3_4_.', 'c_5_6_AIPlayer.ts', 'late_late_7_8_AIPlayer.ts', 'd_9_10_nul.ts'));
    const byId = new Map(canvas.students.map((student) => [student.id, student]));
    expect(byId.get('a_1')?.problem).toMatch(/the file name "\.\." is "\.\.", which names a folder, not a file: refused/);
    expect(byId.get('b_3')?.problem).toMatch(/the file name "\." is "\."/);
    expect(byId.get('d_9')?.problem).toMatch(/a name Windows reserves/);
    expect(byId.get('c_5')).toMatchObject({ name: 'c', lmsId: '5' });
    expect(byId.get('c_5')?.problem).toBeUndefined();
    expect(byId.get('late_7')).toMatchObject({ late: true, name: 'late', lmsId: '7' });

    const folders = groupStudents(entries('CON/AIPlayer.ts', 'ok/AIPlayer.ts', '/tmp/x.ts', 'trail. /AIPlayer.ts'));
    expect(folders.students.map((student) => student.id)).toEqual(['_CON', 'ok', 'trail__']);
    expect(folders.students.every((student) => student.problem === undefined)).toBe(true);
    expect(folders.ignored).toEqual(['/tmp/x.ts (has an absolute path ("/tmp/x.ts"))']);
    for (const id of ['.', '..', 'aux', 'a:b', 'x'.repeat(300)]) {
      const safe = safeStudentId(id);
      expect(unsafeSegment(safe)).toBeNull();
      expect(safe).not.toContain('/');
    }
  });
});
