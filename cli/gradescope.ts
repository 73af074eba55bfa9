/**
 * `referee gradescope`: the entry point of a Gradescope autograder (run_autograder calls it). Grades the
 * submission in /autograder/submission and writes /autograder/results/results.json; both paths, and the config,
 * can be moved with flags or environment variables (for tests and other hosts). Gradescope always gets a
 * results.json: when grading itself fails, one with 0 points and the reason.
 * Exit codes: 0 graded (whatever the score), 1 could not grade (a results.json with the reason was written),
 * 3 grader error (the sandbox could not start: a results.json that says the autograder failed, with no score).
 */
import { existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Command } from 'commander';
import { defaultAssignment, loadAssignment } from '../grading/assignment.js';
import { submissionContestant } from '../grading/contestant.js';
import { grade } from '../grading/grade.js';
import { writeGradeResult } from '../grading/grade-result.js';
import { gradescopeError, gradescopeGraderFailure, toGradescope, type GradescopeResults } from '../grading/exporters/gradescope.js';
import { isGraderError } from '../harness/referee/grader-error.js';
import { writeReport } from '../reports/render.js';

export const GRADESCOPE_DEFAULTS = {
  submission: '/autograder/submission',
  results: '/autograder/results/results.json',
  config: '/autograder/source/assignment.json',
};

export const GRADESCOPE_ENV = {
  submission: 'REFEREE_GRADESCOPE_SUBMISSION',
  results: 'REFEREE_GRADESCOPE_RESULTS',
  config: 'REFEREE_GRADESCOPE_CONFIG',
};

interface GradescopeFlags {
  submission?: string;
  results?: string;
  config?: string;
}

function writeResults(path: string, results: GradescopeResults): void {
  mkdirSync(dirname(path), { recursive: true });
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(results, null, 2)}\n`);
  renameSync(temporary, path);
}

export function register(program: Command): void {
  program
    .command('gradescope')
    .description('grade a Gradescope submission: reads /autograder/submission, writes /autograder/results/results.json')
    .option('--submission <dir>', `the submission folder (env ${GRADESCOPE_ENV.submission}; default ${GRADESCOPE_DEFAULTS.submission})`)
    .option('--results <file>', `where results.json goes (env ${GRADESCOPE_ENV.results}; default ${GRADESCOPE_DEFAULTS.results})`)
    .option('--config <file>', `assignment JSON (env ${GRADESCOPE_ENV.config}; default ${GRADESCOPE_DEFAULTS.config} if present, else the built-in ladder)`)
    .action(async (flags: GradescopeFlags) => {
      const submission = flags.submission ?? process.env[GRADESCOPE_ENV.submission] ?? GRADESCOPE_DEFAULTS.submission;
      const resultsPath = flags.results ?? process.env[GRADESCOPE_ENV.results] ?? GRADESCOPE_DEFAULTS.results;
      const explicitConfig = flags.config ?? process.env[GRADESCOPE_ENV.config];
      const config = explicitConfig ?? (existsSync(GRADESCOPE_DEFAULTS.config) ? GRADESCOPE_DEFAULTS.config : undefined);
      try {
        const assignment = config ? loadAssignment(config) : defaultAssignment();
        const contestant = await submissionContestant(submission, assignment);
        // The full grade and report go beside results.json, for the instructor's debugging.
        const outDir = join(dirname(resultsPath), 'referee');
        const result = await grade({ assignment, assignmentSource: config ?? 'built-in', contestant, outDir, command: 'referee gradescope' });
        writeGradeResult(join(outDir, 'grade.json'), result);
        writeReport(join(outDir, 'report.html'), result);
        // toGradescope writes a grader error as "the autograder failed", with no score.
        writeResults(resultsPath, toGradescope(result));
        if (result.status === 'grader-error') {
          console.error(`referee: grader error, not graded: ${result.graderError}; wrote ${resultsPath}`);
          process.exitCode = 3;
          return;
        }
        console.log(`Score ${result.score} / ${result.maxScore}; wrote ${resultsPath}`);
      } catch (error) {
        const message = (error as Error).message.split('\n').join(' ');
        if (isGraderError(error)) {
          writeResults(resultsPath, gradescopeGraderFailure(message));
          console.error(`referee: grader error, not graded: ${message}`);
          process.exitCode = 3;
          return;
        }
        writeResults(resultsPath, gradescopeError(message));
        console.error(`referee: could not grade ${submission}: ${message}`);
        process.exitCode = 1;
      }
    });
}
