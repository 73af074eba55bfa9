/**
 * Hostile fixtures, each with its expected verdict. Every case also checks that the harness survived (the
 * same player starts again afterwards, respawning if it was killed), that no process of the submission is
 * left after close, and that no file appeared where the submission might have written one.
 */
import { dirname, resolve } from 'node:path';
import { tmpdir } from 'node:os';
import type { PlayerAnswer } from '../../harness/referee/player.js';
import { detectLayers } from '../../harness/sandbox/layers.js';
import {
  HOSTILE,
  OS_LAYER_IMPORTS,
  SUBMISSIONS,
  fixture,
  type HostileCase,
  isLegalOpening,
  isolateCache,
  loopbackListener,
  playOpening,
  sandboxed,
  watchLeftovers,
} from './support.js';

interface Case extends HostileCase {
  /** Skip unless this holds (e.g. the network case needs bubblewrap). */
  when?: () => boolean;
}

const legal = (answer: PlayerAnswer): void => {
  expect(answer.kind === 'move' && isLegalOpening(answer.value)).toBe(true);
};
const returns = (value: unknown) => (answer: PlayerAnswer): void => {
  expect(answer.kind === 'move' && answer.value).toEqual(value);
  expect(isLegalOpening(value)).toBe(false);
};

let cache: string;
beforeAll(() => {
  cache = isolateCache();
});
const loopback = loopbackListener();

const valueCase = (name: string, code: string, value: unknown): Case => ({
  name,
  file: 'returns-value.js',
  fill: () => ({ __VALUE__: code }),
  phase: 'move',
  kind: 'move',
  also: returns(value),
});

