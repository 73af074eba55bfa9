/**
 * esbuild's API, loaded on its first use: only TypeScript submissions and node players need it, and a Python or
 * C++ `referee check` should not pay for loading it (issue #35). Through require, not import(): Node scans a
 * CommonJS module for its export names when ESM imports it, which costs more than esbuild's module itself.
 */
import { createRequire } from 'node:module';
import type * as Esbuild from 'esbuild';

const require = createRequire(import.meta.url);

export function esbuild(): typeof Esbuild {
  return require('esbuild') as typeof Esbuild;
}
