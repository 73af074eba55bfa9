/**
 * `referee serve --watch` in Chromium on a real batch: started before the batch made its --out folder (the page
 * waits for it), then the statuses index.html uses: a submission that does not compile is 'interface check failed'
 * with the reason (not 'graded'), and a student whose games were reused from an identical submission counts them.
 */
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { makeClass, writeConfig } from '../batch/helpers.js';
import { runToEnd } from '../setup/children.js';
import { CLI, launchBrowser, requireBuild, startCli, stop, tempDir, type Started } from './serve-helpers.js';

let browser: Browser;
let server: Started | undefined;

beforeAll(async () => {
  requireBuild();
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await stop(server);
});

test('a folder that does not exist yet is awaited; then compile failure and reused games read as index.html has them', async () => {
  const out = join(tempDir('referee-watch-statuses-'), 'not-yet');
  server = await startCli(['serve', '--port', '0', '--watch', out]);
  const page = await browser.newPage();
  page.on('pageerror', (error) => {
    throw error;
  });
  await page.goto(server.url);
  await page.waitForFunction(() => /does not exist yet: waiting/.test(document.querySelector('#watch-summary')!.textContent ?? ''));

  // ann and bob hand in the same file: bob's games are ann's, reused from the journal.
  const classDir = makeClass({ ann: 'weak', bob: 'weak', cy: 'broken' });
  const batch = await runToEnd(process.execPath, [CLI, 'batch', classDir, '--config', writeConfig(tempDir('referee-watch-statuses-config-')), '--out', out, '--jobs', '1'], process.env);
  expect(batch.code).toBe(0);
  // The summary can say 'finished' one refresh before the rows do (seen once at load): wait for both.
  await page.waitForFunction(
    () =>
      document.querySelectorAll('#watch-students tbody tr').length === 3 &&
      /finished/.test(document.querySelector('#watch-summary')!.textContent ?? '') &&
      ![...document.querySelectorAll('#watch-students tbody tr')].some((tr) => /^(grading|waiting)/.test(tr.querySelectorAll('td')[1]?.textContent ?? '')),
  );
  const rows = await page.$$eval('#watch-students tbody tr', (trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent)));
  const byId = Object.fromEntries(rows.map((row) => [row[0], row.slice(1)]));
  expect(byId.ann).toEqual(['graded', expect.stringMatching(/^\d+(\.\d+)? \/ 60$/), '4']);
  expect(byId.bob[0]).toBe('graded');
  expect(byId.bob[2]).toBe('4');
  expect(byId.cy[0]).toMatch(/^interface check failed: .*compile/i);
  expect(byId.cy[1]).toBe('0 / 60');
  await page.close();
});
