/**
 * The board as people click it, in Chromium against a real `referee serve`: every kind of unplayable point in every
 * game (taken, NoGo's centre rule, a capture, a suicide, a full column, a Reversi square that turns nothing over)
 * leaves the board as it was and says why in the game's words; the keyboard reaches a taken point and says so; each
 * game's result banner names why it ended and the winning line is drawn; resign; the loaded-game preview; the AI-vs-AI
 * pause wording and buttons after the end; move numbers; the human's clock before the first move.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, openBoard, plyOf, referee, requireBuild, settle, startCli, stop, tempDir, type Started } from './serve-helpers.js';

let server: Started;
let browser: Browser;
let dir: string;

beforeAll(async () => {
  requireBuild();
  dir = tempDir('referee-board-');
  server = await startCli(['serve', '--port', '0']);
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await stop(server);
});

const open = (query: string): Promise<Page> => openBoard(browser, server.url, query);

/** Click a cell that must play: the ply goes up by one (two people at one screen). */
async function playCell(page: Page, name: string): Promise<void> {
  const before = await plyOf(page);
  await page.click(`#board [data-cell="${name}"]`);
  await page.waitForFunction((ply) => Number(document.body.dataset.ply) === ply + 1 && document.querySelector('#board [data-move]') !== null || document.body.dataset.over === '1', before);
}

/** Click a cell that must not play: the message says `why`, the ply and every piece stay as they were. */
async function refused(page: Page, name: string, why: string): Promise<void> {
  const pieces = (): Promise<string[]> => page.$$eval('#board [data-disc]', (discs) => discs.map((d) => `${d.getAttribute('data-square')}=${d.getAttribute('data-disc')}`).sort());
  const [ply, before] = [await plyOf(page), await pieces()];
  await page.click(`#board [data-cell="${name}"]`);
  expect(await page.textContent('#message')).toBe(why);
  // A refused touch sends nothing: a move would come back from the server as a new ply.
  await page.waitForFunction(() => new Promise((resolve) => requestAnimationFrame(() => resolve(true))));
  expect(await plyOf(page)).toBe(ply);
  expect(await pieces()).toEqual(before);
}

async function save(page: Page, name: string): Promise<string> {
  const download = page.waitForEvent('download');
  await page.click('#save');
  const file = join(dir, name);
  await (await download).saveAs(file);
  return file;
}

