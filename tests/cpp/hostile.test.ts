/**
 * Hostile C++ (Strategy.cpp files compiled by Referee), each with its verdict, in every sandbox mode a course
 * runs: bubblewrap; no bubblewrap as root (unshare's namespaces, uid 65534, Landlock); no bubblewrap as a plain user
 * (Landlock and the host's seccomp filter only). Every
 * case also checks that the harness survived (the same player plays again, respawning if it was killed), that no
 * process of the player is left after close, and that nothing appeared where it tried to write.
 */
import { dirname, resolve } from 'node:path';
import type { PlayerAnswer } from '../../harness/referee/player.js';
import type { Layers } from '../../harness/sandbox/layers.js';
import { isolateCache, loopbackListener, watchLeftovers } from '../sandbox/support.js';
import { CPP_HOSTILE, cppFixture, isLegalCourseOpening, layersFor, MODES, playCourseOpening, sandboxedCpp } from './support.js';

interface Case {
  name: string;
  file: string;
  fill?: () => Record<string, string>;
  kind: PlayerAnswer['kind'];
  also?: (answer: PlayerAnswer) => void;
  limitMs?: number;
  memoryMb?: number;
}

let cache: string;
beforeAll(() => {
  cache = isolateCache();
});
const loopback = loopbackListener();

const legal = (answer: PlayerAnswer): void => {
  const value = answer.kind === 'move' ? answer.value : answer;
  expect(isLegalCourseOpening(value) ? 'a legal move' : value).toBe('a legal move');
};
const crashedWith = (signal: string, words: RegExp) => (answer: PlayerAnswer): void => {
  expect(answer.kind === 'crash' && { signal: answer.signal, message: answer.message }).toEqual({ signal, message: expect.stringMatching(words) });
};
const standIn = (type: string, text: RegExp) => (answer: PlayerAnswer): void => {
  expect(answer.kind === 'move' && answer.value).toEqual({ [`<${type}>`]: expect.stringMatching(text) });
};

const cases: Case[] = [
  { name: 'a null-pointer write (segfault)', file: 'segfault.cpp', kind: 'crash', also: crashedWith('SIGSEGV', /SIGSEGV \(segmentation fault/) },
  { name: 'a failed assert (abort)', file: 'abort.cpp', kind: 'crash', also: crashedWith('SIGABRT', /SIGABRT \(abort/) },
  { name: 'exit(3)', file: 'exit.cpp', kind: 'crash', also: (answer) => expect(answer.kind === 'crash' && answer.exitCode).toBe(3) },
  { name: 'while(1)', file: 'loop.cpp', kind: 'timeout' },
  { name: 'a point above the landing cell', file: 'illegal.cpp', kind: 'move', also: standIn('Point', /^Point\(0, 0\): a disc in column 0 lands on row 10 \(top\[y\] - 1\)$/) },
  { name: 'a null Point*', file: 'null-point.cpp', kind: 'move', also: standIn('Point*', /nullptr/) },
  { name: 'an exception out of getPoint', file: 'throws.cpp', kind: 'error', also: (answer) => expect(answer.kind === 'error' && answer.message).toBe('getPoint threw no idea what to play') },
  { name: 'writing through the const arguments', file: 'write-board.cpp', kind: 'move', also: legal },
  { name: 'fork and a fork bomb', file: 'fork.cpp', kind: 'move', also: legal },
  { name: 'execv and system()', file: 'exec.cpp', kind: 'move', also: legal },
  { name: 'a 4 GB allocation', file: 'memory.cpp', kind: 'memory', limitMs: 8000, memoryMb: 256 },
  { name: 'malloc until the limit', file: 'malloc-touch.cpp', kind: 'memory', limitMs: 8000, memoryMb: 256 },
  {
    name: 'printing 100 MB (and a fake protocol line)',
    file: 'flood.cpp',
    kind: 'move',
    limitMs: 20_000,
    also: (answer) => {
      legal(answer);
      expect(answer.kind === 'move' && answer.output && answer.output.droppedBytes).toBeGreaterThan(90 * 1024 * 1024);
    },
  },
  {
    name: 'a TCP connection to a loopback listener',
    file: 'network.cpp',
    fill: () => ({ __PORT__: String(loopback.port()) }),
    kind: 'move',
    also: (answer) => {
      legal(answer);
      expect(loopback.received).toEqual([]);
    },
  },
  {
    name: 'reading files outside the submission',
    file: 'read-files.cpp',
    fill: () => ({ __PATHS__: `{${['/etc/passwd', resolve('package.json'), resolve('harness/sandbox/cpp/host.cpp')].map((path) => JSON.stringify(path)).join(', ')}}` }),
    kind: 'move',
    also: legal,
  },
];

const matrix = MODES.flatMap((mode) => cases.map((c) => ({ ...c, mode })));

describe.each(matrix)('C++ hostile ($mode): $name', (c) => {
  test(`→ ${c.kind}`, async () => {
    const layers: Layers = layersFor(c.mode);
    const path = cppFixture(c.file, c.fill?.() ?? {});
    const expectNothingLeft = watchLeftovers([dirname(path), CPP_HOSTILE], cache);
    const { player, tag } = await sandboxedCpp(path, { memoryMb: c.memoryMb ?? 256, layers });
    try {
      const limitMs = c.limitMs ?? 1500;
      const { phase, answer } = await playCourseOpening(player, limitMs);
      expect({ phase, kind: answer.kind }).toEqual({ phase: 'move', kind: c.kind });
      c.also?.(answer);
      const again = await playCourseOpening(player, limitMs);
      expect(again.phase === 'move' || again.answer.kind === c.kind).toBe(true);
    } finally {
      await player.close();
    }
    expectNothingLeft(tag);
  });
});
