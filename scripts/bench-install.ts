/**
 * `npm run bench -- install`: a student's first minute. `referee init` a starter (this checkout packed into
 * vendor/), then the starter's own `npm ci` from an empty npm cache, as on a fresh laptop or CI runner: the wall
 * time against the 60 s goal, and what was installed. Needs the npm registry (the dependencies come from it).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { packageFile } from '../grading/package-root.js';

const GOAL_S = 60;

export function benchInstall(): void {
  console.log('## Starter install (referee init, then npm ci from an empty npm cache)');
  const work = mkdtempSync(join(tmpdir(), 'referee-bench-install-'));
  try {
    const starter = join(work, 'starter');
    // init's lockfile fetches package metadata: its own cache, so the install's cache really starts empty.
    const initEnv = { ...process.env, NODE_OPTIONS: '', npm_config_cache: join(work, 'init-cache') };
    execFileSync(process.execPath, [packageFile('dist', 'cli', 'index.js'), 'init', starter], { env: initEnv, stdio: 'ignore' });
    const env = { ...process.env, NODE_OPTIONS: '', npm_config_cache: join(work, 'npm-cache') };
    rmSync(join(starter, 'node_modules'), { recursive: true, force: true });
    const started = performance.now();
    const install = spawnSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: starter, env, encoding: 'utf8' });
    const seconds = (performance.now() - started) / 1000;
    if (install.status !== 0) {
      console.log(`  skipped: npm ci failed (${install.stderr.trim().split('\n').pop() ?? 'no message'}): is the npm registry reachable?`);
      return;
    }
    const packages = readdirSync(join(starter, 'node_modules')).reduce((count, name) => count + (name.startsWith('@') ? readdirSync(join(starter, 'node_modules', name)).length : 1), 0) - (readdirSync(join(starter, 'node_modules')).includes('.bin') ? 1 : 0);
    const native = ['better-sqlite3', 'bullmq', 'ioredis'].filter((name) => readdirSync(join(starter, 'node_modules')).includes(name));
    console.log(`  npm ci: ${seconds.toFixed(1)} s from a cold cache (${(seconds / GOAL_S).toFixed(2)}x the ${GOAL_S} s goal), ${packages} packages`);
    console.log(`  instructor-only packages installed: ${native.length === 0 ? 'none' : native.join(', ')} (before: 63 s idle, 148 packages, better-sqlite3 compiled)`);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
