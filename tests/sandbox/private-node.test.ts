/**
 * A Node installed in a private home (nvm under /root, mode 0700: Docker images, Gradescope): the grader runs as
 * root and drops each player to uid 65534, which cannot reach that binary. The sandbox stages a copy it can run
 * (node-runtime.ts), with bubblewrap and without it. The control shows the uid really cannot run the original.
 * Root only (the drop to another uid needs it; CI runs as root).
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { dropPrivileges, UNPRIVILEGED_ID } from '../../harness/sandbox/layers.js';
import { privateStep } from '../../harness/sandbox/node-runtime.js';
import { tempDir } from '../batch/helpers.js';
import { runToEnd } from '../setup/children.js';

const CLI = resolve('dist/cli/index.js');
const STUDENT = resolve('tests/fixtures/students/fair/AIPlayer.ts');
const root = process.getuid?.() === 0;
const testAsRoot = root ? test : test.skip;
let home = '';
let node = '';

beforeAll(() => {
  if (!root) return;
  // Not under /tmp: without bubblewrap a player's /tmp is its own, which would hide the binary for another reason.
  home = mkdtempSync(join(homedir(), '.referee-private-node-'));
  chmodSync(home, 0o700);
  mkdirSync(join(home, 'bin'));
  node = join(home, 'bin', 'node');
  copyFileSync(process.execPath, node);
  chmodSync(node, 0o755);
});

afterAll(() => {
  if (home) rmSync(home, { recursive: true, force: true });
});

const check = (env: Record<string, string>, binary = node) => runToEnd(binary, [CLI, 'check', STUDENT], { ...process.env, REFEREE_CACHE_DIR: tempDir('cache'), ...env });

testAsRoot('control: uid 65534 cannot run a node kept in a 0700 home', () => {
  expect(home.startsWith(privateStep(node) ?? 'no private step')).toBe(true);
  // The drop every player gets (layers.ts); node is then started by a program of that uid (bubblewrap, the
  // Landlock launcher), here sh. (setpriv's own exec of it succeeds: it is not what starts node in the sandbox.)
  const [setpriv, ...drop] = dropPrivileges({ uid: UNPRIVILEGED_ID, gid: UNPRIVILEGED_ID, setpriv: 'setpriv' });
  const run = spawnSync(setpriv, [...drop, '/bin/sh', '-c', '"$0" --version', node], { encoding: 'utf8' });
  expect(run.stderr).toMatch(/Permission denied/);
  expect(run.status).not.toBe(0);
  expect(privateStep(process.execPath)).toBeNull();
});

testAsRoot.each([
  ['without bubblewrap', { REFEREE_SANDBOX_NO_BWRAP: '1' }],
  ['with bubblewrap', {}],
])('check passes on that node %s (the sandbox runs a staged copy)', async (_mode, env) => {
  const run = await check(env);
  expect({ status: run.code, stderr: run.stderr.split('\n').filter((line) => /grader error|cannot/.test(line)) }).toEqual({ status: 0, stderr: [] });
  expect(run.stdout).toMatch(/^PASS/m);
});

// A node unpacked under /tmp (CI's Node 22 from the npm registry in a checkout there): without bubblewrap the player's
// /tmp is its own tmpfs, so the original is gone from its view — the sandbox runs a staged copy of it too.
testAsRoot('check passes without bubblewrap on a node kept under /tmp', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'referee-tmp-node-'));
  try {
    const inTmp = join(dir, 'node');
    copyFileSync(process.execPath, inTmp);
    chmodSync(inTmp, 0o755);
    const run = await check({ REFEREE_SANDBOX_NO_BWRAP: '1' }, inTmp);
    expect({ status: run.code, stderr: run.stderr.split('\n').filter((line) => /grader error|cannot/.test(line)) }).toEqual({ status: 0, stderr: [] });
    expect(run.stdout).toMatch(/^PASS/m);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
