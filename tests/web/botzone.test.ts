/**
 * Botzone bots in `referee serve`, in Chromium (#34): a person plays a kept-running C++ Reversi bot to the end and a
 * restarted-per-turn Python bot (with an undo), makes Amazons moves of three clicks against a C++ jsoncpp Amazons bot,
 * watches a bot-vs-bot game from a second tab, and sees a bot that crashes or never answers mid-game lose with the
 * verdict on the page. The bots' debug shows under the board for the ply on it, as the report's replay prints it.
 * Served with --platform botzone: Botzone's limits (1 s a turn x language, first turn x2, one invalid action loses).
 * Then a grade whose assignment gives a time bank and strikes in one line: the report's time chart marks the struck
 * move and its replay prints the bot's debug. One server and one Chromium for the file; the compiled bots come from
 * the shared cache.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import type { TurnRecord } from '../../harness/referee/record.js';
import { clickMove, isOver, launchBrowser, openBoard, playToEnd, plyOf, referee, requireBuild, settle, startCli, stop, tempDir, type Started } from './serve-helpers.js';

const BOTS = resolve('tests/fixtures/botzone');
const SUBMISSIONS = ['reversi-simple-keep', 'reversi-python', 'amazons-jsoncpp', 'midgame/crash.py', 'midgame/loop.py', 'midgame/slow.py'].map((bot) => join(BOTS, bot));
const [KEPT, RESTARTED, AMAZONS, CRASH, LOOP, SLOW] = [0, 1, 2, 3, 4, 5].map((index) => `sub:${index}`);

let server: Started;
let browser: Browser;
let dir: string;

beforeAll(async () => {
  requireBuild();
  dir = tempDir('referee-web-botzone-');
  // Compiling the C++ bots (a cache miss on a fresh clone) happens before the URL is printed.
  server = await startCli(['serve', '--port', '0', '--platform', 'botzone', ...SUBMISSIONS]);
  browser = await launchBrowser();
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await stop(server);
});

const open = (query: string): Promise<Page> => openBoard(browser, server.url, query);

/** The debug line under the board for the ply on it ('' when that ply has none). */
const plyOutput = (page: Page): Promise<string> => page.evaluate(() => {
  const box = document.getElementById('ply-output')!;
  return box.hidden ? '' : box.textContent ?? '';
});

/** Save the game from the page; a finished one must pass `referee replay` (an unfinished one has no result to check). */
async function save(page: Page, name: string, finished = true): Promise<{ players: string[]; turns: TurnRecord[]; end: { reason: string; loser?: { verdict: string; message: string } } }> {
  const download = page.waitForEvent('download');
  await page.click('#save');
  const file = join(dir, name);
  await (await download).saveAs(file);
  if (finished) {
    const replay = await referee('replay', file);
    expect(replay.stderr).toBe('');
    expect(replay.code).toBe(0);
  }
  return JSON.parse(readFileSync(file, 'utf8'));
}

/** A new game from the settings form with this time per AI move (s): Botzone's 1 s scaled down for a short test. */
async function newGame(page: Page, seconds: string): Promise<void> {
  const first = await page.evaluate(() => location.hash);
  await page.fill('#move-time', seconds);
  await page.click('#new-game');
  // The new game's first view: at ply 0, or already after the bot's first move (a bot that moves first may have
  // answered before the server's first view of the game reached the page: ply 0 is then never shown).
  await page.waitForFunction((old) => location.hash !== old && Number(document.body.dataset.ply) >= 0, first);
}

