/**
 * Runs a TypeScript entry in a child node process: esbuild bundles it (dependencies stay external) into a folder
 * under the package root, so the code's own package-root lookups work as they do from dist/.
 */
import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import { build } from 'esbuild';
import { packageFile } from '../../grading/package-root.js';
import { stopAfterwards } from '../setup/children.js';

export async function bundleForNode(entry: string): Promise<string> {
  const dir = packageFile('node_modules', '.referee-test');
  mkdirSync(dir, { recursive: true });
  const outfile = join(dir, `${basename(entry, '.ts')}-${process.pid}.mjs`);
  await build({ entryPoints: [entry], bundle: true, platform: 'node', format: 'esm', target: 'node20', packages: 'external', outfile, logLevel: 'silent' });
  return outfile;
}

export interface NodeRun {
  status: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs the script to its end, however long a loaded machine takes (a 60 s spawnSync timeout killed a working run
 * at load, and blocked jest's own timeout meanwhile); a test that fails or times out stops it.
 */
export function runNode(script: string, args: string[]): Promise<NodeRun> {
  const child = stopAfterwards(spawn(process.execPath, [script, ...args], { stdio: ['ignore', 'pipe', 'pipe'] }));
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (status, signal) => resolve({ status, signal, stdout, stderr }));
  });
}
