/**
 * `referee export <grade.json> --format gradescope|classroom|junit|csv`: one grade in another format, on stdout
 * or into --out. The grade is validated against its schema first.
 * Exit codes: 0 written, 2 usage or input error (missing or invalid grade.json, unknown format).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { InvalidArgumentError, type Command } from 'commander';
import { readGradeResult, type GradeResult } from '../grading/grade-result.js';
import { EXPORT_FORMAT_NAMES, EXPORT_FORMATS, type ExportFormatName } from '../grading/exporters/formats.js';
import { UsageError } from './args.js';
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
    .action((gradePath: string, flags: { format: ExportFormatName; out?: string; name?: string }) => {
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
      const text = EXPORT_FORMATS[flags.format].render(result, flags.name ?? result.submission.name);
      if (flags.out === undefined) {
        process.stdout.write(text);
        return;
      }
      mkdirSync(dirname(flags.out), { recursive: true });
      writeFileSync(flags.out, text);
      console.error(`Wrote ${flags.out}`);
    });
}