describe('a person against a Botzone bot', () => {
  test('a kept-running C++ bot (simple interaction) plays a whole game: one process, its debug under the board, the record replays', async () => {
    const page = await open(`game=reversi&black=human&white=${KEPT}`);
    await settle(page);
    await playToEnd(page);
    expect(await page.textContent('#banner')).toMatch(/wins|Draw/);
    const record = await save(page, 'kept.json');
    expect(record.players).toEqual(['human', 'reversi-simple-keep']);
    expect(record.end.reason).toBe('score');
    const bot = record.turns.filter((turn) => turn.side === 1 && turn.kind === 'move');
    expect(bot.length).toBeGreaterThan(5);
    // The bot counts its turns itself: kept running, it reaches its last turn's number (restarted, it would say 1).
    expect(bot.at(-1)!.debug).toMatch(new RegExp(`^turn ${bot.length} took \\d+ clocks$`));
    // Its first turn had Botzone's doubled 1 s (C++ x1).
    expect(bot[0].limitMs).toBe(2000);
    // The page shows the debug of the ply on the board: the bot's last move's, then an earlier one's.
    const lastBotPly = record.turns.lastIndexOf(bot.at(-1)!) + 1;
    await page.click(`#move-list button[aria-label^="ply ${lastBotPly}:"]`);
    expect(await plyOutput(page)).toBe(`White (O) — reversi-simple-keep, ply ${lastBotPly}:\n[debug] turn ${bot.length} took ${/(\d+) clocks/.exec(bot.at(-1)!.debug!)![1]} clocks`);
    await page.click('#move-list button[aria-label^="ply 1:"]');
    expect(await plyOutput(page)).toBe('');
    await page.close();
  });

  test('after an undo the kept bot that reads only its first request is restarted and fed the game from its start: it plays on where the game is', async () => {
    const page = await open(`game=reversi&black=human&white=${KEPT}`);
    await settle(page);
    for (let i = 0; i < 3; i++) await clickMove(page);
    expect(await plyOutput(page)).toMatch(/^White \(O\) — reversi-simple-keep, ply 6:\n\[debug\] turn 3 took/);
    await page.keyboard.press('u');
    await page.waitForFunction(() => Number(document.body.dataset.ply) === 4);
    // Its own counter says it was fed turns 1 and 2 before this one (a restart with the whole history would say 1,
    // and its board, which never rereads the history, would be the opening's).
    await clickMove(page);
    expect(await plyOutput(page)).toMatch(/^White \(O\) — reversi-simple-keep, ply 6:\n\[debug\] turn 3 took/);
    for (let i = 0; i < 3; i++) await clickMove(page);
    expect(await plyOutput(page)).toMatch(/^White \(O\) — reversi-simple-keep, ply 12:\n\[debug\] turn 6 took/);
    const record = await save(page, 'kept-undo.json', false);
    expect(record.end).toBeFalsy();
    await page.close();
  });

  test('a Python bot restarted every turn (JSON interaction) answers with its debug; an undo restarts it from the history', async () => {
    const page = await open(`game=reversi&black=human&white=${RESTARTED}`);
    await settle(page);
    for (let i = 0; i < 3; i++) await clickMove(page);
    expect(await plyOf(page)).toBe(6);
    expect(await plyOutput(page)).toMatch(/^White \(O\) — reversi-python, ply 6:\n\[debug\] turn 3, \d+ moves$/);
    await page.keyboard.press('u');
    await page.waitForFunction(() => Number(document.body.dataset.ply) === 4);
    await clickMove(page);
    expect(await plyOf(page)).toBe(6);
    expect(await plyOutput(page)).toMatch(/^White \(O\) — reversi-python, ply 6:\n\[debug\] turn 3, \d+ moves$/);
    const record = await save(page, 'restarted.json', false);
    // Python's 6 s (x6), doubled on its first turn.
    expect(record.turns.filter((turn) => turn.side === 1).map((turn) => turn.limitMs)).toEqual([12_000, 6000, 6000]);
    await page.close();
  });

  test('Amazons: three clicks (queen, destination, arrow) a move against the C++ jsoncpp bot, whose answers decode into the notation', async () => {
    const page = await open(`game=amazons&black=human&white=${AMAZONS}`);
    await settle(page);
    const cell = (name: string) => page.locator(`#board [data-cell="${name}"]`);
    await cell('C1').click(); // queen
    await cell('C2').click(); // destination
    expect(await page.locator('#board [data-target="C1"]').count()).toBe(1); // the square it left takes the arrow
    await cell('C1').click(); // arrow
    await settle(page, 1);
    const moves = await page.$$eval('#move-list button', (buttons) => buttons.map((button) => button.textContent ?? ''));
    expect(moves[0]).toBe('C1-C2/C1');
    expect(moves[1]).toMatch(/^[A-H][1-8]-[A-H][1-8]\/[A-H][1-8]$/);
    expect(await plyOutput(page)).toMatch(/^White \(O\) — amazons-jsoncpp, ply 2:\n\[debug\] moves=\d+ deep=\d+$/);
    // A second move by the same three touches: any queen, any destination, any arrow the page offers.
    await clickMove(page);
    expect(await plyOf(page)).toBe(4);
    await page.close();
  });
});

