/**
 * Issue #10's attacks, each run in the three modes a grader meets in the wild: bubblewrap working, bubblewrap
 * absent (REFEREE_SANDBOX_NO_BWRAP=1), and bubblewrap installed but unable to start (a stub `bwrap` on PATH that
 * exits 1 with Docker's message; the live probe must notice and fall back). Every case asserts the verdict, that
 * nothing the submission started survives, that nothing is written outside, that no connection reaches a loopback
 * listener, that a process of the grader's user survives a kill attempt, and that the grader's environment never
 * appears in any output.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { GraderError } from '../../harness/referee/grader-error.js';
import type { PlayerAnswer } from '../../harness/referee/player.js';
import { detectLayers, type Layers } from '../../harness/sandbox/layers.js';
import { isAlive } from '../../harness/sandbox/process-tree.js';
import { isolateCache, isLegalOpening, loopbackListener, playOpening, moveInfo, processesMentioning, reversi, sandboxed, scratch } from './support.js';

const TRUST = resolve('tests/fixtures/trust');
const SECRET = `grader-secret-${process.pid}-${Date.now()}`;
const DOCKER_MESSAGE = 'bwrap: No permissions to creating new namespace, likely because the kernel does not allow non-privileged user namespaces. On e.g. debian this can be enabled with \'sysctl kernel.unprivileged_userns_clone=1\'.';

/** The three modes, detected for real by the layer probe under the matching environment. */
function modeLayers(mode: 'bwrap' | 'absent' | 'broken', stubDir: string): Layers {
  const saved = { PATH: process.env.PATH, NO_BWRAP: process.env.REFEREE_SANDBOX_NO_BWRAP };
  try {
    if (mode === 'absent') process.env.REFEREE_SANDBOX_NO_BWRAP = '1';
    if (mode === 'broken') process.env.PATH = `${stubDir}:${process.env.PATH}`;
    return detectLayers({ fresh: true });
  } finally {
    process.env.PATH = saved.PATH;
    if (saved.NO_BWRAP === undefined) delete process.env.REFEREE_SANDBOX_NO_BWRAP;
    else process.env.REFEREE_SANDBOX_NO_BWRAP = saved.NO_BWRAP;
  }
}

/** A stub bwrap that fails like Docker's without user namespaces. */
function brokenBwrap(): string {
  const dir = scratch('stub');
  writeFileSync(join(dir, 'bwrap'), `#!/bin/sh\necho "${DOCKER_MESSAGE.replace(/"/g, '\\"')}" >&2\nexit 1\n`);
  chmodSync(join(dir, 'bwrap'), 0o755);
  return dir;
}

let stubDir: string;
let victim: ChildProcess;
const loopback = loopbackListener();
beforeAll(() => {
  isolateCache();
  process.env.REFEREE_TEST_SECRET = SECRET; // must never reach the child or any output
  stubDir = brokenBwrap();
  // A process of the grader's own user, which a submission tries to kill.
  victim = spawn('sleep', ['600'], { stdio: 'ignore' });
});
afterAll(async () => {
  // Its exit awaited: a child still listed when the file ends is a handle the next file's worker inherits.
  const gone = new Promise((resolve) => (victim.exitCode === null && victim.signalCode === null ? victim.once('exit', resolve) : resolve(null)));
  victim.kill('SIGKILL');
  await gone;
  delete process.env.REFEREE_TEST_SECRET;
});

function allOutput(answer: PlayerAnswer): string {
  return JSON.stringify(answer);
}

function attacksSeen(answer: PlayerAnswer): Record<string, string> {
  const text = answer.output?.text ?? '';
  const line = text.split('\n').find((each) => each.startsWith('ATTACKS '));
  expect(line).toBeDefined();
  return JSON.parse((line as string).slice('ATTACKS '.length)) as Record<string, string>;
}

const MODES = ['bwrap', 'absent', 'broken'] as const;

