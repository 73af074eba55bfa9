/**
 * Processes a test file starts (CLIs, servers, batches) are stopped when the test that started them ends, passed,
 * failed or timed out; those a beforeAll started, when the file ends. A leftover of a failed test would take the
 * next tests' CPU, ports or queued games on a loaded machine and fail them too (the cascade CI saw in the queue
 * tests). A test that means to stop its process still does; this only catches what a failure left behind.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { afterAll, afterEach, beforeEach } from '@jest/globals';

/** Between a test's beforeEach and afterEach: jest's own currentTestName still names the last test in a beforeAll. */
let testRunning = false;
const ofTest = new Set<ChildProcess>();
const ofFile = new Set<ChildProcess>();

beforeEach(() => {
  testRunning = true;
});

afterEach(async () => {
  testRunning = false;
  await stopAll(ofTest, true);
});

afterAll(() => stopAll(ofFile, false));

/**
 * Stops `child` after the current test (or, outside a test, after the file) unless it has exited by then; `'file'`
 * for a process a test starts for the tests after it (a server restarted mid-file).
 */
export function stopAfterwards<T extends ChildProcess>(child: T, until: 'test' | 'file' = testRunning ? 'test' : 'file', describe?: () => string): T {
  const owner = until === 'test' ? ofTest : ofFile;
  owner.add(child);
  if (describe) described.set(child, describe);
  child.once('exit', () => owner.delete(child));
  return child;
}

/** What a process left running was doing (its output so far): says where a failed or timed-out test stood. */
const described = new WeakMap<ChildProcess, () => string>();

async function stopAll(children: Set<ChildProcess>, say: boolean): Promise<void> {
  const left = [...children];
  children.clear();
  for (const child of left) {
    const describe = described.get(child);
    if (say && describe && child.exitCode === null && child.signalCode === null) console.warn(`left running, stopped now: ${describe().slice(-2000)}`);
  }
  await Promise.all(left.map(stopChild));
}

/** Thawed (a test may have stopped it), SIGTERM so it can stop its own players, SIGKILL if it lingers 5 s. */
export async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGCONT');
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
  await exited;
  clearTimeout(timer);
}

/** What a run printed and how it ended. */
export interface ChildRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/**
 * Spawns a command and waits for its end, however long a loaded machine takes (no spawnSync timeout, which killed
 * working runs at load and blocked jest's own timeout meanwhile); a test that fails or times out stops it.
 */
export function runToEnd(command: string, args: string[], env?: NodeJS.ProcessEnv, cwd?: string): Promise<ChildRun> {
  const child = stopAfterwards(spawn(command, args, { env, cwd, stdio: ['ignore', 'pipe', 'pipe'] }));
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}
