/**
 * Issue #22's Python item, run as a user would (`referee check` as a subprocess) in the three modes a grader meets:
 * bubblewrap, no bubblewrap as root, and no bubblewrap as a non-root grader (the CLI started as uid 65534 with
 * setpriv when the tests run as root). The fixture's __fspath__ answers an allowed path first and an outside file
 * after, and tries to disarm the audit hook from inside it: the check passes only if the hook never called it and
 * the outside file was never opened.
 */
import { execFile } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { PYTHON_HOSTILE } from './support.js';
import { scratch } from '../sandbox/support.js';

const run = promisify(execFile);
const CLI = resolve('dist/cli/index.js');
const root = process.getuid?.() === 0;

interface CheckJson {
  ok: boolean;
  steps: { title: string; status: string; detail?: string }[];
}

async function checkAs(mode: 'bwrap' | 'no-bwrap-root' | 'no-bwrap-non-root', submission: string, cache: string): Promise<CheckJson> {
  const env: NodeJS.ProcessEnv = { ...process.env, REFEREE_CACHE_DIR: cache, NODE_OPTIONS: '' };
  if (mode !== 'bwrap') env.REFEREE_SANDBOX_NO_BWRAP = '1';
  const command = mode === 'no-bwrap-non-root' && root ? 'setpriv' : process.execPath;
  const args = [CLI, 'check', submission, '--json'];
  if (command === 'setpriv') args.unshift('--reuid=65534', '--regid=65534', '--clear-groups', process.execPath);
  try {
    const { stdout } = await run(command, args, { env, cwd: cache, timeout: 120_000 });
    return JSON.parse(stdout) as CheckJson;
  } catch (error) {
    const stdout = (error as { stdout?: string }).stdout ?? '';
    if (stdout.trim().startsWith('{')) return JSON.parse(stdout) as CheckJson;
    throw error;
  }
}

const FIXTURES = [
  ['fspath_hook.py', 'io.FileIO(obj): the audit hook never calls obj.__fspath__'],
  ['hook_lookups.py', 'the audit hook looks nothing up that the submission replaced (builtins, os.lstat, realpath)'],
] as const;

describe.each(['bwrap', 'no-bwrap-root', 'no-bwrap-non-root'] as const)('%s', (mode) => {
  test.each(FIXTURES)('%s: %s, and the outside file stays unread', async (fixture) => {
    const dir = scratch(`hook-${mode}`);
    const cache = join(dir, 'cache');
    mkdirSync(cache);
    chmodSync(dir, 0o777);
    chmodSync(cache, 0o777);
    const code = readFileSync(join(PYTHON_HOSTILE, fixture), 'utf8').replace('__TARGET__', JSON.stringify(resolve('package.json')));
    const submission = join(dir, 'AIPlayer.py');
    writeFileSync(submission, code, { mode: 0o644 });
    const result = await checkAs(mode, submission, cache);
    const opening = result.steps.find((step) => step.title.startsWith('get_move answers the opening'));
    expect({ ok: result.ok, opening: opening?.status, detail: opening?.detail }).toEqual({ ok: true, opening: 'pass', detail: expect.stringMatching(/→ [A-H][1-8]/) });
  });
});
