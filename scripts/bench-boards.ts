/**
 * `npm run bench -- boards`: the student Boards side by side, per CPU second — random playouts through the student
 * API (getLegalActions + move, the names a student's MCTS calls) on every game's TypeScript, C++ (board.h built here
 * with the grader's g++ -O2, as a submission is) and Python Board, interleaved round by round so load swings all
 * alike, the load beside each row. Reversi's anchor is the platform's board.py as written (PlainBoard), run in the
 * same Python process as the fast Board; the other games have no platform board.py, so their ratios are to the TS
 * Board. Prints figures and ratios; asserts nothing.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { Board as AmazonsBoard } from '../harness/games/amazons/index.js';
import { Board as Connect4Board } from '../harness/games/connect4/index.js';
import { Board as GomokuBoard } from '../harness/games/gomoku/index.js';
import { Board as NoGoBoard } from '../harness/games/nogo/index.js';
import { Board as ReversiBoard } from '../harness/games/reversi/index.js';
import { cacheDir } from '../harness/sandbox/cache-dir.js';
import { cppHeadersDir, findCompiler } from '../harness/sandbox/cpp-runtime.js';
import { findPython, pythonRuntimeDir } from '../harness/sandbox/python-runtime.js';
import { fileURLToPath } from 'node:url';

const { imul } = Math;

/** CPU seconds of this process so far. */
export const cpuSeconds = (): number => {
  const used = process.cpuUsage();
  return (used.user + used.system) / 1e6;
};

interface StudentBoard {
  getLegalActions(color: 'X' | 'O'): string[];
  move(action: string, color: 'X' | 'O'): unknown;
}

/** The games with a Board in every language: the TS Board's constructor and the C++ header's folder. */
export const BOARD_GAMES: readonly { id: string; folder: string; make: () => StudentBoard; passes: boolean }[] = [
  { id: 'reversi', folder: 'reversi', make: () => new ReversiBoard(), passes: true },
  { id: 'connect4', folder: 'connect4', make: () => new Connect4Board(), passes: false },
  { id: 'gomoku', folder: 'gomoku', make: () => new GomokuBoard(), passes: false },
  { id: 'gomoku-exact5', folder: 'gomoku', make: () => new GomokuBoard(true), passes: false },
  { id: 'nogo', folder: 'nogo', make: () => new NoGoBoard(), passes: false },
  { id: 'amazons', folder: 'amazons', make: () => new AmazonsBoard(), passes: false },
];

/**
 * A stub Board that answers at once — ten moves a ply for 60 plies (a Reversi game's length), then none — so the
 * loop's own cost can be set beside a real Board's (scripts/playouts.py's LoopOnly is the Python one).
 */
const STUB_MOVES = ['A1', 'B2', 'C3', 'D4', 'E5', 'F6', 'G7', 'H8', 'A2', 'B3'];
class LoopOnly implements StudentBoard {
  private plies = 0;
  getLegalActions(): string[] {
    this.plies++;
    return this.plies <= 60 ? STUB_MOVES : [];
  }
  move(): boolean {
    return true;
  }
}
export const LOOP_ONLY = { id: 'loop-only', folder: '', make: () => new LoopOnly(), passes: false } as const;

/** One round's batch doubles until it takes this long, so reading the CPU clock (a getrusage call) costs nothing measurable. */
const BATCH_SECONDS = 0.02;

/**
 * Random playouts per CPU second on a TS Board for at least `seconds` of CPU: a side with no move passes (Reversi;
 * the game ends on two passes) or has lost (every other game; Connect Four and Gomoku list no move once someone has
 * won). The move is drawn by the 32-bit LCG of the C++ and Python loops (scripts/playouts.py), so all three play the
 * same games. Run it in a process that plays one game only (scripts/ts-playouts.ts): a loop that has seen several
 * Board classes calls them through megamorphic sites, which no student's search does.
 */
