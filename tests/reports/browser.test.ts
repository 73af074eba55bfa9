/**
 * The report in a real browser (Debian's Chromium through playwright-core): the score card matches grade.json,
 * the replay steps through positions, and hostile student text stays inert. Skipped with a message only when
 * /usr/bin/chromium is missing outside CI.
 */
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { PAGE_WAIT_MS } from '../web/serve-helpers.js';
import { getGame } from '../../harness/games/registry.js';
import { writeGradeResult, type GradeResult } from '../../grading/grade-result.js';
import { writeReport } from '../../reports/render.js';
import { summarizeGrade } from '../../grading/batch/summary.js';
import { writeClassIndex } from '../../reports/class/render.js';
import { HOSTILE, hostile, referenceGrade } from './helpers.js';

const CHROMIUM = '/usr/bin/chromium';
const available = existsSync(CHROMIUM);
if (!available && !process.env.CI) {
  console.warn(`Skipping the browser tests: ${CHROMIUM} is missing (install it with: apt-get install -y chromium).`);
}
const browserDescribe = available || process.env.CI ? describe : describe.skip;

const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/** Squares and discs of a position as the game's text rendering shows them, e.g. { D4: 'O', E4: 'X' }. */
function discsOf(text: string): Record<string, string> {
  const discs: Record<string, string> = {};
  const [header, ...rows] = text.split('\n');
  const files = header.trim().split(/\s+/);
  for (const row of rows) {
    const [rank, ...cells] = row.trim().split(/\s+/);
    cells.forEach((cell, index) => {
      if (cell !== '.') discs[`${files[index]}${rank}`] = cell;
    });
  }
  return discs;
}

async function shownDiscs(page: Page): Promise<Record<string, string>> {
  return page.$$eval('#board [data-disc]', (elements) =>
    Object.fromEntries(elements.map((element) => [element.getAttribute('data-square'), element.getAttribute('data-disc')])),
  );
}

