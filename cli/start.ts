#!/usr/bin/env node
/**
 * The `referee` command's entry (dist/cli/index.js after `npm run build`, which bundles it: scripts/bundle-cli.ts).
 * It sets up how the rest loads, then loads the command (cli/index.ts) — both must happen before that code is read:
 *   - source maps, so a stack trace names the .ts files rather than bundle chunks;
 *   - Node's on-disk compile cache where this Node has one (module.enableCompileCache, Node >= 22.1), in the
 *     referee cache folder: the compiled code of every start after the first is read back instead of compiled.
 *     That folder already holds code the grader runs (hosts, the Landlock launcher), so it is trusted alike.
 */
import * as nodeModule from 'node:module';
import { join } from 'node:path';
import { cacheDir } from '../harness/sandbox/cache-dir.js';

process.setSourceMapsEnabled(true);

const enableCompileCache = (nodeModule as { enableCompileCache?: (dir: string) => unknown }).enableCompileCache;
if (typeof enableCompileCache === 'function' && process.env.REFEREE_NO_COMPILE_CACHE !== '1') {
  try {
    enableCompileCache(join(cacheDir(), 'node-compile-cache'));
  } catch {
    // An unwritable cache folder costs only speed; the command itself says so if it needs the folder.
  }
}

await import('./index.js');