export function tsPlayouts(game: (typeof BOARD_GAMES)[number] | typeof LOOP_ONLY, seconds: number): number {
  let seed = 1;
  const pick = (n: number) => {
    seed = (imul(seed, 1664525) + 1013904223) | 0;
    return ((seed >>> 0) * n / 4294967296) | 0;
  };
  let done = 0;
  let batch = 1;
  const started = cpuSeconds();
  let elapsed = 0;
  while (elapsed < seconds) {
    for (let b = 0; b < batch; b++) {
      const board = game.make();
      let color: 'X' | 'O' = 'X';
      let passes = 0;
      while (passes < 2) {
        const moves = board.getLegalActions(color);
        if (moves.length === 0) passes = game.passes ? passes + 1 : 2;
        else {
          passes = 0;
          board.move(moves[pick(moves.length)], color);
        }
        color = color === 'X' ? 'O' : 'X';
      }
    }
    done += batch;
    const took = cpuSeconds() - started - elapsed;
    elapsed += took;
    if (took < BATCH_SECONDS) batch *= 2;
  }
  return done / elapsed;
}

const TS_SCRIPT = join(fileURLToPath(new URL('.', import.meta.url)), 'ts-playouts.js');

/**
 * One game's TS playouts in a fresh node process (scripts/ts-playouts.ts), after `warmup` CPU seconds that do not
 * count (the JIT's tiers: a student's long search runs optimised code).
 */
export const tsPlayoutsApart = (id: string, seconds: number, warmup = 0.3): number =>
  Number(execFileSync(process.execPath, [TS_SCRIPT, id, String(seconds), String(warmup)], { encoding: 'utf8' }).trim());

/**
 * The same loop in C++ on referee/<folder>.h: `auto` keeps the Board's own list type (no copy into a vector); the
 * played game is set as the C++ host sets it (a variant's Board() plays it).
 */
const CPP_PLAYOUTS = (id: string, folder: string, passes: boolean) => `#include <cstdio>
#include <cstdlib>
#include <ctime>
#include "referee/${folder}.h"

static unsigned seed = 1;
static unsigned pick(unsigned n) {
  seed = seed * 1664525u + 1013904223u;
  return static_cast<unsigned>((static_cast<unsigned long long>(seed) * n) >> 32);
}
static double cpu() { return static_cast<double>(std::clock()) / CLOCKS_PER_SEC; }

int main(int argc, char** argv) {
  referee::playedGame() = "${id}";
  double seconds = argc > 1 ? std::atof(argv[1]) : 1.0;
  long done = 0, batch = 1;
  double started = cpu(), elapsed = 0;
  while (elapsed < seconds) {
    for (long b = 0; b < batch; b++) {
      Board board;
      char color = 'X';
      int passes = 0;
      while (passes < 2) {
        auto moves = board.getLegalActions(color);
        if (moves.empty()) passes = ${passes ? 'passes + 1' : '2'};
        else {
          passes = 0;
          board.move(moves[pick(static_cast<unsigned>(moves.size()))], color);
        }
        color = color == 'X' ? 'O' : 'X';
      }
    }
    done += batch;
    double took = cpu() - started - elapsed;
    elapsed += took;
    if (took < ${BATCH_SECONDS}) batch *= 2;
  }
  std::printf("%.1f\\n", done / elapsed);
}
`;

/** The C++ playout program for each game, built once per run with g++ -O2 against the grader's headers. */
export function buildCppPlayouts(): Map<string, string> | string {
  const compiler = findCompiler();
  if (!compiler) return 'no g++ on this machine';
  const folder = join(cacheDir(), 'bench', 'board-playouts');
  mkdirSync(folder, { recursive: true });
  const built = new Map<string, string>();
  for (const game of BOARD_GAMES) {
    const source = join(folder, `${game.id}.cpp`);
    writeFileSync(source, CPP_PLAYOUTS(game.id, game.folder, game.passes));
    const binary = join(folder, game.id);
    execFileSync(compiler.path, ['-std=c++17', '-O2', '-I', cppHeadersDir(), '-o', binary, source]);
    built.set(game.id, binary);
  }
  return built;
}

