/** Shared by the web tests: a real `referee serve` (or `referee play`) subprocess and a real Chromium. */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { runToEnd, stopAfterwards, stopChild } from '../setup/children.js';

export const CLI = resolve('dist/cli/index.js');
export const CHROMIUM = '/usr/bin/chromium';
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'];

export function requireBuild(): void {
  if (!existsSync(CLI)) throw new Error('dist/cli/index.js is missing: run `npm run build` (npm test does it first)');
}

/**
 * How long one wait on a page may take before it fails naming what it waited for. Playwright's own default, 30 s,
 * cut working waits on a loaded machine (a page that drew at load 30 a minute late); a wait ends on its event, this
 * only turns a hang into a message before jest's 5-minute test timeout would.
 */
export const PAGE_WAIT_MS = 240_000;

/** Chromium whose every context (and so every page, `newPage` makes one) waits up to PAGE_WAIT_MS. */
export async function launchBrowser(): Promise<Browser> {
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ARGS });
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (options) => {
    const context = await newContext(options);
    context.setDefaultTimeout(PAGE_WAIT_MS);
    return context;
  };
  return browser;
}

/** A new page on the served board (`query` without its `?`), with page errors failing the test, once drawn. */
export async function openBoard(browser: Browser, url: string, query: string): Promise<Page> {
  const page = await browser.newPage();
  page.on('pageerror', (error) => {
    throw error;
  });
  await page.goto(`${url}?${query}`);
  await page.waitForSelector('#board svg');
  return page;
}

export interface Started {
  child: ChildProcess;
  url: string;
  output: () => string;
}

/**
 * Start the CLI and wait for the first URL it prints, or its exit: no clock (a server took over 30 s to start at
 * load 30; a hang is the test's timeout). The server is stopped after the test that started it (`until` 'file': a
 * server the next tests use), or after the file when a beforeAll did, even when the test fails before its own stop.
 */
export function startCli(args: string[], pattern = /(http:\/\/\S+)/, until?: 'test' | 'file'): Promise<Started> {
  const child = stopAfterwards(spawn(process.execPath, [CLI, ...args], { stdio: ['ignore', 'pipe', 'pipe'] }), until);
  let text = '';
  return new Promise((resolvePromise, reject) => {
    const onData = (chunk: Buffer): void => {
      text += chunk.toString();
      const match = pattern.exec(text);
      if (match) resolvePromise({ child, url: match[1], output: () => text });
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.on('exit', (code) => reject(new Error(`referee ${args[0]} exited with ${code}: ${text}`)));
  });
}

export async function stop(started: Started | undefined): Promise<void> {
  if (started) await stopChild(started.child);
}

/** Runs the CLI to its own end however loaded the machine (a failed or timed-out test stops it). */
export async function referee(...args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const { code, stdout, stderr } = await runToEnd(process.execPath, [CLI, ...args], process.env);
  return { code, stdout, stderr };
}

export const tempDir = (prefix: string): string => mkdtempSync(join(tmpdir(), prefix));

export const plyOf = (page: Page): Promise<number> => page.evaluate(() => Number(document.body.dataset.ply ?? -1));
export const isOver = (page: Page): Promise<boolean> => page.evaluate(() => document.body.dataset.over === '1');

/** Wait until a person may move (a legal target is drawn) or the game is over, past `afterPly`. */
export async function settle(page: Page, afterPly = -1): Promise<void> {
  await page.waitForFunction(
    (after) =>
      Number(document.body.dataset.ply ?? -1) > after &&
      (document.body.dataset.over === '1' || document.querySelector('#board [data-move]') !== null),
    afterPly,
  );
}

/**
 * Click the first legal target until a move is made (a move of several touches, Amazons' queen, destination and
 * arrow, takes a click each: a touch that does not finish the move redraws the board with one more picked cell at
 * once); returns the ply before the first click.
 */
export async function clickMove(page: Page): Promise<number> {
  const before = await plyOf(page);
  for (let touch = 1; touch <= 3; touch++) {
    // Not the cell touched last (touching it again takes it back); an earlier one may be next (an arrow onto the
    // square its queen left).
    const last = await page.$$eval('#board [data-picked]', (marks) => marks.map((mark) => mark.getAttribute('data-picked')).pop());
    await page.locator(`#board [data-move]${last ? `:not([data-cell="${last}"])` : ''}`).first().click();
    if ((await page.locator('#board [data-picked]').count()) !== touch) break;
  }
  await settle(page, before);
  return before;
}

/** Click legal cells until the banner shows; returns the number of clicks. */
export async function playToEnd(page: Page, limit = 400): Promise<number> {
  let clicks = 0;
  while (!(await isOver(page))) {
    if (++clicks > limit) throw new Error('the game did not end');
    await clickMove(page);
  }
  return clicks;
}

/**
 * Open a second websocket from the page, send these frames as they are, and return the error messages it got once
 * every pattern of `expected` has matched as many replies as it is listed (or the server closed the socket): an
 * event, not a pause (a fixed wait let a loaded machine's late refusals go unseen).
 */
export function socketErrors(page: Page, frames: string[], expected: RegExp[]): Promise<string[]> {
  return page.evaluate(
    async ([sent, sources]) => {
      const patterns = sources.map((source) => new RegExp(source));
      const socket = new WebSocket(`ws://${location.host}/ws${location.search}`);
      const got: string[] = [];
      const complete = (): boolean =>
        patterns.every((pattern) => got.filter((reply) => pattern.test(reply)).length >= patterns.filter((other) => other.source === pattern.source).length);
      const done = new Promise<void>((resolve) => {
        socket.onclose = () => resolve();
        socket.onmessage = (event) => {
          const message = JSON.parse(String(event.data)) as { type: string; message?: string };
          if (message.type === 'error') got.push(message.message!);
          if (complete()) resolve();
        };
      });
      await new Promise((r) => (socket.onopen = r));
      for (const frame of sent) socket.send(frame);
      await done;
      socket.close();
      return got;
    },
    [frames, expected.map((pattern) => pattern.source)] as const,
  );
}