describe.each(MODES)('with bubblewrap %s', (mode) => {
  let layers: Layers;
  beforeAll(() => {
    layers = modeLayers(mode, stubDir);
  });

  test('the mode is what it says: the probe uses a working bwrap, or reports the broken one with the fix', () => {
    if (mode === 'bwrap') {
      if (!layers.bwrap) console.warn('bubblewrap is not usable on this machine: the bwrap mode runs without it');
      expect(layers.bwrapProblem).toBeNull();
    } else {
      expect(layers.bwrap).toBeNull();
      if (mode === 'broken') {
        expect(layers.bwrapProblem).toContain('cannot start a sandbox');
        expect(layers.bwrapProblem).toContain('--privileged');
      } else {
        expect(layers.bwrapProblem).toBeNull();
      }
    }
  });

  test('JavaScript: every run-time door is closed, nothing escapes, the grader survives', async () => {
    const outside = join(scratch('outside'), 'pwned-js');
    const source = join(TRUST, 'attacks.js');
    const folder = scratch('attacks-js');
    const text = readFileSync(source, 'utf8')
      .split('__OUTSIDE__').join(outside)
      .split('__PORT__').join(String(loopback.port()))
      .split('__VICTIM__').join(String(victim.pid));
    writeFileSync(join(folder, 'AIPlayer.js'), text, { mode: 0o644 });
    const { player, bundle } = await sandboxed(join(folder, 'AIPlayer.js'), { layers, memoryMb: 256 });
    let answer: PlayerAnswer;
    try {
      ({ answer } = await playOpening(player, 5000));
      // A second move: the process survived its own attacks.
      const again = await player.requestMove({ state: reversi.encode(reversi.initial(1)), info: moveInfo(5000) });
      expect(again.kind).toBe('move');
      // Printed just after the first answer: it lands in that answer's output or the next one's.
      expect(`${answer.output?.text ?? ''}${again.output?.text ?? ''}`).toContain('DYNAMIC IMPORT blocked');
    } finally {
      await player.close();
    }
    expect(answer.kind).toBe('move');
    expect(isLegalOpening(answer.kind === 'move' ? answer.value : null)).toBe(true);
    const seen = attacksSeen(answer);
    expect(Object.entries(seen).filter(([name, result]) => result !== 'blocked' && name !== 'dynamic import')).toEqual([]);
    await new Promise((done) => setTimeout(done, 200));
    expect(loopback.received).toEqual([]);
    expect(existsSync(outside)).toBe(false);
    expect(isAlive(victim.pid as number)).toBe(true);
    expect(allOutput(answer)).not.toContain(SECRET);
    expect(processesMentioning(bundle)).toEqual([]);
  });

  test('Python: no process past the audit hook, no signal, no connection, no neighbour, no environment', async () => {
    const outside = join(scratch('outside'), 'pwned-py');
    const neighbourDir = scratch('neighbours');
    writeFileSync(join(neighbourDir, 'grades-secret.csv'), 'alice,100\n', { mode: 0o644 });
    const text = readFileSync(join(TRUST, 'attacks.py'), 'utf8')
      .split('__OUTSIDE__').join(outside)
      .split('__PORT__').join(String(loopback.port()))
      .split('__VICTIM__').join(String(victim.pid))
      .split('__NEIGHBOUR__').join(join(neighbourDir, 'grades-secret.csv'));
    // The submission is one file in a folder of other students' files.
    writeFileSync(join(neighbourDir, 's1_AIPlayer.py'), text, { mode: 0o644 });
    const { player, bundle } = await sandboxed(join(neighbourDir, 's1_AIPlayer.py'), { layers, runtime: 'python', memoryMb: 256 });
    let answer: PlayerAnswer;
    try {
      ({ answer } = await playOpening(player, 10_000));
    } finally {
      await player.close();
    }
    expect(answer.kind).toBe('move');
    const seen = attacksSeen(answer);
    const through = Object.entries(seen).filter(([, result]) => result !== 'blocked');
    // Writing the sandbox's own private /tmp is allowed (bubblewrap's tmpfs, or unshare's as root); never the machine's.
    const privateTmp = layers.bwrap !== null || layers.unshare !== null;
    expect(through.filter(([name]) => !(privateTmp && name === 'shared /tmp'))).toEqual([]);
    expect(existsSync('/tmp/referee-pwned-shared')).toBe(false);
    await new Promise((done) => setTimeout(done, 200));
    expect(loopback.received).toEqual([]);
    expect(existsSync(outside)).toBe(false);
    expect(isAlive(victim.pid as number)).toBe(true);
    expect(allOutput(answer)).not.toContain(SECRET);
    expect(allOutput(answer)).not.toContain('alice,100');
    expect(processesMentioning(bundle)).toEqual([]);
  });

  test('an object whose toJSON() is a legal move is an illegal answer with a preview', async () => {
    const { player } = await sandboxed(join(TRUST, 'tojson.js'), { layers });
    try {
      const { answer } = await playOpening(player, 5000);
      expect(answer.kind).toBe('move');
      expect(typeof (answer.kind === 'move' ? answer.value : null)).not.toBe('string');
    } finally {
      await player.close();
    }
  });

  test('an error thrown between turns is a crash at the next ask, with its message and stack', async () => {
    const { player } = await sandboxed(join(TRUST, 'between_turns.js'), { layers });
    try {
      const { answer } = await playOpening(player, 5000);
      expect(answer.kind).toBe('move');
      await new Promise((done) => setTimeout(done, 100));
      const next = await player.requestMove({ state: reversi.encode(reversi.initial(1)), info: moveInfo(30_000) });
      expect(next.kind).toBe('crash');
      expect(next.kind === 'crash' && next.message).toContain('boom between turns');
      expect(next.kind === 'crash' && next.stack).toContain('between_turns');
    } finally {
      await player.close();
    }
  });
});

