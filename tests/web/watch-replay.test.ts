/**
 * `referee serve --watch` of a finished tournament in Chromium: a finished game replays with the report's controls
 * (first, back, forward, last, slider, speed, play/pause), the highlighted row follows the click at once, the
 * Status column is filled and the counts read as words ("2 players", "no game in play"), and a long status wraps
 * in its cell instead of pushing the board under the lists (1366×768).
 */
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import type { Browser, Page } from 'playwright-core';
import { CLI, launchBrowser, requireBuild, startCli, stop, tempDir, type Started } from './serve-helpers.js';
import { runToEnd } from '../setup/children.js';

let browser: Browser;
let server: Started | undefined;
let page: Page;

const ply = (): Promise<number> => page.evaluate(() => Number(document.body.dataset.watchPly ?? -1));

beforeAll(async () => {
  requireBuild();
  const out = tempDir('referee-watch-replay-');
  const run = await runToEnd(process.execPath, [CLI, 'tournament', 'random', 'greedy', '--format', 'round-robin', '--seed', '5', '--jobs', '1', '--out', out]);
  if (run.code !== 0) throw new Error(`the tournament failed: ${run.stderr}`);
  [browser, server] = await Promise.all([launchBrowser(), startCli(['serve', '--port', '0', '--watch', out])]);
  page = await browser.newPage({ viewport: { width: 1366, height: 768 } });
  page.on('pageerror', (error) => {
    throw error;
  });
  await page.goto(server.url);
  await page.waitForFunction(() => document.querySelectorAll('#watch-games button').length === 2 && /finished/.test(document.querySelector('#watch-summary')?.textContent ?? ''));
});

afterAll(async () => {
  await browser?.close();
  await stop(server);
});

test('the tournament reads in words: statuses filled, plurals, no "0 games"', async () => {
  expect(await page.textContent('#watch-summary')).toBe('tournament finished: 2 players, no game in play, 2 games finished.');
  const rows = await page.$$eval('#watch-students tbody tr', (trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent)));
  expect(rows.map((row) => row[1])).toEqual(['finished', 'finished']);
  expect(rows.map((row) => row[3])).toEqual(['2', '2']);
  expect(await page.$$eval('#watch-games button', (buttons) => buttons.every((button) => /\(\d+ plies\)$/.test(button.textContent ?? '')))).toBe(true);
});

test('a finished game: the clicked row is highlighted at once, and it replays with step, back, slider, last, play and pause', async () => {
  const buttons = page.locator('#watch-games button');
  const second = await buttons.nth(1).getAttribute('data-key');
  await buttons.nth(1).click();
  // The highlight follows the click before the server answers, and Follow lets go (the reader chose this game).
  expect(await page.$$eval('#watch-games button[aria-current="true"]', (marked) => marked.map((button) => button.getAttribute('data-key')))).toEqual([second]);
  expect(await page.isChecked('#watch-follow')).toBe(false);
  await page.waitForFunction(() => !(document.querySelector('#watch-first') as HTMLButtonElement).disabled && Number((document.querySelector('#watch-slider') as HTMLInputElement).max) > 10);
  const last = Number(await page.getAttribute('#watch-slider', 'max'));

  await page.click('#watch-first');
  expect(await ply()).toBe(0);
  expect(await page.getAttribute('#watch-play', 'aria-pressed')).toBe('false');
  await page.click('#watch-next');
  await page.click('#watch-next');
  expect(await ply()).toBe(2);
  await page.click('#watch-prev');
  expect(await ply()).toBe(1);
  expect(await page.textContent('#watch-ply')).toBe(`ply 1 of ${last}`);
  await page.locator('#watch-slider').fill('10');
  expect(await ply()).toBe(10);
  expect(await page.locator('#watch-board [data-disc]').count()).toBeGreaterThan(4);
  await page.click('#watch-last');
  expect(await ply()).toBe(last);
  expect(await page.textContent('#watch-ply')).toMatch(new RegExp(`^ply ${last} of ${last} — (draw|(random|greedy) wins)`));

  // Play from the end starts again at the beginning, at the chosen speed; Pause holds the position. The replay steps
  // on the page's timers, which this test moves itself: on the real clock a loaded machine let 16 moves/s run the
  // replay to its end (and Play then start it over) between two of the test's steps.
  const start = new Date('2026-01-01T00:00:00Z').getTime();
  await page.clock.install({ time: start });
  // An hour on and stopped there: from here the page's time moves only by runFor (a jump with no replay running).
  await page.clock.pauseAt(start + 3_600_000);
  await page.selectOption('#watch-speed', '16');
  await page.click('#watch-play');
  expect(await page.getAttribute('#watch-play', 'aria-pressed')).toBe('true');
  expect(await ply()).toBe(0);
  await page.clock.runFor(250);
  expect(await ply()).toBe(4);
  // A new speed takes over from where the replay is.
  await page.selectOption('#watch-speed', '1');
  await page.clock.runFor(999);
  expect(await ply()).toBe(4);
  await page.clock.runFor(1);
  expect(await ply()).toBe(5);
  await page.click('#watch-play');
  expect(await page.getAttribute('#watch-play', 'aria-pressed')).toBe('false');
  await page.clock.runFor(5000);
  expect(await ply()).toBe(5);
});

test('a long status wraps in its cell: the board stays beside the lists at 1366×768', async () => {
  await page.evaluate(() => {
    const cell = document.querySelectorAll('#watch-students tbody tr td')[1];
    cell.textContent = `interface check failed: ${'the compiler said something long about templates and headers; '.repeat(12)}`;
  });
  const [lists, stage] = await Promise.all([page.locator('#watch-lists').boundingBox(), page.locator('#watch-stage').boundingBox()]);
  expect(stage!.x).toBeGreaterThanOrEqual(lists!.x + lists!.width);
  expect(stage!.y).toBeLessThan(lists!.y + 5);
  const board = await page.locator('#watch-board svg').boundingBox();
  expect(board!.width).toBeGreaterThanOrEqual(480);
});
