/**
 * A student's stack trace names their own files, not the grader's staging folder: with POSIX paths, and with
 * Windows' backslashes on the portable path (a Windows laptop).
 */
import { expect, test } from '@jest/globals';
import { studentStack } from '../../harness/sandbox/student-stack.js';

test.each([
  ['POSIX', '/tmp/referee-stage-ab12/', '/tmp/referee-stage-ab12/src/AIPlayer.ts', 'src/AIPlayer.ts'],
  ['Windows', 'C:\\Users\\ann\\AppData\\Local\\Temp\\referee-stage-ab12', 'C:\\Users\\ann\\AppData\\Local\\Temp\\referee-stage-ab12\\src\\AIPlayer.ts', 'src\\AIPlayer.ts'],
])('%s: the staged folder is cut from every frame', (_system, staged, file, shown) => {
  const stack = `Error: boom\n    at AIPlayer.getMove (${file}:3:9)\n    at Object.<anonymous> (${file}:9:1)`;
  expect(studentStack(stack, staged)).toBe(`Error: boom\n    at AIPlayer.getMove (${shown}:3:9)\n    at Object.<anonymous> (${shown}:9:1)`);
});
