/**
 * The play page as people meet it, in Chromium against a real `referee serve`: a 1366×768 laptop (a 657 px tall
 * window), a 375×812 phone and 200% zoom keep the board, its status and the refusal reason in view with cells of at
 * least 24 px (or a board that pans); the server killed and restarted mid-game (the page says it is down, refuses
 * clicks and keys in words, reconnects and gets its game back; a watching tab says its game is lost); a second tab
 * only watches; undo after a resignation and after a stray R; tampered saves refused before any preview, in the
 * game's words; the live region after the opponent's reply; the page's words. One browser, one server (restarted
 * once, on the same port).
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { submissionName } from '../../harness/submission/player.js';
import { launchBrowser, plyOf, referee, requireBuild, settle, startCli, stop, tempDir, type Started } from './serve-helpers.js';

let server: Started;
let browser: Browser;
let dir: string;
let port: string;

const SUBMISSION = 'tests/fixtures/submissions/any-game/AIPlayer.ts';

/** The restarted server serves the tests after its own. */
async function startServer(at: string): Promise<Started> {
  return startCli(['serve', '--port', at, SUBMISSION], undefined, 'file');
}

beforeAll(async () => {
  requireBuild();
  dir = tempDir('referee-page-');
  server = await startServer('0');
  port = new URL(server.url).port;
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await stop(server);
});

interface Screen {
  width: number;
  height: number;
  scale?: number;
}

async function open(query: string, screen: Screen = { width: 1366, height: 657 }): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: screen.width, height: screen.height }, deviceScaleFactor: screen.scale ?? 1 });
  const page = await context.newPage();
  page.on('pageerror', (error) => {
    throw error;
  });
  await page.goto(`${server.url}?${query}`);
  await page.waitForSelector('#board svg');
  return page;
}

const close = (page: Page): Promise<void> => page.context().close();

/** Where the board frame, the status and the reason are, and what would be out of the window. */
function outOfView(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const problems: string[] = [];
    for (const id of ['board-frame', 'status-line', 'message']) {
      const box = document.getElementById(id)!.getBoundingClientRect();
      if (box.top < 0 || box.left < 0 || box.bottom > innerHeight + 0.5 || box.right > innerWidth + 0.5 || box.height === 0) {
        problems.push(`${id} at ${Math.round(box.left)},${Math.round(box.top)}–${Math.round(box.right)},${Math.round(box.bottom)} in ${innerWidth}x${innerHeight}`);
      }
    }
    if (document.documentElement.scrollWidth > innerWidth) problems.push(`page ${document.documentElement.scrollWidth} px wide in ${innerWidth}`);
    return problems;
  });
}

/** The smallest cell button's side on screen, in CSS px. */
const smallestCell = (page: Page): Promise<number> =>
  page.$$eval('#board button[data-cell]', (cells) => Math.min(...cells.map((cell) => Math.min(cell.getBoundingClientRect().width, cell.getBoundingClientRect().height))));


/** Presses "Reconnect now" if the page shows it (it is hidden while connected). */
function reconnectIfDisconnected(): void {
  const button = document.querySelector<HTMLButtonElement>('#reconnect');
  if (button && !button.hidden) button.click();
}

