/**
 * Issue #35: the bundled CLI parses no source map at start-up, yet a stack it prints names the .ts sources
 * (cli/stack-trace.ts maps each frame through the chunk's .map when the stack is printed).
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { expect, test } from '@jest/globals';
import { escapeRegExp } from '../../harness/sandbox/student-stack.js';
import { scratch } from '../sandbox/support.js';

const CLI = resolve('dist/cli/index.js');

test("an internal error's stack names the .ts files and lines, not the bundle's chunks", () => {
  // A damaged cache: a file where the type check's scratch folder goes (an unusable cache folder itself is a line
  // with the fix since stop 6, not an internal error).
  const cache = join(scratch('stack-trace'), 'cache');
  mkdirSync(cache);
  writeFileSync(join(cache, 'typecheck'), 'a file where a folder should be\n');
  const run = spawnSync(process.execPath, [CLI, 'check', resolve('student-template/src/AIPlayer.ts')], {
    env: { ...process.env, REFEREE_CACHE_DIR: cache },
    encoding: 'utf8',
  });
  expect(run.status).toBe(3);
  expect(run.stderr).toMatch(/^referee: internal error: Error: ENOTDIR/);
  expect(run.stderr).toMatch(new RegExp(`at typeCheck \\(${escapeRegExp(resolve('harness/submission/typecheck.ts'))}:\\d+:\\d+\\)`));
  expect(run.stderr).toMatch(/at checkSubmission \(.*\/harness\/submission\/check\.ts:\d+:\d+\)/);
  expect(run.stderr).not.toMatch(/chunk-[A-Z0-9]{8}\.js/);
});