export const cppPlayouts = (binary: string, seconds: number): number =>
  Number(execFileSync(binary, [String(seconds)], { encoding: 'utf8' }).trim());

const k = (n: number) => (n >= 1e6 ? `${(n / 1e6).toFixed(2)} M` : n >= 1e3 ? `${(n / 1e3).toFixed(1)} k` : n.toFixed(0));

const SPEED_SCRIPT = join(fileURLToPath(new URL('.', import.meta.url)), '../../scripts/boards_speed.py');

/**
 * Random playouts per CPU second on a game's Python Board (and, for Reversi, board.py as written, interleaved with it
 * in the same process), one figure per round.
 */
type PythonRates = { board: number[]; plain: number[] | null; loop: number[] | null };
export function pythonPlayouts(id: string, seconds: number, rounds: number): PythonRates | string {
  const python = findPython();
  if (!python) return 'no python3 on this machine';
  const args = ['-I', '-B', SPEED_SCRIPT, pythonRuntimeDir(), id, String(seconds), String(rounds)];
  return JSON.parse(execFileSync(python.path, args, { encoding: 'utf8' })) as PythonRates;
}

export const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

const times = (x: number): string => `${x.toFixed(x >= 10 ? 0 : 2)}x`;
/** The median of the per-round ratios a[i] / b[i], with their range: each round's pair ran back to back. */
const ratioText = (a: readonly number[], b: readonly number[]): string => {
  const ratios = a.map((one, i) => one / b[i]).sort((x, y) => x - y);
  return `${times(median(ratios))} (${times(ratios[0])}–${times(ratios[ratios.length - 1])})`;
};
const loadText = (loads: readonly number[]): string =>
  `load ${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)}`;

/** One game's rounds: each round runs the TS, C++ and Python playouts back to back, each in its own process. */
export interface BoardRounds {
  ts: number[];
  cpp: number[];
  python: number[];
  plain: number[];
  /** Reversi only: the loop alone on a stub Board, in TS and in Python (what the loop costs beside a real Board). */
  tsLoop: number[];
  pythonLoop: number[];
  loads: number[];
}

export function boardRounds(game: (typeof BOARD_GAMES)[number], binaries: Map<string, string> | string, rounds: number, seconds: number): BoardRounds {
  const result: BoardRounds = { ts: [], cpp: [], python: [], plain: [], tsLoop: [], pythonLoop: [], loads: [] };
  for (let round = 0; round < rounds; round++) {
    result.loads.push(loadavg()[0]);
    result.ts.push(tsPlayoutsApart(game.id, seconds));
    if (typeof binaries !== 'string') result.cpp.push(cppPlayouts(binaries.get(game.id)!, seconds));
    const python = pythonPlayouts(game.id, seconds, 1);
    if (typeof python !== 'string') {
      result.python.push(python.board[0]);
      if (python.plain) result.plain.push(python.plain[0]);
      if (python.loop) result.pythonLoop.push(python.loop[0]);
    }
    if (game.passes) result.tsLoop.push(tsPlayoutsApart(LOOP_ONLY.id, seconds / 2));
  }
  return result;
}

