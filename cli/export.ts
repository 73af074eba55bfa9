/**
 * `referee export <grade.json> --format gradescope|classroom|junit|csv`: one grade in another format, on stdout
 * or into --out. The grade is validated against its schema first.
 * `--step-outputs` (classroom only) prints `<runner>=<base64>` lines for $GITHUB_OUTPUT, what the reporter reads.
 * Exit codes: 0 written, 2 usage or input error (missing or invalid grade.json, unknown format), 3 the grade is a
 * grader error and the format (Gradescope, Classroom) would record any output as the student's points.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { InvalidArgumentError, type Command } from 'commander';
import { readGradeResult, type GradeResult } from '../grading/grade-result.js';
import { EXPORT_FORMAT_NAMES, EXPORT_FORMATS, type ExportFormatName } from '../grading/exporters/formats.js';
import { UsageError } from './args.js';
import { classroomStepOutputs, toClassroom } from '../grading/exporters/classroom.js';
import { oneLine } from '../harness/referee/verdict.js';

function formatName(value: string): ExportFormatName {
  if (!(EXPORT_FORMAT_NAMES as string[]).includes(value)) throw new InvalidArgumentError(`must be one of ${EXPORT_FORMAT_NAMES.join(', ')}.`);
  return value as ExportFormatName;
}

export function register(program: Command): void {
  program
    .command('export')
    .description(`convert a grade.json: ${EXPORT_FORMAT_NAMES.map((name) => `${name} (${EXPORT_FORMATS[name].description})`).join(', ')}`)
    .argument('<grade.json>', 'a grade written by referee grade or referee batch')
    .requiredOption('--format <format>', EXPORT_FORMAT_NAMES.join(' | '), formatName)
    .option('--out <file>', 'write here instead of stdout')
    .option('--name <name>', 'the student (JUnit suite name, CSV id); default: the submission name in the grade')
    .option('--step-outputs', 'classroom: print <runner>=<base64> lines to append to $GITHUB_OUTPUT')
    .action((gradePath: string, flags: { format: ExportFormatName; out?: string; name?: string; stepOutputs?: boolean }) => {
      if (flags.stepOutputs && flags.format !== 'classroom') throw new UsageError('--step-outputs is for --format classroom');
      let result: GradeResult;
      try {
        result = readGradeResult(gradePath);
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        throw new UsageError(
          code
            ? `cannot read ${gradePath} (${code}): pass the grade.json that referee grade or referee batch wrote`
            : `${gradePath} is not a valid grade (${oneLine((error as Error).message)}): grade the submission again`,
        );
      }
      const refusal = EXPORT_FORMATS[flags.format].refusal?.(result);
      if (refusal) {
        // Not a usage error: the grading machine failed; the CI step fails and nothing is recorded.
        console.error(`referee: ${refusal}`);
        process.exitCode = 3;
        return;
      }
      const text = flags.stepOutputs ? classroomStepOutputs(toClassroom(result)) : EXPORT_FORMATS[flags.format].render(result, flags.name ?? result.submission.name);
      if (flags.out === undefined) {
        process.stdout.write(text);
        return;
      }
      mkdirSync(dirname(flags.out), { recursive: true });
      writeFileSync(flags.out, text);
      console.error(`Wrote ${flags.out}`);
    });
}
