/**
 * The bundle cache is bounded (least recently used entries go past the cap, never one this process uses) and
 * `referee cache clean` empties it.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { cacheEntries, cacheFile, pruneCache } from '../../harness/sandbox/cache-dir.js';
import { artefactHash, cachedArtefact, storeArtefact, type Artefact } from '../../grading/pool/artefact.js';
import { scratch } from './support.js';

test('past the cap the least recently used entries go, and a hit counts as a use', () => {
  const dir = scratch('cache-lru');
  process.env.REFEREE_CACHE_DIR = dir;
  const old = join(dir, 'submission-00d0.cjs');
  const recent = join(dir, 'submission-ecee.cjs');
  writeFileSync(old, 'x'.repeat(1000));
  writeFileSync(recent, 'x'.repeat(1000));
  utimesSync(old, new Date(1000), new Date(1000));
  utimesSync(recent, new Date(2000), new Date(2000));
  // A hit on the older one makes it the most recent.
  cacheFile('submission-00d0.cjs', 'ignored: already there');
  expect(pruneCache(1500, dir)).toBe(1000);
  expect(existsSync(old)).toBe(true);
  expect(existsSync(recent)).toBe(false);
  // Everything left is in use by this process: nothing more is removed, even over the cap.
  expect(pruneCache(10, dir)).toBe(0);
});

test('type-check snapshots count toward the cap and go oldest first (they once held a cache at 3x its cap)', () => {
  const dir = scratch('cache-snapshots');
  process.env.REFEREE_CACHE_DIR = dir;
  const old = [join(dir, 'typecheck-0dd0.blob'), join(dir, 'typecheck-snapshot-0dd0.cjs')];
  const current = join(dir, 'typecheck-c0de.blob');
  const working = join(dir, 'typecheck-c0de.blob.123.tmp'); // being written by a running check: never touched
  for (const path of [...old, current, working]) writeFileSync(path, 'x'.repeat(1000));
  for (const path of old) utimesSync(path, new Date(1000), new Date(1000));
  expect(pruneCache(1500, dir)).toBe(2000);
  expect(old.map((path) => existsSync(path))).toEqual([false, false]);
  expect([existsSync(current), existsSync(working)]).toEqual([true, true]);
});

test('Botzone bots and their header shim count toward the cap; what a killed process left goes after a day', () => {
  const dir = scratch('cache-botzone');
  process.env.REFEREE_CACHE_DIR = dir;
  const now = Date.now();
  const day = 24 * 3600 * 1000;
  const bots = [join(dir, 'botzone-0123456789abcdef0123'), join(dir, 'cpp-botzone-0123456789abcdef')];
  writeFileSync(bots[0], 'x'.repeat(1000));
  mkdirSync(bots[1]);
  writeFileSync(join(bots[1], 'json.h'), 'x'.repeat(1000));
  const current = join(dir, 'botzone-fedcba9876543210fedc');
  writeFileSync(current, 'x'.repeat(1000));
  for (const path of bots) utimesSync(path, new Date(now - 2 * day), new Date(now - 2 * day));
  // A type check's working folder and a half-written entry: a killed process's (two days old) and a running one's.
  const stale = [join(dir, 'typecheck', '111-old'), join(dir, 'host-0ld.cjs.111.tmp')];
  const fresh = [join(dir, 'typecheck', '222-now'), join(dir, 'host-n0w.cjs.222.tmp')];
  for (const path of [...stale, ...fresh]) {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, 'x'.repeat(100));
  }
  for (const path of stale) utimesSync(path, new Date(now - 2 * day), new Date(now - 2 * day));
  expect(pruneCache(1500, dir, now)).toBe(2200);
  expect([...bots, ...stale].filter((path) => existsSync(path))).toEqual([]);
  expect([current, ...fresh].filter((path) => existsSync(path))).toEqual([current, ...fresh]);
});

test("the game pool's artefacts count toward the cap and go least recently used first; a killed store's half goes after a day", () => {
  const dir = scratch('cache-artefacts');
  process.env.REFEREE_CACHE_DIR = dir;
  const now = Date.now();
  const day = 24 * 3600 * 1000;
  const artefact = (text: string): Artefact => {
    const files = [{ path: 'submission.cjs', bytes: Buffer.from(text.padEnd(1000, ' ')) }];
    return { hash: artefactHash('node', 'submission.cjs', files), runtime: 'node', entry: 'submission.cjs', files };
  };
  const [old, hit, recent] = ['old', 'hit', 'recent'].map((name) => artefact(`module.exports = '${name}';`));
  // Stored through the pool's own path (each store prunes: under the default cap nothing goes yet).
  const dirs = [old, hit, recent].map((one) => storeArtefact(one));
  dirs.forEach((path, i) => utimesSync(path, new Date(now - (3 - i) * 1000), new Date(now - (3 - i) * 1000)));
  utimesSync(dirs[1], new Date(1000), new Date(1000));
  const half = join(dir, 'artefacts', `${'a'.repeat(64)}.111.1.tmp`);
  const writing = join(dir, 'artefacts', `${'b'.repeat(64)}.222.2.tmp`);
  for (const path of [half, writing]) mkdirSync(path, { recursive: true });
  writeFileSync(join(half, 'submission.cjs'), 'x'.repeat(100));
  utimesSync(half, new Date(now - 2 * day), new Date(now - 2 * day));
  // A hit is a use: the oldest by time becomes the newest, and this process's entries are never pruned under it.
  expect(cachedArtefact(hit.hash)).toBe(dirs[1]);
  const used = dirs.map((path) => cacheEntries(join(dir, 'artefacts')).find((entry) => entry.path === path)?.bytes ?? 0);
  // A second process's view (nothing in use): past a cap of two artefacts, the least recently used one goes.
  const other = execFileSync(
    process.execPath,
    ['--input-type=module', '-e', `const { pruneCache } = await import(${JSON.stringify(resolve('dist/harness/sandbox/cache-dir.js'))}); console.log(pruneCache(${used[1] + used[2] + 50}, ${JSON.stringify(dir)}, ${now}));`],
    { encoding: 'utf8' },
  );
  expect(Number(other.trim())).toBe(used[0] + 100);
  expect([old, hit, recent].map((one) => existsSync(join(dir, 'artefacts', one.hash)))).toEqual([false, true, true]);
  expect([existsSync(half), existsSync(writing)]).toEqual([false, true]);
});

test('referee cache clean empties the cache', () => {
  const dir = scratch('cache-clean');
  writeFileSync(join(dir, 'submission-a.cjs'), 'a');
  writeFileSync(join(dir, 'host-b.cjs'), 'b');
  const out = execFileSync(process.execPath, [resolve('dist/cli/index.js'), 'cache', 'clean'], {
    env: { ...process.env, REFEREE_CACHE_DIR: dir },
    encoding: 'utf8',
  });
  expect(out).toMatch(/removed 2 entries/);
  expect(cacheEntries(dir)).toEqual([]);
});
