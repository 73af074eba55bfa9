/**
 * Issue #16's table for `npm run bench -- table`: every row with the anchor it is judged against, measured in the
 * same run (board.py and game.py as written, bare stdio JSON lines; Edax only beside a run the user names with
 * --edax, else "not measured" — no recorded figure stands in). The machine is shared, so figures swing; the ratios,
 * taken side by side, are what to read, with the load printed beside them. Also: the student Board's tamper fingerprint per move, each Python Board method,
 * the reference AIs' nodes/s, and the wall time of the student template's default Reversi grade.
 * Prints figures; asserts nothing.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { getGame } from '../harness/games/registry.js';
import { Board } from '../harness/games/reversi/index.js';
import { playGame } from '../harness/referee/match.js';
import { deriveSeed } from '../harness/referee/seed.js';
import type { AgentFactory } from '../harness/referee/agent.js';
import { InProcessPlayer } from '../harness/referee/in-process.js';
import { findPython, pythonRuntimeDir } from '../harness/sandbox/python-runtime.js';
import { referenceLevels } from '../reference-ai/index.js';
import { NOGO_MCTS_PLAYOUTS } from '../reference-ai/nogo/index.js';
import { REVERSI_MCTS_PLAYOUTS } from '../reference-ai/reversi/index.js';
import { bareStdioMicros, benchPlayer, gamesPerSecond, NODE_RANDOM_PLAYER, percentile, roundTripMicros } from './bench-support.js';
import { GAME_PY, PYTHON_RANDOM } from './bench-python.js';
import { BOARD_GAMES, boardRounds, edaxLeavesPerCpuSecond, median } from './bench-boards.js';

const ROOT = resolve(fileURLToPath(new URL('.', import.meta.url)), '../..');

const x = (a: number, b: number) => `${(a / b).toFixed(a / b >= 10 ? 0 : 2)}x`;
const k = (n: number) => (n >= 1e6 ? `${(n / 1e6).toFixed(1)} M` : n >= 1e3 ? `${(n / 1e3).toFixed(1)} k` : n.toFixed(0));

/** CPU seconds of this process so far. */
const cpuSeconds = () => {
  const used = process.cpuUsage();
  return (used.user + used.system) / 1e6;
};

/** ns per Board.fingerprint call on mid-game boards (the host takes two per move: before and after getMove). */
function fingerprintNanos(calls: number): number {
  const board = new Board();
  for (const [move, color] of [['D3', 'X'], ['C3', 'O'], ['C4', 'X'], ['E3', 'O'], ['F4', 'X']] as const) board._move(move, color);
  let length = 0;
  const started = cpuSeconds();
  for (let i = 0; i < calls; i++) length += Board.fingerprint(board).length;
  const ns = ((cpuSeconds() - started) * 1e9) / calls;
  return length > 0 ? ns : NaN;
}

const TS_PLAYER = `
import type { Board } from 'referee';
export class AIPlayer {
  constructor(private readonly color: 'X' | 'O') {}
  getMove(board: Board): string {
    const moves = board.getLegalActions(this.color);
    return moves[Math.floor(Math.random() * moves.length)];
  }
}
`;

/** Nodes (positions made, or searched for the bitboard engines) per CPU second of each reference AI vs random. */
async function referenceNodes(gameId: string, names: readonly string[], games: number): Promise<void> {
  const game = getGame(gameId);
  for (const level of referenceLevels(gameId).filter((one) => names.includes(one.name))) {
    let applied = 0;
    const counted = { ...game, apply: (s: unknown, m: unknown) => (applied++, game.apply(s as never, m as never)) };
    const agents: { nodes?: number }[] = [];
    const factory: AgentFactory = (g, side, seed) => {
      const agent = level.factory(g, side, seed);
      agents.push(agent as { nodes?: number });
      return agent;
    };
    const random = referenceLevels(gameId).find((one) => one.name === 'random')!.factory;
    const cpu = process.cpuUsage();
    let moves = 0;
    for (let i = 0; i < games; i++) {
      const me = new InProcessPlayer(level.name, factory, () => counted as never);
      const other = new InProcessPlayer('random', random, () => game as never);
      const record = await playGame({ game: counted as never, black: i % 2 ? other : me, white: i % 2 ? me : other, seed: deriveSeed(16, i) });
      moves += record.turns.length;
    }
    const spent = process.cpuUsage(cpu);
    const seconds = (spent.user + spent.system) / 1e6;
    const searched = agents.reduce((sum, agent) => sum + (typeof agent.nodes === 'number' ? agent.nodes : 0), 0);
    const nodes = searched > 0 ? searched : applied;
    const playouts = level.name === 'mcts' ? MCTS_PLAYOUTS[gameId] : undefined;
    const rate = playouts
      ? `${k((playouts * Math.max(1, moves / 2)) / seconds).padStart(8)} playouts/s (≈, ${playouts} a move)`
      : `${k(nodes / seconds).padStart(8)} nodes/s (${searched > 0 ? 'searched' : 'states made'})`;
    console.log(
      `  ${gameId} ${level.name.padEnd(10)} ${rate}, ` +
        `${((seconds * 1000) / Math.max(1, moves / 2)).toFixed(1)} ms CPU a move of its own, ${games} games vs random`,
    );
  }
}