describe('layout', () => {
  const screens: [string, Screen][] = [
    ['a 1366×768 laptop (657 px of window)', { width: 1366, height: 657 }],
    ['a 375×812 phone', { width: 375, height: 812, scale: 3 }],
    // 200% zoom of a 1366×768 window: half the CSS pixels each way, two device pixels to each.
    ['1366×768 at 200% zoom', { width: 683, height: 384, scale: 2 }],
  ];
  test.each(screens)('%s: board, status and reason in view; cells of 24 px or more; the side column stays put', async (_what, screen) => {
    for (const [game, refusedCell] of [['reversi', 'A1'], ['gomoku', null]] as const) {
      const page = await open(`game=${game}&black=human&white=ref:random`, screen);
      await settle(page);
      if (refusedCell) {
        const sideBefore = await page.$eval('#side-column', (column) => column.getBoundingClientRect().left);
        await page.click(`#board [data-cell="${refusedCell}"]`);
        expect(await page.textContent('#message')).toMatch(/turns over no disc/);
        // A long reason wraps in the board column: the side column does not move.
        expect(await page.$eval('#side-column', (column) => column.getBoundingClientRect().left)).toBe(sideBefore);
      } else {
        // Gomoku: a taken point says so.
        await page.locator('#board [data-move]').first().click();
        await settle(page, 0);
        const taken = await page.$eval('#board [data-disc]', (stone) => stone.getAttribute('data-square'));
        await page.evaluate((name) => (document.querySelector(`#board [data-cell="${name}"]`) as HTMLElement).click(), taken!);
        expect(await page.textContent('#message')).toMatch(/is taken/);
      }
      await page.evaluate(() => window.scrollTo(0, 0));
      expect(await outOfView(page)).toEqual([]);
      expect(await smallestCell(page)).toBeGreaterThanOrEqual(24);
      // A board that keeps 24 px cells beyond the room pans in its frame.
      const pans = await page.$eval('#board-frame', (frame) => frame.scrollWidth > frame.clientWidth || frame.scrollHeight > frame.clientHeight);
      if (pans) {
        expect(await page.$eval('#board-frame', (frame) => getComputedStyle(frame).overflow)).toBe('auto');
      }
      await close(page);
    }
  });
});

describe('a server restart and a second tab', () => {
  test('killed mid-game: the page says so, refuses in words, reconnects and gets its game back; the watching tab says it is lost', async () => {
    const page = await open('game=reversi&black=human&white=ref:random');
    await settle(page);
    for (let i = 0; i < 2; i++) {
      const before = await plyOf(page);
      await page.locator('#board [data-move]').first().click();
      await settle(page, before + 1);
    }
    const ply = await plyOf(page);
    const moves = await page.$$eval('#move-list tbody button', (buttons) => buttons.map((b) => b.textContent));
    const firstId = await page.evaluate(() => location.hash);

    // A second tab on the same URL watches: it cannot move, undo or restart, by click, key or raw message.
    const watcher = await open(`game=reversi${firstId}`);
    await watcher.waitForFunction((p) => Number(document.body.dataset.ply) === p, ply);
    expect(await watcher.textContent('#status')).toMatch(/^Watching \(another tab plays this game\)/);
    await watcher.locator('#board [data-cell="A1"]').click();
    expect(await watcher.textContent('#message')).toMatch(/this tab only watches this game/);
    await watcher.keyboard.press('r');
    expect(await watcher.textContent('#message')).toMatch(/this tab only watches this game/);
    expect(await watcher.isDisabled('#undo')).toBe(true);
    const refused = await watcher.evaluate(async (id) => {
      const socket = new WebSocket(`ws://${location.host}/ws`);
      const errors: string[] = [];
      let sessions = 0;
      socket.onmessage = (event) => {
        const message = JSON.parse(String(event.data)) as { type: string; message?: string };
        if (message.type === 'error') errors.push(message.message!);
        if (message.type === 'session') sessions++;
      };
      await new Promise((r) => (socket.onopen = r));
      socket.send(JSON.stringify({ type: 'hello', session: id, control: 'not-the-key' }));
      for (const type of ['undo', 'restart', 'resign']) socket.send(JSON.stringify({ type }));
      socket.send(JSON.stringify({ type: 'move', ply: 99, move: 'A1' }));
      while (errors.length < 4) await new Promise((r) => setTimeout(r, 20));
      socket.close();
      return { errors, sessions };
    }, firstId.slice('#game='.length));
    expect(refused.errors).toHaveLength(4);
    for (const error of refused.errors) expect(error).toMatch(/only watches this game/);
    expect(await plyOf(page)).toBe(ply);
    // The tab that started it keeps its control over a reload.
    await page.reload();
    await page.waitForSelector('#board svg');
    await settle(page);
    expect(await page.textContent('#status')).toMatch(/your turn/);

    // The server dies: both pages say they are disconnected; a click and a key say nothing was sent.
    server.child.kill('SIGKILL');
    await new Promise((r) => server.child.once('exit', r));
    await page.waitForFunction(() => document.body.dataset.connected === '0');
    expect(await page.textContent('#status')).toMatch(/^Disconnected from the server: reconnecting/);
    expect(await page.textContent('#status')).not.toMatch(/your turn/);
    await page.locator('#board [data-move]').first().click();
    expect(await page.textContent('#message')).toMatch(/^not connected to the server: nothing was sent/);
    await page.keyboard.press('u');
    expect(await page.textContent('#message')).toMatch(/^not connected to the server/);
    expect(await plyOf(page)).toBe(ply);
    expect(await page.isDisabled('#restart')).toBe(true);

    // A new server on the same port: the page reconnects (Reconnect now skips the backoff) and sends its moves back.
    server = await startServer(port);
    // Unless the page's own backoff already brought it back while the server started (a loaded machine): then the
    // button is hidden and there is nothing to skip. Checked and clicked in one turn of the page's loop.
    await page.evaluate(reconnectIfDisconnected);
    await page.waitForFunction(
      ([p, old]) => document.body.dataset.connected === '1' && Number(document.body.dataset.ply) === p && location.hash !== old && document.querySelector('#board [data-move]') !== null,
      [ply, firstId] as const,
    );
    expect(await page.textContent('#message')).toBe(`the server restarted: this game was restored at ply ${ply}, every move refereed again`);
    expect(await page.$$eval('#move-list tbody button', (buttons) => buttons.map((b) => b.textContent))).toEqual(moves);
    await page.locator('#board [data-move]').first().click();
    await settle(page, ply + 1);

    // The watching tab had no key: it says its game is lost, and keeps the last position it saw.
    await watcher.evaluate(reconnectIfDisconnected);
    await watcher.waitForFunction(() => document.querySelector('#status')!.getAttribute('data-state') === 'lost');
    expect(await watcher.textContent('#status')).toMatch(/^Game lost on the server: the game you were watching is no longer on the server \(it restarted\)/);
    expect(await plyOf(watcher)).toBe(ply);
    await close(watcher);
    await close(page);
  });
});

