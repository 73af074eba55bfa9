import { mkdirSync, readFileSync, watch, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, jest, test } from '@jest/globals';
import { Command } from 'commander';
import { UsageError } from '../../cli/args.js';
import { register, WORKER_ENV } from '../../cli/batch.js';
import { makeClass, SOURCES, tempDir, workerScript, writeConfig } from './helpers.js';
import { makeZip } from './zip-writer.js';

async function run(args: string[]): Promise<{ out: string; err: string }> {
  const program = new Command().exitOverride().configureOutput({ writeErr: () => undefined });
  register(program);
  const out: string[] = [];
  const err: string[] = [];
  const log = jest.spyOn(console, 'log').mockImplementation((line: string) => void out.push(line));
  const error = jest.spyOn(console, 'error').mockImplementation((line: string) => void err.push(line));
  try {
    await program.parseAsync(['node', 'referee', 'batch', ...args]);
  } finally {
    log.mockRestore();
    error.mockRestore();
  }
  return { out: out.join('\n'), err: err.join('\n') };
}

describe('referee batch', () => {
  let dir: string;
  let zip: string;
  let config: string;
  beforeAll(() => {
    process.env[WORKER_ENV] = workerScript();
    dir = tempDir('cli');
    config = writeConfig(dir);
    zip = join(dir, 'canvas.zip');
    writeFileSync(zip, makeZip([
      { name: 'smithjohn_101_9001_AIPlayer.ts', content: SOURCES.fair(), deflate: true },
      { name: 'doejane_late_102_9002_AIPlayer-1.ts', content: SOURCES.broken() },
      { name: 'roe_103_9003_AIPlayer.ts', content: SOURCES.weak() },
      { name: 'roe_103_9003_../../escape.ts', content: 'x' },
      { name: '=cmd_104_9004_AIPlayer.ts', content: SOURCES.weak() },
      // Entry names that once aborted the whole class (EISDIR/EEXIST) or invented a student.
      { name: 'dotdot_105_9005_..', content: 'x' },
      { name: 'dot_106_9006_.', content: 'x' },
      { name: 'nul_107_9007_CON.ts', content: SOURCES.weak() },
      { name: '/tmp/evil.ts', content: 'x' },
    ]));
  });
  afterEach(() => {
    process.exitCode = undefined;
  });

  test('an LMS zip grades end to end: the layout line, a line per student, index.html, grades.csv, --anonymize', async () => {
    const out = join(dir, 'out');
    const printed = await run([zip, '--config', config, '--out', out, '--jobs', '2', '--anonymize']);
    expect(printed.out).toContain('Found 7 students in the zip');
    expect(printed.out).toContain('Canvas-style files (name_id_submissionid_file)');
    expect(printed.out).toContain('ignored 1 other entry (/tmp/evil.ts (has an absolute path');
    // Progress without a terminal: one line per finished student, on stderr.
    expect(printed.err).toMatch(/\[\d\/7\] smithjohn_101: \d+ \/ 60 \(4 games played, \d reused\)/);
    expect(printed.err).toMatch(/\[\d\/7\] doejane_102: 0 \/ 60 — interface check failed: compiles failed/);
    expect(printed.err).toMatch(/\[\d\/7\] roe_103: not graded — the entry roe_103_9003_\.\.\/\.\.\/escape\.ts climbs out of its folder/);
    expect(printed.err).toMatch(/\[\d\/7\] dotdot_105: not graded — the file name "\.\." is "\.\.", which names a folder, not a file: refused/);
    expect(printed.err).toMatch(/\[\d\/7\] dot_106: not graded — the file name "\." is "\.", which names a folder/);
    expect(printed.err).toMatch(/\[\d\/7\] nul_107: not graded — the file name "CON\.ts" is "CON\.ts", a name Windows reserves/);
    expect(printed.err).not.toMatch(/\btmp\b:/);
    expect(process.exitCode ?? 0).toBe(0);

    const index = readFileSync(join(out, 'index.html'), 'utf8');
    expect(index).toContain('<svg xmlns="http://www.w3.org/2000/svg" id="histogram"');
    expect(index).toContain('href="students/smithjohn_101/report.html"');
    expect(index).toMatch(/doejane_102<\/td><td class="text"><span class="pill">interface check failed/);
    expect(index).toContain('&#x3D;cmd_104');
    const anonymous = readFileSync(join(out, 'index-anonymous.html'), 'utf8');
    expect(anonymous).not.toContain('smithjohn');
    expect(anonymous).not.toContain('report.html');
    expect(anonymous).toMatch(/anon-[0-9a-f]{6}/);
    readFileSync(join(out, 'students', 'smithjohn_101', 'report.html'), 'utf8');

    const csv = readFileSync(join(out, 'grades.csv'), 'utf8').trim().split('\n');
    expect(csv[0]).toBe('student,name,lms_id,late,language,pseudonym,total,max,Interface check,vs random,vs greedy,status,note');
    expect(csv.map((line) => line.split(',')[0]).slice(1)).toEqual(["'=cmd_104", 'doejane_102', 'dot_106', 'dotdot_105', 'nul_107', 'roe_103', 'smithjohn_101']);
    // The id split for an LMS import, Canvas's late flag and the language kept.
    expect(csv[2]).toMatch(/^doejane_102,doejane,102,late,TypeScript,/);
    expect(csv[7]).toMatch(/^smithjohn_101,smithjohn,101,,TypeScript,/);
    // A student not graded (a refused entry name): blank points, not a 0 an LMS would import.
    expect(csv[3]).toMatch(/^dot_106,dot,106,,,anon-[0-9a-f]{6},,60,,,,not graded,/);
    const pseudonym = csv[7].split(',')[5];
    expect(anonymous).toContain(pseudonym);

    // Stable pseudonyms, and a resume that grades nothing again.
    const again = await run([zip, '--config', config, '--out', out, '--anonymize', '--resume']);
    expect(again.out).toContain('0 graded now, 3 unchanged from the journal, 4 not graded; 0 games played');
    expect(readFileSync(join(out, 'grades.csv'), 'utf8').trim().split('\n')[7].split(',')[5]).toBe(pseudonym);
  });

  test('usage: nothing to do, an empty folder, a damaged zip, an unknown --only id, a used out/ are one-line usage errors', async () => {
    await expect(run([])).rejects.toThrow(/needs the submissions to grade .* or --compare/);
    const empty = tempDir('empty');
    await expect(run([empty, '--out', join(dir, 'x')])).rejects.toThrow(/found no submissions in/);
    writeFileSync(join(dir, 'bad.zip'), 'PK\u0003\u0004 not really');
    await expect(run([join(dir, 'bad.zip'), '--out', join(dir, 'x')])).rejects.toThrow(UsageError);
    await expect(run([zip, '--config', config, '--out', join(dir, 'x'), '--only', 'nobody'])).rejects.toThrow(/--only names no student "nobody": the students are/);
    await expect(run([zip, '--config', config, '--out', join(dir, 'out')])).rejects.toThrow(/already holds a batch journal: add --resume/);
    const garbled = tempDir('garbled');
    writeFileSync(join(garbled, 'batch.sqlite'), 'not a database at all');
    await expect(run([zip, '--config', config, '--out', garbled, '--resume'])).rejects.toThrow(/is not a readable Referee batch journal .*: move it away/);
    await expect(run(['--compare', garbled, '--out', garbled])).rejects.toThrow(/is not a readable Referee batch journal/);
  });

  test('index.html is rewritten as students finish, before the batch ends', async () => {
    const classDir = makeClass({ anna: 'broken', ben: 'weak', cara: 'broken' });
    const out = join(dir, 'live');
    mkdirSync(out);
    const titles: string[] = [];
    // Each write is a rename into place: read the page whenever it changes.
    const watcher = watch(out, (_event, file) => {
      if (file !== 'index.html') return;
      try {
        titles.push(/<h1>([^<]*)<\/h1>/.exec(readFileSync(join(out, 'index.html'), 'utf8'))?.[1] ?? '');
      } catch {
        // Between the rename and the read: the next event reads it.
      }
    });
    try {
      await run([classDir, '--config', config, '--out', out, '--jobs', '1', '--quiet']);
    } finally {
      watcher.close();
    }
    expect(titles.some((title) => /\(\d of 3 so far\)/.test(title))).toBe(true);
    expect(/<h1>([^<]*)<\/h1>/.exec(readFileSync(join(out, 'index.html'), 'utf8'))?.[1]).toBe('Tiny batch assignment');
  });

  test('an --out inside the class folder is not a student on --resume; an empty folder is "not graded"; a zip is graded as grade takes it', async () => {
    const classDir = makeClass({ anna: 'broken' });
    mkdirSync(join(classDir, 'bob'));
    writeFileSync(join(classDir, 'cara.zip'), makeZip([{ name: 'cara/AIPlayer.ts', content: SOURCES.weak(), deflate: true }]));
    const out = join(classDir, 'graded');
    const first = await run([classDir, '--config', config, '--out', out, '--jobs', '2']);
    expect(first.out).toContain('Found 3 students in the folder');
    const again = await run([classDir, '--config', config, '--out', out, '--resume']);
    expect(again.out).toContain('Found 3 students in the folder');
    expect(again.out).toContain("graded/ (Referee's own output folder, left out)");
    const rows = readFileSync(join(out, 'grades.csv'), 'utf8').trim().split('\n').slice(1).map((line) => line.split(','));
    expect(rows.map((row) => [row[0], row.at(-2)])).toEqual([['anna', 'interface check failed'], ['bob', 'not graded'], ['cara', 'graded']]);
    expect(rows[1].at(-1)).toMatch(/the submission is empty \(its folder holds no files\): ask the student to submit again/);
    expect(rows[1][5]).toBe('');
  });
});
