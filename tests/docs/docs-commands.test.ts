/**
 * The docs are checked by running them: the shell commands of README.md's Quick start and of the fenced `sh`
 * blocks in docs/student-guide.md run as subprocesses in a temporary copy of the clone (with `referee` on PATH
 * as the built CLI) and must exit 0; every relative link in README.md and docs/*.md must name a file (and heading)
 * that exists. Commands that need the network, a course's binaries or minutes of time are skipped, with the reason
 * (the Quick start's `npm ci && npm start` is run as written by CI on its fresh clone, which the last case checks).
 */
import { spawn } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, test } from '@jest/globals';

const ROOT = resolve('.');
const PAGES = ['README.md', ...readdirSync(join(ROOT, 'docs')).filter((name) => name.endsWith('.md')).map((name) => `docs/${name}`)];

/** Commands not run, by how they start, and why. */
const SKIPPED: Array<[RegExp, string]> = [
  [/^npm ci\b/, 'npm ci needs the registry (network) and minutes; the copy shares this clone\'s installed node_modules'],
  [/^npm test\b/, 'npm test is the whole suite (minutes); the lead runs it'],
  // Run as written by CI itself: .ci/run starts with the Quick start's first line on its fresh clone (checked below).
  // Here it would rebuild all of dist in the copy (tsc, ~20 s of CPU) before the grade it ends with.
  [/^npm start\b/, 'CI runs `npm ci && npm start` on a fresh clone before npm test (.ci/run)'],
  [/--white TestCases\//, 'needs the course\'s compiled TestCases/*.so, which Referee does not ship'],
];

interface DocCommand {
  page: string;
  line: string;
}

/** Lines of the fenced `sh` blocks of a page (only the section under `heading` when given), comments dropped. */
function shellCommands(page: string, heading?: string): DocCommand[] {
  let text = readFileSync(join(ROOT, page), 'utf8');
  if (heading) {
    const start = text.indexOf(`\n${heading}\n`);
    if (start < 0) throw new Error(`${page} has no "${heading}" section`);
    const next = text.indexOf('\n## ', start + heading.length + 2);
    text = text.slice(start, next < 0 ? undefined : next);
  }
  const commands: DocCommand[] = [];
  for (const block of text.matchAll(/^```sh\n([\s\S]*?)^```/gm)) {
    for (const raw of block[1].split('\n')) {
      // `a && b` is two commands, so that skipping one (npm ci) still runs the other.
      for (const part of raw.replace(/\s+#.*$/, '').split('&&')) {
        const line = part.trim();
        if (line !== '' && !line.startsWith('#')) commands.push({ page, line });
      }
    }
  }
  return commands;
}

const COMMANDS = [...shellCommands('README.md', '## Quick start'), ...shellCommands('docs/student-guide.md')];

/** A copy of the clone's sources with this clone's node_modules linked in, and a `referee` command on PATH. */
function cloneCopy(): { dir: string; env: NodeJS.ProcessEnv } {
  const dir = mkdtempSync(join(tmpdir(), 'referee-docs-'));
  for (const name of readdirSync(ROOT)) {
    if (['node_modules', '.git', 'referee-report'].includes(name)) continue;
    cpSync(join(ROOT, name), join(dir, name), { recursive: true });
  }
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
  // The C++ guide's commands expect the course SDK's Strategy/ folder next to them.
  cpSync(join(ROOT, 'tests', 'fixtures', 'cpp', 'testai-greedy'), join(dir, 'Strategy'), { recursive: true });
  mkdirSync(join(dir, '.bin'));
  const shim = join(dir, '.bin', 'referee');
  writeFileSync(shim, `#!/bin/sh\nexec "${process.execPath}" "${join(dir, 'dist', 'cli', 'index.js')}" "$@"\n`);
  chmodSync(shim, 0o755);
  return { dir, env: { ...process.env, PATH: `${join(dir, '.bin')}:${dirname(process.execPath)}:${process.env.PATH ?? ''}`, NODE_OPTIONS: '' } };
}

function runShell(line: string, cwd: string, env: NodeJS.ProcessEnv): Promise<{ code: number | null; output: string }> {
  return new Promise((done, fail) => {
    const child = spawn('sh', ['-c', line], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4000)));
    child.stderr.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4000)));
    child.on('error', fail);
    child.on('close', (code) => done({ code, output }));
  });
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
const anchorOf = (heading: string): string =>
  heading.trim().toLowerCase().replace(/`/g, '').replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-');

function anchors(page: string): Set<string> {
  const text = readFileSync(page, 'utf8').replace(/^```[\s\S]*?^```/gm, '');
  const seen = new Map<string, number>();
  const found = new Set<string>();
  for (const match of text.matchAll(/^#{1,6}\s+(.+)$/gm)) {
    const base = anchorOf(match[1]);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    found.add(count === 0 ? base : `${base}-${count}`);
  }
  return found;
}

describe('docs commands', () => {
  test('the pages have commands to run', () => {
    expect(COMMANDS.length).toBeGreaterThanOrEqual(3);
  });

  test('each safe command of the Quick start and the student guide exits 0 in a copy of the clone', async () => {
    const { dir, env } = cloneCopy();
    const ran: string[] = [];
    for (const { page, line } of COMMANDS) {
      if (SKIPPED.some(([pattern]) => pattern.test(line))) continue;
      const { code, output } = await runShell(line, dir, env);
      if (code !== 0) throw new Error(`${page}: \`${line}\` exited ${code}:\n${output}`);
      ran.push(line);
    }
    expect(ran.some((line) => line.startsWith('referee check'))).toBe(true);
  }, 600_000);

  test("CI runs the Quick start's install-and-grade line as written, on a fresh clone, before the tests", () => {
    const quickStart = shellCommands('README.md', '## Quick start').map(({ line }) => line);
    expect(quickStart).toEqual(expect.arrayContaining(['npm ci', 'npm start', 'npm test']));
    const ci = readFileSync(join(ROOT, '.ci', 'run'), 'utf8').split('\n').map((line) => line.trim());
    // In a subshell: set -e does not stop for a failure inside an && list.
    const install = ci.indexOf('(npm ci && npm start)');
    expect(install).toBeGreaterThanOrEqual(0);
    expect(ci.indexOf('npm test')).toBeGreaterThan(install);
    // What `npm start` runs: the build, then a grade of the student template into referee-report/.
    const scripts = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
    expect(scripts.start).toMatch(/^npm run build --silent && node dist\/cli\/index\.js grade student-template\/src\/AIPlayer\.ts --out referee-report$/);
  });
});

describe('docs links', () => {
  test.each(PAGES)('every relative link in %s names a file and heading that exist', (page) => {
    const text = readFileSync(join(ROOT, page), 'utf8').replace(/^```[\s\S]*?^```/gm, '').replace(/`[^`\n]*`/g, '');
    const broken: string[] = [];
    for (const match of text.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
      const target = match[1];
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // http:, https:, mailto:
      const [path, anchor] = target.split('#');
      const file = path === '' ? join(ROOT, page) : resolve(ROOT, dirname(page), path);
      if (!existsSync(file)) broken.push(`${target} (no file ${path})`);
      else if (anchor && file.endsWith('.md') && !anchors(file).has(anchor)) broken.push(`${target} (no heading #${anchor})`);
    }
    expect(broken).toEqual([]);
  });
});
