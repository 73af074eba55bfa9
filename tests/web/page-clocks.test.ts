/**
 * A restored game keeps its clocks (Chromium, `referee serve --config` with strikes): a person plays a TypeScript
 * submission that answers every move over its 100 ms limit, so each of its moves costs a strike (the grace is
 * wide). The server is killed mid-game and started again; the page restores the game; the submission's next move
 * must cost its next strike, not its first — and its time used carries on. The strike count is exact whatever the
 * machine's load (every answer spends 150 ms of CPU, over the limit), so nothing here depends on timing.
 */
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, plyOf, requireBuild, settle, startCli, stop, tempDir, type Started } from './serve-helpers.js';

let server: Started;
let browser: Browser;
let args: string[];

interface Turn {
  side: 0 | 1;
  wallMs?: number;
  strikes?: number;
}

/** The server's own view of the game (a watcher's hello): its turns, with their strikes. */
const serverTurns = (page: Page, id: string): Promise<Turn[]> =>
  page.evaluate(async (session) => {
    const socket = new WebSocket(`ws://${location.host}/ws`);
    const turns = await new Promise<Turn[]>((resolve) => {
      socket.onmessage = (event) => {
        const message = JSON.parse(String(event.data)) as { type: string; snapshot?: { id: string; turns: Turn[] } };
        if (message.type === 'session' && message.snapshot?.id === session) resolve(message.snapshot.turns);
      };
      socket.onopen = () => socket.send(JSON.stringify({ type: 'hello', session }));
    });
    socket.close();
    return turns;
  }, id);

beforeAll(async () => {
  requireBuild();
  const dir = tempDir('referee-clocks-');
  mkdirSync(join(dir, 'slow'));
  // Over its limit on every move by 150 ms of its own CPU time: the referee credits time spent waiting for a CPU, so
  // a wait on the wall clock could come in under the limit on a loaded machine.
  writeFileSync(
    join(dir, 'slow', 'AIPlayer.ts'),
    `import type { Board } from 'board-referee';

export class AIPlayer {
  constructor(private readonly color: 'X' | 'O') {}

  getMove(board: Board): string {
    const start = process.cpuUsage();
    let spin = 0;
    for (let used = process.cpuUsage(start); used.user + used.system < 150_000; used = process.cpuUsage(start)) spin += 1;
    const actions = board.getLegalActions(this.color);
    return actions[spin % actions.length];
  }
}
`,
  );
  writeFileSync(
    join(dir, 'assignment.json'),
    JSON.stringify({ title: 'Strikes', game: 'reversi', moveTimeoutMs: 100, strikeLimit: 40, strikeGraceMs: 60000, constructTimeoutMs: 20000, opponents: [{ name: 'random', games: 2, points: 100 }] }),
  );
  args = ['serve', '--config', join(dir, 'assignment.json'), join(dir, 'slow')];
  server = await startCli([...args, '--port', '0'], undefined, 'file');
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await stop(server);
});

test('killed and restarted mid-game: the restored game carries its strikes and time used on', async () => {
  const page = await (await browser.newContext({ viewport: { width: 1366, height: 657 } })).newPage();
  await page.goto(`${server.url}?game=reversi&black=human&white=sub:0`);
  await page.waitForSelector('#board svg');
  await settle(page);
  for (let move = 0; move < 2; move++) {
    const before = await plyOf(page);
    await page.locator('#board [data-move]').first().click();
    await settle(page, before + 1);
  }
  const id = (await page.evaluate(() => location.hash)).slice('#game='.length);
  const before = (await serverTurns(page, id)).filter((turn) => turn.side === 1);
  expect(before.map((turn) => turn.strikes)).toEqual([1, 2]);
  const usedBefore = before.reduce((sum, turn) => sum + (turn.wallMs ?? 0), 0);

  server.child.kill('SIGKILL');
  await new Promise((resolve) => server.child.once('exit', resolve));
  await page.waitForFunction(() => document.body.dataset.connected === '0');
  server = await startCli([...args, '--port', new URL(server.url).port], undefined, 'file');
  await page.evaluate(() => {
    const button = document.querySelector<HTMLButtonElement>('#reconnect');
    if (button && !button.hidden) button.click();
  });
  await page.waitForFunction((old) => document.body.dataset.connected === '1' && location.hash !== old && document.querySelector('#board [data-move]') !== null, `#game=${id}`);
  expect(await page.textContent('#message')).toMatch(/^the server restarted: this game was restored at ply 4/);

  const ply = await plyOf(page);
  await page.locator('#board [data-move]').first().click();
  await settle(page, ply + 1);
  const restored = (await page.evaluate(() => location.hash)).slice('#game='.length);
  const after = (await serverTurns(page, restored)).filter((turn) => turn.side === 1);
  // Its third move over the limit is its third strike (a reset clock said 1).
  expect(after.map((turn) => turn.strikes)).toEqual([1, 2, 3]);
  expect(after.slice(0, 2).reduce((sum, turn) => sum + (turn.wallMs ?? 0), 0)).toBe(usedBefore);
  expect(await page.evaluate(() => document.body.dataset.over)).not.toBe('1');
});
