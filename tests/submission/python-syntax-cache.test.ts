/**
 * Issue #35: a warm Python check starts no interpreter for its syntax check. The report syntax.py printed is kept
 * (python-syntax-<key>.json) with the hash of every file it parsed and every path it probed for an import, and is
 * reused only while all of them are as they were: an edited file, a module that appears where an import found
 * none, or one that goes away is parsed again.
 */
import { existsSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@jest/globals';
import { CompileError, compileSubmission } from '../../harness/submission/compile.js';
import { resolveSubmission } from '../../harness/submission/resolve.js';
import { isolateCache, scratch } from '../sandbox/support.js';

const cache = isolateCache();
const kept = (): string[] => readdirSync(cache).filter((name) => /^python-syntax-[0-9a-f]+\.json$/.test(name));
/** The kept report's inode: a new parse writes a new file (cacheFile renames a fresh one into place). */
const keptInode = (): number => statSync(join(cache, kept()[0])).ino;

async function problemsOf(folder: string): Promise<string[]> {
  try {
    const compiled = await compileSubmission(resolveSubmission(folder));
    return compiled.files!.map((file) => `ok ${file.slice(folder.length + 1)}`);
  } catch (error) {
    if (!(error instanceof CompileError)) throw error;
    return error.problems.map((problem) => `${problem.file}:${problem.line}: ${problem.text}`);
  }
}

test('the kept syntax report is reused only while every parsed file and probed import path is unchanged', async () => {
  const folder = scratch('python-syntax');
  const player = 'import random\nfrom helper import pick\n\nclass AIPlayer:\n    def __init__(self, color):\n        self.color = color\n\n    def get_move(self, board):\n        return pick(list(board.get_legal_actions(self.color)))\n';
  writeFileSync(join(folder, 'AIPlayer.py'), player);

  // helper.py is not there: the import is left to the run; the report is kept.
  expect(await problemsOf(folder)).toEqual(['ok AIPlayer.py']);
  expect(kept()).toHaveLength(1);
  const first = keptInode();
  expect(await problemsOf(folder)).toEqual(['ok AIPlayer.py']);
  expect(keptInode()).toBe(first); // reused, not parsed again

  // A module appears where the import found none: parsed again, and its syntax error is found.
  writeFileSync(join(folder, 'helper.py'), 'def pick(moves)\n    return moves[0]\n');
  expect(await problemsOf(folder)).toEqual([expect.stringMatching(/^helper\.py:1: SyntaxError/)]);
  expect(keptInode()).not.toBe(first);

  // The module is fixed (same size, new bytes): parsed again.
  writeFileSync(join(folder, 'helper.py'), 'def pick(moves):\n    return moves[0]\n');
  expect(await problemsOf(folder)).toEqual(['ok AIPlayer.py', 'ok helper.py']);
  const second = keptInode();
  expect(await problemsOf(folder)).toEqual(['ok AIPlayer.py', 'ok helper.py']);
  expect(keptInode()).toBe(second);

  // The entry is edited: parsed again.
  writeFileSync(join(folder, 'AIPlayer.py'), player.replace('return pick(', 'return pick(('));
  expect(await problemsOf(folder)).toEqual([expect.stringMatching(/^AIPlayer\.py:9: SyntaxError/)]);
  writeFileSync(join(folder, 'AIPlayer.py'), player);
  expect(await problemsOf(folder)).toEqual(['ok AIPlayer.py', 'ok helper.py']);

  // The module becomes a symlink to another file, then goes away: each a new parse.
  rmSync(join(folder, 'helper.py'));
  writeFileSync(join(folder, 'other.py'), 'def pick(moves):\n    return moves[-1]\n  oops\n');
  symlinkSync(join(folder, 'other.py'), join(folder, 'helper.py'));
  expect(await problemsOf(folder)).toEqual([expect.stringMatching(/^other\.py:3: IndentationError/)]);
  rmSync(join(folder, 'helper.py'));
  expect(await problemsOf(folder)).toEqual(['ok AIPlayer.py']);

  // A damaged kept report is a miss, never a verdict.
  writeFileSync(join(cache, kept()[0]), '{"files": ');
  expect(await problemsOf(folder)).toEqual(['ok AIPlayer.py']);
  expect(existsSync(join(cache, kept()[0]))).toBe(true);
});
