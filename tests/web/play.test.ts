/**
 * `referee serve` in Chromium, for every registered game: a whole game against random by clicking legal cells,
 * undo twice and redo, reload mid-game, restart, save (checked by `referee replay`), load and play on. Then the
 * other modes once: human vs human, AI vs AI at top speed, keyboard-only play, and sandboxed submissions (TS,
 * Python, and one that loops: the banner names the timeout). One browser and one server for the whole file.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { gameIds } from '../../harness/games/registry.js';
import {
  clickMove, isOver, launchBrowser, openBoard, plyOf, playToEnd, referee, requireBuild, settle, socketErrors, startCli, stop, tempDir,
  type Started,
} from './serve-helpers.js';

const SUBMISSIONS = [
  'tests/fixtures/submissions/any-game/AIPlayer.ts',
  'tests/fixtures/python/any-game/AIPlayer.py',
  'tests/fixtures/hostile/loop-getmove.js',
];

let server: Started;
let browser: Browser;
let dir: string;

beforeAll(async () => {
  requireBuild();
  dir = tempDir('referee-web-');
  server = await startCli(['serve', '--port', '0', ...SUBMISSIONS]);
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await stop(server);
});

const open = (query: string): Promise<Page> => openBoard(browser, server.url, query);

async function save(page: Page, name: string): Promise<string> {
  const download = page.waitForEvent('download');
  await page.click('#save');
  const file = join(dir, name);
  await (await download).saveAs(file);
  return file;
}

describe.each(gameIds())('%s against random', (gameId) => {
  test('play, undo twice, redo, reload, finish, save, replay, load, play on, restart', async () => {
    const page = await open(`game=${gameId}&black=human&white=ref:random`);
    await settle(page);
    for (let i = 0; i < 3; i++) await clickMove(page);
    const before = await plyOf(page);
    expect(before).toBeGreaterThanOrEqual(6);

    // Undo takes back the AI's reply and the human's move together; redo restores both.
    await page.keyboard.press('u');
    await page.waitForFunction((ply) => Number(document.body.dataset.ply) < ply, before);
    const once = await plyOf(page);
    await page.click('#undo');
    await page.waitForFunction((ply) => Number(document.body.dataset.ply) < ply, once);
    const twice = await plyOf(page);
    expect(twice).toBeLessThan(once);
    await page.keyboard.press('y');
    await page.waitForFunction((ply) => Number(document.body.dataset.ply) === ply, once);
    await settle(page);

    // The last move is marked; move numbers can be shown; the move list views earlier positions.
    expect(await page.locator('#board .last-move').count()).toBe(1);
    await page.click('#show-numbers');
    expect(await page.locator('#board .move-number').count()).toBeGreaterThan(0);
    // Each number sits on a disc of the game's own picture, and each legal target on an empty spot of it.
    const misplaced = await page.evaluate(() => {
      const discs = [...document.querySelectorAll('#board circle[data-disc]')].map((c) => ({
        x: Number(c.getAttribute('cx')), y: Number(c.getAttribute('cy')), r: Number(c.getAttribute('r')),
      }));
      const on = (x: number, y: number) => discs.some((d) => Math.hypot(d.x - x, d.y - y) < d.r);
      const numbers = [...document.querySelectorAll('#board .move-number')].filter((t) => !on(Number(t.getAttribute('x')), Number(t.getAttribute('y'))));
      const targets = [...document.querySelectorAll('#board .target')].filter((t) => on(Number(t.getAttribute('cx')), Number(t.getAttribute('cy'))));
      return numbers.length + targets.length;
    });
    expect(misplaced).toBe(0);
    await page.click('#move-list tbody button');
    await page.waitForSelector('#view-note:not([hidden])');
    expect(await page.locator('#board [data-move]').count()).toBe(0);
    await page.keyboard.press('End');
    await settle(page);

    // A reload finds the same game on the server, at the same ply, and play goes on.
    const url = page.url();
    expect(url).toMatch(/#game=/);
    await page.reload();
    await page.waitForSelector('#board svg');
    await settle(page);
    expect(await plyOf(page)).toBe(once);
    await playToEnd(page);
    const banner = await page.textContent('#banner');
    expect(banner).toMatch(/wins|Draw/);

    // Save: a referee.game/1 record that `referee replay` validates.
    const file = await save(page, `${gameId}.json`);
    const record = JSON.parse(readFileSync(file, 'utf8')) as { format: string; game: string; players: string[]; turns: unknown[] };
    expect(record.format).toBe('referee.game/1');
    expect(record.game).toBe(gameId);
    expect(record.players).toEqual(['human', 'random']);
    const replay = await referee('replay', file);
    expect(replay.stderr).toBe('');
    expect(replay.code).toBe(0);
    expect(replay.stdout).toMatch(/valid: \d+ turns/);

    // Load it, take over Black from ply 2, and play on against random.
    await page.setInputFiles('#load-file', file);
    await page.waitForSelector('#load-panel:not([hidden])');
    await page.fill('#load-ply', '2');
    await page.click('#play-on');
    await page.waitForFunction(() => Number(document.body.dataset.ply) === 2 && document.body.dataset.over === '0');
    await settle(page, 1);
    const loadedMoves = await page.$$eval('#move-list button', (b) => b.map((x) => x.textContent));
    expect(loadedMoves.length).toBe(2);
    await clickMove(page);
    expect(await plyOf(page)).toBeGreaterThan(2);

    // Restart keeps the settings and starts from the initial position.
    await page.keyboard.press('r');
    await page.waitForFunction(() => Number(document.body.dataset.ply) === 0);
    await settle(page, -1);
    expect(await page.textContent('#side-1 .name')).toContain('random');
    await page.close();
  });
});

describe('other modes', () => {
  test('amazons: a move is three clicks (queen, destination, arrow); a touch again takes it back; a wrong one says why', async () => {
    const page = await open('game=amazons&black=human&white=ref:random');
    await settle(page);
    const cell = (name: string) => page.locator(`#board [data-cell="${name}"]`);
    await cell('A6').click(); // White's queen
    expect(await page.textContent('#message')).toMatch(/White's: touch one of Black's queens/);
    await cell('C1').click();
    expect(await page.locator('#board [data-picked]').count()).toBe(1);
    expect(await page.locator('#board [data-target="C7"]').count()).toBe(1); // C1's queen reaches C7
    await cell('C1').click(); // taken back
    expect(await page.locator('#board [data-picked]').count()).toBe(0);
    await cell('C1').click();
    await cell('D3').click(); // not in a line with C1
    expect(await page.textContent('#message')).toMatch(/not in a straight line/);
    await cell('C2').click();
    expect(await page.locator('#board [data-target="C1"]').count()).toBe(1); // the square it left is free for the arrow
    await cell('C1').click();
    await settle(page, 1);
    expect(await page.$$eval('#move-list button', (b) => b.map((x) => x.textContent ?? ''))).toEqual(expect.arrayContaining([expect.stringContaining('C1-C2/C1')]));
    expect(await page.locator('#board [data-arrow][data-square="C1"]').count()).toBe(1);
    await page.close();
  });

  test('human vs human at one screen, to the end; a second tab shows the same game', async () => {
    const page = await open('game=connect4&black=human&white=human');
    await settle(page);
    const watcher = await browser.newPage();
    await watcher.goto(page.url());
    await watcher.waitForSelector('#board svg');
    await clickMove(page);
    await watcher.waitForFunction(() => document.body.dataset.ply === '1');
    await watcher.close();
    const clicks = await playToEnd(page);
    expect(clicks + 1).toBe(await plyOf(page)); // every ply was a click: nobody else moved
    expect(await page.textContent('#banner')).toMatch(/wins|Draw/);
    // Undo between two people takes back one move.
    const ply = await plyOf(page);
    await page.keyboard.press('w');
    await page.waitForFunction((p) => Number(document.body.dataset.ply) === p - 1, ply);
    expect(await isOver(page)).toBe(false);
    await page.close();
  });

  test('load a games.jsonl line and take over White from ply 3 against an AI', async () => {
    const saved = join(dir, 'series');
    const play = await referee('play', '--black', 'greedy', '--white', 'random', '--games', '1', '--seed', '4', '--save', saved);
    expect(play.code).toBe(0);
    const record = JSON.parse(readFileSync(join(saved, 'game-1.json'), 'utf8')) as { turns: { side: number }[] };
    const line = join(dir, 'games.jsonl');
    const other = { ...record, turns: [], end: undefined };
    writeFileSync(line, `${JSON.stringify({ key: 'k0', item: 0, index: 0, wallMs: 9, record: other })}\n${JSON.stringify({ key: 'k1', item: 0, index: 1, wallMs: 12, record })}\n`);
    const page = await open('game=reversi&black=human&white=ref:random');
    // A tampered record is refused in one line naming the bad ply; the current game stays.
    const tampered = JSON.parse(JSON.stringify(record)) as { turns: { move?: string }[] };
    const firstMove = tampered.turns.findIndex((t) => t.move !== undefined);
    tampered.turns[firstMove].move = 'A1';
    const bad = join(dir, 'tampered.json');
    writeFileSync(bad, JSON.stringify(tampered));
    // Refused before any preview, in the game's words: the load panel never opens.
    await page.setInputFiles('#load-file', bad);
    await page.waitForFunction(() => /cannot be loaded/.test(document.querySelector('#message')!.textContent ?? ''));
    expect(await page.textContent('#message')).toMatch(/^tampered\.json cannot be loaded: ply \d+ \(Black's A1\): A1 /);
    expect(await page.isHidden('#load-panel')).toBe(true);
    await page.setInputFiles('#load-file', line);
    await page.waitForSelector('#load-panel:not([hidden])');
    expect(await page.locator('#load-pick option').count()).toBe(2);
    await page.selectOption('#load-pick', '1');
    expect(await page.textContent('#load-summary')).toMatch(/^Reversi \(Othello\), 8x8: greedy \(Black\) vs random \(White\), [1-9]\d* plies, (Black won|White won|a draw)/);
    await page.selectOption('#black', 'ref:greedy');
    await page.selectOption('#white', 'human');
    await page.fill('#load-ply', '3');
    await page.click('#play-on');
    // Black (greedy) plays ply 4 at once if it is to move; then White is the person's.
    await page.waitForFunction(() => Number(document.body.dataset.ply) >= 3 && document.querySelector('#board [data-move]'));
    expect(await page.textContent('#status')).toMatch(/White \(O\) to move — your turn/);
    await clickMove(page);
    await page.close();
  });

  test('AI vs AI at top speed, with pause and step', async () => {
    const page = await open('game=reversi&black=ref:random&white=ref:random');
    await page.waitForSelector('#ai-controls:not([hidden])');
    // A file refused while the AIs play stays readable: the game's next moves do not clear it.
    const junk = join(dir, 'notes.txt');
    writeFileSync(junk, 'not a game\n');
    await page.setInputFiles('#load-file', junk);
    await page.waitForFunction(() => /holds no game record/.test(document.querySelector('#message')!.textContent ?? ''));
    const refusedAt = await plyOf(page);
    await page.waitForFunction((p) => Number(document.body.dataset.ply) >= p + 2 || document.body.dataset.over === '1', refusedAt);
    expect(await page.textContent('#message')).toMatch(/^notes\.txt holds no game record/);
    await page.click('#pause');
    // Paused: a move already being computed lands, then the next one waits at the gate.
    await page.waitForFunction(() => document.body.dataset.holding === '1');
    const paused = await plyOf(page);
    await page.click('#step');
    await page.waitForFunction((p) => Number(document.body.dataset.ply) > p && document.body.dataset.holding === '1', paused); // one move (and a forced pass, if any)
    await page.selectOption('#speed', '0');
    await page.click('#pause');
    await page.waitForFunction(() => document.body.dataset.over === '1');
    expect(await page.textContent('#banner')).toMatch(/wins|Draw/);
    await page.close();
  });

  test('AI vs AI with a submission: the sandboxed TypeScript player against random, to the end', async () => {
    const page = await open('game=nogo&black=sub:0&white=ref:random');
    await page.waitForSelector('#ai-controls:not([hidden])');
    await page.selectOption('#speed', '0');
    await page.waitForFunction(() => document.body.dataset.over === '1');
    expect(await page.textContent('#banner')).toMatch(/wins/);
    expect(await page.textContent('#side-0 .name')).toMatch(/AIPlayer/);
    await page.close();
  });

  test('keyboard only: Tab into the board, arrows between cells, Enter plays; R, U, Y', async () => {
    const page = await open('game=gomoku&black=human&white=ref:random');
    await settle(page);
    let found = false;
    for (let i = 0; i < 60 && !found; i++) {
      await page.keyboard.press('Tab');
      found = await page.evaluate(() => document.activeElement?.matches('#board [data-move]') ?? false);
    }
    expect(found).toBe(true);
    const label = await page.evaluate(() => document.activeElement!.getAttribute('aria-label'));
    expect(label).toMatch(/^[A-O]\d+: empty, legal move for Black$/);
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowUp');
    const chosen = await page.evaluate(() => document.activeElement!.getAttribute('data-move'));
    expect(chosen).toMatch(/^[A-O]\d+$/);
    await page.keyboard.press('Enter');
    await settle(page, 0);
    const first = await page.$$eval('#move-list button', (b) => b.map((x) => x.textContent));
    expect(first[0]).toBe(chosen);
    // Focus stays on the board, on the cell just played (now taken: Enter says so); one step aside plays again.
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-cell'))).toBe(chosen);
    await page.keyboard.press('Enter');
    expect(await page.textContent('#message')).toBe(`${chosen} is taken: every stone stays where it is played`);
    for (const key of ['ArrowLeft', 'ArrowDown', 'ArrowLeft', 'ArrowDown']) {
      if (await page.evaluate(() => document.activeElement?.matches('#board [data-move]') ?? false)) break;
      await page.keyboard.press(key);
    }
    await page.keyboard.press('Enter');
    await settle(page, 2);
    expect(await plyOf(page)).toBe(4);
    // Every cell of the 15x15 board is reachable: one focusable cell each, stones and all.
    expect(await page.locator('#board [data-cell]').count()).toBe(225);
    await page.locator('body').click({ position: { x: 5, y: 5 } });
    await page.keyboard.press('u');
    await page.waitForFunction(() => Number(document.body.dataset.ply) === 2);
    await page.keyboard.press('y');
    await page.waitForFunction(() => Number(document.body.dataset.ply) === 4);
    await page.keyboard.press('r');
    await page.waitForFunction(() => Number(document.body.dataset.ply) === 0);
    await page.close();
  });

  test('keyboard: every Reversi cell is reachable, and an illegal one says so', async () => {
    const page = await open('game=reversi&black=human&white=ref:random');
    await settle(page);
    expect(await page.locator('#board [data-cell]').count()).toBe(64);
    await page.focus('#board [data-cell="A1"]');
    const why = "A1 turns over no disc: a move must close a line of White's discs between it and one of Black's";
    expect(await page.evaluate(() => document.activeElement!.getAttribute('aria-label'))).toBe(`A1: empty (not playable: ${why})`);
    await page.keyboard.press('Enter');
    expect(await page.textContent('#message')).toBe(why);
    expect(await plyOf(page)).toBe(0);
    await page.keyboard.press('ArrowRight');
    expect(await page.evaluate(() => document.activeElement!.getAttribute('data-cell'))).toBe('B1');
    // An occupied square from the keyboard: the arrows reach it, and it says it is taken.
    await page.focus('#board [data-cell="D4"]');
    expect(await page.evaluate(() => document.activeElement!.getAttribute('aria-label'))).toMatch(/^D4: White O \(not playable: D4 is taken/);
    await page.close();
  });

  test('Connect Four: a click anywhere in a column drops a disc in that column', async () => {
    const page = await open('game=connect4&black=human&white=ref:random');
    await settle(page);
    const target = page.locator('#board .target[data-target="3"]');
    const landing = (await target.boundingBox())!;
    const board = (await page.locator('#board svg').boundingBox())!;
    // The top row of column 3, far above where the disc lands: hovering it lights the landing spot; a click drops there.
    await page.mouse.move(landing.x + landing.width / 2, board.y + landing.height * 1.2);
    await page.waitForSelector('#board .target.hover[data-target="3"]');
    expect(await page.locator('#board .target.hover').count()).toBe(1);
    await page.mouse.click(landing.x + landing.width / 2, board.y + landing.height * 1.2);
    await settle(page, 0);
    expect(await plyOf(page)).toBeGreaterThanOrEqual(1);
    expect(await page.textContent('#move-list tbody')).toMatch(/^13/);
    await page.close();
  });

  test.each([
    ['a TypeScript submission', 'sub:0'],
    ['a Python submission', 'sub:1'],
  ])('%s as the opponent, sandboxed', async (_what, value) => {
    const page = await open(`game=reversi&black=human&white=${value}`);
    await settle(page);
    for (let i = 0; i < 3; i++) await clickMove(page);
    expect(await plyOf(page)).toBeGreaterThanOrEqual(6);
    expect(await page.textContent('#side-1 .name')).toMatch(/AIPlayer/);
    await page.close();
  });

  test('a submission that loops loses by timeout, and the banner says so', async () => {
    const page = await open('game=reversi&black=human&white=sub:2');
    await page.waitForFunction(() => location.hash.startsWith('#game='));
    const first = await page.evaluate(() => location.hash);
    await page.fill('#move-time', '1');
    await page.click('#new-game');
    // The new game (a new id in the URL), not the one the page opened with.
    await page.waitForFunction((old) => location.hash !== old && document.body.dataset.ply === '0' && document.querySelector('#board [data-move]'), first);
    await page.locator('#board [data-move]').first().click();
    await page.waitForFunction(() => document.body.dataset.over === '1');
    const banner = await page.textContent('#banner');
    expect(banner).toMatch(/lost by timeout/);
    expect(banner).toMatch(/no answer within 1000 ms/);
    const file = await save(page, 'timeout.json');
    const replay = await referee('replay', file);
    expect(replay.code).toBe(0);
    expect(replay.stdout).toMatch(/by timeout/);
    await page.close();
  });

  test('hostile websocket messages get one-line refusals; the game goes on', async () => {
    const page = await open('game=reversi&black=human&white=ref:random');
    await settle(page);
    const replies = await socketErrors(
      page,
      [
        'not json',
        JSON.stringify({ type: 'move', ply: 1, move: 'D3', extra: 1 }),
        JSON.stringify({ type: 'new', game: 'reversi', black: { kind: 'code', source: 'evil()' }, white: { kind: 'human' } }),
        JSON.stringify({ type: 'new', game: 'chess', black: { kind: 'human' }, white: { kind: 'human' } }),
        JSON.stringify({ type: 'new', game: 'reversi', black: { kind: 'reference', name: 'nope' }, white: { kind: 'human' } }),
        ...Array.from({ length: 100 }, () => JSON.stringify({ type: 'pause' })),
      ],
      [/not JSON/, /message refused/, /message refused/, /unknown game 'chess'/, /unknown reference AI 'nope'/, /too many messages/],
    );
    // Over the size cap the server closes the socket (message too big) without reading it.
    replies.push(
      await page.evaluate(async () => {
        const big = new WebSocket(`ws://${location.host}/ws${location.search}`);
        await new Promise((r) => (big.onopen = r));
        const closed = new Promise<number>((r) => (big.onclose = (event) => r(event.code)));
        big.send(JSON.stringify({ type: 'load', record: { pad: 'x'.repeat(3 * 1024 * 1024) }, black: { kind: 'human' }, white: { kind: 'human' } }));
        return `closed ${await closed}`;
      }),
    );
    // Refusals of rejected messages come at once; the rest are answered in order after them.
    const has = (pattern: RegExp): boolean => replies.some((reply) => pattern.test(reply));
    expect(replies[0]).toMatch(/not JSON/);
    expect(replies.filter((reply) => /message refused/.test(reply))).toHaveLength(2);
    expect(has(/unknown game 'chess': use one of/)).toBe(true);
    expect(has(/unknown reference AI 'nope' for reversi: use one of/)).toBe(true);
    expect(has(/too many messages/)).toBe(true);
    // 1009 when the close frame gets through; Chromium reports 1006 when the server drops the connection mid-send.
    expect(replies[replies.length - 1]).toMatch(/^closed (1009|1006)$/);
    await clickMove(page);
    await page.close();
  });
});

