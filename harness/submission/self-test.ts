/**
 * A live run of the sandbox for `referee doctor`: start a tiny player that tries to read /etc/passwd and to
 * start a process, and report what it could do and how long starting and one move took.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { getGame } from '../games/registry.js';
import { compileSubmission } from './compile.js';
import { resolveSubmission } from './resolve.js';
import { cacheDir } from '../sandbox/cache-dir.js';
import { SandboxPlayer } from '../sandbox/sandbox-player.js';

export interface SelfTest {
  ok: boolean;
  /** Spawn to constructed player, in ms (includes bubblewrap and node start-up). */
  startMs: number;
  /** One move request to its answer, in ms. */
  moveMs: number;
  /** What the probe player managed from inside: each should be 'blocked'. */
  readEtcPasswd: string;
  spawnProcess: string;
  error?: string;
}

const PROBE = `
export class AIPlayer {
  getMove() {
    const attempt = (action) => { try { action(); return 'allowed'; } catch { return 'blocked'; } };
    return JSON.stringify({
      read: attempt(() => process.getBuiltinModule('fs').readFileSync('/etc/passwd')),
      spawn: attempt(() => process.getBuiltinModule('child_process').execFileSync('/bin/true')),
    });
  }
}
`;

export async function sandboxSelfTest(gameId = 'reversi'): Promise<SelfTest> {
  const folder = join(cacheDir(), 'doctor-probe');
  mkdirSync(folder, { recursive: true, mode: 0o755 });
  writeFileSync(join(folder, 'AIPlayer.js'), PROBE, { mode: 0o644 });
  const submission = resolveSubmission(join(folder, 'AIPlayer.js'));
  const compiled = await compileSubmission(submission);
  const game = getGame(gameId);
  const player = new SandboxPlayer({ name: 'doctor', bundlePath: compiled.bundlePath, submissionRoot: submission.root, game: gameId });
  const state = game.encode(game.initial(1));
  try {
    const started = performance.now();
    const ready = await player.startGame({ game: gameId, side: 0, seed: 1, initialState: state, timeLimitMs: 10_000 });
    const startMs = performance.now() - started;
    if (ready.kind !== 'ready') {
      const error = 'message' in ready ? ready.message : ready.kind;
      return { ok: false, startMs, moveMs: 0, readEtcPasswd: 'unknown', spawnProcess: 'unknown', error };
    }
    const asked = performance.now();
    const info = { color: game.symbols[0], timeLimitMs: 10_000, moveNumber: 1, timeUsedMs: 0, attempt: 1, attemptsAllowed: 1, lastMove: null };
    const answer = await player.requestMove({ state, info });
    const moveMs = performance.now() - asked;
    if (answer.kind !== 'move' || typeof answer.value !== 'string') {
      return { ok: false, startMs, moveMs, readEtcPasswd: 'unknown', spawnProcess: 'unknown', error: `probe answered ${answer.kind}` };
    }
    const seen = JSON.parse(answer.value) as { read: string; spawn: string };
    return { ok: seen.read === 'blocked' && seen.spawn === 'blocked', startMs, moveMs, readEtcPasswd: seen.read, spawnProcess: seen.spawn };
  } finally {
    await player.close();
  }
}
