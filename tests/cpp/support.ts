/**
 * Helpers for the C++ tests: fixtures (placeholders filled in a scratch copy), a C++ submission behind the
 * sandbox on the Connect Four course's board, one move from the opening, the sandbox modes, and the course's
 * compiled test AIs built the way the course ships them (g++ -O2 -fPIC -shared, outside Referee).
 */
import { execFileSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { getGame } from '../../harness/games/registry.js';
import type { PlayerAnswer } from '../../harness/referee/player.js';
import { detectLayers, type Layers } from '../../harness/sandbox/layers.js';
import type { SandboxOptions, SandboxPlayer } from '../../harness/sandbox/sandbox-player.js';
import { filledFixture, moveInfo, sandboxed, scratch } from '../sandbox/support.js';

export const CPP_FIXTURES = resolve('tests/fixtures/cpp');
export const CPP_HOSTILE = join(CPP_FIXTURES, 'hostile');
export const SDK = resolve('harness/sandbox/cpp/sdk');
export const connect4Nogo = getGame('connect4-nogo');
/** A layout whose no-go cell is not on the bottom row, so every column is open at the start. */
export const SEED = 7;

export function cppFixture(name: string, fill: Record<string, string> = {}): string {
  return filledFixture(CPP_HOSTILE, name, fill, 'cpp');
}

export async function sandboxedCpp(path: string, options: Partial<SandboxOptions> = {}): Promise<{ player: SandboxPlayer; tag: string }> {
  const { player, entry } = await sandboxed(path, { runtime: 'cpp', game: 'connect4-nogo', ...options });
  return { player, tag: entry };
}

/** Start a game as the first player on the drawn board and ask for one move; the construction answer if that fails. */
export async function playCourseOpening(player: SandboxPlayer, timeLimitMs: number): Promise<{ phase: 'start' | 'move'; answer: PlayerAnswer }> {
  const state = connect4Nogo.encode(connect4Nogo.initial(SEED));
  const ready = await player.startGame({ game: 'connect4-nogo', side: 0, seed: SEED, initialState: state, timeLimitMs });
  if (ready.kind !== 'ready') return { phase: 'start', answer: ready };
  return { phase: 'move', answer: await player.requestMove({ state, info: moveInfo(timeLimitMs) }) };
}

export function isLegalCourseOpening(value: unknown): boolean {
  const initial = connect4Nogo.initial(SEED);
  return connect4Nogo.legalMoves(initial).some((move) => connect4Nogo.formatMove(move) === value);
}

/** The sandbox modes a course really runs: bubblewrap; none as root (unshare, setpriv); none as a plain user. */
export const MODES = ['bwrap', 'no-bwrap-root', 'no-bwrap-user'] as const;
export type Mode = (typeof MODES)[number];

export function layersFor(mode: Mode): Layers {
  const saved = process.env.REFEREE_SANDBOX_NO_BWRAP;
  try {
    if (mode !== 'bwrap') process.env.REFEREE_SANDBOX_NO_BWRAP = '1';
    const layers = detectLayers({ fresh: true });
    // A grader that is not root has no identity to drop to, no unshare and (usually) no writable cgroup.
    return mode === 'no-bwrap-user' ? { ...layers, identity: null, unshare: null, cgroup: null } : layers;
  } finally {
    if (saved === undefined) delete process.env.REFEREE_SANDBOX_NO_BWRAP;
    else process.env.REFEREE_SANDBOX_NO_BWRAP = saved;
  }
}

/** A course-style compiled test AI: the Strategy.cpp folder built with g++ directly, as the course ships TestCases/*.so. */
export function buildTestAi(folder: string, name: string): string {
  const out = join(scratch('testai'), name);
  execFileSync('g++', ['-std=c++17', '-O2', '-fPIC', '-shared', '-I', SDK, join(CPP_FIXTURES, folder, 'Strategy.cpp'), join(SDK, 'Judge.cpp'), '-o', out]);
  return out;
}
