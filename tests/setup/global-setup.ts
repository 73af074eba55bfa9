/**
 * jest globalSetup: build the suite's shared artefacts once (suite-cache.ts), by running the built CLI's `check`
 * on one TypeScript, one Python and one C++ submission in parallel against the shared cache folder, then hand the
 * folder to every test process through the environment. npm test builds dist first; without it (a bare
 * `npx jest`) the tests build what they need themselves, as before.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname ?? new URL('.', import.meta.url).pathname, '..', '..');

function check(cache: string, args: string[]): Promise<void> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [join(root, 'dist', 'cli', 'index.js'), 'check', ...args], {
      cwd: root,
      env: { ...process.env, NODE_OPTIONS: '', REFEREE_CACHE_DIR: cache },
      stdio: 'ignore',
    });
    child.once('error', () => done());
    child.once('close', () => done());
  });
}

/** The type-check snapshot is written by a detached child after check returns: wait for it (or its failure). */
async function snapshotWritten(cache: string): Promise<void> {
  for (let waited = 0; waited < 120_000; waited += 100) {
    const names = readdirSync(cache);
    if (names.some((name) => name.endsWith('.blob')) || !names.some((name) => name.endsWith('.tmp'))) return;
    await new Promise((next) => setTimeout(next, 100));
  }
}

export default async function globalSetup(): Promise<void> {
  const cache = join(root, 'node_modules', '.cache', 'referee-tests');
  mkdirSync(cache, { recursive: true, mode: 0o755 });
  process.env.REFEREE_SUITE_CACHE = cache;
  process.env.REFEREE_CACHE_DIR = cache;
  if (!existsSync(join(root, 'dist', 'cli', 'index.js'))) return;
  const fixtures = join(root, 'tests', 'fixtures');
  await Promise.all([
    check(cache, [join(fixtures, 'students', 'fair', 'AIPlayer.ts')]),
    check(cache, [join(fixtures, 'python', 'random', 'AIPlayer.py')]),
    check(cache, [join(fixtures, 'cpp', 'judge-greedy', 'Strategy.cpp'), '--game', 'connect4-nogo']),
  ]);
  await snapshotWritten(cache);
}
