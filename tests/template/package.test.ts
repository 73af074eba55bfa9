/**
 * The package as published: `npm pack` of this checkout, installed into an empty folder as a user would, then
 * `npx referee` from there. The tarball carries LICENSE, the metadata and `exports`, the Gradescope bundle files,
 * no benchmarks and no source maps but the bundled CLI's; the install pulls no native module and no Redis client (the instructor-side
 * packages are optional peers) and warns about no engine; check works, and batch says in one line what to install.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from '@jest/globals';
import { packageRoot } from '../../grading/package-root.js';

const work = mkdtempSync(join(tmpdir(), 'referee-package-'));
const env = { ...process.env, NODE_OPTIONS: '' };
let files: string[] = [];
let tarball = '';
let install = { status: 0 as number | null, stderr: '' };

beforeAll(() => {
  const packed = JSON.parse(execFileSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', work], { cwd: packageRoot(), encoding: 'utf8', env })) as { filename: string; files: { path: string }[] }[];
  files = packed[0].files.map((file) => file.path);
  tarball = join(work, packed[0].filename);
  const project = join(work, 'empty');
  execFileSync('mkdir', ['-p', project]);
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'empty', version: '1.0.0', private: true }));
  const run = spawnSync('npm', ['install', '--no-audit', '--no-fund', '--ignore-scripts', tarball], { cwd: project, encoding: 'utf8', env });
  install = { status: run.status, stderr: run.stderr };
}, 300_000);

const npx = (args: string[]) => spawnSync('npx', ['--no-install', 'referee', ...args], { cwd: join(work, 'empty'), encoding: 'utf8', env });

describe('the packed tarball', () => {
  test('carries LICENSE, metadata, exports and the Gradescope files; no benchmarks, no source maps', () => {
    expect(files).toEqual(expect.arrayContaining(['LICENSE', 'package.json', 'README.md', 'dist/cli/index.js', 'grading/exporters/gradescope/setup.sh', 'grading/exporters/gradescope/run_autograder']));
    // The bundled CLI's maps ship (stack traces name the .ts file and line); tsc's output has none.
    expect(files.filter((file) => (file.endsWith('.map') && !/^dist\/cli\/[^/]+\.js\.map$/.test(file)) || file.startsWith('dist/scripts/') || file.startsWith('dist/tests/'))).toEqual([]);
    const manifest = JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8')) as Record<string, unknown>;
    expect(manifest).toMatchObject({ license: 'MIT', repository: expect.any(Object), homepage: expect.any(String), bugs: expect.any(Object), exports: { '.': expect.any(Object), './package.json': './package.json' } });
  });

  test('installs in an empty folder without engine warnings or native modules; npx referee works', () => {
    expect(install.status).toBe(0);
    expect(install.stderr).not.toMatch(/EBADENGINE/);
    const installed = join(work, 'empty', 'node_modules');
    for (const optional of ['better-sqlite3', 'bullmq', 'ioredis', '@dodona/dolos-lib', 'openskill']) expect(existsSync(join(installed, optional))).toBe(false);
    // No sourceMappingURL dangles: each shipped script's map is shipped beside it.
    for (const file of files.filter((path) => path.endsWith('.js'))) {
      const map = /\/\/# sourceMappingURL=(\S+)\s*$/.exec(readFileSync(join(installed, 'board-referee', file), 'utf8'))?.[1];
      if (map) expect(files).toContain(join(file, '..', map));
    }
    const version = npx(['--version']);
    expect(version.stdout.trim()).toBe(JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8')).version);
    const check = npx(['check', join(packageRoot(), 'student-template', 'src', 'AIPlayer.ts')]);
    expect({ status: check.status, stdout: check.stdout }).toMatchObject({ status: 0, stdout: expect.stringMatching(/PASS/) });
    const batch = npx(['batch', 'submissions']);
    expect(batch.status).toBe(2);
    expect(batch.stderr.trim()).toMatch(/^referee: referee batch needs better-sqlite3, bullmq, ioredis, left out of a student install: run `npm install better-sqlite3@\^12[^`]*`/);
    // The package's public entry: the student Board types and helpers, through `exports`.
    const imported = spawnSync(process.execPath, ['--input-type=module', '-e', "const m = await import('board-referee'); console.log(typeof m.moveInfo)"], { cwd: join(work, 'empty'), encoding: 'utf8', env });
    expect(imported.stdout.trim()).toBe('function');
  }, 120_000);

  test('ships its postinstall and nothing prebuilt; the postinstall builds the C++ host and the tools into the installation', () => {
    expect(files).toContain('scripts/prepare-installation.mjs');
    expect(files.filter((file) => file.startsWith('prebuilt/'))).toEqual([]);
    const manifest = JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    expect(manifest.scripts.postinstall).toBe('node scripts/prepare-installation.mjs');
    // What npm runs after installing the package (the install above skipped scripts): run it as npm would.
    const installed = join(work, 'empty', 'node_modules', 'board-referee');
    const run = spawnSync(process.execPath, ['scripts/prepare-installation.mjs'], { cwd: installed, encoding: 'utf8', env });
    expect({ status: run.status, stdout: run.stdout }).toMatchObject({ status: 0, stdout: expect.stringMatching(/C\+\+ host built ahead: cpp-host-[0-9a-f]+/) });
    const prebuilt = readdirSync(join(installed, 'prebuilt'));
    expect(prebuilt).toEqual(expect.arrayContaining(['stamp.json', expect.stringMatching(/^cpp-host-[0-9a-f]+$/), expect.stringMatching(/^native-[0-9a-f]+$/), expect.stringMatching(/^taskstats-[0-9a-f]+$/)]));
    // The same names as this checkout's build: one content-addressed name per version of the sources.
    expect(prebuilt.filter((name) => name !== 'stamp.json').sort()).toEqual(readdirSync(join(packageRoot(), 'prebuilt')).filter((name) => name !== 'stamp.json').sort());
  }, 120_000);
});
