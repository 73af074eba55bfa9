/**
 * The child host as one CommonJS file: host.ts plus the game rules it needs, bundled by esbuild on first use
 * and cached by content hash. One file is easy to bind read-only into the sandbox and to allow in Node's
 * permission model, and it holds nothing else of the harness (no reference AIs, no grading code).
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { esbuild } from './lazy-esbuild.js';
import { cacheFile } from './cache-dir.js';

let bundled: Promise<string> | null = null;

/** The host entry next to this module: host.js when running compiled, host.ts under ts-jest. */
function hostEntry(): string {
  for (const name of ['./child/host.js', './child/host.ts']) {
    const path = fileURLToPath(new URL(name, import.meta.url));
    if (existsSync(path)) return path;
  }
  throw new Error('the sandbox host (harness/sandbox/child/host) is missing: rebuild with npm run build');
}

async function bundleHost(): Promise<string> {
  const result = await esbuild().build({
    entryPoints: [hostEntry()],
    bundle: true,
    write: false,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    logLevel: 'silent',
  });
  const text = result.outputFiles[0].text;
  const hash = createHash('sha256').update(text).digest('hex').slice(0, 16);
  return cacheFile(`host-${hash}.cjs`, text);
}

/** Path of the bundled host, built once per process. */
export function hostBundlePath(): Promise<string> {
  bundled ??= bundleHost().catch((error: unknown) => {
    bundled = null;
    throw error;
  });
  return bundled;
}