describe('clicks that mean what they touch', () => {
  test('NoGo: the centre rule, a capture, a taken point, a suicide (one stone and a group); the keyboard on a taken point', async () => {
    const page = await open('game=nogo&black=human&white=human');
    await settle(page);
    // The defect this fixes: E5 on move 1 played E1.
    await refused(page, 'E5', "Black's first move may not be the centre (E5): the course's centre rule");
    expect(await page.locator('#board [data-disc]').count()).toBe(0);
    await playCell(page, 'B1');
    await playCell(page, 'A1');
    await refused(page, 'A2', "A2 would capture White's stone on A1 (taking their last liberty): capturing is not allowed in NoGo");
    await refused(page, 'B1', 'B1 is taken: every stone stays where it is played');
    for (const name of ['B2', 'J9', 'A3']) await playCell(page, name);
    await refused(page, 'A2', "A2 would leave White's stones on A1 and A2 without a liberty: suicide is not allowed in NoGo");
    await playCell(page, 'H9');
    await refused(page, 'A2', "A2 would capture White's stone on A1 (taking their last liberty): capturing is not allowed in NoGo");
    // The keyboard reaches a taken point, names what is on it and why it cannot be played, and Enter says so.
    await page.focus('#board [data-cell="B2"]');
    expect(await page.evaluate(() => document.activeElement!.getAttribute('aria-label'))).toBe('B2: Black X (not playable: B2 is taken: every stone stays where it is played)');
    await page.keyboard.press('ArrowUp');
    expect(await page.evaluate(() => document.activeElement!.getAttribute('data-cell'))).toBe('B3');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    expect(await page.textContent('#message')).toBe('B2 is taken: every stone stays where it is played');
    expect(await plyOf(page)).toBe(6);
    await page.close();
  });

  test('Connect Four: a full column refuses; four in a row ends the game with the line drawn', async () => {
    const page = await open('game=connect4&black=human&white=human');
    await settle(page);
    for (let i = 0; i < 6; i++) await playCell(page, `c3r${5 - i}`); // any cell of column 3 drops into it
    await refused(page, 'c3r0', 'column 3 is full: drop the disc into another column');
    await refused(page, 'c3r5', 'column 3 is full: drop the disc into another column');
    for (const name of ['c0r5', 'c0r5', 'c1r5', 'c1r5', 'c2r5']) await playCell(page, name);
    await page.waitForFunction(() => document.body.dataset.over === '1');
    expect(await page.textContent('#banner')).toBe('Red (X) — human wins. Red made four in a row across columns 0–3.');
    expect(await page.$$eval('#board .win-line', (marks) => marks.map((m) => m.getAttribute('data-line')))).toEqual(['c0r0', 'c1r0', 'c2r0', 'c3r0']);
    // Pieces count from the game's geometry: 11 discs, 6 Red and 5 Yellow.
    expect(await page.textContent('#side-0 .score')).toBe('· 6 discs');
    await refused(page, 'c4r0', 'the game is over: R starts it again, U takes moves back');
    await page.close();
  });

  test('Reversi: a taken square and one that turns nothing over', async () => {
    const page = await open('game=reversi&black=human&white=human');
    await settle(page);
    await refused(page, 'D4', 'D4 is taken: a disc is never moved, only turned over');
    await refused(page, 'A1', "A1 turns over no disc: a move must close a line of White's discs between it and one of Black's");
    await playCell(page, 'D3');
    expect(await page.textContent('#move-list tbody')).toBe('1D3');
    await page.close();
  });
});

