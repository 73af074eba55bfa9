/**
 * Issue #33: `referee similarity` as a subprocess on a small labelled class (tests/fixtures/similarity/class, with
 * the platform files its students hand in copied from Referee's own, see platform-files.json):
 * ana/fay is a disguised copy (renamed, reordered, comments translated, dead code, split into two files); gil is
 * a Python port of chen's C++ bot; hal and ivy both hand in the Python starter with board.py; kai crashes on every
 * probe; dana is independent. One full run is shared by the assertions; the bad-input runs skip the behaviour half.
 */
import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import type { SimilarityReport } from '../../grading/similarity/run.js';
import { materialiseClass } from '../../scripts/similarity-labelled.js';
import { isolateCache, scratch } from '../sandbox/support.js';
import { launchBrowser, requireBuild } from '../web/serve-helpers.js';
import { stopAfterwards } from '../setup/children.js';

const CLI = resolve('dist/cli/index.js');
let CLASS: string;
const run = promisify(execFile);

async function similarity(args: string[], env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const running = run('node', [CLI, 'similarity', ...args], { env: { ...process.env, NODE_OPTIONS: '', ...env }, maxBuffer: 64 * 1024 * 1024 });
    stopAfterwards(running.child); // a timed-out hook must not leave its run playing probes for the rest of the suite
    const { stdout, stderr } = await running;
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

const pairOf = (report: SimilarityReport, a: string, b: string) => report.pairs.find((pair) => pair.a === (a < b ? a : b) && pair.b === (a < b ? b : a));

let out: string;
let report: SimilarityReport;

beforeAll(async () => {
  requireBuild();
  isolateCache();
  CLASS = materialiseClass(join(scratch('similarity-class'), 'class'));
  out = scratch('similarity-out');
  const result = await similarity([CLASS, '--out', out, '--probes', '12', '--json', '--anonymize']);
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  report = JSON.parse(result.stdout) as SimilarityReport;
  // A hang catcher, not a speed limit: the run is ~6-9 s of CPU (8 students x 12 positions x 2 asks, dolos, drawing
  // the probes), which took past 240 s of wall time at load 40.
}, 900_000);

afterAll(() => {
  delete process.env.REFEREE_CACHE_DIR;
});

describe('referee similarity on the labelled class', () => {
  test('the disguised copy is flagged by its source, with fragments attributed to both of fay\'s files', () => {
    const pair = pairOf(report, 'ana', 'fay')!;
    expect(pair.flagged).toBe(true);
    expect(pair.flaggedBy).toContain('source');
    expect(pair.source!.score).toBeGreaterThanOrEqual(report.thresholds.source);
    const fayFiles = new Set(pair.source!.fragments.map((fragment) => fragment.b.file));
    expect([...fayFiles].sort()).toEqual(['AIPlayer.py', 'tables.py']);
    const weights = pair.source!.fragments.find((fragment) => fragment.b.file === 'tables.py')!;
    expect(weights.a).toMatchObject({ file: 'AIPlayer.py' });
    expect(weights.a.lines!.join('\n')).toContain('[120, -20, 20, 5, 5, 20, -20, 120]');
  });

  test('the port to another language shares no source but is flagged by behaviour', () => {
    const pair = pairOf(report, 'chen', 'gil')!;
    expect(pair.source).toBeNull();
    expect(pair.flaggedBy).toEqual(['behaviour']);
    expect(pair.behaviour!.basis.agreement).toBeGreaterThan(pair.behaviour!.basis.expected);
    expect(report.clusters.map((cluster) => cluster.members)).toEqual(expect.arrayContaining([['ana', 'fay'], ['chen', 'gil']]));
  });

  test('two students who hand in the starter and board.py are not flagged, and the starter counts for nothing', () => {
    const pair = pairOf(report, 'hal', 'ivy');
    expect(pair?.flagged ?? false).toBe(false);
    expect(pair?.source ?? null).toBeNull();
    const hal = report.source.facts!.find((fact) => fact.id === 'hal')!;
    expect(hal.baseFiles.sort()).toEqual(['AIPlayer.py', 'board.py', 'func_timeout.py']);
    const ivy = report.source.facts!.find((fact) => fact.id === 'ivy')!;
    expect(ivy.total - ivy.base - ivy.common).toBe(0);
    // Independent students are not flagged either.
    expect(report.pairs.filter((each) => each.flagged && (each.a === 'dana' || each.b === 'dana'))).toEqual([]);
  });

  test('a submission that crashes on every probe has no behaviour score, and the report says why', () => {
    const kai = report.behaviour.costs.find((cost) => cost.id === 'kai')!;
    expect(kai.scored).toBe(false);
    expect(kai.answered).toBe(0);
    expect(kai.reason).toMatch(/probing stopped.*opening_book\.json/);
    expect(report.pairs.filter((pair) => (pair.a === 'kai' || pair.b === 'kai') && pair.behaviour)).toEqual([]);
  });

  test('the page shows the clusters first, and the anonymised page names nobody', async () => {
    const browser = await launchBrowser();
    try {
      const page = await browser.newPage();
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      await page.goto(`file://${join(out, 'similarity.html')}`);
      expect(await page.locator('h2').first().textContent()).toMatch(/^Clusters \(2\)/);
      expect(await page.locator('#clusters tbody tr').count()).toBe(2);
      expect(await page.locator('#caveat').textContent()).toContain('not a verdict');
      // Side by side: the copied weight table on both sides of ana · fay.
      const section = page.locator('section.pair', { hasText: 'ana · fay' });
      expect(await section.locator('.fragments .side pre').count()).toBeGreaterThanOrEqual(2);
      await page.goto(`file://${join(out, 'similarity-anonymous.html')}`);
      const text = (await page.locator('#clusters').textContent()) ?? '';
      expect(text).toMatch(/anon-[0-9a-f]{6}/);
      expect(text).not.toMatch(/\b(ana|fay|chen|gil)\b/);
      expect(errors).toEqual([]);
    } finally {
      await browser.close();
    }
  });
});

describe('bad input', () => {
  test('without dolos-lib: one line with the install fix, and the behaviour half still runs', async () => {
    const dir = scratch('similarity-nodolos');
    // One pair is all the behaviour half needs to run (a third student was a third sandbox to start).
    for (const id of ['chen', 'gil']) cpSync(join(CLASS, id), join(dir, id), { recursive: true });
    const result = await similarity([dir, '--out', join(dir, 'out'), '--probes', '6'], { REFEREE_SIMILARITY_HIDE_DOLOS: '1' });
    expect(result.code).toBe(0);
    const fix = result.stderr.split('\n').filter((line) => line.includes('npm install @dodona/dolos-lib@~3.5.1'));
    expect(fix).toHaveLength(1);
    const written = JSON.parse(readFileSync(join(dir, 'out', 'similarity.json'), 'utf8')) as SimilarityReport;
    expect(written.source.ran).toBe(false);
    expect(written.source.skipped).toContain('npm install @dodona/dolos-lib');
    expect(written.behaviour.ran).toBe(true);
    expect(written.behaviour.costs.map((cost) => cost.answered)).toEqual([12, 12]);
  }, 600_000); // hang catchers (a loaded machine takes minutes), not speed limits

  test('binary, huge and non-UTF-8 files are noted, not fatal; a one-student class and an empty one', async () => {
    const dir = scratch('similarity-odd');
    mkdirSync(join(dir, 'odd'));
    cpSync(join(CLASS, 'ana', 'AIPlayer.py'), join(dir, 'odd', 'AIPlayer.py'));
    writeFileSync(join(dir, 'odd', 'blob.py'), Buffer.from([0x70, 0x00, 0x01, 0x02, 0xff]));
    writeFileSync(join(dir, 'odd', 'huge.py'), `X = [${'1, '.repeat(120_000)}]\n`);
    // GBK-encoded comment (a Tsinghua student's editor): not UTF-8.
    writeFileSync(join(dir, 'odd', 'Judge.cpp'), Buffer.concat([Buffer.from('// '), Buffer.from([0xc6, 0xe5, 0xc5, 0xcc]), Buffer.from('\nint judge(int x) { return x * 2 + 1; }\n')]));
    mkdirSync(join(dir, 'plain'));
    cpSync(join(CLASS, 'ana', 'AIPlayer.py'), join(dir, 'plain', 'AIPlayer.py'));
    const result = await similarity([dir, '--out', join(dir, 'out'), '--probes', '0', '--json']);
    expect(result.code).toBe(0);
    const written = JSON.parse(result.stdout) as SimilarityReport;
    const notes = written.notes.find((note) => note.id === 'odd')!.lines.join('\n');
    expect(notes).toMatch(/blob\.py: binary/);
    expect(notes).toMatch(/huge\.py: \d+ KB, over the 256 KB cap/);
    expect(notes).toMatch(/Judge\.cpp: not UTF-8/);
    expect(pairOf(written, 'odd', 'plain')!.source!.score).toBe(1);
    expect(written.behaviour.skipped).toContain('--probes 0');

    const lone = scratch('similarity-lone');
    cpSync(join(CLASS, 'dana'), join(lone, 'dana'), { recursive: true });
    const single = await similarity([lone, '--out', join(lone, 'out'), '--json']);
    expect(single.code).toBe(0);
    const alone = JSON.parse(single.stdout) as SimilarityReport;
    expect(alone.source.skipped).toMatch(/one student/);
    expect(alone.behaviour.skipped).toMatch(/one student/);

    const empty = scratch('similarity-empty');
    const none = await similarity([empty, '--out', join(empty, 'out')]);
    expect(none.code).toBe(2);
    expect(none.stderr.trim().split('\n')).toHaveLength(1);
    expect(none.stderr).toMatch(/found no submissions/);
  }, 600_000);
});
