/**
 * Every export of a single GradeResult by name, with the file it is usually written to: what `referee export
 * --format` offers and what the batch writes beside each student's grade.json.
 */
import type { GradeResult } from '../grade-result.js';
import { summarizeGrade } from '../batch/summary.js';
import { classroomRefusal, toClassroom } from './classroom.js';
import { gradesCsv } from './csv.js';
import { gradescopeRefusal, toGradescope } from './gradescope.js';
import { toJUnit } from './junit.js';
import { toMarkdown } from './markdown.js';

export interface ExportFormat {
  /** The conventional file name. */
  file: string;
  description: string;
  render(result: GradeResult, name: string): string;
  /** Why this grade has no output in the format (a grader error where any output would be recorded as points). */
  refusal?(result: GradeResult): string | null;
}

const json = (value: unknown): string => `${JSON.stringify(value, null, 2)}\n`;

export const EXPORT_FORMATS = {
  gradescope: { file: 'results.json', description: "Gradescope's autograder results.json", render: (result) => json(toGradescope(result)), refusal: gradescopeRefusal },
  classroom: {
    file: 'classroom.json',
    description: "GitHub Classroom runner outputs for the grading reporter (runners referee and refereemissed; --step-outputs for $GITHUB_OUTPUT)",
    render: (result) => json(toClassroom(result)),
    refusal: classroomRefusal,
  },
  junit: { file: 'junit.xml', description: 'JUnit XML, one testcase per rubric item', render: (result, name) => toJUnit(result, name) },
  markdown: { file: 'summary.md', description: 'a markdown table of items and points (a CI job summary)', render: (result) => toMarkdown(result) },
  csv: { file: 'grades.csv', description: 'one gradebook row: total, max and each rubric item', render: (result, name) => gradesCsv([summarizeGrade(name, result, null)]) },
} satisfies Record<string, ExportFormat> as Record<'gradescope' | 'classroom' | 'junit' | 'markdown' | 'csv', ExportFormat>;

export type ExportFormatName = keyof typeof EXPORT_FORMATS;

export const EXPORT_FORMAT_NAMES = Object.keys(EXPORT_FORMATS) as ExportFormatName[];

/** The exports the batch writes beside each student's grade.json (the CSV is written once for the class). */
export const PER_STUDENT_FORMATS: ExportFormatName[] = ['gradescope', 'classroom', 'junit'];
