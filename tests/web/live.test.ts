/**
 * The live parts of the web app, through real subprocesses and Chromium: `referee serve --watch` on a batch that is
 * still running, `referee play --black human` played from the page, and the token a non-loopback bind requires.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import WebSocket from 'ws';
import { SOURCES, writeConfig } from '../batch/helpers.js';
import {
  CLI, launchBrowser, playToEnd, referee, requireBuild, settle, socketErrors, startCli, stop, tempDir, type Started,
} from './serve-helpers.js';

let browser: Browser;
const started: Started[] = [];

beforeAll(async () => {
  requireBuild();
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  for (const s of started) await stop(s);
});

describe('referee serve --watch', () => {
  test('a batch in progress: the page follows a game in play move by move, lists the workers, then the finished games', async () => {
    // Four different students (identical code would share its games) that think ~40 ms a move, so each game is in
    // play for a second or more while the page watches it.
    const classDir = tempDir('referee-watch-class-');
    for (let i = 0; i < 4; i++) {
      const dir = join(classDir, `student${i}`);
      mkdirSync(dir);
      writeFileSync(join(dir, 'base.ts'), SOURCES[i % 2 ? 'weak' : 'fair']());
      writeFileSync(
        join(dir, 'AIPlayer.ts'),
        "import type { Board } from 'referee';\nimport { AIPlayer as Base } from './base';\n" +
          `export const student = ${i};\n` +
          'export class AIPlayer extends Base {\n' +
          '  getMove(board: Board): string {\n    const until = Date.now() + 40;\n    while (Date.now() < until);\n    return super.getMove(board);\n  }\n}\n',
      );
    }
    const out = tempDir('referee-watch-');
    const server = await startCli(['serve', '--port', '0', '--watch', out]);
    started.push(server);
    const page = await browser.newPage();
    await page.goto(server.url);
    await page.waitForSelector('#watch-view:not([hidden])');
    await page.waitForFunction(() => /waiting for the batch/.test(document.querySelector('#watch-summary')!.textContent ?? ''));

    const batch = spawn(process.execPath, [CLI, 'batch', classDir, '--config', writeConfig(tempDir('referee-watch-config-')), '--out', out, '--jobs', '1'], { stdio: 'ignore' });
    const batchDone = new Promise<number | null>((resolve) => batch.on('exit', resolve));
    // The waits are on the page's state, never the clock (the test's timeout catches a hang); one that needs the
    // batch running fails at once if the batch ends first.
    const whileRunning = <T>(waiting: Promise<T>): Promise<T> =>
      Promise.race([waiting, batchDone.then((code): never => { throw new Error(`the batch ended (exit ${code}) before the page showed it`); })]);
    try {
      // Following: the board shows a game in play (not yet journaled) and moves on with it, ply by ply. Each look is
      // one predicate, run in one turn of the page's loop: every part of the dashboard at the same instant (separate
      // reads straddled a game's end at load: the summary said "no game in play" while the followed ply was checked).
      // A game the page saw at one point only (a starved page) is let go, and the next one followed.
      let key = '';
      while (!key) {
        await whileRunning(page.waitForFunction(() => document.body.dataset.watchLive !== undefined, undefined, { timeout: 0 }));
        const [seen, plyNow] = await page.evaluate(() => [document.body.dataset.watchLive ?? '', Number(document.body.dataset.watchPly ?? 0)] as const);
        const look = await whileRunning(
          page.waitForFunction(
            ([k, p]) => {
              if (document.body.dataset.watchLive !== k) return 'gone';
              if (Number(document.body.dataset.watchPly ?? 0) <= p) return false;
              const text = (selector: string): string => document.querySelector(selector)?.textContent ?? '';
              return (
                /batch running: .*[1-9]\d* games? in play/.test(text('#watch-summary')) &&
                document.querySelectorAll('#watch-board [data-disc]').length > 0 &&
                /in play on local \d+/.test(text('#watch-ply')) &&
                // Every student of the run from the start, each student's games as done / planned.
                document.querySelectorAll('#watch-students tbody tr').length === 4 &&
                /grading\d \/ 4 \(\+1 playing\)/.test(text('#watch-students tbody')) &&
                document.querySelectorAll(`#watch-live button[data-key="${k}"]`).length === 1 &&
                // The workers: the forked one, the game it is playing and the games it finished.
                /^local \d+(student\d vs (random|greedy)|(random|greedy) vs student\d) \(ply \d+\)\d+$/.test(text('#watch-workers:not([hidden]) tbody tr')) &&
                'followed'
              );
            },
            [seen, plyNow] as const,
            { timeout: 0 },
          ),
        );
        if ((await look.jsonValue()) === 'followed') key = seen;
      }
      // The followed game ends on the board with its result, then the page follows the next game in play.
      await page.waitForFunction((k) => document.body.dataset.watchLive === undefined || document.body.dataset.watchLive !== k, key, { timeout: 0 });
      await page.waitForFunction(() => /[1-9]\d* games finished/.test(document.querySelector('#watch-summary')!.textContent ?? ''), undefined, { timeout: 0 });
      expect(await page.locator('#watch-games button').count()).toBeGreaterThan(0);
      expect(await page.locator('#watch-students tbody tr').count()).toBeGreaterThan(0);
      expect(await batchDone).toBe(0);
      await page.waitForFunction(() => document.body.dataset.watchRun === 'done', undefined, { timeout: 0 });
      expect(await page.textContent('#watch-summary')).toMatch(/batch finished: 4 students \(4 graded\), no game in play, 16 games finished/);
      expect(await page.textContent('#watch-workers tbody')).toMatch(/local \d+\s*idle\s*\d+/);
      // Asking for games that are not there, or with a hostile key, is a one-line refusal; the dashboard goes on.
      const replies = await socketErrors(page, [
        JSON.stringify({ type: 'watch', key: "x' OR '1'='1" }),
        JSON.stringify({ type: 'watch', key: 'k'.repeat(201) }),
        JSON.stringify({ type: 'watch', key: 7 }),
      ], [/message refused/, /message refused/, /neither in play nor in the journal/]);
      expect(replies.filter((reply) => /message refused/.test(reply))).toHaveLength(2);
      expect(replies.filter((reply) => /neither in play nor in the journal/.test(reply))).toHaveLength(1);
      expect(replies.every((reply) => !reply.includes('\n'))).toBe(true);
    } finally {
      if (batch.exitCode === null) batch.kill('SIGTERM');
      await batchDone;
      await page.close();
    }
  });
});

describe('referee play with a human side', () => {
  test('the human plays from the page; the record is a normal GameRecord', async () => {
    const saveDir = tempDir('referee-seat-');
    const play = await startCli(['play', '--black', 'human', '--white', 'random', '--games', '1', '--game', 'connect4', '--save', saveDir]);
    started.push(play);
    const exited = new Promise<number | null>((resolve) => play.child.on('exit', resolve));
    const page = await browser.newPage();
    await page.goto(play.url);
    await page.waitForSelector('#board svg');
    expect(await page.isHidden('#settings')).toBe(true);
    await settle(page);
    await playToEnd(page);
    expect(await page.textContent('#banner')).toMatch(/wins|Draw/);
    expect(await exited).toBe(0);
    expect(play.output()).toMatch(/Score of human vs random/);
    const file = join(saveDir, 'game-1.json');
    expect((JSON.parse(readFileSync(file, 'utf8')) as { players: string[] }).players).toEqual(['human', 'random']);
    expect((await referee('replay', file)).code).toBe(0);
    await page.close();
  });
});

describe("a game's rule switches reach the page", () => {
  test('NoGo with the centre rule off (--config): the page offers E5 as the first move, and the referee takes it', async () => {
    const configDir = tempDir('referee-nogo-rules-');
    const config = join(configDir, 'nogo.json');
    writeFileSync(config, JSON.stringify({ title: 'NoGo, centre allowed', game: 'nogo', gameRules: { centerFirstMoveBanned: false }, opponents: [{ name: 'random', games: 2, points: 10 }] }));
    const server = await startCli(['serve', '--port', '0', '--game', 'nogo', '--config', config]);
    started.push(server);
    const page = await browser.newPage();
    await page.goto(`${server.url}?game=nogo&black=human&white=ref:random`);
    await settle(page);
    await page.locator('#board [data-move="E5"]').click();
    await settle(page, 0);
    expect(await page.textContent('#move-list tbody')).toMatch(/^1E5/);
    // Saved unfinished and loaded again: the record carries its rules, so it loads and plays on.
    await settle(page, 1);
    const download = page.waitForEvent('download');
    await page.click('#save');
    const file = join(configDir, 'nogo-game.json');
    await (await download).saveAs(file);
    await page.setInputFiles('#load-file', file);
    await page.waitForSelector('#load-panel:not([hidden])');
    await page.fill('#load-ply', '2');
    await page.click('#play-on');
    await page.waitForFunction(() => Number(document.body.dataset.ply) === 2 && document.body.dataset.over === '0');
    expect(await page.textContent('#message')).toBe('');
    expect(await page.textContent('#move-list tbody')).toMatch(/^1E5/);
    await page.close();
    // With the default rules the centre is no first move, on the page as in the referee.
    const plain = await startCli(['serve', '--port', '0', '--game', 'nogo']);
    started.push(plain);
    const other = await browser.newPage();
    await other.goto(`${plain.url}?game=nogo&black=human&white=ref:random`);
    await settle(other);
    expect(await other.locator('#board [data-move="E5"]').count()).toBe(0);
    expect(await other.locator('#board [data-move="E4"]').count()).toBe(1);
    await other.close();
  });
});

describe('safety', () => {
  test.each([
    [['serve', 'no-such-file.ts'], /submission not found/],
    [['serve', 'tests/fixtures/hostile/syntax-error.ts'], /syntax-error\.ts:\d+:\d+/],
    [['serve', '--watch', 'package.json'], /--watch package.json: not a folder/],
    [['serve', '--host', '0.0.0.0', '--token', 'short'], /--token must be/],
    [['serve', '--game', 'chess'], /unknown game 'chess'/],
    [['play', '--black', 'humans', '--white', 'random'], /unknown player 'humans'.*human/],
  ])('referee %j is a one-line usage error', async (args, message) => {
    const run = await referee(...(args as string[]));
    expect(run.code).toBe(2);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toMatch(message);
  });

  test('stopping the server does not wait for pages that never answer a close (a page left open, a dead peer)', async () => {
    const server = await startCli(['serve', '--port', '0']);
    started.push(server);
    const port = Number(/:(\d+)\//.exec(server.url)![1]);
    // A websocket that completes its handshake and then never answers anything (ws would wait 30 s for its close).
    const socket = connect(port, '127.0.0.1');
    await new Promise((resolve) => socket.on('connect', resolve));
    socket.write(`GET /ws HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n`);
    const upgraded = await new Promise<string>((resolve) => socket.once('data', (data) => resolve(String(data))));
    expect(upgraded).toMatch(/^HTTP\/1\.1 101/);
    socket.on('data', () => undefined);
    const exited = new Promise<number | null>((resolve) => server.child.on('exit', resolve));
    const stopping = performance.now();
    server.child.kill('SIGTERM');
    expect(await exited).toBe(0);
    // Waiting for the close would hold the process at least ws's 30 s by the server's own clock, whatever the load;
    // the stop alone is timed (a test timeout of 15 s also timed the server's start, over 15 s at load 38).
    expect(performance.now() - stopping).toBeLessThan(30_000);
    socket.destroy();
  });

  test('a non-loopback bind refuses pages and sockets without the printed token', async () => {
    const server = await startCli(['serve', '--port', '0', '--host', '0.0.0.0']);
    started.push(server);
    const match = /:(\d+)\/\?token=([A-Za-z0-9_-]+)/.exec(server.url);
    expect(match).not.toBeNull();
    const [, port, token] = match!;
    expect(server.output()).toMatch(/needs token=/);
    const base = `http://127.0.0.1:${port}`;
    expect((await fetch(`${base}/`)).status).toBe(401);
    expect((await fetch(`${base}/?token=wrong${token.slice(5)}`)).status).toBe(401);
    expect((await fetch(`${base}/api/games/x/record.json`)).status).toBe(401);
    expect((await fetch(`${base}/?token=${token}`)).status).toBe(200);
    const refused = await new Promise<number>((resolve) => {
      const socket = new WebSocket(`ws://127.0.0.1:${port}/ws`);
      socket.on('unexpected-response', (_request, response) => resolve(response.statusCode ?? 0));
      socket.on('open', () => resolve(101));
      socket.on('error', () => resolve(-1));
    });
    expect(refused).toBe(401);
    const welcome = await new Promise<string>((resolve, reject) => {
      const socket = new WebSocket(`ws://127.0.0.1:${port}/ws?token=${token}`);
      socket.on('message', (data) => {
        resolve((JSON.parse(String(data)) as { type: string }).type);
        socket.close();
      });
      socket.on('error', reject);
    });
    expect(welcome).toBe('welcome');
    // Even with the token, another web site's page may not open the game socket.
    const foreign = await new Promise<number>((resolve) => {
      const socket = new WebSocket(`ws://127.0.0.1:${port}/ws?token=${token}`, { origin: 'http://evil.example' });
      socket.on('unexpected-response', (_request, response) => resolve(response.statusCode ?? 0));
      socket.on('open', () => resolve(101));
      socket.on('error', () => resolve(-1));
    });
    expect(foreign).toBe(403);
    // The page itself works with the token.
    const page = await browser.newPage();
    await page.goto(`${base}/?token=${token}&black=human&white=ref:random`);
    await page.waitForSelector('#board [data-move]');
    await page.close();
  });
});
