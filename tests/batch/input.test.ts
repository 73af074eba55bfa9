import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from '@jest/globals';
import { InputError, openSubmissions } from '../../grading/batch/input.js';
import { snapshotStudent } from '../../grading/batch/snapshot.js';
import { tempDir } from './helpers.js';
import { makeZip } from './zip-writer.js';

const LIMITS = { maxBytes: 1000, maxFiles: 5 };

async function snapshots(path: string, exclude: string[] = []) {
  const input = await openSubmissions(path, { exclude });
  const out = tempDir('snap');
  try {
    const taken = [];
    for (const student of input.students) taken.push(await snapshotStudent(student, out, LIMITS));
    return { input, taken, out };
  } finally {
    input.close();
  }
}

describe('openSubmissions and snapshots', () => {
  test('a Canvas zip: files land in one folder per student, hashed; equal content, equal hash', async () => {
    const dir = tempDir('zip');
    const zip = join(dir, 'class.zip');
    writeFileSync(zip, makeZip([
      { name: 'smith_1_10_AIPlayer.ts', content: 'export class AIPlayer {}', deflate: true },
      { name: 'smith_1_10_util.ts', content: 'export const x = 1;' },
      { name: 'doe_2_20_AIPlayer-2.ts', content: 'export class AIPlayer {}' },
    ]));
    const { input, taken, out } = await snapshots(zip);
    expect(input.layout).toBe('canvas');
    expect(taken.map((each) => each.id)).toEqual(['doe_2', 'smith_1']);
    expect(taken[0].path).toBe(join(out, 'doe_2', 'AIPlayer.ts'));
    expect(readFileSync(join(out, 'smith_1', 'util.ts'), 'utf8')).toBe('export const x = 1;');
    expect(readFileSync(join(out, 'doe_2', 'AIPlayer.ts'), 'utf8')).toBe('export class AIPlayer {}');
    expect(taken[0].hash).toMatch(/^[0-9a-f]{64}$/);
    expect(taken[0].hash).not.toBe(taken[1].hash);
  });

  test('non-ASCII names without the UTF-8 flag: UTF-8 bytes (macOS, LMS downloads) and GBK (a Chinese Windows) read right', async () => {
    const dir = tempDir('zip');
    const zip = join(dir, 'class.zip');
    const gbk = Buffer.from([0xcd, 0xf5, 0xce, 0xe5]); // 王五 in GBK
    writeFileSync(zip, makeZip([
      { name: '张三/AIPlayer.ts', content: 'export class AIPlayer {}' },
      { name: '李四/AIPlayer.ts', nameBytes: Buffer.from('李四/AIPlayer.ts', 'utf8'), utf8Flag: false, content: 'export class AIPlayer {}' },
      { name: '王五/AIPlayer.ts', nameBytes: Buffer.concat([gbk, Buffer.from('/AIPlayer.ts')]), utf8Flag: false, content: 'export class AIPlayer {}' },
    ]));
    const { taken } = await snapshots(zip);
    expect(taken.map((each) => each.id).sort()).toEqual(['张三', '李四', '王五'].sort());
  });

  test('hostile zip entries (.., symlink, oversized, lying sizes) fail their student only; an absolute path makes no student', async () => {
    const dir = tempDir('zip');
    const zip = join(dir, 'class.zip');
    writeFileSync(zip, makeZip([
      { name: 'alice/AIPlayer.ts', content: 'ok' },
      { name: 'alice/../../../tmp/pwned.ts', content: 'evil' },
      { name: '/bob/AIPlayer.ts', content: 'evil' },
      { name: 'carol/AIPlayer.ts', content: '/etc/passwd', mode: 0o120777 },
      { name: 'dave/AIPlayer.ts', content: 'x'.repeat(5000), deflate: true },
      { name: 'erin/AIPlayer.ts', content: 'y'.repeat(5000), deflate: true, declaredSize: 10 },
      { name: 'frank/AIPlayer.ts', content: 'fine' },
    ]));
    const { taken, out } = await snapshots(zip);
    const byId = new Map(taken.map((each) => [each.id, each]));
    expect(byId.get('alice')?.problem).toMatch(/climbs out of its folder/);
    // An absolute path alone invents no student (it is listed as ignored); next to a real bob/ it would be his problem.
    expect(byId.has('bob')).toBe(false);
    expect(byId.get('carol')?.problem).toMatch(/symbolic link/);
    expect(byId.get('dave')?.problem).toMatch(/over the cap of .*--max-submission-mb/);
    expect(byId.get('erin')?.problem).toMatch(/over the cap|cannot be extracted/);
    expect(byId.get('frank')?.path).toBe(join(out, 'frank', 'AIPlayer.ts'));
    expect(() => readFileSync('/tmp/pwned.ts')).toThrow();
  });

  test('a malformed zip, a missing path and an empty folder are one-line input errors', async () => {
    const dir = tempDir('bad');
    writeFileSync(join(dir, 'truncated.zip'), makeZip([{ name: 'a/AIPlayer.ts', content: 'x' }]).subarray(0, 40));
    await expect(openSubmissions(join(dir, 'truncated.zip'))).rejects.toThrow(InputError);
    await expect(openSubmissions(join(dir, 'truncated.zip'))).rejects.toThrow(/is not a readable zip .*download it again/);
    await expect(openSubmissions(join(dir, 'missing'))).rejects.toThrow(/cannot read .*missing \(ENOENT\)/);
    mkdirSync(join(dir, 'empty'));
    writeFileSync(join(dir, 'empty', 'README.txt'), 'hi');
    await expect(openSubmissions(join(dir, 'empty'))).rejects.toThrow(/found no submissions in .* \(ignored: README\.txt\)/);
  });

  test('unreadable entries in a folder (a pipe, a dangling symlink, a symlink inside a submission) fail only their student', async () => {
    const dir = tempDir('dir');
    mkdirSync(join(dir, 'alice'));
    writeFileSync(join(dir, 'alice', 'AIPlayer.ts'), 'ok');
    execFileSync('mkfifo', [join(dir, 'bob.ts')]);
    symlinkSync('/nonexistent/AIPlayer.ts', join(dir, 'carol.ts'));
    mkdirSync(join(dir, 'dave'));
    symlinkSync('/etc/passwd', join(dir, 'dave', 'AIPlayer.ts'));
    const { taken } = await snapshots(dir);
    const byId = new Map(taken.map((each) => [each.id, each]));
    expect(byId.get('alice')?.path).toBeDefined();
    expect(byId.get('bob')?.problem).toMatch(/not a regular file/);
    expect(byId.get('carol')?.problem).toMatch(/cannot be read \(ENOENT\)/);
    expect(byId.get('dave')?.problem).toMatch(/symbolic link/);
  });

  test('a lone file is graded as itself; a folder that only wraps a repo is looked into', async () => {
    const dir = tempDir('dir');
    writeFileSync(join(dir, 'alice.ts'), 'export class AIPlayer {}');
    mkdirSync(join(dir, 'bob', 'repo', 'src'), { recursive: true });
    writeFileSync(join(dir, 'bob', 'repo', 'src', 'AIPlayer.ts'), 'export class AIPlayer {}');
    writeFileSync(join(dir, 'bob', 'repo', 'package.json'), '{}');
    const { taken, out } = await snapshots(dir);
    expect(taken.map((each) => each.path)).toEqual([join(out, 'alice', 'alice.ts'), join(out, 'bob', 'repo')]);
  });

  test('LMS downloads as they come: Moodle folders and online text, empty folders, a zip per student, our own out/, Gradescope\'s index', async () => {
    const dir = tempDir('lms');
    const py = 'from board import Board\n\nclass AIPlayer:\n    def get_move(self, board):\n        return board.get_legal_actions()[0]\n';
    const studentZip = makeZip([{ name: 'mine/AIPlayer.py', content: py, deflate: true }, { name: 'mine/', content: '' }, { name: '__MACOSX/mine/._AIPlayer.py', content: 'x' }]);
    const hostileZip = makeZip([{ name: 'AIPlayer.py', content: py }, { name: '../../escape.py', content: 'x' }]);
    // Moodle 4 "Download all submissions" with "Download submissions in folders" ticked.
    const moodle = join(dir, 'CS101-Reversi-AI-42.zip');
    writeFileSync(moodle, makeZip([
      { name: 'Ana García_1001_assignsubmission_file_/AIPlayer.py', content: py },
      { name: 'Ana García_1001_assignsubmission_file_/helper.py', content: '# helper\n' },
      { name: 'Ana García_1001_assignsubmission_onlinetext_/onlinetext.html', content: '<p>see my file</p>' },
      { name: 'Bo Li_1002_assignsubmission_onlinetext_/onlinetext.html', content: '<p>I could not upload</p>' },
      { name: 'Cy Dee_1003_assignsubmission_file_/', content: '' },
      { name: 'Di Eve_1004_assignsubmission_file_/submission.zip', content: studentZip },
      { name: 'Ed Fox_1005_assignsubmission_file_/AIPlayer.zip', content: hostileZip },
    ]));
    const fromMoodle = await snapshots(moodle);
    expect(fromMoodle.input.layout).toBe('moodle');
    const moodleById = new Map(fromMoodle.taken.map((each) => [each.id, each]));
    expect([...moodleById.keys()]).toEqual(['Ana García_1001', 'Bo Li_1002', 'Cy Dee_1003', 'Di Eve_1004', 'Ed Fox_1005']);
    expect(fromMoodle.input.students[0]).toMatchObject({ name: 'Ana García', lmsId: '1001' });
    expect(readFileSync(join(moodleById.get('Ana García_1001')!.path!, 'helper.py'), 'utf8')).toBe('# helper\n');
    expect(moodleById.get('Bo Li_1002')?.problem).toMatch(/holds no files, only Moodle's onlinetext submission: ask the student to upload the code/);
    expect(moodleById.get('Cy Dee_1003')?.problem).toMatch(/the submission is empty/);
    // A student's zip is unpacked as `referee grade x.zip` does: its one top folder is what is graded.
    expect(moodleById.get('Di Eve_1004')?.path).toBe(join(fromMoodle.out, 'Di Eve_1004', 'mine'));
    expect(readFileSync(join(moodleById.get('Di Eve_1004')!.path!, 'AIPlayer.py'), 'utf8')).toBe(py);
    expect(moodleById.get('Ed Fox_1005')?.problem).toMatch(/AIPlayer\.zip: the entry "\.\.\/\.\.\/escape\.py" climbs out of its folder/);
    expect(fromMoodle.input.ignored.join('\n')).toMatch(/onlinetext\.html \(Moodle's onlinetext submission, not code\)/);
    // The same, downloaded without folders.
    const flat = join(dir, 'flat.zip');
    writeFileSync(flat, makeZip([
      { name: 'Ana García_1001_assignsubmission_file_AIPlayer.py', content: py },
      { name: 'Ana García_1001_assignsubmission_onlinetext_onlinetext.html', content: '<p>hi</p>' },
      { name: 'Bo Li_1002_assignsubmission_file_AIPlayer.zip', content: studentZip },
    ]));
    const fromFlat = await snapshots(flat);
    expect(fromFlat.taken.map((each) => [each.id, each.problem ?? 'ok'])).toEqual([['Ana García_1001', 'ok'], ['Bo Li_1002', 'ok']]);
    // The hash is of what a zip holds: the same zip handed in by two students is the same submission.
    expect(fromFlat.taken[1].hash).toBe(moodleById.get('Di Eve_1004')?.hash);

    // A class folder: a batch's out/ from an earlier run, an --out given by name (no journal yet), an empty
    // student folder, one holding only .DS_Store, a zip per student, a Gradescope index.
    const cls = join(dir, 'class');
    mkdirSync(join(cls, 'alice'), { recursive: true });
    writeFileSync(join(cls, 'alice', 'AIPlayer.py'), py);
    mkdirSync(join(cls, 'bob'));
    mkdirSync(join(cls, 'carol'));
    writeFileSync(join(cls, 'carol', '.DS_Store'), 'junk');
    writeFileSync(join(cls, 'dave.zip'), studentZip);
    writeFileSync(join(cls, 'erin.zip'), 'PK not really a zip');
    mkdirSync(join(cls, 'out', 'students', 'alice'), { recursive: true });
    writeFileSync(join(cls, 'out', 'batch.sqlite'), '');
    writeFileSync(join(cls, 'out', 'students', 'alice', 'AIPlayer.py'), py);
    mkdirSync(join(cls, 'fresh-out'));
    writeFileSync(join(cls, 'submission_metadata.yml'), 'submission_1:\n  :submitters: []\n');
    const fromFolder = await snapshots(cls, [join(cls, 'fresh-out')]);
    const folderById = new Map(fromFolder.taken.map((each) => [each.id, each.problem ?? 'ok']));
    expect([...folderById.keys()]).toEqual(['alice', 'bob', 'carol', 'dave', 'erin']);
    expect(folderById.get('alice')).toBe('ok');
    expect(folderById.get('bob')).toMatch(/the submission is empty/);
    expect(folderById.get('carol')).toMatch(/the submission is empty/);
    expect(folderById.get('dave')).toBe('ok');
    expect(folderById.get('erin')).toMatch(/^erin\.zip is not a readable zip .*zip the submission again/);
    expect(fromFolder.input.ignored).toEqual(expect.arrayContaining([
      "fresh-out/ (Referee's own output folder, left out)",
      "out/ (Referee's own output folder, left out)",
      "submission_metadata.yml (the LMS's index, not a submission)",
    ]));

    // Gradescope's export: one folder per submission beside its metadata index, all wrapped in one folder.
    const gradescope = join(dir, 'gradescope.zip');
    writeFileSync(gradescope, makeZip([
      { name: 'assignment_77_export/submission_metadata.yml', content: 'x' },
      { name: 'assignment_77_export/submission_11/AIPlayer.py', content: py },
      { name: 'assignment_77_export/submission_12/AIPlayer.py', content: py },
      { name: 'assignment_77_export/submission_13/', content: '' },
    ]));
    const fromGradescope = await snapshots(gradescope);
    expect(fromGradescope.taken.map((each) => [each.id, each.problem === undefined])).toEqual([['submission_11', true], ['submission_12', true], ['submission_13', false]]);
  });
});
