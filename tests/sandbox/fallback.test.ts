/**
 * The fallback layers on their own (no bubblewrap, no cgroups): the process boundary with V8 heap flags and
 * rlimits, plus Node's permission model. A control run with no permission model shows the fixtures do leak
 * when nothing stops them, so the passing cases are evidence, not luck.
 */
import { detectLayers, permissionFlagFor, type Layers } from '../../harness/sandbox/layers.js';
import { fixture, isLegalOpening, isolateCache, OS_LAYER_IMPORTS, playOpening, processesMentioning, sandboxed } from './support.js';

const detected = detectLayers();
const fallback: Layers = { ...detected, bwrap: null, cgroup: null };
const bare: Layers = { ...fallback, permissionFlag: null };
const readPaths = { __PATHS__: JSON.stringify(['/etc/passwd']) };

beforeAll(() => {
  isolateCache();
});

async function opening(path: string, layers: Layers, limitMs = 600, memoryMb = 256) {
  const { player, bundle } = await sandboxed(path, { layers, memoryMb, allowImports: OS_LAYER_IMPORTS });
  try {
    return (await playOpening(player, limitMs)).answer;
  } finally {
    await player.close();
    expect(processesMentioning(bundle)).toEqual([]);
  }
}

test("the permission flag is the one the running Node accepts, not a guess from its version", () => {
  // Node 22.0-22.12 accept only the experimental spelling, 22.13+ both, 24 only --permission, 18 neither.
  expect(permissionFlagFor(new Set(['--experimental-permission', '--allow-fs-read']))).toBe('--experimental-permission');
  expect(permissionFlagFor(new Set(['--permission', '--experimental-permission']))).toBe('--permission');
  expect(permissionFlagFor(new Set(['--permission']))).toBe('--permission');
  expect(permissionFlagFor(new Set(['--max-old-space-size']))).toBeNull();
  // and this Node starts with what it was given
  expect(process.allowedNodeEnvironmentFlags.has(detected.permissionFlag ?? '--max-old-space-size')).toBe(true);
});

test('a sync loop is killed at the deadline', async () => {
  expect((await opening(fixture('loop-getmove.js'), fallback)).kind).toBe('timeout');
});

test('a heap bomb hits the V8 ceiling: memory', async () => {
  expect((await opening(fixture('memory-arrays.js'), fallback, 8000, 160)).kind).toBe('memory');
});

test('a Buffer bomb hits the address-space rlimit: memory', async () => {
  expect((await opening(fixture('memory-buffers.js'), fallback, 8000, 160)).kind).toBe('memory');
});

test('the permission model blocks reads outside the submission', async () => {
  const answer = await opening(fixture('read-outside.js', readPaths), fallback);
  expect(answer.kind === 'move' && isLegalOpening(answer.value)).toBe(true);
});

test('the permission model blocks child processes, workers and addons', async () => {
  const answer = await opening(fixture('spawn-processes.js'), fallback);
  expect(answer.kind === 'move' && isLegalOpening(answer.value)).toBe(true);
});

test('control: with no permission model the same read leaks', async () => {
  const answer = await opening(fixture('read-outside.js', readPaths), bare);
  expect(answer.kind === 'move' && String(answer.value)).toMatch(/^LEAKED \/etc\/passwd: root:/);
});
