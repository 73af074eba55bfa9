/**
 * `referee serve` with C++ opponents, in real Chromium: a person plays the Connect Four course's board against a
 * Strategy.cpp (compiled and sandboxed exactly as in grading) by clicking legal cells to the end, and watches the
 * course's compiled test AI (.so) play that Strategy.cpp.
 */
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, openBoard, playToEnd, requireBuild, settle, startCli, stop, type Started } from '../web/serve-helpers.js';
import { scratch } from '../sandbox/support.js';
import { seedCache } from '../setup/suite-cache.js';
import { buildTestAi, CPP_FIXTURES } from './support.js';

let server: Started;
let browser: Browser;

beforeAll(async () => {
  requireBuild();
  const testAi = buildTestAi('testai-greedy', '50.so');
  process.env.REFEREE_CACHE_DIR = seedCache(scratch('cpp-serve-cache'));
  server = await startCli(['serve', '--port', '0', '--game', 'connect4-nogo', join(CPP_FIXTURES, 'judge-greedy'), testAi]);
  browser = await launchBrowser();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await stop(server);
});

const open = (query: string): Promise<Page> => openBoard(browser, server.url, query);

test('a person against a C++ Strategy.cpp: every click is answered by the sandboxed getPoint, to the end', async () => {
  const page = await open('game=connect4-nogo&black=human&white=sub:0');
  await settle(page);
  expect(await page.textContent('#side-1 .name')).toMatch(/judge-greedy/);
  await playToEnd(page);
  expect(await page.textContent('#banner')).toMatch(/wins|draw/i);
  // The C++ player answered every turn it had: its moves are in the list next to the person's.
  expect(await page.locator('#move-list tbody td:nth-child(3) button').count()).toBeGreaterThan(0);
  await page.close();
}, 120_000);

test('watching the course test AI (.so) play the Strategy.cpp, at top speed, to the end', async () => {
  const page = await open('game=connect4-nogo&black=sub:1&white=sub:0');
  await page.waitForSelector('#ai-controls:not([hidden])');
  await page.selectOption('#speed', '0');
  await page.waitForFunction(() => document.body.dataset.over === '1');
  expect(await page.textContent('#side-0 .name')).toMatch(/50\.so/);
  expect(await page.textContent('#banner')).toMatch(/wins|draw/i);
  await page.close();
}, 120_000);