describe('results that explain', () => {
  let gomokuFile: string;

  test('Gomoku: five in a row, the line drawn; move numbers with the newest in red instead of the dot', async () => {
    const page = await open('game=gomoku&black=human&white=human');
    await settle(page);
    for (const name of ['H8', 'A1', 'I8', 'A2', 'J8', 'A3', 'K8', 'A4']) await playCell(page, name);
    await refused(page, 'H8', 'H8 is taken: every stone stays where it is played');
    await page.keyboard.press('n');
    await page.waitForSelector('#board .move-number.last');
    expect(await page.textContent('#board .move-number.last')).toBe('8');
    expect(await page.$eval('#board .last-move', (mark) => getComputedStyle(mark).display)).toBe('none');
    await playCell(page, 'L8');
    await page.waitForFunction(() => document.body.dataset.over === '1');
    expect(await page.textContent('#banner')).toBe('Black (X) — human wins. Black made five in a row (H8–L8).');
    expect(await page.$$eval('#board .win-line', (marks) => marks.map((m) => m.getAttribute('data-line')))).toEqual(['H8', 'I8', 'J8', 'K8', 'L8']);
    expect(await page.isDisabled('#resign')).toBe(true);
    gomokuFile = await save(page, 'gomoku-five.json');
    await page.close();
  });

  test('Load shows the loaded position at once, with a summary in words; the ply box walks it', async () => {
    const page = await open('game=reversi&black=human&white=ref:random');
    await settle(page);
    await page.setInputFiles('#load-file', gomokuFile);
    await page.waitForSelector('#load-panel:not([hidden])');
    expect(await page.textContent('#load-summary')).toBe(
      'Gomoku 15x15, five or more wins (freestyle): human (Black) vs human (White), 9 plies, Black won (Black made five in a row (H8–L8)).',
    );
    // The board is the loaded game's last position, before anything is sent to the server.
    await page.waitForFunction(() => document.querySelectorAll('#board [data-disc]').length === 9);
    expect(await page.getAttribute('#board [data-cell="L8"]', 'aria-label')).toBe('L8: Black X');
    expect(await page.locator('#board .win-line').count()).toBe(5);
    expect(await page.textContent('#load-position')).toBe('Ply 9 of 9 on the board: the game is over there.');
    await page.fill('#load-ply', '3');
    await page.waitForFunction(() => document.querySelectorAll('#board [data-disc]').length === 3);
    expect(await page.textContent('#load-position')).toBe('Ply 3 of 9 on the board: White (O) to move.');
    await refused(page, 'B2', 'this is the loaded game at ply 3: press "Play on from here" to play from it');
    await page.selectOption('#black', 'human');
    await page.selectOption('#white', 'human');
    await page.click('#play-on');
    await page.waitForFunction(() => Number(document.body.dataset.ply) === 3 && document.querySelector('#board [data-move]') !== null);
    expect(await page.isHidden('#load-panel')).toBe(true);
    await playCell(page, 'B2');
    await page.close();
  });

  test('resign (G) ends the game for the person; the record replays; Undo takes it back', async () => {
    const page = await open('game=gomoku&black=human&white=ref:random');
    await settle(page);
    await page.click('#board [data-move]');
    await settle(page, 0);
    await page.keyboard.press('g');
    await page.waitForFunction(() => document.body.dataset.over === '1');
    expect(await page.textContent('#banner')).toBe('White (O) — random wins: Black (human) resigned.');
    const record = JSON.parse(readFileSync(await save(page, 'resigned.json'), 'utf8')) as { end: { reason: string; resignedBy: number; winner: number } };
    expect(record.end).toMatchObject({ reason: 'resign', resignedBy: 0, winner: 1 });
    const replay = await referee('replay', join(dir, 'resigned.json'));
    expect(replay.stderr).toBe('');
    expect(replay.code).toBe(0);
    await page.keyboard.press('u');
    await page.waitForFunction(() => document.body.dataset.over === '0');
    await page.close();
  });

  test.each([
    ['reversi', /^(Black \(X\) — random wins \d+–\d+|White \(O\) — random wins \d+–\d+|Draw \d+–\d+)\. (Neither side can move|The board is full): /],
    ['nogo', /^(Black|White) \([XO]\) — random wins\. (Black|White) has no legal move \(every empty point would capture or be suicide\)\.$/],
  ])('%s AI vs AI: paused wording, the end banner, Pause and Step off after the end, the move list fits', async (game, banner) => {
    const page = await open(`game=${game}&black=ref:random&white=ref:random`);
    await page.waitForSelector('#ai-controls:not([hidden])');
    await page.click('#pause');
    await page.waitForFunction(() => document.body.dataset.holding === '1');
    expect(await page.textContent('#status')).toMatch(/^Paused before ply \d+ \((Black|White) \([XO]\) — random to move\): Play goes on, Step plays one move\.$/);
    expect(await page.isDisabled('#step')).toBe(false);
    await page.selectOption('#speed', '0');
    await page.click('#pause');
    await page.waitForFunction(() => document.body.dataset.over === '1');
    expect(await page.textContent('#banner')).toMatch(banner);
    expect(await page.isDisabled('#pause')).toBe(true);
    expect(await page.isDisabled('#step')).toBe(true);
    // Every ply of a long game stays inside the move list (it scrolls down, never off to the side).
    const overflow = await page.$eval('#move-list-box', (list) => list.scrollWidth - list.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await page.close();
  });

  test("a person's clock starts with the first move, not when the page opened", async () => {
    const page = await open('game=connect4&black=human&white=ref:random');
    await settle(page);
    // Whatever the machine's speed, a clock that ran from the page's opening would show time by now.
    await page.waitForFunction(() => new Promise((resolve) => setTimeout(() => resolve(true), 600)));
    expect(await page.textContent('#side-0 .clock')).toBe('clock 0:00.0');
    await page.close();
  });
});
