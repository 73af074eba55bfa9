/**
 * Python figures for `npm run bench`: per-move round trip and random-vs-random games/s for a Python player
 * through the full sandbox, next to the same figures for a node player, and next to the course platform's own
 * in-process game.py (random vs random on one core), measured in the same run on board.py as written; plus how
 * far past the deadline a player stuck in C code is stopped, and a cold `referee check` of a Python submission.
 * Prints figures; asserts nothing.
 */
import { execFileSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { findPython, pythonRuntimeDir } from '../harness/sandbox/python-runtime.js';
import type { SandboxPlayer } from '../harness/sandbox/sandbox-player.js';
import {
  benchPlayer,
  coldCheck,
  deadlineOvershootMs,
  GAME_PY,
  gamesPerSecond,
  NODE_RANDOM_PLAYER,
  percentile,
  roundTripMicros,
} from './bench-support.js';

/** game.py's loop on board.py as written: bench-table.ts reads it from here. */
export { GAME_PY };

/** A random Python player, board.py's API: the Python rows of this section and of bench-table.ts. */
export const PYTHON_RANDOM = `import random


class AIPlayer:
    def __init__(self, color):
        self.color = color

    def get_move(self, board):
        return random.choice(list(board.get_legal_actions(self.color)))
`;
const PYTHON_C_LOOP = `class AIPlayer:
    def __init__(self, color):
        pass

    def get_move(self, board):
        return str(sum(range(10 ** 12)))
`;


const ROOT = resolve(fileURLToPath(new URL('.', import.meta.url)), '../..');

/**
 * Deepcopy-heavy students (issue #20): scripts/deepcopy_speed.py run bare and set up as the sandbox's host sets
 * itself up (audit hook + copy's list copier). Anchor: board.py as written, bare (the platform has no hook).
 */
function benchDeepcopy(python: string): void {
  const run = (mode: string) =>
    JSON.parse(execFileSync(python, ['-I', '-B', join(ROOT, 'scripts/deepcopy_speed.py'), pythonRuntimeDir(), mode], { encoding: 'utf8' })) as Record<string, number>;
  const bare = run('bare');
  const sandbox = run('sandbox');
  const anchor = bare['board.py deepcopy(board)'];
  console.log(`deepcopy-heavy students, CPU µs a call (best of 5); anchor board.py as written, no audit hook (the platform): deepcopy(board) ${anchor.toFixed(1)} µs`);
  for (const name of Object.keys(bare)) {
    const ratio = (value: number) => `${(value / bare[name]).toFixed(2)}x`;
    console.log(`  ${name.padEnd(44)} bare ${bare[name].toFixed(1).padStart(7)}  sandbox (hook + list copier) ${sandbox[name].toFixed(1).padStart(7)}  ${ratio(sandbox[name])} of bare`);
  }
  const mcts = sandbox['MCTS simulation, fast Board'] / bare['MCTS simulation, board.py'];
  console.log(`  MCTS simulation in the sandbox on the fast Board: ${mcts.toFixed(2)}x board.py's on the platform (goal: hook cost ≤ 1.10x bare: ${(sandbox['MCTS simulation, fast Board'] / bare['MCTS simulation, fast Board']).toFixed(2)}x)`);
}

const pythonPlayer = (name: string, source = PYTHON_RANDOM) => benchPlayer(`python-${name}`, 'AIPlayer.py', source);
const nodePlayer = (name: string) => benchPlayer(`node-${name}`, 'AIPlayer.js', NODE_RANDOM_PLAYER);

/** p50 and p99 of one move request's round trip on the opening position, in µs. */
async function roundTrip(make: () => Promise<SandboxPlayer>, moves: number): Promise<[number, number]> {
  const times = await roundTripMicros(await make(), moves, 100);
  return [percentile(times, 50), percentile(times, 99)];
}

export async function benchPython(): Promise<void> {
  const python = findPython();
  if (!python) {
    console.log('python: no python3 >= 3.8 found; Python figures skipped');
    return;
  }
  console.log(`python: ${python.path} (Python ${python.version})`);
  benchDeepcopy(python.path);
  const [py50, py99] = await roundTrip(() => pythonPlayer('round-trip'), 1000);
  const [node50, node99] = await roundTrip(() => nodePlayer('round-trip'), 1000);
  console.log(
    `per-move round trip through the sandbox (1000 moves): Python p50 ${py50.toFixed(0)} µs, p99 ${py99.toFixed(0)} µs; ` +
      `node p50 ${node50.toFixed(0)} µs, p99 ${node99.toFixed(0)} µs`,
  );
  const pyRate = await gamesPerSecond(pythonPlayer, 40, 2);
  const nodeRate = await gamesPerSecond(nodePlayer, 40, 2);
  const inProcess = Number(
    execFileSync(python.path, ['-I', '-B', '-c', GAME_PY, pythonRuntimeDir(), '3'], { encoding: 'utf8' }).trim(),
  );
  console.log(
    `random vs random, sandboxed, 2 lanes: Python ${pyRate.toFixed(1)} games/s, node ${nodeRate.toFixed(1)} games/s; ` +
      `game.py's loop in-process on one core (deepcopy + func_timeout per move, board.py as written): ${inProcess.toFixed(1)} games/s`,
  );
  const overshoot = await deadlineOvershootMs(await pythonPlayer('c-loop', PYTHON_C_LOOP), 5, 300);
  console.log(
    `Python stuck in C code (sum(range(10**12)), 300 ms limit, 5 runs): stopped p50 ${percentile(overshoot, 50).toFixed(1)} ms, ` +
      `max ${overshoot[overshoot.length - 1].toFixed(1)} ms past the deadline`,
  );
  const [checkMs, ok] = await coldCheck('AIPlayer.py', PYTHON_RANDOM);
  console.log(`checkSubmission of a Python submission in this process, empty cache (not the command: \`npm run bench -- startup\` times \`referee check\` beside the platform's interface test): ${checkMs.toFixed(0)} ms, ${ok ? 'pass' : 'FAIL'}`);
}
