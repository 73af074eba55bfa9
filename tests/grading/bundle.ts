/**
 * Runs a TypeScript entry in a child node process: esbuild bundles it (dependencies stay external) into a folder
 * under the package root, so the code's own package-root lookups work as they do from dist/.
 */
import { mkdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import { build } from 'esbuild';
import { packageFile } from '../../grading/package-root.js';
import { runToEnd, type ChildRun } from '../setup/children.js';

export async function bundleForNode(entry: string): Promise<string> {
  const dir = packageFile('node_modules', '.referee-test');
  mkdirSync(dir, { recursive: true });
  const outfile = join(dir, `${basename(entry, '.ts')}-${process.pid}.mjs`);
  await build({ entryPoints: [entry], bundle: true, platform: 'node', format: 'esm', target: 'node20', packages: 'external', outfile, logLevel: 'silent' });
  return outfile;
}

/** Runs the script with this Node to its end, however long a loaded machine takes (tests/setup/children.ts). */
export function runNode(script: string, args: string[]): Promise<ChildRun> {
  return runToEnd(process.execPath, [script, ...args]);
}