browserDescribe('report.html in Chromium', () => {
  let context: BrowserContext;
  let dir: string;
  let result: GradeResult;
  const requests: string[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'referee-browser-'));
    result = await referenceGrade();
    writeGradeResult(join(dir, 'grade.json'), result);
    writeReport(join(dir, 'report.html'), result);
    writeReport(join(dir, 'hostile.html'), hostile(result));
    context = await chromium.launchPersistentContext(mkdtempSync(join(tmpdir(), 'referee-chromium-')), {
      executablePath: CHROMIUM,
      headless: true,
      args: ARGS,
    });
    context.setDefaultTimeout(PAGE_WAIT_MS);
    context.on('request', (request) => requests.push(request.url()));
  });

  afterAll(async () => {
    await context?.close();
  });

  const open = async (name: string): Promise<Page> => {
    const page = await context.newPage();
    await page.goto(pathToFileURL(join(dir, name)).href);
    return page;
  };

  test('the score card matches grade.json', async () => {
    const page = await open('report.html');
    const stored = JSON.parse(readFileSync(join(dir, 'grade.json'), 'utf8')) as GradeResult;
    expect(await page.textContent('#score')).toBe(String(stored.score));
    expect(await page.textContent('#max-score')).toBe(String(stored.maxScore));
    const points = await page.$$eval('#score-card .rubric-item .points', (cells) => cells.map((cell) => cell.textContent));
    expect(points).toEqual([
      `${stored.interfaceCheck.points} / ${stored.interfaceCheck.maxPoints}`,
      ...stored.items.map((item) => `${item.points} / ${item.maxPoints}`),
    ]);
    expect(requests.every((url) => url.startsWith('file://'))).toBe(true);
    await page.close();
  });

  test('stepping through a replay shows the position after each step', async () => {
    const page = await open('report.html');
    const game = getGame('reversi');
    const record = result.games[1].record;
    const positions = [game.decode(record.initialState)];
    for (const turn of record.turns) {
      const state = positions[positions.length - 1];
      positions.push(turn.kind === 'pass' ? game.pass(state) : game.apply(state, game.parseMove(turn.move!)));
    }
    const expected = (frame: number): Record<string, string> => discsOf(game.renderText(positions[frame]));

    await page.selectOption('#game-select', '1');
    expect(await shownDiscs(page)).toEqual(expected(0));
    for (let i = 0; i < 5; i++) await page.click('#next');
    expect(await shownDiscs(page)).toEqual(expected(5));
    expect(await page.textContent('#ply-label')).toContain('ply 5 of');
    expect(await page.$$eval('#board .last-move', (marks) => marks.length)).toBe(1);

    await page.click('#prev');
    expect(await shownDiscs(page)).toEqual(expected(4));
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    expect(await shownDiscs(page)).toEqual(expected(7));
    await page.keyboard.press('Home');
    expect(await shownDiscs(page)).toEqual(expected(0));
    await page.$eval('#slider', (slider) => {
      (slider as HTMLInputElement).value = '12';
      slider.dispatchEvent(new Event('input'));
    });
    expect(await shownDiscs(page)).toEqual(expected(12));
    await page.click('#last');
    expect(await shownDiscs(page)).toEqual(expected(record.turns.length));
    expect(await page.textContent('#turn-info')).toMatch(/won|Draw/);
    expect(await page.$$eval('#time-chart rect', (bars) => bars.length)).toBe(record.turns.length);
    await page.click('#first');
    expect(await shownDiscs(page)).toEqual(expected(0));
    await page.close();
  });

  test('a hostile log stays inert text', async () => {
    const page = await open('hostile.html');
    const dialogs: string[] = [];
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    await page.waitForTimeout(200);
    expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
    expect(await page.$$eval('img', (images) => images.length)).toBe(0);
    expect(await page.$$eval('script', (scripts) => scripts.length)).toBe(2);
    expect(await page.textContent('#output')).toContain(HOSTILE.slice(0, 60));
    // The planted illegal answer shows at its ply in the viewer, as text.
    const entry = result.games[0];
    const ply = entry.record.turns.find((turn) => turn.side === entry.studentSide && turn.kind === 'move')!.ply;
    await page.selectOption('#game-select', '0');
    for (let i = 0; i < ply; i++) await page.click('#next');
    expect(await page.textContent('#turn-info')).toContain('window.__pwned = 1');
    expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
    expect(dialogs).toEqual([]);
    await page.close();
  });

  test('the class index never scrolls sideways at 1280 or 1800 px: a class wider than the screen scrolls inside its table', async () => {
    // Twelve rubric items with long titles and long names: wider than a 1280 px window.
    const items = Array.from({ length: 12 }, (_, index) => ({ ...result.items[0], title: `vs opponent number ${index + 1} (long title)` }));
    const wide = { ...result, items };
    const students = ['王小明-Wang-Xiaoming-2026-section-B', 'a-very-long-student-folder-name_123456_assignsubmission_file_', 'bob']
      .map((id) => summarizeGrade(id, wide, null));
    writeClassIndex(join(dir, 'index.html'), { title: 'A wide class', students });
    for (const width of [1280, 1800]) {
      const page = await context.newPage();
      await page.setViewportSize({ width, height: 900 });
      await page.goto(pathToFileURL(join(dir, 'index.html')).href);
      const sizes = await page.evaluate(() => {
        const box = document.querySelector('#leaderboard')!.parentElement!;
        return { page: document.documentElement.scrollWidth, window: window.innerWidth, table: box.scrollWidth, box: box.clientWidth };
      });
      expect({ width, overflows: sizes.page > sizes.window }).toEqual({ width, overflows: false });
      // The control: at 1280 px the leaderboard really is wider than the page, and it is its box that scrolls.
      if (width === 1280) expect(sizes.table).toBeGreaterThan(sizes.box);
      await page.close();
    }
  });
});
