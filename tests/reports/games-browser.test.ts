/**
 * The replay viewer for every registered game, in Chromium: after each step the board shows exactly the pieces the
 * game's geometry has for that position (drawn with game.ts's convention: data-square, data-disc); a game won on the
 * board ends with its reason in the game's words and its winning line ringed. Nothing here names a game.
 */
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { PAGE_WAIT_MS } from '../web/serve-helpers.js';
import type { AnyGame } from '../../harness/games/game.js';
import { gameIds, getGame } from '../../harness/games/registry.js';
import { resolveAssignment } from '../../grading/assignment.js';
import { referenceContestant } from '../../grading/contestant.js';
import { grade } from '../../grading/grade.js';
import { writeReport } from '../../reports/render.js';

const CHROMIUM = '/usr/bin/chromium';
const available = existsSync(CHROMIUM);
const browserDescribe = available || process.env.CI ? describe : describe.skip;
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/** { cell: piece } of a position, from the game's geometry. */
function piecesOf(game: AnyGame, state: unknown): Record<string, string> {
  return Object.fromEntries(game.geometry!.cells(state).flatMap((cell) => (cell.piece === null ? [] : [[cell.name, cell.piece]])));
}

async function shownDiscs(page: Page): Promise<Record<string, string>> {
  return page.$$eval('#board [data-disc]', (elements) =>
    Object.fromEntries(elements.map((element) => [element.getAttribute('data-square'), element.getAttribute('data-disc')])),
  );
}

browserDescribe('the replay viewer draws every game', () => {
  let context: BrowserContext;
  let dir: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'referee-games-browser-'));
    context = await chromium.launchPersistentContext(mkdtempSync(join(tmpdir(), 'referee-chromium-')), {
      executablePath: CHROMIUM,
      headless: true,
      args: ARGS,
    });
    context.setDefaultTimeout(PAGE_WAIT_MS);
  });

  afterAll(async () => {
    await context?.close();
  });

  test.each(gameIds())('%s', async (gameId) => {
    const game = getGame(gameId);
    const assignment = resolveAssignment({
      game: gameId,
      opponents: [{ name: 'random', games: 2, points: 10, seed: 3 }],
    });
    const result = await grade({ assignment, assignmentSource: 'test', contestant: referenceContestant(gameId, 'random') });
    const file = join(dir, `${gameId}.html`);
    writeReport(file, result);

    const record = result.games[1].record;
    const positions = [game.decode(record.initialState)];
    for (const turn of record.turns) {
      const state = positions[positions.length - 1];
      positions.push(turn.kind === 'pass' ? game.pass(state) : game.apply(state, game.parseMove(turn.move!)));
    }
    const expected = (ply: number) => piecesOf(game, positions[ply]);

    const page = await context.newPage();
    await page.goto(pathToFileURL(file).href);
    await page.selectOption('#game-select', '1');
    expect(await shownDiscs(page)).toEqual(expected(0));
    for (let ply = 1; ply <= Math.min(6, record.turns.length); ply++) {
      await page.click('#next');
      expect(await shownDiscs(page)).toEqual(expected(ply));
    }
    expect(await page.$$eval('#board .last-move', (marks) => marks.length)).toBe(1);
    await page.click('#last');
    expect(await shownDiscs(page)).toEqual(expected(record.turns.length));
    const final = positions[positions.length - 1];
    if (record.end.reason === 'score' && game.isTerminal(final)) {
      const ending = game.geometry!.ending(final);
      expect(await page.textContent('#turn-info .verdict')).toContain(`: ${ending.reason}.`);
      expect(await page.locator('#board .win-line').count()).toBe(ending.line.length);
    }
    await page.close();
  });
});
