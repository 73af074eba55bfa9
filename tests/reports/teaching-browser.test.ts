/**
 * The report that teaches, in real Chromium (playwright-core, Debian's /usr/bin/chromium): the overview's advice
 * per opponent, a lost game opened by a deep link at its fatal ply (stack, verdict, the fatal bar above the limit
 * line), output linked to its ply, autoplay, and disc counts that match the board. These DOM assertions are the
 * report's screenshots: overview, a lost game at the fatal ply, the time chart.
 */
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { PAGE_WAIT_MS } from '../web/serve-helpers.js';
import { resolveAssignment } from '../../grading/assignment.js';
import { submissionContestant } from '../../grading/contestant.js';
import { grade } from '../../grading/grade.js';
import type { GradeResult } from '../../grading/grade-result.js';
import { writeReport } from '../../reports/render.js';

const CHROMIUM = '/usr/bin/chromium';
const available = existsSync(CHROMIUM);
const browserDescribe = available || process.env.CI ? describe : describe.skip;
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const HOSTILE = join(process.cwd(), 'tests', 'fixtures', 'hostile');

async function gradeFixture(file: string, moveTimeoutMs: number): Promise<GradeResult> {
  const assignment = resolveAssignment({
    title: 'Teaching report',
    moveTimeoutMs,
    interfaceCheck: { points: 10 },
    opponents: [{ name: 'random', games: 2, points: 90, seed: 5, scoring: { rule: 'linear', minWinRate: 0, fullWinRate: 1 } }],
  });
  return grade({ assignment, assignmentSource: 'test', contestant: await submissionContestant(join(HOSTILE, file), assignment) });
}

/**
 * The 1-based game number and the fatal ply of the first game the submission lost by force while asked for a move
 * (a busy machine can also time out a construction, which has no bar on the chart: not the game under test).
 */
function firstForcedLoss(result: GradeResult): { game: number; ply: number } {
  const index = result.games.findIndex((entry) => entry.record.end.loser?.side === entry.studentSide && entry.record.end.loser.phase === 'move');
  if (index < 0) throw new Error(`the fixture lost no game by force while moving: ${JSON.stringify(result.games.map((entry) => [entry.record.end.loser, entry.record.start]))}`);
  return { game: index + 1, ply: result.games[index].record.turns.length + 1 };
}

