/**
 * A live run of the sandbox for `referee doctor`: start a tiny player per language and let it try what a hostile
 * submission would, reporting what each attempt met. The JS probe is given fs, child_process and net as an
 * assignment could allow them, so the answers describe the OS layers (permission model, bubblewrap, seccomp,
 * namespaces), not only the run-time import boundary that refuses them by default. A sandbox that cannot start
 * is reported as the grader error it would be in a grade.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { getGame } from '../games/registry.js';
import { isGraderError } from '../referee/grader-error.js';
import { cacheDir } from '../sandbox/cache-dir.js';
import { findPython } from '../sandbox/python-runtime.js';
import { SandboxPlayer } from '../sandbox/sandbox-player.js';
import { compileSubmission } from './compile.js';
import { resolveSubmission } from './resolve.js';

export interface SelfTest {
  ok: boolean;
  /** Spawn to constructed player, in ms (includes bubblewrap and node start-up). */
  startMs: number;
  /** One move request to its answer, in ms. */
  moveMs: number;
  /** What the JS probe met for each attempt: 'blocked' or 'ALLOWED …'. */
  node: Record<string, string>;
  /** The same for the Python probe (empty without Python). */
  python: Record<string, string>;
  /** The sandbox could not start: the grader error's reason. */
  error?: string;
}

const JS_PROBE = `
export class AIPlayer {
  getMove() {
    const seen = {};
    const attempt = (name, action) => { try { const r = action(); seen[name] = 'ALLOWED' + (typeof r === 'string' ? ': ' + r.slice(0, 40) : ''); } catch { seen[name] = 'blocked'; } };
    attempt('read /etc/passwd', () => require('fs').readFileSync('/etc/passwd', 'utf8'));
    attempt("read the grader's own files", () => require('fs').readFileSync(__GRADER_FILE__, 'utf8'));
    attempt('write /tmp', () => require('fs').writeFileSync('/tmp/referee-doctor-probe', 'x'));
    attempt('start a process', () => require('child_process').execFileSync('/bin/true'));
    attempt('runtime door getBuiltinModule', () => process.getBuiltinModule('vm'));
    attempt('connect to loopback', () => { const s = require('net').connect(__PORT__, '127.0.0.1'); s.on('error', () => {}); return 'pending'; });
    return JSON.stringify(seen);
  }
}
`;

const PY_PROBE = `
import json, os
class AIPlayer:
    def __init__(self, color):
        self.color = color
    def get_move(self, board):
        seen = {}
        def attempt(name, action):
            try:
                action()
                seen[name] = 'ALLOWED'
            except BaseException:
                seen[name] = 'blocked'
        def fork_exec():
            import _posixsubprocess
            r, w = os.pipe()
            _posixsubprocess.fork_exec([b'/bin/true'], [b'/bin/true'], True, (w,), None, None, -1, -1, -1, -1, -1, -1, r, w, True, True, -1, None, None, None, -1, None, False)
        def connect():
            import _socket
            _socket.socket(_socket.AF_INET, _socket.SOCK_STREAM).connect(('127.0.0.1', __PORT__))
        attempt('read /etc/passwd', lambda: open('/etc/passwd').read())
        attempt('start a process past the audit hook', fork_exec)
        attempt('fork', lambda: os.fork())
        attempt('connect to loopback', connect)
        return json.dumps(seen)
`;

/** One probe player: start it, ask one move, return what it saw. */
async function runProbe(
  runtime: 'node' | 'python',
  source: string,
  port: number,
  gameId: string,
): Promise<{ startMs: number; moveMs: number; seen: Record<string, string> }> {
  const folder = join(cacheDir(), `doctor-probe-${runtime}`);
  mkdirSync(folder, { recursive: true, mode: 0o755 });
  const file = join(folder, runtime === 'node' ? 'AIPlayer.js' : 'AIPlayer.py');
  const filled = source.split('__PORT__').join(String(port)).split('__GRADER_FILE__').join(JSON.stringify(fileURLToPath(import.meta.url)));
  writeFileSync(file, filled, { mode: 0o644 });
  const submission = resolveSubmission(file);
  const compiled = await compileSubmission(submission, { allowImports: runtime === 'node' ? ['fs', 'child_process', 'net'] : [] });
  const game = getGame(gameId);
  const player = new SandboxPlayer({
    name: 'doctor',
    bundlePath: compiled.bundlePath,
    submissionRoot: submission.root,
    game: gameId,
    runtime,
    allowImports: ['fs', 'child_process', 'net'],
  });
  const state = game.encode(game.initial(1));
  try {
    const started = performance.now();
    const ready = await player.startGame({ game: gameId, side: 0, seed: 1, initialState: state, timeLimitMs: 10_000 });
    const startMs = performance.now() - started;
    if (ready.kind !== 'ready') throw new Error(`the ${runtime} probe did not start: ${'message' in ready ? ready.message : ready.kind}`);
    const asked = performance.now();
    const info = { color: game.symbols[0], timeLimitMs: 10_000, moveNumber: 1, timeUsedMs: 0, attempt: 1, attemptsAllowed: 1, lastMove: null };
    const answer = await player.requestMove({ state, info });
    const moveMs = performance.now() - asked;
    if (answer.kind !== 'move' || typeof answer.value !== 'string') throw new Error(`the ${runtime} probe answered ${answer.kind}`);
    return { startMs, moveMs, seen: JSON.parse(answer.value) as Record<string, string> };
  } finally {
    await player.close();
  }
}

export async function sandboxSelfTest(gameId = 'reversi'): Promise<SelfTest> {
  const connections: string[] = [];
  const listener = createServer((socket) => {
    connections.push('connection');
    socket.destroy();
  });
  await new Promise<void>((done) => listener.listen(0, '127.0.0.1', done));
  const port = (listener.address() as { port: number }).port;
  try {
    const node = await runProbe('node', JS_PROBE, port, gameId);
    const python = findPython() ? await runProbe('python', PY_PROBE, port, gameId) : null;
    await new Promise((done) => setTimeout(done, 100));
    // What the listener saw overrides what the probes believed ('pending' connects).
    const reached = connections.length > 0 ? 'ALLOWED (the listener was reached)' : 'blocked';
    node.seen['connect to loopback'] = reached;
    if (python && python.seen['connect to loopback'] === 'blocked' && connections.length > 0) python.seen['connect to loopback'] = reached;
    const spawnBlocked = node.seen['start a process'] === 'blocked' && (!python || python.seen['start a process past the audit hook'] === 'blocked');
    return { ok: spawnBlocked, startMs: node.startMs, moveMs: node.moveMs, node: node.seen, python: python?.seen ?? {} };
  } catch (error) {
    const message = (error as Error).message;
    return { ok: false, startMs: 0, moveMs: 0, node: {}, python: {}, error: isGraderError(error) ? `grader error: ${message}` : message };
  } finally {
    await new Promise((done) => listener.close(done));
  }
}
