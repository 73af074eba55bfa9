/**
 * Issue #35: the type check's working folders stay bounded. A TS check writes <cache>/typecheck/<pid>-<time>/
 * (tsconfig.json, referee.d.ts) and removes it when it ends; a check killed meanwhile (Ctrl-C, SIGKILL, a timeout)
 * cannot, which is how 711 such folders piled up in one cache. The next check sweeps what is older than
 * WORKING_ENTRY_STALE_MS (30 min, past the type check's 10-minute wall backstop) and never a running check's folder.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, expect, test } from '@jest/globals';
import { WORKING_ENTRY_STALE_MS } from '../../harness/sandbox/cache-dir.js';
import { stopAfterwards } from '../setup/children.js';
import { warmCache } from '../setup/suite-cache.js';

const CLI = resolve('dist/cli/index.js');
const cache = warmCache('typecheck-leftovers');
afterAll(() => rmSync(cache, { recursive: true, force: true }));

const working = (): string[] => (existsSync(join(cache, 'typecheck')) ? readdirSync(join(cache, 'typecheck')).sort() : []);

test("a killed check's type-check folder is left; the next check sweeps it once stale and keeps a running one's", async () => {
  const project = join(cache, 'student');
  mkdirSync(project);
  const entry = join(project, 'AIPlayer.ts');
  writeFileSync(entry, "import type { Board } from 'board-referee';\nexport class AIPlayer {\n  constructor(private readonly color: 'X' | 'O') {}\n  getMove(board: Board): string {\n    return board.getLegalActions(this.color)[0];\n  }\n}\n");
  const env = { ...process.env, REFEREE_CACHE_DIR: cache };

  // The leak: a check killed while its type check runs leaves its folder (waits on the folder, not on a clock).
  const killed = stopAfterwards(spawn(process.execPath, [CLI, 'check', entry], { env, stdio: 'ignore' }));
  const exited = new Promise((done) => killed.once('exit', done));
  const mine = `${killed.pid}-`;
  while (!working().some((name) => name.startsWith(mine))) {
    if (killed.exitCode !== null) throw new Error('the check ended before its type check began');
    await new Promise((done) => setTimeout(done, 20));
  }
  killed.kill('SIGKILL');
  await exited;
  const left = working().filter((name) => name.startsWith(mine));
  expect(left).toHaveLength(1);

  // Aged past the bound, beside a running check's folder (a minute old) and a content-free stray one.
  const old = new Date(Date.now() - WORKING_ENTRY_STALE_MS - 60_000);
  utimesSync(join(cache, 'typecheck', left[0]), old, old);
  const running = join(cache, 'typecheck', '999999-running');
  mkdirSync(running);
  writeFileSync(join(running, 'tsconfig.json'), '{}');
  const recent = new Date(Date.now() - 60_000);
  utimesSync(running, recent, recent);

  const run = spawnSync(process.execPath, [CLI, 'check', entry], { env, encoding: 'utf8' });
  expect(run.stdout).toMatch(/✓ type check/);
  expect(run.status).toBe(0);
  // The stale one is gone, the running one kept, and the check left nothing of its own.
  expect(working()).toEqual(['999999-running']);
});
