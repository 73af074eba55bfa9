/**
 * The memory wall (harness/sandbox/memory-wall.ts) and the loader's reasons (load-failure.ts), as pure functions:
 * the messages are glibc's own dlerror texts for each cause.
 */
import { expect, test } from '@jest/globals';
import { explainLoadFailure } from '../../harness/sandbox/load-failure.js';
import { memoryWall } from '../../harness/sandbox/memory-wall.js';
import type { CgroupSupport } from '../../harness/sandbox/cgroup.js';

const v1: CgroupSupport = { version: 'v1', base: '/sys/fs/cgroup/memory', controllers: ['memory', 'pids', 'cpu'], dirs: {}, freezer: null };

test('a writable memory cgroup holds resident memory with no address-space limit; without one, the watchdog and a backstop', () => {
  expect(memoryWall({ cgroup: v1 }, 1024)).toMatchObject({ kind: 'cgroup', addressSpace: 'unlimited' });
  // A cgroup without the memory controller (pids only) is no memory wall.
  expect(memoryWall({ cgroup: { ...v1, controllers: ['pids'] } }, 1024).kind).toBe('watchdog');
  const none = memoryWall({ cgroup: null }, 512);
  expect(none).toMatchObject({ kind: 'watchdog', addressSpace: String(32 * 1024 * 1024) });
  expect(none.description).toMatch(/^resident memory 512 MB, held by the grader's watchdog .*address space 32 GB$/);
  // A high limit keeps its backstop 16x above it.
  expect(memoryWall({ cgroup: null }, 4096).addressSpace).toBe(String(64 * 1024 * 1024));
});

test.each([
  ['/run/x/cpp-1.so: failed to map segment from shared object', /^address-space refusal/, /static pools smaller/],
  ['/run/x/cpp-1.so: undefined symbol: _Z8evaluatePPii', /^missing symbol _Z8evaluatePPii/, /define evaluate\(…\) \(C\+\+ name _Z8evaluatePPii\)/],
  ['/run/x/50.so: wrong ELF class: ELFCLASS32', /^wrong architecture/, /Linux for x86-64/],
  ['/run/x/50.so: invalid ELF header', /^wrong architecture/, /-fPIC -shared/],
  ['libjsoncpp.so.25: cannot open shared object file: No such file or directory', /^missing library libjsoncpp\.so\.25/, /do not link against libjsoncpp\.so\.25/],
])('the loader said %s', (message, cause, hint) => {
  const failure = explainLoadFailure(message);
  expect(failure?.cause).toMatch(cause);
  expect(failure?.hint).toMatch(hint);
});

test('a message the loader does not give is not classified', () => {
  expect(explainLoadFailure('the AIPlayer constructor threw bad things')).toBeNull();
});