describe('watching and losing', () => {
  test('bot vs bot (kept C++ against restarted Python) at top speed to the end, watched from a second tab', async () => {
    const page = await open(`game=reversi&black=${KEPT}&white=${RESTARTED}`);
    await page.selectOption('#speed', '0');
    const watcher = await browser.newPage();
    await watcher.goto(page.url());
    await watcher.waitForSelector('#board svg');
    await page.waitForFunction(() => document.body.dataset.over === '1');
    await watcher.waitForFunction(() => document.body.dataset.over === '1');
    expect(await watcher.textContent('#status')).toMatch(/Watching/);
    expect(await watcher.textContent('#banner')).toMatch(/wins|Draw/);
    const plies = await plyOf(watcher);
    expect(plies).toBeGreaterThan(50);
    // The bots' debug, in the watching tab too.
    const last = await plyOutput(watcher);
    expect(last).toMatch(new RegExp(`^(Black \\(X\\) — reversi-simple-keep|White \\(O\\) — reversi-python), ply ${plies}:\\n\\[debug\\] `));
    const record = await save(page, 'bots.json');
    expect(record.end.reason).toBe('score');
    expect(record.turns.filter((turn) => turn.side === 0 && turn.kind === 'move').every((turn) => /^turn \d+ took \d+ clocks$/.test(turn.debug ?? ''))).toBe(true);
    expect(record.turns.filter((turn) => turn.side === 1 && turn.kind === 'move').every((turn) => /^turn \d+, \d+ moves$/.test(turn.debug ?? ''))).toBe(true);
    await watcher.close();
    await page.close();
  });

  test('a bot that crashes on its third turn, and one that never answers it, lose with the verdict on the page', async () => {
    const crash = await open(`game=reversi&black=human&white=${CRASH}`);
    await settle(crash);
    while (!(await isOver(crash))) await clickMove(crash);
    expect(await plyOf(crash)).toBe(5);
    const crashed = await crash.textContent('#banner');
    expect(crashed).toMatch(/White \(crash\.py\) lost by a crash/);
    expect(crashed).toMatch(/IndexError: list index out of range/);
    expect((await save(crash, 'crash.json')).end.loser).toMatchObject({ verdict: 'crash' });
    await crash.close();

    const loop = await open(`game=reversi&black=human&white=${LOOP}`);
    // 0.5 s a move: Python's x6 makes it 3 s (the first turn 6 s).
    await newGame(loop, '0.5');
    await settle(loop);
    while (!(await isOver(loop))) await clickMove(loop);
    const timedOut = await loop.textContent('#banner');
    expect(timedOut).toMatch(/White \(loop\.py\) lost by timeout/);
    expect(timedOut).toMatch(/no answer within 3000 ms/);
    await loop.close();
  });

  test("the page's time bank and strikes (the assignment's timeBankMs and strikeLimit): a slow move is paid, then struck, and the game goes on", async () => {
    const page = await open(`game=reversi&black=${SLOW}&white=human`);
    // Botzone's rules have neither: the settings start empty.
    expect([await page.inputValue('#time-bank'), await page.inputValue('#strike-limit')]).toEqual(['', '']);
    // 0.5 s a move (Python x6: 3 s), a 0.2 s bank and the 2nd strike loses: its 3.5 s second turn costs the bank and
    // strike 1, and is played.
    await page.fill('#time-bank', '0.2');
    await page.fill('#strike-limit', '2');
    await newGame(page, '0.5');
    await settle(page);
    await clickMove(page);
    await page.waitForFunction(() => Number(document.body.dataset.ply) >= 3);
    const record = (await save(page, 'policies.json', false)) as unknown as { config: { timeBankMs?: number; strikeLimit?: number }; turns: TurnRecord[] };
    expect(record.config).toMatchObject({ moveTimeoutMs: 500, timeBankMs: 200, strikeLimit: 2 });
    expect(record.turns[2]).toMatchObject({ side: 0, kind: 'move', strikes: 1, bankLeftMs: 0, debug: 'turn 2' });
    await page.close();
  });
});

describe('the grade report', () => {
  test("a time bank and strikes are one config line: the bot's slow move is paid and struck, the report's time chart marks it, its replay prints the bot's debug", async () => {
    const config = join(dir, 'policies.json');
    writeFileSync(config, JSON.stringify({ title: 'Reversi, a bank and strikes', game: 'reversi', moveTimeoutMs: 2000, timeBankMs: 500, strikeLimit: 2, opponents: [{ name: 'random', games: 2, points: 100 }] }));
    const out = join(dir, 'graded');
    // As Black the bot thinks 3.5 s on its second turn, over the 2 s limit: the 500 ms bank pays first, then strike 1 of 2.
    const graded = await referee('grade', join(BOTS, 'midgame/slow.py'), '--config', config, '--out', out);
    expect(graded.code).toBe(0);
    const grade = JSON.parse(readFileSync(join(out, 'grade.json'), 'utf8')) as { games: { studentSide: 0 | 1; record: { turns: TurnRecord[]; end: { reason: string } } }[] };
    expect(grade.games.map((game) => game.record.end.reason)).toEqual(['score', 'score']);
    const index = grade.games.findIndex((game) => game.studentSide === 0);
    const struck = grade.games[index].record.turns.find((turn) => turn.strikes !== undefined)!;
    expect(struck).toMatchObject({ side: 0, strikes: 1, bankLeftMs: 0, debug: 'turn 2' });

    const page = await browser.newPage();
    page.on('pageerror', (error) => {
      throw error;
    });
    await page.goto(`${pathToFileURL(join(out, 'report.html')).href}#game=${index + 1}&ply=${struck.ply}`);
    await page.waitForSelector('#time-chart rect.struck');
    expect(await page.$$eval('#time-chart rect.struck', (bars) => bars.map((bar) => bar.getAttribute('data-ply')))).toEqual([String(struck.ply)]);
    expect(await page.textContent('#turn-info')).toMatch(/Over the limit, played anyway: strike 1\..*Time bank left: 0 ms\./s);
    expect(await page.textContent('#ply-output')).toMatch(/^Printed: [\s\S]*\[debug\] turn 2\n?$/);
    await page.close();
  });
});