test.each(MODES)('with bubblewrap %s, a grader running as root runs its children as uid 65534, not root', async (mode) => {
  if (process.getuid?.() !== 0) return; // the identity layer exists only for a root grader
  const layers = modeLayers(mode, stubDir);
  const js = join(scratch('uid-js'), 'AIPlayer.js');
  writeFileSync(js, 'export class AIPlayer { getMove() { return `uid ${process.getuid()} gid ${process.getgid()}`; } }\n', { mode: 0o644 });
  const py = join(scratch('uid-py'), 'AIPlayer.py');
  writeFileSync(py, 'import os\nclass AIPlayer:\n    def __init__(self, c): pass\n    def get_move(self, board): return "uid %d gid %d" % (os.getuid(), os.getgid())\n', { mode: 0o644 });
  for (const [path, runtime] of [[js, 'node'], [py, 'python']] as const) {
    const { player } = await sandboxed(path, { layers, runtime });
    try {
      const { answer } = await playOpening(player, 10_000);
      expect(answer.kind === 'move' && answer.value).toBe('uid 65534 gid 65534');
    } finally {
      await player.close();
    }
  }
});

test.each([
  ['JavaScript', 'heartbeat.js', 'node'],
  ['Python', 'heartbeat.py', 'python'],
] as const)('%s: a helper thread never computes on the opponent clock (frozen), unless pondering is on', async (_, file, runtime) => {
  const beatsInOpponentTurn = async (ponder: boolean): Promise<number> => {
    const { player } = await sandboxed(join(TRUST, file), { runtime, ponder });
    try {
      await playOpening(player, 10_000);
      await new Promise((done) => setTimeout(done, 600)); // the opponent's turn
      const answer = await player.requestMove({ state: reversi.encode(reversi.initial(1)), info: moveInfo(10_000) });
      return (JSON.parse(String(answer.kind === 'move' ? answer.value : '{}')) as { inWindow: number }).inWindow;
    } finally {
      await player.close();
    }
  };
  // Frozen 2 ms after its answer: not one beat in the middle of the opponent's turn.
  expect(await beatsInOpponentTurn(false)).toBe(0);
  // Control: with pondering allowed the same helper beats all along.
  expect(await beatsInOpponentTurn(true)).toBeGreaterThan(0);
});

test('a sandbox that dies before the student code starts is a GraderError, never a verdict', async () => {
  // bubblewrap that passes the start-up probe and then fails every real start (a flaky or broken install).
  const dir = scratch('flaky');
  writeFileSync(join(dir, 'bwrap'), `#!/bin/sh\nfor last; do :; done\n[ "$last" = "exit 0" ] && exit 0\necho "bwrap: Creating new namespace failed: Operation not permitted" >&2\nexit 1\n`);
  chmodSync(join(dir, 'bwrap'), 0o755);
  const saved = process.env.PATH;
  process.env.PATH = `${dir}:${saved}`;
  let layers: Layers;
  try {
    layers = detectLayers({ fresh: true });
  } finally {
    process.env.PATH = saved;
  }
  expect(layers.bwrap).toBe(join(dir, 'bwrap'));
  const { player } = await sandboxed(join(TRUST, 'tojson.js'), { layers });
  try {
    await expect(playOpening(player, 5000)).rejects.toThrow(GraderError);
    await expect(playOpening(player, 5000)).rejects.toThrow(/sandbox did not start.*Operation not permitted/);
  } finally {
    await player.close();
  }
});

test('REFEREE_REQUIRE_ISOLATION=1 refuses an unhardened sandbox with a GraderError naming the fix', async () => {
  // bubblewrap broken and Landlock refused: nothing stands in for it.
  process.env.REFEREE_SANDBOX_NO_LANDLOCK = '1';
  let layers: Layers;
  try {
    layers = modeLayers('broken', stubDir);
  } finally {
    delete process.env.REFEREE_SANDBOX_NO_LANDLOCK;
  }
  process.env.REFEREE_REQUIRE_ISOLATION = '1';
  const { player } = await sandboxed(join(TRUST, 'tojson.js'), { layers });
  try {
    await expect(playOpening(player, 5000)).rejects.toThrow(/REFEREE_REQUIRE_ISOLATION=1.*--privileged/);
  } finally {
    delete process.env.REFEREE_REQUIRE_ISOLATION;
    await player.close();
  }
});

test('the seccomp filter is recorded in the isolation of a Python player, and is live', async () => {
  const layers = detectLayers();
  const { player } = await sandboxed(resolve('tests/fixtures/python/random/AIPlayer.py'), { layers, runtime: 'python' });
  try {
    expect((await playOpening(player, 10_000)).answer.kind).toBe('move');
    expect(player.isolation.layers.includes('seccomp')).toBe(layers.seccomp);
    expect(player.isolation.hardened).toBe(layers.bwrap !== null);
  } finally {
    await player.close();
  }
});
