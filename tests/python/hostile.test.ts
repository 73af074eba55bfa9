/**
 * Hostile Python fixtures, each with its expected verdict, through the full sandbox (bubblewrap, cgroups,
 * rlimits, the audit hook). Every case also checks that the harness survived (the same player starts again,
 * respawning if it was killed), that no process of the submission is left after close, and that no file
 * appeared where the submission might have written one.
 */
import { tmpdir } from 'node:os';
import { dirname, resolve } from 'node:path';
import type { PlayerAnswer } from '../../harness/referee/player.js';
import { detectLayers, type Layers } from '../../harness/sandbox/layers.js';
import { type HostileCase, isLegalOpening, isolateCache, loopbackListener, playOpening, watchLeftovers } from '../sandbox/support.js';
import { PYTHON_FIXTURES, PYTHON_HOSTILE, pythonFixture, sandboxedPython } from './support.js';

interface Case extends HostileCase {
  /** Run without bubblewrap: the audit hook alone must refuse. */
  noBwrap?: boolean;
}

const legal = (answer: PlayerAnswer): void => {
  const value = answer.kind === 'move' ? answer.value : answer;
  expect(isLegalOpening(value) ? 'a legal move' : value).toBe('a legal move');
};
/** A non-string return arrives as a frozen stand-in naming its Python type and repr. */
const standIn = (type: string, text: string) => (answer: PlayerAnswer): void => {
  expect(answer.kind === 'move' && answer.value).toEqual({ [`<${type}>`]: text });
};

let cache: string;
beforeAll(() => {
  cache = isolateCache();
});
const loopback = loopbackListener();

/**
 * Places outside the sandbox. Paths under the machine's /tmp (the cache is there) only without bubblewrap: with
 * it, /tmp is the sandbox's own tmpfs, writable by design and gone with the process.
 */
const writePaths = (machineTmp: boolean) => () => ({
  __PATHS__: JSON.stringify([
    ...(machineTmp ? [resolve(tmpdir(), 'referee-pwned-py'), resolve(cache, 'pwned')] : []),
    resolve(PYTHON_HOSTILE, 'pwned'),
    resolve('pwned'),
  ]),
});
const readPaths = () => ({
  __PATHS__: JSON.stringify([
    '/etc/passwd',
    resolve('package.json'),
    resolve('harness/games/reversi/board.ts'),
    resolve(PYTHON_FIXTURES, 'random/AIPlayer.py'),
    resolve('reference-ai'),
  ]),
});
/** A file outside the submission that exists on the machine (absent inside bubblewrap, refused without it). */
const fspathTarget = () => ({ __TARGET__: JSON.stringify(resolve('package.json')) });
const valueCase = (name: string, code: string, also: (answer: PlayerAnswer) => void): Case => ({
  name,
  file: 'returns_value.py',
  fill: () => ({ __VALUE__: code }),
  phase: 'move',
  kind: 'move',
  also,
});