const cases: Case[] = [
  { name: 'sync infinite loop in getMove', file: 'loop-getmove.js', phase: 'move', kind: 'timeout' },
  { name: 'sync infinite loop in the constructor', file: 'loop-constructor.js', phase: 'start', kind: 'timeout' },
  { name: 'a never-resolving promise', file: 'never-resolves.js', phase: 'move', kind: 'timeout' },
  { name: 'an async busy loop', file: 'async-busy.js', phase: 'move', kind: 'timeout' },
  { name: 'a memory bomb of arrays', file: 'memory-arrays.js', phase: 'move', kind: 'memory', limitMs: 8000, memoryMb: 160 },
  // ~160 MB of arrays under a 256 MB ceiling, then a spin: memory that never reached the limit is no memory
  // failure, however full (issue #29: "memory blow-up" only when memory grew past a limit).
  { name: 'memory filled below the limit, then out of time', file: 'hoard-then-loop.js', phase: 'move', kind: 'timeout', limitMs: 1500, memoryMb: 256 },
  { name: 'a memory bomb of Buffers', file: 'memory-buffers.js', phase: 'move', kind: 'memory', limitMs: 8000, memoryMb: 160 },
  {
    name: 'process.exit',
    file: 'process-exit.js',
    phase: 'move',
    kind: 'crash',
    also: (answer) => expect(answer.kind === 'crash' && answer.exitCode).toBe(3),
  },
  {
    name: 'a throw',
    file: 'throws.js',
    phase: 'move',
    kind: 'error',
    also: (answer) => {
      expect(answer.kind === 'error' && answer.message).toBe('Error: student bug on purpose');
      expect(answer.kind === 'error' && answer.stack).toMatch(/throws\.js:4/);
    },
  },
  {
    name: 'a rejected promise',
    file: 'rejects.js',
    phase: 'move',
    kind: 'error',
    also: (answer) => expect(answer.kind === 'error' && answer.message).toBe('TypeError: rejected on purpose'),
  },
  {
    name: 'reading files outside the submission',
    file: 'read-outside.js',
    fill: () => ({
      __PATHS__: JSON.stringify([
        '/etc/passwd',
        resolve(SUBMISSIONS, 'random-ts/AIPlayer.ts'),
        resolve('reference-ai'),
        resolve('harness/games/reversi/board.ts'),
        resolve('package.json'),
      ]),
    }),
    phase: 'move',
    kind: 'move',
    also: legal,
  },
  {
    name: 'writing files',
    file: 'write-files.js',
    fill: () => ({
      __PATHS__: JSON.stringify([resolve(tmpdir(), 'referee-pwned'), resolve(HOSTILE, 'pwned'), resolve('pwned'), resolve(cache, 'pwned')]),
    }),
    phase: 'move',
    kind: 'move',
    also: legal,
  },
  { name: 'child_process, Worker and a native addon', file: 'spawn-processes.js', phase: 'move', kind: 'move', also: legal },
  {
    name: 'a TCP connection to a loopback listener',
    file: 'network.js',
    fill: () => ({ __PORT__: String(loopback.port()) }),
    phase: 'move',
    kind: 'move',
    also: (answer) => {
      legal(answer);
      expect(loopback.received).toEqual([]);
    },
    when: () => detectLayers().bwrap !== null,
  },
  { name: 'stopping every clock it can see', file: 'clock-override.js', phase: 'move', kind: 'timeout' },
  { name: 'overriding JSON and prototypes', file: 'prototype-override.js', phase: 'move', kind: 'move', also: legal },
  {
    name: 'forging answers through toJSON',
    file: 'tojson-forge.js',
    phase: 'move',
    kind: 'move',
    also: (answer) => expect(answer.kind === 'move' && answer.value).toBe('D3'),
  },
  { name: 'hiding a tamper report through an inherited toJSON', file: 'tojson-hide-tamper.js', phase: 'move', kind: 'tamper' },
  { name: 'garbage on the protocol fd', file: 'fd-garbage.js', phase: 'move', kind: 'protocol' },
  { name: 'a forged protocol message', file: 'fd-forge.js', phase: 'move', kind: 'protocol' },
  {
    name: 'a 2 MB stdout flood',
    file: 'stdout-flood.js',
    fill: () => ({ __MEGABYTES__: '2' }),
    phase: 'move',
    kind: 'move',
    also: (answer) => {
      legal(answer);
      expect(answer.output?.text.length).toBe(64 * 1024);
      expect(answer.output?.droppedBytes).toBe(2 * 1024 * 1024 - 64 * 1024);
    },
  },
  valueCase('returning a number', '() => 42', 42),
  valueCase('returning null', '() => null', null),
  // An object travels as a preview, never as its JSON (a toJSON() could forge a move).
  valueCase('returning an object', "() => ({ move: 'D3' })", { '<object>': '{"move": "D3"}' }),
  valueCase("returning 'd3'", "() => 'd3'", 'd3'),
  valueCase('returning an occupied square', "() => 'D4'", 'D4'),
  valueCase("returning the opponent's move", "(board, color) => board.getLegalActions(color === 'X' ? 'O' : 'X')[0]", 'E3'),
  {
    name: 'returning undefined',
    file: 'returns-value.js',
    fill: () => ({ __VALUE__: '() => undefined' }),
    phase: 'move',
    kind: 'move',
    also: (answer) => expect(answer.kind === 'move' && 'value' in answer && answer.value).toBeUndefined(),
  },
  {
    name: 'mutating the Board',
    file: 'mutate-board.js',
    phase: 'move',
    kind: 'tamper',
    also: (answer) => expect(answer.kind === 'tamper' && isLegalOpening(answer.value)).toBe(true),
  },
];

describe.each(cases)('hostile: $name', (c) => {
  const run = c.when && !c.when() ? test.skip : test;
  run(`→ ${c.kind} (${c.phase})`, async () => {
    const path = fixture(c.file, c.fill?.() ?? {});
    const expectNothingLeft = watchLeftovers([dirname(path), HOSTILE], cache);
    const { player, bundle } = await sandboxed(path, { memoryMb: c.memoryMb ?? 256, allowImports: OS_LAYER_IMPORTS });
    // Growth, not absolute RSS: a jest worker carries the memory of the test files it ran before this one.
    const rssBefore = process.memoryUsage().rss;
    try {
      const limitMs = c.limitMs ?? 600;
      const { phase, answer } = await playOpening(player, limitMs);
      expect({ phase, kind: answer.kind }).toEqual({ phase: c.phase, kind: c.kind });
      c.also?.(answer);
      // The harness survived and the player can go again (respawned if it was killed).
      const again = await playOpening(player, limitMs);
      expect(again.phase === 'move' || again.answer.kind === c.kind).toBe(true);
      expect(process.memoryUsage().rss - rssBefore).toBeLessThan(64 * 1024 * 1024);
    } finally {
      await player.close();
    }
    expectNothingLeft(bundle);
  });
});
