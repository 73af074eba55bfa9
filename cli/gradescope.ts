/**
 * `referee gradescope`: the entry point of a Gradescope autograder (run_autograder calls it). Grades the
 * submission in /autograder/submission and writes /autograder/results/results.json; both paths, and the config,
 * can be moved with flags or environment variables (for tests and other hosts). When the submission cannot be
 * graded (no entry file, say) results.json has 0 points and the reason. A grader error (the sandbox could not
 * start) writes no results.json: that is Gradescope's own "the autograder failed" path, which records nothing
 * (any score in results.json would be recorded as the student's); the reason goes to the autograder's log.
 * `referee gradescope bundle` writes the autograder.zip to upload: setup.sh, run_autograder, the assignment
 * config and this Referee packed with `npm pack`.
 * Exit codes: 0 graded (whatever the score), 1 could not grade (a results.json with the reason was written),
 * 2 usage error, 3 grader error (no results.json).
 */
import { createWriteStream, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import type { Command } from 'commander';
import yazl from 'yazl';
import { packageFile } from '../grading/package-root.js';
import { UsageError } from './args.js';
import { packInto } from './init.js';
import { defaultAssignment, loadAssignment } from '../grading/assignment.js';
import { submissionContestant } from '../grading/contestant.js';
import { grade } from '../grading/grade.js';
import { writeGradeResult } from '../grading/grade-result.js';
import { gradescopeError, toGradescope, type GradescopeResults } from '../grading/exporters/gradescope.js';
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

/** No results.json (a stale one removed) and a failing exit: Gradescope's "the autograder failed", nothing recorded. */
function graderFailure(resultsPath: string, reason: string): void {
  rmSync(resultsPath, { force: true });
  console.error(`referee: grader error, not graded: ${reason}; no results.json written, so Gradescope records nothing (fix the grading machine, then regrade)`);
  process.exitCode = 3;
}

/** The files Gradescope needs at the root of autograder.zip, as shipped in the package. */
export const BUNDLE_FILES = ['setup.sh', 'run_autograder'] as const;

/** autograder.zip: setup.sh, run_autograder, assignment.json (if given) and the packed Referee. */
export async function writeBundle(out: string, config: string | undefined): Promise<string[]> {
  const work = mkdtempSync(join(tmpdir(), 'referee-bundle-'));
  try {
    const tarball = join(work, packInto(work));
    const zip = new yazl.ZipFile();
    const names: string[] = [];
    for (const file of BUNDLE_FILES) {
      // Gradescope runs both as programs: executable in the zip whatever the checkout's modes.
      zip.addBuffer(readFileSync(packageFile('grading', 'exporters', 'gradescope', file)), file, { mode: 0o100755 });
      names.push(file);
    }
    if (config) {
      zip.addBuffer(readFileSync(config), 'assignment.json', { mode: 0o100644 });
      names.push('assignment.json');
    }
    zip.addBuffer(readFileSync(tarball), basename(tarball), { mode: 0o100644 });
    names.push(basename(tarball));
    mkdirSync(dirname(out), { recursive: true });
    const temporary = `${out}.${process.pid}.tmp`;
    await new Promise<void>((done, fail) => {
      const stream = createWriteStream(temporary);
      stream.on('close', () => done());
      stream.on('error', fail);
      zip.outputStream.pipe(stream);
      zip.end();
    });
    renameSync(temporary, out);
    return names;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

export function register(program: Command): void {
  const gradescope = program
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
        if (result.status === 'grader-error') {
          graderFailure(resultsPath, result.graderError ?? 'unknown');
          return;
        }
        writeResults(resultsPath, toGradescope(result));
        // The instructor reads the autograder's log; the student never sees these.
        for (const warning of result.warnings.filter((text) => text.startsWith('Not isolated:'))) console.log(`referee: ${warning}`);
        console.log(`Score ${result.score} / ${result.maxScore}; wrote ${resultsPath}`);
      } catch (error) {
        const message = (error as Error).message.split('\n').join(' ');
        if (isGraderError(error)) {
          graderFailure(resultsPath, message);
          return;
        }
        writeResults(resultsPath, gradescopeError(message));
        console.error(`referee: could not grade ${submission}: ${message}`);
        process.exitCode = 1;
      }
    });

  gradescope
    .command('bundle')
    .description('write autograder.zip for Gradescope: setup.sh, run_autograder, the assignment config and this Referee (npm pack)')
    .option('--config <file>', 'the assignment JSON to grade with (default: the built-in ladder)')
    .option('--out <file>', 'where the zip goes', 'autograder.zip')
    .action(async (own: { config?: string; out: string }) => {
      // `gradescope` has its own --config: commander hands it the flag when it comes after `bundle` too.
      const flags = { ...own, config: own.config ?? (gradescope.opts() as GradescopeFlags).config };
      if (flags.config) {
        if (!existsSync(flags.config)) throw new UsageError(`--config ${flags.config}: no such file`);
        try {
          loadAssignment(flags.config); // an invalid config is refused now, not on Gradescope
        } catch (error) {
          throw new UsageError((error as Error).message);
        }
      }
      const out = resolve(flags.out);
      const names = await writeBundle(out, flags.config);
      console.log(`Wrote ${out}: ${names.join(', ')}`);
      console.log('Upload it under Configure Autograder (Ubuntu base image); see docs/instructor-guide.md, Gradescope.');
    });
}
