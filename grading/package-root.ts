/**
 * Files that ship beside the code (JSON Schemas, report templates, the student template) live at fixed paths under
 * the package root; the root is found by walking up from this module, so the same lookup works from the
 * TypeScript sources (tests) and from dist/ (the built CLI).
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

let cachedRoot: string | null = null;

export function packageRoot(): string {
  if (cachedRoot !== null) return cachedRoot;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest) && (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name === 'board-referee') {
      cachedRoot = dir;
      return dir;
    }
    const parent = dirname(dir);
    if (parent === dir) throw new Error('cannot find the referee package root (package.json named "board-referee") above grading/');
    dir = parent;
  }
}

/** A path under the package root, e.g. packageFile('grading', 'assignment.schema.json'). */
export function packageFile(...parts: string[]): string {
  return join(packageRoot(), ...parts);
}

/** The harness version written into every grade (package.json's version). */
export function harnessVersion(): string {
  return (JSON.parse(readFileSync(packageFile('package.json'), 'utf8')) as { version: string }).version;
}