/** CPU ms of this process's finished children (Linux /proc: cutime + cstime), NaN elsewhere. */
function childrenCpuMs(): number {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[13]) + Number(fields[14])) * 10; // clock ticks of 10 ms
  } catch {
    return NaN;
  }
}

/** `referee check` of a TS file as a fresh process: with an empty cache, then (snapshot written) with a warm one. */
async function checkRow(): Promise<void> {
  const folder = mkdtempSync(join(tmpdir(), 'referee-bench-check-'));
  const file = join(folder, 'AIPlayer.ts');
  writeFileSync(file, TS_PLAYER);
  const env = { ...process.env, REFEREE_CACHE_DIR: join(folder, 'cache') };
  const run = (): [number, boolean, number] => {
    const started = performance.now();
    const cpu = childrenCpuMs();
    let ok = true;
    try {
      execFileSync(process.execPath, [join(ROOT, 'dist/cli/index.js'), 'check', file], { env, stdio: 'ignore' });
    } catch {
      ok = false;
    }
    return [performance.now() - started, ok, childrenCpuMs() - cpu];
  };
  try {
    const [first, firstOk, firstCpu] = run();
    for (let waited = 0; waited < 60_000 && !readdirSync(env.REFEREE_CACHE_DIR).some((f) => f.endsWith('.blob')); waited += 100) {
      await new Promise((done) => setTimeout(done, 100));
    }
    const warm = [run(), run(), run()].sort((a, b) => a[0] - b[0]);
    const [help] = (() => {
      const started = performance.now();
      execFileSync(process.execPath, [join(ROOT, 'dist/cli/index.js'), 'check', '--help'], { stdio: 'ignore' });
      return [performance.now() - started];
    })();
    console.log(`referee check of a TS file, a fresh process (goal ≤ 800 ms):`);
    const cpu = (ms: number) => (Number.isNaN(ms) ? '' : `, ${ms.toFixed(0)} ms CPU with its children`);
    console.log(`  cache warm (type-check snapshot written): ${warm[1][0].toFixed(0)} ms median of 3${cpu(warm[1][2])}, ${warm.every((one) => one[1]) ? 'pass' : 'FAIL'}`);
    console.log(`  first ever (empty cache: bundles the host, builds the snapshot while checking): ${first.toFixed(0)} ms${cpu(firstCpu)} (not the snapshot writer it leaves to finish), ${firstOk ? 'pass' : 'FAIL'}`);
    console.log(`  of which the CLI's start-up alone (referee check --help: loads check's modules only): ${help.toFixed(0)} ms`);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

const MCTS_PLAYOUTS: Record<string, number> = { reversi: REVERSI_MCTS_PLAYOUTS, nogo: NOGO_MCTS_PLAYOUTS };

export async function benchTable(): Promise<void> {
  console.log(`## Issue #16: speed where students and graders feel it (every anchor measured in this run; load ${loadavg().map((n) => n.toFixed(1)).join(' ')})`);
  const python = findPython();
  // The playout rows: bench-boards' rounds (TS and Python each in a process of their own, board.py beside the Python
  // Board in its process, the same seeded games), so the table and `bench -- boards` print the same kind of figure.
  const rounds = boardRounds(BOARD_GAMES.find((game) => game.id === 'reversi')!, 'not in this table', 3, 0.5);
  const anchor = rounds.plain.length ? median(rounds.plain) : NaN;
  const ratio = (a: readonly number[]) => x(median(a.map((one, i) => one / rounds.plain[i])), 1);
  console.log(
    `random playouts per CPU second (getLegalActions + _move, board.py's order; median of 3 interleaved rounds); anchor board.py as written ` +
      `(PlainBoard), same rounds: ${anchor.toFixed(0)}/s`,
  );
  const loads = `load ${Math.min(...rounds.loads).toFixed(1)}–${Math.max(...rounds.loads).toFixed(1)}`;
  console.log(`  TS Board      ${k(median(rounds.ts)).padStart(8)}/s  ${ratio(rounds.ts).padStart(6)} board.py  (goal ≥ 250x; the C++ Board: npm run bench -- boards)  ${loads}`);
  const pyBoard = python
    ? (JSON.parse(execFileSync(python.path, ['-I', '-B', join(ROOT, 'scripts/board_speed.py'), pythonRuntimeDir(), '0'], { encoding: 'utf8' })) as {
        methods: Record<'plain' | 'fast', Record<string, number>>;
      })
    : null;
  if (pyBoard) {
    console.log(`  Python Board  ${k(median(rounds.python)).padStart(8)}/s  ${ratio(rounds.python).padStart(6)} board.py  (goal ≥ 8x)`);
    const methods = Object.keys(pyBoard.methods.fast);
    console.log(
      `  Python Board per call, CPU µs on the positions of 40 random games (board.py → fast, ratio): ` +
        methods
          .map((m) => `${m} ${pyBoard.methods.plain[m].toFixed(2)} → ${pyBoard.methods.fast[m].toFixed(2)} (${x(pyBoard.methods.plain[m], pyBoard.methods.fast[m])})`)
          .join(', '),
    );
  }
  const fp = fingerprintNanos(300_000);
  console.log(`  TS tamper fingerprint: ${fp.toFixed(0)} ns a call; the host takes 2 a move (before and after getMove)`);

  if (python) {
    const gamePy = Number(execFileSync(python.path, ['-I', '-B', '-c', GAME_PY, pythonRuntimeDir(), '3'], { encoding: 'utf8' }).trim());
    const node = await gamesPerSecond((lane) => benchPlayer(`table-node-${lane}`, 'AIPlayer.js', NODE_RANDOM_PLAYER), 60, 1);
    const py = await gamesPerSecond((lane) => benchPlayer(`table-python-${lane}`, 'AIPlayer.py', PYTHON_RANDOM), 30, 1);
    console.log(`random vs random, both sandboxed, one game at a time; anchor game.py in-process, unsandboxed, board.py: ${gamePy.toFixed(1)} games/s`);
    console.log(`  TS      ${node.toFixed(1).padStart(6)} games/s  ${x(node, gamePy).padStart(6)}  (goal ≥ 10x)`);
    console.log(`  Python  ${py.toFixed(1).padStart(6)} games/s  ${x(py, gamePy).padStart(6)}  (goal ≥ 4x)`);
  }

  const bare = await bareStdioMicros(1000);
  const nodeTimes = await roundTripMicros(await benchPlayer('table-rt-node', 'AIPlayer.js', NODE_RANDOM_PLAYER), 1000, 200);
  console.log(`per-move round trip p50; anchor bare stdio JSON lines (node child, no sandbox): ${bare.toFixed(0)} µs`);
  console.log(`  node player  ${percentile(nodeTimes, 50).toFixed(0).padStart(5)} µs  ${x(percentile(nodeTimes, 50), bare).padStart(6)} the bare channel  (goal ≤ 60 µs)`);
  if (python) {
    const pyTimes = await roundTripMicros(await benchPlayer('table-rt-python', 'AIPlayer.py', PYTHON_RANDOM), 1000, 200);
    console.log(`  Python player ${percentile(pyTimes, 50).toFixed(0).padStart(4)} µs  ${x(percentile(pyTimes, 50), bare).padStart(6)} the bare channel`);
  }

  await checkRow();

  const reversi = getGame('reversi');
  const edax = edaxLeavesPerCpuSecond();
  const started = cpuSeconds();
  const leaves = reversi.perft!(reversi.initial(1), 11);
  const rate = leaves / (cpuSeconds() - started);
  console.log(
    `Reversi perft(11) = ${leaves}: ${k(rate)} leaves per CPU second, ` +
      `${'rate' in edax ? `${x(rate, edax.rate)} Edax's ${k(edax.rate)}/s (same run)` : `Edax ${edax.why}`}  (goal ≥ 1/3 of Edax -O2)  load ${loadavg()[0].toFixed(1)}`,
  );

  console.log('reference AIs (CPU time, one process):');
  await referenceNodes('reversi', ['greedy', 'weighted', 'mcts', 'mobility', 'alphabeta'], 2);
  await referenceNodes('nogo', ['heuristic', 'alphabeta', 'mcts'], 1);

  const out = mkdtempSync(join(tmpdir(), 'referee-bench-grade-'));
  const graded = performance.now();
  try {
    execFileSync(process.execPath, [join(ROOT, 'dist/cli/index.js'), 'grade', join(ROOT, 'student-template/src/AIPlayer.ts'), '--out', out], { stdio: 'ignore' });
    console.log(`default Reversi grade of the student template (referee grade, a subprocess): ${((performance.now() - graded) / 1000).toFixed(1)} s wall`);
  } catch (error) {
    console.log(`default Reversi grade of the student template: failed (${(error as Error).message.split('\n')[0]})`);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}