describe('controls', () => {
  test('undo after resign takes back the resignation only; undo right after a stray R brings the game back', async () => {
    const page = await open('game=connect4&black=human&white=ref:random');
    await settle(page);
    await page.locator('#board [data-move]').first().click();
    await settle(page, 1);
    const ply = await plyOf(page);
    await page.keyboard.press('g');
    await page.waitForFunction(() => document.body.dataset.over === '1');
    expect(await page.textContent('#banner')).toMatch(/resigned/);
    expect(await page.textContent('#announce')).toMatch(/Red \(human\) resigned/);
    await page.keyboard.press('u');
    await page.waitForFunction(() => document.body.dataset.over === '0' && document.querySelector('#board [data-move]') !== null);
    expect(await plyOf(page)).toBe(ply);
    expect(await page.textContent('#status')).toMatch(/your turn/);

    await page.keyboard.press('r');
    await page.waitForFunction(() => Number(document.body.dataset.ply) === 0);
    expect(await page.textContent('#message')).toBe(`started again: Undo (U) brings back the game you left (${ply} plies) until you move`);
    await page.keyboard.press('u');
    await page.waitForFunction((p) => Number(document.body.dataset.ply) === p, ply);
    await settle(page, ply - 1);
    expect(await page.textContent('#message')).toBe('');
    await close(page);
  });
});