const cases: Case[] = [
  { name: 'an infinite loop in Python', file: 'loop_python.py', phase: 'move', kind: 'timeout' },
  { name: 'an infinite loop inside C code (sum(range(10**12)))', file: 'loop_c.py', phase: 'move', kind: 'timeout' },
  { name: 'ignoring SIGTERM, then looping', file: 'ignore_sigterm.py', phase: 'move', kind: 'timeout' },
  { name: 'a memory bomb', file: 'memory_bomb.py', phase: 'move', kind: 'memory', limitMs: 8000, memoryMb: 160 },
  {
    // game.py calls get_move through func_timeout, which returns None for a SystemExit: an illegal answer, not a crash.
    name: 'sys.exit(3) in get_move',
    file: 'sys_exit.py',
    phase: 'move',
    kind: 'move',
    also: standIn('NoneType', 'None (get_move raised SystemExit, which func_timeout in game.py turns into None)'),
  },
  {
    name: 'os._exit(4)',
    file: 'os_exit.py',
    phase: 'move',
    kind: 'crash',
    also: (answer) => expect(answer.kind === 'crash' && answer.exitCode).toBe(4),
  },
  { name: 'a fork loop', file: 'fork_loop.py', phase: 'move', kind: 'move', also: legal },
  { name: 'subprocess, os.system, posix_spawn, exec and ctypes', file: 'subprocess_run.py', phase: 'move', kind: 'move', also: legal },
  { name: 'writing files', file: 'write_files.py', fill: writePaths(false), phase: 'move', kind: 'move', also: legal },
  { name: 'writing files without bubblewrap', file: 'write_files.py', fill: writePaths(true), phase: 'move', kind: 'move', also: legal, noBwrap: true },
  { name: 'reading other files', file: 'read_files.py', fill: readPaths, phase: 'move', kind: 'move', also: legal },
  { name: 'reading other files without bubblewrap', file: 'read_files.py', fill: readPaths, phase: 'move', kind: 'move', also: legal, noBwrap: true },
  {
    name: 'a TCP connection to a loopback listener',
    file: 'sockets.py',
    fill: () => ({ __PORT__: String(loopback.port()) }),
    phase: 'move',
    kind: 'move',
    also: (answer) => {
      legal(answer);
      expect(loopback.received).toEqual([]);
    },
    noBwrap: true,
  },
  // Issue #22: the audit hook never calls the submission's objects (io.FileIO(obj) passes obj to the hook).
  { name: "a path object whose __fspath__ targets the hook", file: 'fspath_hook.py', fill: fspathTarget, phase: 'move', kind: 'move', also: legal },
  { name: "a path object whose __fspath__ targets the hook, without bubblewrap", file: 'fspath_hook.py', fill: fspathTarget, phase: 'move', kind: 'move', also: legal, noBwrap: true },
  { name: 'replacing what the hook might look up (builtins, os.lstat, realpath)', file: 'hook_lookups.py', fill: fspathTarget, phase: 'move', kind: 'move', also: legal },
  { name: 'replacing what the hook might look up, without bubblewrap', file: 'hook_lookups.py', fill: fspathTarget, phase: 'move', kind: 'move', also: legal, noBwrap: true },
  {
    name: 'mutating board._board',
    file: 'mutate_board.py',
    phase: 'move',
    kind: 'tamper',
    also: (answer) => expect(answer.kind === 'tamper' && isLegalOpening(answer.value)).toBe(true),
  },
  {
    // The host took _fingerprint and _from_state before the submission was imported: replacing them hides nothing.
    name: 'replacing board._fingerprint and board._from_state, then mutating the board',
    file: 'hide_tamper.py',
    phase: 'move',
    kind: 'tamper',
    also: (answer) => expect(answer.kind === 'tamper' && isLegalOpening(answer.value)).toBe(true),
  },
  // Routes to the host's tamper check that need no frame walking, each closed: the change is still a tamper.
  ...['main', 'json', 'info-globals', 'excepthook-globals', 'dict-subclass'].map(
    (route): Case => ({
      name: `switching off the tamper check by the ${route} route, then mutating the board`,
      file: 'hide_tamper_route.py',
      fill: () => ({ __ROUTE__: route }),
      phase: 'move',
      kind: 'tamper',
      also: (answer) => expect(answer.kind === 'tamper' && isLegalOpening(answer.value)).toBe(true),
    }),
  ),
  valueCase('returning None', 'None', standIn('NoneType', 'None')),
  valueCase('returning a tuple', "('D', 3)", standIn('tuple', "('D', 3)")),
  valueCase('returning an int', '42', standIn('int', '42')),
  valueCase("returning 'd3'", "'d3'", (answer) => expect(answer.kind === 'move' && answer.value).toBe('d3')),
];

describe.each(cases)('python hostile: $name', (c) => {
  test(`→ ${c.kind} (${c.phase})`, async () => {
    const path = pythonFixture(c.file, c.fill?.() ?? {});
    const expectNothingLeft = watchLeftovers([dirname(path), PYTHON_HOSTILE], cache);
    const layers: Layers | undefined = c.noBwrap ? { ...detectLayers(), bwrap: null } : undefined;
    const { player, entry } = await sandboxedPython(path, { memoryMb: c.memoryMb ?? 256, ...(layers ? { layers } : {}) });
    try {
      const limitMs = c.limitMs ?? 1500;
      const { phase, answer } = await playOpening(player, limitMs);
      expect({ phase, kind: answer.kind, answer }).toEqual({ phase: c.phase, kind: c.kind, answer: expect.anything() });
      c.also?.(answer);
      const again = await playOpening(player, limitMs);
      expect(again.phase === 'move' || again.answer.kind === c.kind).toBe(true);
    } finally {
      await player.close();
    }
    expectNothingLeft(entry);
  });
});
