/**
 * Issue #20: `referee serve --entry FILE` in Chromium. The folder keeps bot_v1.py (which raises on every move)
 * beside bot_v2.py; with --entry bot_v2.py the page's game against random ends on the board, not by an error.
 */
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { launchBrowser, requireBuild, startCli, stop, tempDir, type Started } from './serve-helpers.js';

let server: Started;
let browser: Browser;

beforeAll(async () => {
  requireBuild();
  const dir = tempDir('referee-serve-entry-');
  writeFileSync(join(dir, 'bot_v1.py'), "class AIPlayer:\n    def __init__(self, color):\n        self.color = color\n\n    def get_move(self, board):\n        raise RuntimeError('bot_v1 is the old version')\n");
  writeFileSync(join(dir, 'bot_v2.py'), 'class AIPlayer:\n    def __init__(self, color):\n        self.color = color\n\n    def get_move(self, board):\n        return sorted(board.get_legal_actions(self.color))[0]\n');
  server = await startCli(['serve', '--port', '0', '--entry', 'bot_v2.py', dir]);
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await stop(server);
});

test('serve --entry bot_v2.py: the folder plays that file against random to the end of the board', async () => {
  const page = await browser.newPage();
  page.on('pageerror', (error) => {
    throw error;
  });
  await page.goto(`${server.url}?game=reversi&black=sub:0&white=ref:random`);
  await page.waitForSelector('#ai-controls:not([hidden])');
  await page.selectOption('#speed', '0');
  await page.waitForFunction(() => document.body.dataset.over === '1');
  const banner = await page.textContent('#banner');
  expect(banner).toMatch(/wins|Draw/);
  expect(banner).not.toMatch(/lost by|error|bot_v1/i);
  await page.close();
});