describe('load', () => {
  let saved: Record<string, unknown> & { turns: Record<string, unknown>[]; end: Record<string, unknown> };

  beforeAll(async () => {
    const out = join(dir, 'series');
    const play = await referee('play', '--game', 'connect4', '--black', 'heuristic', '--white', 'random', '--games', '1', '--seed', '4', '--save', out);
    expect(play.code).toBe(0);
    saved = JSON.parse(readFileSync(join(out, 'game-1.json'), 'utf8'));
  });

  async function load(page: Page, name: string, record: unknown): Promise<void> {
    const file = join(dir, name);
    writeFileSync(file, JSON.stringify(record));
    await page.setInputFiles('#load-file', file);
    // The file is read asynchronously: wait until the page refused it by name or shows its preview.
    await page.waitForFunction(
      (named) => (document.getElementById('message')!.textContent ?? '').startsWith(`${named} `) || !document.getElementById('load-panel')!.hidden,
      name,
    );
  }

  test('tampered saves are refused before any preview, in the game\'s words; an edited result is dropped, never shown as fact', async () => {
    const page = await open('game=connect4&black=human&white=ref:random');
    await settle(page);
    const copy = (): typeof saved => JSON.parse(JSON.stringify(saved)) as typeof saved;

    // A move edited into a full column.
    const full = copy();
    full.turns = full.turns.slice(0, 6).map((turn) => ({ ...turn, move: '3', details: { row: full.turns.slice(0, 6).indexOf(turn) } }));
    full.turns.push({ ply: 7, side: 0, kind: 'move', move: '3', wallMs: 1, details: { row: 6 } });
    delete (full as Record<string, unknown>).end;
    await load(page, 'full-column.json', full);
    expect(await page.textContent('#message')).toMatch(/^full-column\.json cannot be loaded: ply 7 \(Red's 3\): column 3 is full/);
    expect(await page.isHidden('#load-panel')).toBe(true);
    expect(await plyOf(page)).toBe(0);

    // A move's details edited (the "details.row is 1, but the move gives 0").
    const details = copy();
    details.turns[0] = { ...details.turns[0], details: { row: 1 } };
    await load(page, 'details.json', details);
    expect(await page.textContent('#message')).toMatch(/^details\.json cannot be loaded: ply 1 \(Red's \d\): the file's note on this move \(row 1\) is not what the move does \(row 0\): the file was edited$/);
    expect(await page.isHidden('#load-panel')).toBe(true);

    // The winner edited: the moves are shown, the claim is not.
    const winner = copy();
    const truth = saved.end.winner as number;
    winner.end = { ...winner.end, winner: 1 - truth };
    await load(page, 'winner.json', winner);
    await page.waitForSelector('#load-panel:not([hidden])');
    const names = ['Red', 'Yellow'];
    const summary = (await page.textContent('#load-summary'))!;
    expect(summary).toContain(`Its result was not kept: the file says ${names[1 - truth]} won, but its final position gives ${names[truth]} the win.`);
    expect(summary).not.toContain(`${names[1 - truth]} won (`);
    expect(summary).toMatch(/over by its moves: /);
    // The server refuses the edited result too, if a page sends it anyway.
    const refusal = await page.evaluate(async (record) => {
      const socket = new WebSocket(`ws://${location.host}/ws`);
      const got = new Promise<string>((resolve) => {
        socket.onmessage = (event) => {
          const message = JSON.parse(String(event.data)) as { type: string; message?: string };
          if (message.type === 'error') resolve(message.message!);
        };
      });
      await new Promise((r) => (socket.onopen = r));
      socket.send(JSON.stringify({ type: 'load', record, black: { kind: 'human' }, white: { kind: 'human' } }));
      const text = await got;
      socket.close();
      return text;
    }, winner);
    expect(refusal).toMatch(/^the record does not load: its result was edited \(the file says/);
    await page.click('#load-cancel');

    // Hostile restore and hello messages: one-line refusals, nothing created.
    const human = { kind: 'human' };
    const hostile = await page.evaluate(async (frames) => {
      const socket = new WebSocket(`ws://${location.host}/ws`);
      const errors: string[] = [];
      socket.onmessage = (event) => {
        const message = JSON.parse(String(event.data)) as { type: string; message?: string };
        if (message.type === 'error') errors.push(message.message!);
      };
      await new Promise((r) => (socket.onopen = r));
      for (const frame of frames) socket.send(JSON.stringify(frame));
      while (errors.length < frames.length) await new Promise((r) => setTimeout(r, 20));
      socket.close();
      return errors;
    }, [
      { type: 'restore', record: { format: 'referee.game/1', game: 'chess', turns: [] }, black: human, white: human },
      { type: 'restore', record: { ...saved, turns: [{ ply: 1, side: 0, kind: 'move', move: '9' }] }, black: human, white: human },
      { type: 'restore', record: saved, black: human, white: human, resignedBy: 2 },
      { type: 'restore', record: saved, black: { kind: 'submission', index: 7 }, white: human },
      { type: 'hello', session: 'abc', control: 'x'.repeat(40) },
    ]);
    // Schema refusals come at once, the rest in order after them.
    const has = (pattern: RegExp): number => hostile.filter((error) => pattern.test(error)).length;
    expect(has(/^the game could not be resumed: unknown game 'chess'/)).toBe(1);
    expect(has(/^the game could not be resumed: the record does not load: ply 1 \(Red's 9\): /)).toBe(1);
    expect(has(/^message refused: /)).toBe(2);
    expect(has(/^no submission #7/)).toBe(1);

    // A save without initialState (and without ply numbers): the start position is implied; it loads and plays on.
    const bare = copy();
    delete (bare as Record<string, unknown>).initialState;
    delete (bare as Record<string, unknown>).end;
    bare.turns = bare.turns.slice(0, 4).map(({ ply: _ply, ...turn }) => turn);
    await load(page, 'bare.json', bare);
    await page.waitForSelector('#load-panel:not([hidden])');
    expect(await page.textContent('#load-summary')).toMatch(/4 plies, unfinished\.$/);
    await page.click('#play-on');
    await page.waitForFunction(() => Number(document.body.dataset.ply) === 4 && document.querySelector('#board [data-move]') !== null);
    await close(page);
  });
});

describe('screen readers and words', () => {
  test('the reply is announced; cells are buttons outside the picture; the page\'s words', async () => {
    const page = await open('game=reversi&black=human&white=ref:random');
    await settle(page);
    expect(await page.locator('#board button[data-cell]').count()).toBe(64);
    expect(await page.locator('#board [role="img"] [data-cell], #board svg [data-cell]').count()).toBe(0);
    expect(await page.textContent('#side-0 .score')).toBe('· 2 discs');
    await page.locator('#board [data-move]').first().click();
    await page.waitForFunction(() => /random played [A-H][1-8]\./.test(document.getElementById('announce')!.textContent ?? ''));
    expect(await page.getAttribute('#announce', 'aria-live')).toBe('polite');
    expect(await page.textContent('#announce')).toMatch(/^White \(O\) — random played [A-H][1-8]\.( Your turn: Black \(X\) to move\.)?$/);
    // The move list: a header per side, a numbered row per move pair.
    expect(await page.$$eval('#move-list thead th', (cells) => cells.map((cell) => cell.textContent))).toEqual(['#', 'Black (X)', 'White (O)']);
    expect(await page.$$eval('#move-list tbody tr', (rows) => rows.map((row) => row.children[0].textContent))).toEqual(['1']);
    // Submissions are named, not shown by their server path.
    const options = await page.$$eval('#white option', (list) => list.map((option) => option.textContent ?? ''));
    expect(options).toContain('Submission: AIPlayer.ts');
    expect(options.join()).not.toMatch(/fixtures\//);
    await close(page);

    // Gomoku: one stone is "1 stone"; "Legal moves" does not paint every empty point.
    const gomoku = await open('game=gomoku&black=human&white=ref:random');
    await settle(gomoku);
    await gomoku.locator('#board [data-move]').first().click();
    await settle(gomoku, 1);
    expect(await gomoku.textContent('#side-0 .score')).toBe('· 1 stone');
    await gomoku.keyboard.press('l');
    expect(await gomoku.textContent('#legal-hint')).toBe('Legal moves: every empty point (223).');
    const painted = await gomoku.$$eval('#board .target', (targets) => targets.filter((t) => getComputedStyle(t).fill !== 'rgba(0, 0, 0, 0)' && getComputedStyle(t).fill !== 'transparent').length);
    expect(painted).toBe(0);
    await close(gomoku);
  });

  test('a C++ starter folder plays under its repo\'s name, not "src"', () => {
    expect(submissionName({ input: '/home/ann/connect4-bot/src', entry: '/home/ann/connect4-bot/src/Strategy.cpp', kind: 'directory' })).toBe('connect4-bot');
    expect(submissionName({ input: '/src', entry: '/src/Strategy.cpp', kind: 'directory' })).toBe('Strategy.cpp');
    expect(submissionName({ input: '/home/ann/bots/AIPlayer.py', entry: '/home/ann/bots/AIPlayer.py', kind: 'file' })).toBe('AIPlayer.py');
  });
});
