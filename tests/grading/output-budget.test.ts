/**
 * Heavy output is capped in grade.json and changes no grade: a student printing ~60 KB on every move, graded
 * through the real CLI (dist/cli/index.js as a subprocess), against its quiet twin.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, test } from '@jest/globals';
import { readGradeResult } from '../../grading/grade-result.js';
import { capStudentOutput, STUDENT_OUTPUT_BUDGET_BYTES } from '../../grading/output-budget.js';
import { SMALL_ASSIGNMENT_JSON } from './helpers.js';

const CLI = resolve('dist/cli/index.js');
const FIXTURES = resolve('tests', 'fixtures', 'grading');

function gradeWithCli(student: string, dir: string, config: string): Promise<string> {
  const out = join(dir, student);
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [CLI, 'grade', join(FIXTURES, student, 'AIPlayer.ts'), '--config', config, '--out', out], { stdio: ['ignore', 'pipe', 'pipe'] });
    let printed = '';
    child.stdout.on('data', (chunk: Buffer) => (printed += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (printed += chunk.toString()));
    child.on('error', fail);
    child.on('close', (code) => (code === 0 ? done(join(out, 'grade.json')) : fail(new Error(`referee grade ${student} exited ${code}:\n${printed}`))));
  });
}

describe('output budget in grade.json', () => {
  test('a student printing 60 KB a move: grade.json stays small, the grade equals the quiet twin', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'referee-loud-'));
    const config = join(dir, 'a.json');
    writeFileSync(config, JSON.stringify(SMALL_ASSIGNMENT_JSON));
    const [loudPath, quietPath] = await Promise.all([gradeWithCli('loud', dir, config), gradeWithCli('quiet', dir, config)]);
    const [loud, quiet] = [readGradeResult(loudPath), readGradeResult(quietPath)];

    expect(loud.status).toBe('graded');
    expect(loud.score).toBe(quiet.score);
    expect(loud.items.map((item) => item.points)).toEqual(quiet.items.map((item) => item.points));
    expect(loud.games.map((game) => game.record.turns.map((turn) => turn.move))).toEqual(quiet.games.map((game) => game.record.turns.map((turn) => turn.move)));
    // ~120 student moves x 60 KB printed (~7 MB); grade.json keeps the budget plus the quiet twin's size.
    expect(statSync(loudPath).size).toBeLessThan(statSync(quietPath).size + STUDENT_OUTPUT_BUDGET_BYTES + 64 * 1024);
    expect(readFileSync(loudPath, 'utf8')).toMatch(/… \d+ bytes more, cut/);
  });

  test('the cut keeps a forfeit output first, marks the rest, and leaves the input records alone', () => {
    const output = (text: string) => ({ text, droppedBytes: 0 });
    const record = {
      start: [{ output: output('a'.repeat(40)) }, {}],
      turns: [1, 2, 3].map((ply) => ({ ply, side: 0, move: 'x', output: output('b'.repeat(40)) })),
      end: { winner: 1, loser: { side: 0, verdict: 'crash', message: 'boom', phase: 'move', output: output('c'.repeat(40)) } },
    };
    const games = [{ record, studentSide: 0 }] as unknown as Parameters<typeof capStudentOutput>[0];
    const [capped] = capStudentOutput(games, 100);
    expect(capped.record.end.loser?.output?.text).toBe('c'.repeat(40));
    expect(capped.record.start[0].output?.text).toBe('a'.repeat(40));
    expect(capped.record.turns[0].output?.text).toMatch(/^b{20}\n… 20 bytes more, cut/);
    expect(capped.record.turns[2].output?.text).toMatch(/^… 40 bytes more, cut/);
    expect(record.turns[2].output.text).toBe('b'.repeat(40));
  });
});
