import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from '@jest/globals';
import { InputError, openSubmissions } from '../../grading/batch/input.js';
import { snapshotStudent } from '../../grading/batch/snapshot.js';
import { tempDir } from './helpers.js';
import { makeZip } from './zip-writer.js';

const LIMITS = { maxBytes: 1000, maxFiles: 5 };

async function snapshots(path: string) {
  const input = await openSubmissions(path);
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
});
