import { describe, expect, test } from '@jest/globals';
import { getGame } from '../../harness/games/registry.js';
import { validateGradeResult } from '../../grading/grade-result.js';
import { gameView, SvgTokens } from '../../reports/replay-data.js';
import { renderReport } from '../../reports/render.js';
import { scriptSafeJson } from '../../reports/safe-json.js';
import { OUTPUT_CAP, studentOutput } from '../../reports/student-output.js';
import { failingContestant, smallAssignment } from '../grading/helpers.js';
import { grade } from '../../grading/grade.js';
import { HOSTILE, hostile, referenceGrade } from './helpers.js';

describe('report.html', () => {
  test('is self-contained: styles and scripts inline, nothing fetched', async () => {
    const html = renderReport(await referenceGrade());
    expect(html).toContain('<style>');
    expect(html).toContain("default-src 'none'");
    expect(html).not.toMatch(/<(link|img|iframe)\b|\bsrc=|@import|url\(/i);
    expect(html.match(/https?:\/\/[^"'\s<\\]+/g)?.every((url) => url === 'http://www.w3.org/2000/svg')).toBe(true);
  });

  test('shows the score, each item, the rules and the re-run commands', async () => {
    const result = await referenceGrade();
    const html = renderReport(result);
    expect(html).toContain(`data-score="${result.score}"`);
    expect(html).toContain(`data-max-score="${result.maxScore}"`);
    for (const item of result.items) expect(html).toContain(`${item.points} / ${item.maxPoints}`);
    expect(html).toContain('5000 ms per move');
    expect(html).toContain(`${result.command} --only 0:0 --out referee-rerun`);
    expect(html).toContain(result.assignment.hash);
  });

  test('student-controlled text is escaped everywhere, including inside the embedded JSON', async () => {
    const result = hostile(await referenceGrade());
    validateGradeResult(result);
    const html = renderReport(result);
    expect(html).not.toContain('<script>window.__pwned');
    expect(html).not.toContain('<img src=x');
    expect(html.match(/<script\b/g)).toHaveLength(2);
    expect(html.match(/<\/script>/g)).toHaveLength(2);
    expect(html).toContain('&lt;/script&gt;&lt;script&gt;window.__pwned');
    const data = /<script type="application\/json" id="report-data">([^<]*)<\/script>/.exec(html);
    expect(data).not.toBeNull();
    const parsed = JSON.parse(data![1]) as { games: { plies: { illegal: { text: string }[] }[] }[] };
    const shown = parsed.games[0].plies.flatMap((ply) => ply.illegal.map((attempt) => attempt.text));
    expect(shown).toEqual([JSON.stringify(HOSTILE)]);
    // The exception's site and message reach the advice and the game table, escaped.
    expect(html).toMatch(/<li>Exception: 1 game lost at ply \d+: &lt;\/script&gt;/);
  });

  test('scriptSafeJson round-trips and never contains <, > or &', () => {
    const value = { text: HOSTILE, nested: ['\u2029', '<!--'] };
    const json = scriptSafeJson(value);
    expect(json).not.toMatch(/[<>&\u2028\u2029]/);
    expect(JSON.parse(json)).toEqual(value);
  });

  test('a failed interface check still renders, explaining why no game was played', async () => {
    const result = await grade({ assignment: smallAssignment(), assignmentSource: 'test', contestant: failingContestant('found: default export only') });
    const html = renderReport(result);
    expect(html).toContain('no games were played');
    expect(html).toContain('How to fix: export a class named AIPlayer');
    expect(html).toContain('data-status="fail"');
    expect(html).not.toContain('id="viewer"');
  });

  test('long output is truncated with a note; grade.json keeps it all', async () => {
    const result = hostile(await referenceGrade());
    const entry = result.games[1];
    entry.record.turns.find((turn) => turn.side === entry.studentSide && turn.kind === 'move')!.output = { text: 'x'.repeat(OUTPUT_CAP + 500), droppedBytes: 0 };
    const output = studentOutput(result);
    expect(output.blocks.reduce((sum, block) => sum + block.text.length, 0)).toBe(OUTPUT_CAP);
    expect(output.truncatedNote).toMatch(/more characters are not shown/);
    expect(renderReport(result)).toContain('id="output-truncated"');
  });

  test('replay frames are the game renderer\'s SVGs, one per position', async () => {
    const result = await referenceGrade();
    const game = getGame('reversi');
    const tokens = new SvgTokens();
    const record = result.games[0].record;
    const view = gameView(game, record, tokens, { title: 't', studentSide: 0, result: 'win' });
    expect(view.frames).toHaveLength(record.turns.length + 1);
    expect(view.frames[0].map((id) => tokens.list[id]).join('')).toBe(game.renderSvg(game.decode(record.initialState)));
    let state = game.decode(record.initialState);
    for (const turn of record.turns.slice(0, 5)) state = turn.kind === 'pass' ? game.pass(state) : game.apply(state, game.parseMove(turn.move!));
    const fifth = record.turns[4];
    expect(view.frames[5].map((id) => tokens.list[id]).join('')).toBe(game.renderSvg(state, fifth.kind === 'move' ? { lastMove: fifth.move } : {}));
  });
});

describe('a failed check in the report', () => {
  test('the step shows its stack and the output before it; the output section keeps that output too', async () => {
    const result = await grade({ assignment: smallAssignment(), assignmentSource: 'test', contestant: failingContestant('boom') });
    const moves = { id: 'moves', title: 'getMove answers the opening legally within the time limit', status: 'fail' as const, detail: 'opening (Black): error: Error: boom', fix: 'fix the error above', stack: 'Error: boom\n    at AIPlayer.getMove (AIPlayer.ts:7:11)', output: ['about to <fail>'] };
    result.interfaceCheck.items.push(moves);
    const html = renderReport(validateGradeResult(result));
    expect(html).toContain('at AIPlayer.getMove (AIPlayer.ts:7:11)');
    expect(html).toContain('about to &lt;fail&gt;');
    expect(html).not.toContain('The submission printed nothing');
    expect(studentOutput(result).blocks.map((block) => block.where)).toContain('interface check: getMove answers the opening legally within the time limit (last lines)');
  });
});
