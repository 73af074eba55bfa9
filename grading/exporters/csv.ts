/**
 * grades.csv for an LMS gradebook import: student id, total, max, one column per rubric item (the interface
 * check first), then the status and a note. A row whose summary status is `error` says "not graded" (an empty
 * folder, a refused zip, a grader error: the note says which) and leaves its points blank.
 * Written with csv-stringify, which quotes what needs quoting; a cell that a spreadsheet would run as a formula
 * (a student-chosen folder name like `=HYPERLINK(…)`) is defused.
 */
import { stringify } from 'csv-stringify/sync';
import type { StudentSummary } from '../batch/summary.js';

/** A leading =, +, -, @, tab or CR makes Excel and friends evaluate the cell; a quote mark keeps it text. */
export const defuse = (value: string): string => (/^[=+\-@\t\r]/.test(value) ? `'${value}` : value);

/** Item titles as column headers, made unique (two items may share a title). */
function itemHeaders(student: StudentSummary): string[] {
  const seen = new Map<string, number>();
  return student.items.map((item) => {
    const count = (seen.get(item.title) ?? 0) + 1;
    seen.set(item.title, count);
    return count === 1 ? item.title : `${item.title} (${count})`;
  });
}

export function gradesCsv(students: StudentSummary[], options: { pseudonyms?: Map<string, string> } = {}): string {
  const first = students[0];
  const header = [
    'student',
    // The id split for an LMS import (Canvas: sortable name, user id), then the late flag and the language.
    'name',
    'lms_id',
    'late',
    'language',
    ...(options.pseudonyms ? ['pseudonym'] : []),
    'total',
    'max',
    'Interface check',
    ...(first ? itemHeaders(first) : []),
    'status',
    'note',
  ];
  const rows = students.map((student) => {
    // Not graded: blank points, never a 0 that an LMS import would record as the student's grade.
    const points = (value: number): number | '' => (student.status === 'error' ? '' : value);
    return [
      defuse(student.id),
      defuse(student.name ?? student.id),
      student.lmsId ?? '',
      student.late ? 'late' : '',
      student.language ?? '',
      ...(options.pseudonyms ? [options.pseudonyms.get(student.id) ?? ''] : []),
      points(student.score),
      student.maxScore,
      points(student.interfaceCheck.points),
      ...student.items.map((item) => points(item.points)),
      student.status === 'error' ? 'not graded' : student.interfaceCheck.passed ? 'graded' : 'interface check failed',
      defuse([student.error ?? student.interfaceCheck.reason ?? '', student.identicalTo?.length ? `identical to ${student.identicalTo.join(', ')}` : ''].filter(Boolean).join('; ')),
    ];
  });
  return stringify([header, ...rows]);
}
