/**
 * Finding Python on Windows (harness/sandbox/python-runtime.ts), where there is no python3 binary: PATH holds
 * python.exe (or the Microsoft Store's stub of that name, which only says where to install Python and fails), and
 * the py launcher, which needs `-3`. Played here with process.platform set to win32 and a PATH of stand-ins that
 * are real programs on this machine: the stub fails like the Store's, py.exe refuses to run without -3 first.
 */
import { chmodSync, mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, expect, test } from '@jest/globals';
import { scratch } from './support.js';

const platform = Object.getOwnPropertyDescriptor(process, 'platform')!;
const path = process.env.PATH;
afterAll(() => {
  Object.defineProperty(process, 'platform', platform);
  process.env.PATH = path;
});

test('win32: the Store stub is skipped, python3 without .exe is not looked for, the py launcher is asked with -3', async () => {
  const dir = scratch('python-windows');
  const [apps, system] = [join(dir, 'WindowsApps'), join(dir, 'Windows')];
  for (const folder of [apps, system]) mkdirSync(folder);
  const script = (file: string, text: string): void => {
    writeFileSync(file, `#!/bin/sh\n${text}\n`);
    chmodSync(file, 0o755);
  };
  script(join(apps, 'python.exe'), 'echo "Python was not found; run without arguments to install from the Microsoft Store" >&2; exit 9009');
  script(join(apps, 'python3'), 'exec /usr/bin/python3 "$@"'); // a name Windows never has: must not be taken
  script(join(system, 'py.exe'), '[ "$1" = "-3" ] || exit 2; shift; exec /usr/bin/python3 "$@"');
  process.env.REFEREE_CACHE_DIR = scratch('python-windows-cache');
  process.env.PATH = [apps, system].join(':');
  delete process.env.REFEREE_PYTHON;
  Object.defineProperty(process, 'platform', { ...platform, value: 'win32' });
  const { findPython } = await import('../../harness/sandbox/python-runtime.js');
  const found = findPython();
  // What runs is the interpreter the launcher reports (sys.executable), not the launcher.
  expect(found && { source: found.source, path: found.path }).toEqual({ source: 'the py launcher', path: realpathSync('/usr/bin/python3') });
});
