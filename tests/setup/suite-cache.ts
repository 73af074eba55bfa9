/**
 * The suite's shared artefacts. jest's globalSetup (global-setup.ts) fills one cache folder per checkout
 * (node_modules/.cache/referee-tests) with what every sandboxed test would otherwise build again per file: the
 * node host bundle, the native Landlock launcher and grader guard (cc), the TypeScript type-check snapshot
 * (~40 MB, seconds of CPU), the Python host folder and the compiled C++ host (g++). Every test process gets it
 * as REFEREE_CACHE_DIR. A test that needs a cache of its own (to look at what lands there, or to break it) takes
 * `warmCache()`: a private folder seeded with links to those entries, never the folder itself.
 */
import { cpSync, linkSync, mkdtempSync, readdirSync, statSync, chmodSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The shared folder (set by global-setup.ts), or null when the suite runs without the global setup. */
export function suiteCache(): string | null {
  return process.env.REFEREE_SUITE_CACHE || null;
}

/**
 * Content-addressed entries (named by the hash of everything that built them, compiler version included): the
 * harness's runtime, the SDK headers, and compiled C++ fixtures. Never a JS/Python submission bundle.
 */
const SHARED_ENTRY = /^(host-[0-9a-f]+\.cjs|native-[0-9a-f]+|taskstats-[0-9a-f]+|python-[0-9a-f]+|cpp-host-[0-9a-f]+|cpp-[0-9a-f]{16}|cpp-[0-9a-f]{20}\.so|typecheck-[0-9a-f]+\.blob|typecheck-snapshot-[0-9a-f]+\.cjs)$/;

/** Link (files) or copy (folders) the suite's shared entries into `dir`. */
export function seedCache(dir: string): string {
  const from = suiteCache();
  if (!from || from === dir) return dir;
  for (const name of readdirSync(from)) {
    if (!SHARED_ENTRY.test(name)) continue;
    const source = join(from, name);
    try {
      if (statSync(source).isDirectory()) cpSync(source, join(dir, name), { recursive: true, preserveTimestamps: true });
      else linkSync(source, join(dir, name));
    } catch {
      // being written by the setup's detached snapshot builder, or already there: the test builds its own
    }
  }
  return dir;
}

/** A private, world-readable cache folder for one test (the caller removes it), seeded from the suite's. */
export function warmCache(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), `referee-${prefix}-`));
  chmodSync(dir, 0o755);
  return seedCache(dir);
}