export function benchBoards(rounds = 5, seconds = 0.5): void {
  console.log('## Student Boards: random playouts per CPU second, getLegalActions + move, the same seeded games in every ' +
    `language (TS Board, C++ board.h with g++ -O2, Python Board; ${rounds} rounds of ${seconds} CPU s each, every ` +
    'language once a round, each in its own process; the median rate, and the median of the per-round ratios with ' +
    'their range; the load average over the rounds)');
  const binaries = buildCppPlayouts();
  const python = findPython();
  for (const game of BOARD_GAMES) {
    const r = boardRounds(game, binaries, rounds, seconds);
    const cppText = typeof binaries === 'string' ? `C++ not measured (${binaries})` :
      `C++ ${k(median(r.cpp)).padStart(8)}/s ${ratioText(r.cpp, r.ts)} TS (goal ≥ 2x)`;
    const pyText = python ? `Python ${k(median(r.python)).padStart(7)}/s ${ratioText(r.python, r.ts)} TS` : 'Python not measured (no python3)';
    console.log(`  ${game.id.padEnd(13)} TS ${k(median(r.ts)).padStart(8)}/s   ${cppText}   ${pyText}   ${loadText(r.loads)}`);
    if (r.plain.length > 0) {
      console.log(`  ${''.padEnd(13)} anchor: the platform's board.py as written ${k(median(r.plain))}/s (in the Python Board's process) — ` +
        `TS Board ${ratioText(r.ts, r.plain)} (goal ≥ 250x), ` +
        `C++ Board ${typeof binaries === 'string' ? 'not measured' : ratioText(r.cpp, r.plain)}, ` +
        `Python Board ${ratioText(r.python, r.plain)} (goal ≥ 8x)`);
      const share = (loop: readonly number[], board: readonly number[]) => `${(100 * median(board.map((one, i) => one / loop[i]))).toFixed(1)}%`;
      console.log(`  ${''.padEnd(13)} the loop alone, on a stub Board answering at once (60 plies of ten moves): TS ${k(median(r.tsLoop))}/s, ` +
        `${share(r.tsLoop, r.ts)} of a TS Board playout; Python ${k(median(r.pythonLoop))}/s, ${share(r.pythonLoop, r.python)} of a ` +
        `Python Board playout, ${share(r.pythonLoop, r.plain)} of board.py's`);
    }
  }
  console.log('  (no platform board.py exists for the other games: their anchor is the TS Board beside them)');
}

/** perft(11) from the start position (Aart Bik's table): what an Edax run must print for its time to count. */
export const PERFT_11 = 212258800;

/**
 * The perft anchor, measured in this run: the Edax command the user names (`npm run bench -- perft --edax '<command>'`
 * or REFEREE_EDAX), run through sh with `times` after it, so its CPU time is its own. Edax is GPL and ships in no
 * registry: the bench never builds or bundles it. A run counts only when its output holds perft(11)'s leaf count.
 */
export function edaxLeavesPerCpuSecond(): { rate: number } | { why: string } {
  const flag = process.argv.indexOf('--edax');
  const command = flag >= 0 ? process.argv[flag + 1] : process.env.REFEREE_EDAX;
  if (!command) {
    return {
      why: "not measured: name an Edax perft(11) run, e.g. --edax \"printf 'count games 11\\nq\\n' | /path/to/edax -n 1\" " +
        "(Edax built from its own source with gcc -O2, one thread: neither Debian's packages nor the npm registry offer a build)",
    };
  }
  let output: string;
  try {
    output = execFileSync('sh', ['-c', `${command}\ntimes`], { encoding: 'utf8', maxBuffer: 1 << 24, timeout: 600_000 });
  } catch (error) {
    return { why: `not measured: the Edax command failed (${(error as Error).message.split('\n')[0]})` };
  }
  if (!output.replace(/[,\s]/g, '').includes(String(PERFT_11))) return { why: `not measured: the Edax output holds no ${PERFT_11} (perft(11))` };
  // `times` prints the shell's own user/system time, then its children's: "0m1.230s 0m0.010s".
  const children = output.trimEnd().split('\n').pop()!.match(/(\d+)m([\d.]+)s\s+(\d+)m([\d.]+)s/);
  if (!children) return { why: 'not measured: sh printed no `times` line' };
  const seconds = Number(children[1]) * 60 + Number(children[2]) + Number(children[3]) * 60 + Number(children[4]);
  return seconds > 0 ? { rate: PERFT_11 / seconds } : { why: 'not measured: Edax took no measurable CPU time' };
}
