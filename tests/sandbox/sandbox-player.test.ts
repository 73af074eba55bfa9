/**
 * The sandboxed player's lifecycle: warm across moves and games, frozen between turns (unless pondering),
 * output captured per call, CPU time reported, respawned after a kill.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  SUBMISSIONS,
  fixture,
  isolateCache,
  moveInfo,
  playOpening,
  processesMentioning,
  reversi,
  sandboxed,
} from './support.js';

beforeAll(() => {
  isolateCache();
});

function states(pids: number[]): string[] {
  return pids.map((pid) => {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
  });
}

const CHATTY = fixture('returns-value.js', {
  __VALUE__: "(board, color) => { console.log('thinking as', color); console.error('to stderr'); return board.getLegalActions(color)[0]; }",
});

test('one warm process across moves and games, frozen while it is not its turn', async () => {
  const { player, bundle } = await sandboxed(join(SUBMISSIONS, 'random-ts'));
  try {
    const first = await playOpening(player, 2000);
    expect(first.answer.kind).toBe('move');
    const pids = processesMentioning(bundle);
    expect(pids.length).toBeGreaterThan(0);
    // SIGSTOP (T) or the cgroup freezer (D, in the refrigerator) lands asynchronously: give the kernel a moment.
    const stopped = (state: string): boolean => state === 'T' || state === 'D';
    for (let i = 0; i < 50 && !states(pids).every(stopped); i++) await new Promise((r) => setTimeout(r, 10));
    expect(states(pids).every(stopped)).toBe(true);
    await player.endGame();
    const second = await playOpening(player, 2000);
    expect(second.answer.kind).toBe('move');
    expect(processesMentioning(bundle)).toEqual(pids);
  } finally {
    await player.close();
  }
  expect(processesMentioning(bundle)).toEqual([]);
});

test('with pondering on, the process keeps running between turns', async () => {
  const { player, bundle } = await sandboxed(join(SUBMISSIONS, 'random-ts'), { ponder: true });
  try {
    expect((await playOpening(player, 2000)).answer.kind).toBe('move');
    expect(states(processesMentioning(bundle)).includes('T')).toBe(false);
  } finally {
    await player.close();
  }
});

test('output is captured per move and CPU time is reported', async () => {
  const { player } = await sandboxed(CHATTY);
  try {
    const { answer } = await playOpening(player, 2000);
    expect(answer.kind).toBe('move');
    if (answer.kind !== 'move') return;
    expect(answer.output?.text).toContain('thinking as X\n');
    expect(answer.output?.text).toContain('to stderr\n');
    expect(answer.output?.droppedBytes).toBe(0);
    expect(typeof answer.cpuMs).toBe('number');
    const next = await player.requestMove({ state: reversi.encode(reversi.initial(1)), info: moveInfo(2000) });
    // Only this move's output, in the order written (stdout and stderr are one stream: output-order.test.ts).
    expect(next.output?.text).toBe('thinking as X\nto stderr\n');
  } finally {
    await player.close();
  }
});

test('a kill is followed by a fresh process on the next game; moves in between are refused', async () => {
  const { player, bundle } = await sandboxed(fixture('loop-getmove.js'));
  try {
    expect((await playOpening(player, 300)).answer.kind).toBe('timeout');
    const orphan = await player.requestMove({ state: reversi.encode(reversi.initial(1)), info: moveInfo(300) });
    expect(orphan.kind).toBe('crash');
    const state = reversi.encode(reversi.initial(1));
    expect((await player.startGame({ game: 'reversi', side: 0, seed: 1, initialState: state, timeLimitMs: 2000 })).kind).toBe('ready');
  } finally {
    await player.close();
  }
  expect(processesMentioning(bundle)).toEqual([]);
});

test('abort kills a thinking player and settles its move as a timeout', async () => {
  const { player, bundle } = await sandboxed(fixture('never-resolves.js'));
  try {
    const state = reversi.encode(reversi.initial(1));
    expect((await player.startGame({ game: 'reversi', side: 0, seed: 1, initialState: state, timeLimitMs: 2000 })).kind).toBe('ready');
    const asked = player.requestMove({ state, info: moveInfo(60_000) });
    await new Promise((resolve) => setTimeout(resolve, 50));
    await player.abort();
    expect((await asked).kind).toBe('timeout');
  } finally {
    await player.close();
  }
  expect(processesMentioning(bundle)).toEqual([]);
});

const soak = process.env.REFEREE_SOAK === '1' ? test : test.skip;
soak('a 100 MB stdout flood keeps 64 KB and the harness stays small', async () => {
  const { player } = await sandboxed(fixture('stdout-flood.js', { __MEGABYTES__: '100' }));
  let peak = 0;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5);
  try {
    const { answer } = await playOpening(player, 30_000);
    expect(answer.kind).toBe('move');
    expect(answer.output?.droppedBytes).toBe(100 * 1024 * 1024 - 64 * 1024);
  } finally {
    clearInterval(sampler);
    await player.close();
  }
  expect(peak).toBeLessThan(300 * 1024 * 1024);
});