browserDescribe('the report that teaches, in Chromium', () => {
  let context: BrowserContext;
  let dir: string;
  let throwsLate: GradeResult;
  let slowLate: GradeResult;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'referee-teach-'));
    throwsLate = await gradeFixture('throws-late.ts', 1000);
    slowLate = await gradeFixture('slow-late.ts', 1000);
    writeReport(join(dir, 'throws.html'), throwsLate);
    writeReport(join(dir, 'slow.html'), slowLate);
    context = await chromium.launchPersistentContext(mkdtempSync(join(tmpdir(), 'referee-chromium-')), { executablePath: CHROMIUM, headless: true, args: ARGS });
    context.setDefaultTimeout(PAGE_WAIT_MS);
  }); // the suite's 5-minute hang catcher: two grades (each type-checks) and Chromium took over 120 s at load 43

  afterAll(async () => {
    await context?.close();
  });

  const open = async (name: string, hash = ''): Promise<Page> => {
    const page = await context.newPage();
    await page.goto(`${pathToFileURL(join(dir, name)).href}${hash}`);
    return page;
  };

  test('overview: advice per opponent from the records, and the check warning with its stack and output', async () => {
    const page = await open('throws.html');
    const advice = await page.$$eval('#item-0 .diagnosis li', (items) => items.map((item) => item.textContent ?? ''));
    // The cause first, with its fix; the time figures after it.
    expect(advice[0]).toMatch(/^Exception: \d+ games? lost at pl(y|ies) [\d–]+ .*Error: gave up at \d+ discs.*\. Fix: /);
    // "Search deeper" when its slowest move used under a tenth of the limit; on a loaded machine a fast move can take
    // longer by the wall clock (a slowest of over 100 ms at load 40), and the line then gives the figures alone.
    const slowest = Math.max(...throwsLate.games.flatMap((entry) => entry.record.turns.filter((turn) => turn.side === entry.studentSide).map((turn) => turn.wallMs ?? 0)));
    const timeLine = slowest < 100 ? /^Time: a move took .* of the 1 s allowed .*search deeper/ : slowest > 800 ? /^Time: the slowest move took .* of 1 s/ : /^Time: a move took .* of the 1 s allowed\.$/;
    expect(advice.filter((line) => line.startsWith('Time:'))).toEqual([expect.stringMatching(timeLine)]);
    expect(advice.some((line) => /^Colours: Black \d+-\d+-\d+, White \d+-\d+-\d+/.test(line))).toBe(true);
    // Every game it lost was lost by a rule (the throw), so the phase advice gives way to the rule line.
    expect(advice.some((line) => /^Losses: all \d+ by rule \(at pl(y|ies) \d+/.test(line) || /^Losses decided in the (opening|middle game|endgame)/.test(line))).toBe(true);
    const later = page.locator('[data-check="later"]');
    expect(await later.getAttribute('data-status')).toBe('warn');
    expect(await later.locator('.stack-text').textContent()).toMatch(/at explode \(throws-late\.ts:16:9\)/);
    expect(await later.locator('.last-output').textContent()).toMatch(/discs on the board: \d+/);
    await page.close();
  });

  test('a lost game opened at its fatal ply by a deep link: verdict, stack, the fatal bar and the limit line', async () => {
    const { game, ply } = firstForcedLoss(throwsLate);
    const page = await open('throws.html', `#game=${game}&ply=${ply}`);
    const record = throwsLate.games[game - 1].record;
    expect(await page.getAttribute('#board', 'data-frame')).toBe(String(record.turns.length));
    expect(await page.inputValue('#game-select')).toBe(String(game - 1));
    expect(await page.textContent('#turn-info .verdict')).toMatch(/lost at ply \d+: Error: gave up at \d+ discs/);
    expect(await page.textContent('#turn-info .stack-text')).toMatch(/throws-late\.ts:16:9/);
    expect(await page.textContent('#ply-output')).toMatch(/discs on the board: \d+/);
    expect(await page.$$eval('#time-chart rect.fatal', (bars) => bars.length)).toBe(1);
    expect(await page.getAttribute('#limit-line', 'data-limit-ms')).toBe('1000');
    // The game table links the same ply.
    expect(await page.getAttribute(`a.fatal-link[href="#game=${game}&ply=${ply}"]`, 'href')).toBe(`#game=${game}&ply=${ply}`);
    await page.close();
  });

  test('the time chart: a timeout is the fatal bar above the limit line; memory and time are told apart in the verdicts', async () => {
    const { game, ply } = firstForcedLoss(slowLate);
    expect(slowLate.games[game - 1].record.end.loser?.verdict).toBe('timeout');
    const page = await open('slow.html', `#game=${game}&ply=${ply}`);
    const geometry = await page.evaluate(() => {
      const fatal = document.querySelector('#time-chart rect.fatal') as SVGRectElement;
      const limit = document.querySelector('#limit-line') as SVGLineElement;
      const others = [...document.querySelectorAll('#time-chart rect.you:not(.fatal)')].map((bar) => Number(bar.getAttribute('y')));
      return { fatalTop: Number(fatal.getAttribute('y')), limitY: Number(limit.getAttribute('y1')), lowestOtherTop: Math.min(...others) };
    });
    // SVG y grows downwards: the fatal bar reaches above the line, the answered moves stay below it.
    expect(geometry.fatalTop).toBeLessThan(geometry.limitY);
    expect(geometry.lowestOtherTop).toBeGreaterThan(geometry.limitY);
    expect(await page.textContent('#turn-info .fatal')).toMatch(/timeout after \d+(\.\d)? ms \(limit 1000 ms\)/);
    const advice = await page.$$eval('#item-0 .diagnosis li', (items) => items.map((item) => item.textContent ?? ''));
    expect(advice[0]).toMatch(/^Time: \d games? lost at pl(y|ies) [\d–]+ .*Fix: stop the search by the clock/);
    await page.close();
  });

  test('output grouped per game; a ply link jumps the viewer there; disc counts match the board; autoplay moves on', async () => {
    const page = await open('throws.html');
    const all = await page.$$eval('#output details.output-game', (details) => details.map((detail) => detail.getAttribute('data-game')));
    // The interface check's warning (its last output lines) comes first, then one group per game, in game order.
    expect(all[0]).toBeNull();
    const groups = all.slice(1);
    expect(groups).toEqual(throwsLate.games.map((_, index) => String(index + 1)).filter((game) => groups.includes(game)));
    expect(groups.length).toBeGreaterThan(0);
    const link = page.locator('#output a.ply-link[data-ply]:not([data-ply="0"])').first();
    const target = { game: Number(await link.getAttribute('data-game')), ply: Number(await link.getAttribute('data-ply')) };
    await page.evaluate(() => document.querySelectorAll('#output details').forEach((detail) => ((detail as HTMLDetailsElement).open = true)));
    await link.click();
    await page.waitForFunction((frame) => document.querySelector('#board')?.getAttribute('data-frame') === String(frame), Math.min(target.ply, throwsLate.games[target.game - 1].record.turns.length));
    expect(await page.inputValue('#game-select')).toBe(String(target.game - 1));
    expect(await page.textContent('#ply-output')).toMatch(/discs on the board/);

    const counted = await page.evaluate(() => {
      const counts = document.querySelector('#counts') as HTMLElement;
      return {
        first: Number(counts.getAttribute('data-first')),
        second: Number(counts.getAttribute('data-second')),
        x: document.querySelectorAll('#board [data-disc="X"]').length,
        o: document.querySelectorAll('#board [data-disc="O"]').length,
      };
    });
    expect([counted.first, counted.second]).toEqual([counted.x, counted.o]);

    await page.click('#first');
    // 1× (a ply a second): the pause below comes long before the game's end, however slow the machine.
    await page.selectOption('#speed', '1');
    await page.click('#play');
    expect(await page.getAttribute('#play', 'aria-pressed')).toBe('true');
    await page.waitForFunction(() => Number(document.querySelector('#board')?.getAttribute('data-frame')) >= 1);
    await page.click('#play');
    expect(await page.getAttribute('#play', 'aria-pressed')).toBe('false');
    expect(await page.evaluate(() => location.hash)).toMatch(/^#game=\d+&ply=\d+$/);
    await page.close();
  });
});
