/**
 * `referee cache`: the compiled-bundle cache ($REFEREE_CACHE_DIR, default ~/.cache/referee). `info` shows where it
 * is and how big; `clean` empties it (bundles are rebuilt on demand). The cache also prunes itself past
 * $REFEREE_CACHE_MAX_MB (default 200), least recently used first.
 */
import type { Command } from 'commander';
import { cacheDir, cacheEntries, cacheLimitBytes, cleanCache } from '../harness/sandbox/cache-dir.js';

const mb = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

export function register(program: Command): void {
  const cache = program.command('cache').description('show or empty the compiled-bundle cache');
  cache
    .command('info', { isDefault: true })
    .description('where the cache is, its size and its cap')
    .action(() => {
      const entries = cacheEntries();
      const bytes = entries.reduce((sum, entry) => sum + entry.bytes, 0);
      console.log(`${cacheDir()}: ${entries.length} entries, ${mb(bytes)} (cap ${mb(cacheLimitBytes())}, REFEREE_CACHE_MAX_MB)`);
    });
  cache
    .command('clean')
    .description('remove every cached bundle (they are rebuilt when needed)')
    .action(() => {
      const removed = cleanCache();
      console.log(`removed ${removed.entries} entries (${mb(removed.bytes)}) from ${cacheDir()}`);
    });
}
