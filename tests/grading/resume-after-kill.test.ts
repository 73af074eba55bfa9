import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@jest/globals';
import { grade } from '../../grading/grade.js';
import { JOURNAL_FILE, type JournalEntry } from '../../grading/journal.js';
import { packageFile } from '../../grading/package-root.js';
import { bundleForNode, runNode } from './bundle.js';
import { countingContestant, SMALL_ASSIGNMENT_JSON, smallAssignment } from './helpers.js';

test('a grade killed with SIGKILL after 3 games resumes without replaying them', async () => {
  const outDir = mkdtempSync(join(tmpdir(), 'referee-kill-'));
  const script = await bundleForNode(packageFile('tests', 'fixtures', 'grading', 'self-kill.ts'));
  const child = await runNode(script, [outDir, '3', JSON.stringify(SMALL_ASSIGNMENT_JSON)]);
  rmSync(script);
  expect(child.signal).toBe('SIGKILL');
  expect(child.stdout).not.toContain('finished without being killed');

  const before = readFileSync(join(outDir, JOURNAL_FILE), 'utf8').trim().split('\n').map((line) => JSON.parse(line) as JournalEntry);
  expect(before).toHaveLength(3);

  const contestant = countingContestant('greedy');
  const result = await grade({ assignment: smallAssignment(), assignmentSource: 'test', contestant, outDir, resume: true });
  expect(contestant.starts()).toBe(1);
  expect(result.timings.resumedGames).toBe(3);
  expect(result.games).toHaveLength(4);
  for (const stored of before) {
    const entry = result.games.find((game) => game.item === stored.item && game.index === stored.index);
    expect(entry?.resumed).toBe(true);
    expect(entry?.record).toEqual(stored.record);
  }
  expect(readFileSync(join(outDir, JOURNAL_FILE), 'utf8').trim().split('\n')).toHaveLength(4);
});
