/**
 * Issue #22's Python item, run as a user would (`referee check` as a subprocess) in the three modes a grader meets:
 * bubblewrap, no bubblewrap as root, and no bubblewrap as a non-root grader (rows of tests/setup/sandbox-modes.ts;
 * the CLI started as uid 4242 with setpriv when the tests run as root). The fixture's __fspath__ answers an allowed path first and an outside file
 * after, and tries to disarm the audit hook from inside it: the check passes only if the hook never called it and
 * the outside file was never opened.
 */
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { PYTHON_HOSTILE } from './support.js';
import { scratch } from '../sandbox/support.js';
import { runToEnd } from '../setup/children.js';
import { seedCache } from '../setup/suite-cache.js';
import { canRun, graderCommand, modeEnv, sandboxModes, type SandboxMode } from '../setup/sandbox-modes.js';

const CLI = resolve('dist/cli/index.js');

interface CheckJson {
  ok: boolean;
  steps: { title: string; status: string; detail?: string }[];
}

async function checkAs(mode: SandboxMode, submission: string, cache: string): Promise<CheckJson> {
  const env = modeEnv(mode, { ...process.env, REFEREE_CACHE_DIR: cache, NODE_OPTIONS: '' });
  const [command, ...args] = graderCommand(mode, [CLI, 'check', submission, '--json']);
  // To its own end however loaded the machine (a failed or timed-out test stops it); a failed check still prints JSON.
  const check = await runToEnd(command, args, env, cache);
  if (!check.stdout.trim().startsWith('{')) throw new Error(`referee check printed no JSON (exit ${check.code ?? check.signal}): ${check.stderr.slice(-2000)}`);
  return JSON.parse(check.stdout) as CheckJson;
}

const FIXTURES = [
  ['fspath_hook.py', 'io.FileIO(obj): the audit hook never calls obj.__fspath__'],
  ['hook_lookups.py', 'the audit hook looks nothing up that the submission replaced (builtins, os.lstat, realpath)'],
] as const;

/** One cache per mode: seeded with the suite's runtime for a root grader; empty (its own) for a non-root one. */
const caches = new Map<string, string>();
function cacheFor(mode: SandboxMode): string {
  if (!caches.has(mode.id)) {
    const cache = join(scratch(`hook-cache-${mode.id}`), 'cache');
    mkdirSync(cache);
    chmodSync(join(cache, '..'), 0o777);
    chmodSync(cache, 0o777);
    caches.set(mode.id, mode.uid === 0 ? seedCache(cache) : cache);
  }
  return caches.get(mode.id)!;
}

describe.each(sandboxModes('bwrap', 'no-bwrap-root', 'no-bwrap-user'))('$label', (mode) => {
  (canRun(mode) ? test : test.skip).each(FIXTURES)('%s: %s, and the outside file stays unread', async (fixture) => {
    const dir = scratch(`hook-${mode.id}`);
    const cache = cacheFor(mode);
    chmodSync(dir, 0o777);
    const code = readFileSync(join(PYTHON_HOSTILE, fixture), 'utf8').replace('__TARGET__', JSON.stringify(resolve('package.json')));
    const submission = join(dir, 'AIPlayer.py');
    writeFileSync(submission, code, { mode: 0o644 });
    const result = await checkAs(mode, submission, cache);
    const opening = result.steps.find((step) => step.title.startsWith('get_move answers the opening'));
    // 'warn' only says the answer was slower than the built-in ladder's pace (a loaded machine): the hook held.
    expect({ ok: result.ok, opening: opening?.status, detail: opening?.detail }).toEqual({ ok: true, opening: expect.stringMatching(/^(pass|warn)$/), detail: expect.stringMatching(/→ [A-H][1-8]/) });
  });
});
