/**
 * DNS rebinding against `referee serve` on loopback: a page of evil.example whose name resolves to 127.0.0.1
 * (Chromium's host resolver rules stand in for the attacker's DNS) reaches the server with Host evil.example. It is
 * refused on every route (the play and watch pages and their websockets); a loopback name still works.
 */
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { chromium, type Browser } from 'playwright-core';
import WebSocket from 'ws';
import { CHROMIUM, requireBuild, startCli, stop, tempDir, type Started } from './serve-helpers.js';

let browser: Browser;
let server: Started;
let port: number;

beforeAll(async () => {
  requireBuild();
  server = await startCli(['serve', '--port', '0', '--watch', tempDir('referee-rebind-')]);
  port = Number(new URL(server.url).port);
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--host-resolver-rules=MAP evil.example 127.0.0.1'],
  });
});

afterAll(async () => {
  await browser?.close();
  await stop(server);
});

test('a rebound name is refused on the page; a loopback name is served', async () => {
  const page = await browser.newPage();
  const evil = await page.goto(`http://evil.example:${port}/`);
  expect(evil?.status()).toBe(421);
  expect(await page.textContent('body')).toContain("host 'evil.example:");
  const fine = await page.goto(`http://localhost:${port}/`);
  expect(fine?.status()).toBe(200);
  await page.close();
});

test('the websocket with a rebound Host and Origin is refused (the watch feed included)', async () => {
  const status = await new Promise<number>((resolve) => {
    const socket = new WebSocket(`ws://127.0.0.1:${port}/ws`, { headers: { Host: `evil.example:${port}` }, origin: `http://evil.example:${port}` });
    socket.on('unexpected-response', (_request, response) => resolve(response.statusCode ?? 0));
    socket.on('open', () => {
      socket.close();
      resolve(101);
    });
    socket.on('error', () => resolve(-1));
  });
  expect(status).toBe(421);
});
