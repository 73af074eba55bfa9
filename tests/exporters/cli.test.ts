import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, jest, test } from '@jest/globals';
import { Command } from 'commander';
import { XMLParser } from 'fast-xml-parser';
import { UsageError } from '../../cli/args.js';
import { register as registerExport } from '../../cli/export.js';
import { GRADESCOPE_ENV, register as registerGradescope } from '../../cli/gradescope.js';
import { grade } from '../../grading/grade.js';
import { writeGradeResult } from '../../grading/grade-result.js';
import { countingContestant, smallAssignment } from '../grading/helpers.js';
import { SOURCES, tempDir, writeConfig } from '../batch/helpers.js';

async function run(register: (program: Command) => void, args: string[]): Promise<string> {
  const program = new Command().exitOverride().configureOutput({ writeErr: () => undefined });
  register(program);
  const out: string[] = [];
  const write = jest.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    out.push(String(chunk));
    return true;
  });
  const log = jest.spyOn(console, 'log').mockImplementation(() => undefined);
  const error = jest.spyOn(console, 'error').mockImplementation(() => undefined);
  try {
    await program.parseAsync(['node', 'referee', ...args]);
  } finally {
    write.mockRestore();
    log.mockRestore();
    error.mockRestore();
  }
  return out.join('');
}

afterEach(() => {
  process.exitCode = undefined;
  for (const name of Object.values(GRADESCOPE_ENV)) delete process.env[name];
});

describe('referee export', () => {
  test('each format from one grade.json, to stdout or a file; a bad grade is a usage error', async () => {
    const dir = tempDir('export');
    const result = await grade({ assignment: smallAssignment(), assignmentSource: 'test', contestant: countingContestant('greedy') });
    writeGradeResult(join(dir, 'grade.json'), result);
    const gradescope = JSON.parse(await run(registerExport, ['export', join(dir, 'grade.json'), '--format', 'gradescope'])) as { score: number };
    expect(gradescope.score).toBe(result.score);
    await run(registerExport, ['export', join(dir, 'grade.json'), '--format', 'junit', '--name', 'alice', '--out', join(dir, 'x', 'junit.xml')]);
    const junit = new XMLParser({ ignoreAttributes: false }).parse(readFileSync(join(dir, 'x', 'junit.xml'), 'utf8')) as { testsuite: { '@_name': string } };
    expect(junit.testsuite['@_name']).toBe('alice');
    expect(await run(registerExport, ['export', join(dir, 'grade.json'), '--format', 'csv', '--name', 'alice'])).toMatch(/^student,name,lms_id,late,language,total,.*\nalice,alice,/);
    const classroom = JSON.parse(await run(registerExport, ['export', join(dir, 'grade.json'), '--format', 'classroom'])) as { referee: { version: number }; refereemissed: { version: number } };
    expect([classroom.referee.version, classroom.refereemissed.version]).toEqual([1, 1]);
    const lines = (await run(registerExport, ['export', join(dir, 'grade.json'), '--format', 'classroom', '--step-outputs'])).trim().split('\n');
    expect(lines.map((line) => line.split('=')[0])).toEqual(['referee', 'refereemissed']);
    expect(JSON.parse(Buffer.from(lines[0].slice('referee='.length), 'base64').toString())).toEqual(classroom.referee);
    await expect(run(registerExport, ['export', join(dir, 'grade.json'), '--format', 'pdf'])).rejects.toThrow(/must be one of gradescope, classroom, junit, markdown, csv/);
    writeFileSync(join(dir, 'bad.json'), '{"score": 1}');
    await expect(run(registerExport, ['export', join(dir, 'bad.json'), '--format', 'csv'])).rejects.toThrow(UsageError);
    await expect(run(registerExport, ['export', join(dir, 'none.json'), '--format', 'csv'])).rejects.toThrow(/cannot read .*none\.json \(ENOENT\)/);
  });
});

describe('referee gradescope', () => {
  test('reads the submission folder and writes results.json where the environment says', async () => {
    const dir = tempDir('gs');
    mkdirSync(join(dir, 'submission', 'src'), { recursive: true });
    writeFileSync(join(dir, 'submission', 'src', 'AIPlayer.ts'), SOURCES.fair());
    process.env[GRADESCOPE_ENV.submission] = join(dir, 'submission');
    process.env[GRADESCOPE_ENV.results] = join(dir, 'results', 'results.json');
    process.env[GRADESCOPE_ENV.config] = writeConfig(dir);
    await run(registerGradescope, ['gradescope']);
    const results = JSON.parse(readFileSync(join(dir, 'results', 'results.json'), 'utf8')) as { score: number; tests: { name: string; visibility: string }[] };
    expect(results.tests.map((test) => [test.name, test.visibility])).toEqual([['Interface check', 'visible'], ['vs random', 'visible'], ['vs greedy', 'hidden']]);
    expect(results.score).toBeGreaterThan(0);
    expect(process.exitCode ?? 0).toBe(0);
  });

  test('flags override the environment; a submission that cannot be graded still gets a results.json with the reason', async () => {
    const dir = tempDir('gs');
    process.env[GRADESCOPE_ENV.results] = join(dir, 'ignored.json');
    writeFileSync(join(dir, 'broken.json'), '{ not json');
    await run(registerGradescope, ['gradescope', '--submission', join(dir, 'nothing'), '--results', join(dir, 'out', 'results.json'), '--config', join(dir, 'broken.json')]);
    const results = JSON.parse(readFileSync(join(dir, 'out', 'results.json'), 'utf8')) as { score: number; output: string; tests: unknown[] };
    expect(results).toMatchObject({ score: 0, tests: [] });
    expect(results.output).toMatch(/could not grade this submission: .*broken\.json is not a valid assignment/);
    expect(process.exitCode).toBe(1);
  });
});
