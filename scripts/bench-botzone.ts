/**
 * Botzone figures for `npm run bench -- botzone` (#34): what restart-per-turn costs a move (a whole process start
 * behind the sandbox, for a C++ and a Python bot that answer at once), the keep-running round trip next to the
 * C++ host's (a Reversi AIPlayer.cpp that answers its first legal move), and how far past its limit an endless bot is
 * ruled. Prints figures; asserts nothing.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { getGame } from '../harness/games/registry.js';
import { playGame } from '../harness/referee/match.js';
import type { Player } from '../harness/referee/player.js';
import { InProcessPlayer } from '../harness/referee/in-process.js';
import { BotzonePlayer, botzoneLanguage } from '../harness/sandbox/botzone-player.js';
import { findJava, javaMemoryFlags } from '../harness/sandbox/java-runtime.js';
import { realtimePrefix } from '../harness/sandbox/botzone-spawner.js';
import { cacheDir } from '../harness/sandbox/cache-dir.js';
import { findCompiler } from '../harness/sandbox/cpp-runtime.js';
import { SandboxPlayer } from '../harness/sandbox/sandbox-player.js';
import { compileSubmission } from '../harness/submission/compile.js';
import { resolveSubmission, runtimeOf } from '../harness/submission/resolve.js';
import { randomAgent } from '../reference-ai/generic/random.js';
import { percentile } from './bench-support.js';

/** Restarted each turn: reads the one JSON line, answers at once. */
const CPP_RESTART = `#include <iostream>
#include <string>
#include "jsoncpp/json.h"
int main() {
  std::string line;
  std::getline(std::cin, line);
  Json::Value input;
  Json::Reader().parse(line, input);
  std::cout << "{\\"response\\":{\\"x\\":3,\\"y\\":2},\\"debug\\":\\"" << input["requests"].size() << "\\"}" << std::endl;
}
`;

/** Kept running: one line a turn, answered at once, then the marker. */
const CPP_KEEP = `#include <cstdio>
#include <iostream>
#include <string>
int main() {
  std::string line;
  while (std::getline(std::cin, line)) {  // "requests" on the first line, one request a line after
    std::printf("{\\"response\\":{\\"x\\":3,\\"y\\":2}}\\n>>>BOTZONE_REQUEST_KEEP_RUNNING<<<\\n");
    std::fflush(stdout);
  }
}
`;

/** Java, restarted each turn (a JVM start a move): reads the one line, answers at once. */
const JAVA_RESTART = `import java.util.Scanner;
public class Main {
  public static void main(String[] args) {
    String line = new Scanner(System.in).nextLine();
    System.out.println("{\\"response\\":{\\"x\\":3,\\"y\\":2},\\"debug\\":\\"" + line.indexOf("\\"requests\\"") + "\\"}");
  }
}
`;

/** Java, kept running: one line a turn, answered at once, then the marker. */
const JAVA_KEEP = `import java.io.BufferedReader;
import java.io.InputStreamReader;
public class Main {
  public static void main(String[] args) throws Exception {
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
    while (in.readLine() != null) {  // "requests" on the first line, one request a line after
      System.out.println("{\\"response\\":{\\"x\\":3,\\"y\\":2}}");
      System.out.println(">>>BOTZONE_REQUEST_KEEP_RUNNING<<<");
      System.out.flush();
    }
  }
}
`;

const PYTHON_RESTART = `import json
full_input = json.loads(input())
print(json.dumps({"response": {"x": 3, "y": 2}, "debug": str(len(full_input["requests"]))}))
`;

/**
 * The endless bot of the ruling figure. It says on stderr, every millisecond of its own clock, how long it has been
 * alive: its last line is its last sign of life, which the kernel's deadline should leave at or under the limit.
 */
const CPP_LOOP = `#include <cstdio>
#include <ctime>
#include <iostream>
#include <string>
static double now_ms() {
  timespec at;
  clock_gettime(CLOCK_MONOTONIC, &at);
  return at.tv_sec * 1e3 + at.tv_nsec / 1e6;
}
int main() {
  double born = now_ms(), said = 0;
  std::string line;
  std::getline(std::cin, line);
  if (line.find("requests") == std::string::npos) return 1;
  for (;;) {
    double alive = now_ms() - born;
    if (alive - said >= 1) std::fprintf(stderr, "alive %.3f\\n", said = alive);
  }
}
`;

/**
 * The kept-running endless bot: it answers its first turn at once (and asks to be kept), then loops on its second,
 * saying on stderr every millisecond how long it has been since it read that request.
 */
const CPP_KEEP_LOOP = `#include <cstdio>
#include <ctime>
#include <iostream>
#include <string>
static double now_ms() {
  timespec at;
  clock_gettime(CLOCK_MONOTONIC, &at);
  return at.tv_sec * 1e3 + at.tv_nsec / 1e6;
}
int main() {
  std::string line;
  std::getline(std::cin, line);
  if (line.find("requests") == std::string::npos) return 1;
  std::printf("{\\"response\\":{\\"x\\":3,\\"y\\":2}}\\n>>>BOTZONE_REQUEST_KEEP_RUNNING<<<\\n");
  std::fflush(stdout);
  std::getline(std::cin, line);
  double born = now_ms(), said = 0;
  for (;;) {
    double alive = now_ms() - born;
    if (alive - said >= 1) std::fprintf(stderr, "alive %.3f\\n", said = alive);
  }
}
`;

/** The C++ host's player: the first legal move (the test fixture's AIPlayer.cpp, on Reversi). */
const CPP_HOST_FIRST = readFileSync(join(packageRoot(), 'tests', 'fixtures', 'cpp', 'aiplayer-first', 'AIPlayer.cpp'), 'utf8').replace('__GAME__', 'reversi');

/** The repository root (the script runs from dist/scripts). */
function packageRoot(): string {
  return fileURLToPath(new URL('../../', import.meta.url));
}

function write(name: string, file: string, source: string): string {
  const folder = join(cacheDir(), 'bench', name);
  mkdirSync(folder, { recursive: true, mode: 0o755 });
  writeFileSync(join(folder, file), source, { mode: 0o644 });
  return folder;
}

async function bot(name: string, file: string, source: string): Promise<BotzonePlayer> {
  const submission = resolveSubmission(write(name, file, source));
  const compiled = await compileSubmission(submission);
  if (!submission.botzone) throw new Error(`${name} was not taken for a Botzone bot`);
  const language = botzoneLanguage(submission.language);
  return new BotzonePlayer({ name, bundlePath: compiled.bundlePath, submissionRoot: submission.root, files: compiled.files, language, interaction: submission.botzone.interaction, keepRunning: submission.botzone.keepRunning, game: 'reversi' });
}

const reversi = getGame('reversi');
const state = reversi.encode(reversi.initial(1));
const info = { color: 'X', timeLimitMs: 10_000, moveNumber: 1, timeUsedMs: 0, attempt: 1, attemptsAllowed: 1, lastMove: null };

/** Per-move wall times (µs, sorted) of `moves` asks after `warmup`; a bot's history grows by a move each side a turn. */
async function timings(player: Player, moves: number, warmup: number, grows: boolean): Promise<number[]> {
  await player.startGame({ game: 'reversi', side: 0, seed: 1, initialState: state, timeLimitMs: 10_000 });
  const history: { side: 0 | 1; kind: 'move'; move: string }[] = [];
  const times: number[] = [];
  try {
    for (let i = 0; i < moves + warmup; i++) {
      const started = performance.now();
      const answer = await player.requestMove({ state, info, history: grows ? history : [] });
      if (answer.kind !== 'move') throw new Error(`${player.name}: ${answer.kind} ${'message' in answer ? answer.message : ''}`);
      // The first ask of each kept bot's game starts its process: that is restart's figure, not the round trip.
      if (i >= warmup && !(grows && history.length === 0)) times.push((performance.now() - started) * 1000);
      if (grows) history.push({ side: 0, kind: 'move', move: 'D3' }, { side: 1, kind: 'move', move: 'C3' });
      // A game has at most ~30 turns a side: a new game (and a fresh kept bot) every 30 asks, as in play.
      if (grows && history.length >= 60) {
        history.length = 0;
        await player.endGame();
        await player.startGame({ game: 'reversi', side: 0, seed: 1, initialState: state, timeLimitMs: 10_000 });
      }
    }
  } finally {
    await player.close();
  }
  return times.sort((a, b) => a - b);
}

/** The bot's program started bare by the grader each time (no layer at all): the floor a restart cannot go below. */
async function bareStarts(name: string, file: string, source: string, runs: number): Promise<number[]> {
  const submission = resolveSubmission(write(name, file, source));
  const compiled = await compileSubmission(submission);
  const java = findJava();
  const argv =
    submission.language === 'Python' ? ['python3', compiled.bundlePath]
    : submission.language === 'Java' && java ? [java.java, ...javaMemoryFlags(256), '-cp', dirname(compiled.bundlePath), 'Main']
    : [compiled.bundlePath];
  const input = `${JSON.stringify({ requests: [{ x: -1, y: -1 }], responses: [], data: '', globaldata: '', time_limit: 1, memory_limit: 256 })}\n`;
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    await new Promise<void>((done, fail) => {
      const child = spawn(argv[0], argv.slice(1), { stdio: ['pipe', 'pipe', 'ignore'] });
      child.stdout.resume();
      child.once('error', fail);
      child.once('close', () => done());
      child.stdin.end(input);
    });
    times.push((performance.now() - started) * 1000);
  }
  return times.sort((a, b) => a - b);
}

const show = (times: number[]): string => `median ${(percentile(times, 50) / 1000).toFixed(2)} ms, p90 ${(percentile(times, 90) / 1000).toFixed(2)} ms`;

/** `rulingOnly`: the ruling row alone (`npm run bench -- botzone-ruling`). */
export async function benchBotzone(rulingOnly = false): Promise<void> {
  console.log('## Botzone bots (npm run bench -- botzone)');
  if (!findCompiler()) {
    console.log('no g++: skipped');
    return;
  }
  if (!rulingOnly) await benchBotzoneTurns();
  await benchBotzoneRuling();
}

/** Restart-per-turn cost a move and the keep-running round trip. */
async function benchBotzoneTurns(): Promise<void> {
  // Side by side: the spawner kept inside the sandbox (the default) and a whole sandbox started each turn.
  // And the floor: the same program started bare (no sandbox at all) by the grader, with the same input.
  const sideBySide = async (name: string, file: string, source: string, moves: number, warmup: number, label: string): Promise<void> => {
    const player = await bot(name, file, source);
    const bare = await bareStarts(name, file, source, moves);
    const spawned = await timings(player, moves, warmup, false);
    process.env.REFEREE_BOTZONE_SPAWNER = '0';
    let whole: number[];
    try {
      whole = await timings(await bot(name, file, source), moves, warmup, false);
    } finally {
      delete process.env.REFEREE_BOTZONE_SPAWNER;
    }
    const ratio = percentile(whole, 50) / percentile(spawned, 50);
    console.log(`restart per turn, ${label}: spawner in the sandbox ${show(spawned)} a move; a whole sandbox a turn ${show(whole)} (${ratio.toFixed(1)}x the spawner's); the bare process, no sandbox: ${show(bare)}`);
  };
  await sideBySide('bz-restart-cpp', 'main.cpp', CPP_RESTART, 30, 3, 'C++ (process start + answer, sandboxed)');
  await sideBySide('bz-restart-py', 'main.py', PYTHON_RESTART, 20, 2, 'Python 3');

  const keep = await timings(await bot('bz-keep-cpp', 'main.cpp', CPP_KEEP), 2000, 50, true);
  const hostFolder = write('bz-host-cpp', 'AIPlayer.cpp', CPP_HOST_FIRST);
  const submission = resolveSubmission(hostFolder);
  const compiled = await compileSubmission(submission);
  const host = new SandboxPlayer({ name: 'cpp-host', bundlePath: compiled.bundlePath, submissionRoot: submission.root, game: 'reversi', runtime: runtimeOf(submission.language) });
  const hosted = await timings(host, 2000, 50, false);
  const over = (percentile(keep, 50) - percentile(hosted, 50)) / 1000;
  console.log(`keep-running round trip: ${show(keep)}; the C++ host's: ${show(hosted)}; difference of medians ${over.toFixed(3)} ms (goal <= 0.2 ms)`);
  await benchBotzoneJava(sideBySide);
}

/** Java rows (Botzone's multiplier 3): javac cold in its sandbox, a restarted bot's move (a JVM start), a kept bot's round trip. */
async function benchBotzoneJava(sideBySide: (name: string, file: string, source: string, moves: number, warmup: number, label: string) => Promise<void>): Promise<void> {
  if (!findJava()) {
    console.log('java: no JDK (apt-get install default-jdk-headless): Java rows skipped');
    return;
  }
  // A cold compile: the Reversi fixture with a comment no cache has seen.
  const fixture = readFileSync(join(packageRoot(), 'tests', 'fixtures', 'botzone', 'reversi-java', 'Main.java'), 'utf8');
  const compiles: number[] = [];
  for (let i = 0; i < 3; i++) {
    const submission = resolveSubmission(write(`bz-javac-${i}`, 'Main.java', `${fixture}// bench ${process.pid} ${Date.now()} ${i}\n`));
    const started = performance.now();
    await compileSubmission(submission);
    compiles.push((performance.now() - started) * 1000);
  }
  console.log(`javac, cold, the ${fixture.split('\n').length}-line Reversi fixture in the compiler's sandbox: ${show(compiles.sort((a, b) => a - b))} (load ${loadavg()[0].toFixed(1)})`);
  await sideBySide('bz-restart-java', 'Main.java', JAVA_RESTART, 10, 1, 'Java (a JVM start + answer, sandboxed)');
  const keep = await timings(await bot('bz-keep-java', 'Main.java', JAVA_KEEP), 600, 30, true);
  console.log(`keep-running round trip, Java: ${show(keep)} (load ${loadavg()[0].toFixed(1)})`);
}

/** How far past its limit an endless bot's loss is recorded, restarted each turn and kept running. */
async function benchBotzoneRuling(): Promise<void> {
  await benchRuling('restarted each turn', 'bz-loop-cpp', CPP_LOOP);
  await benchRuling('kept running (its 2nd turn)', 'bz-keep-loop-cpp', CPP_KEEP_LOOP);
}

async function benchRuling(label: string, name: string, source: string): Promise<void> {
  // Ruled late: how far past the limit an endless bot's loss is recorded (goal within 5 ms), interleaved game by game:
  //  - kept by the spawner (the default): a restarted bot's kernel timer, armed before exec, or a kept bot's timerfd
  //    in the spawner (at real-time priority where granted) stops the bot at the deadline inside its sandbox and the
  //    ruling takes the spawner's time; the bot's own last sign of life says whether it really stopped there;
  //  - kept by the grader (the same bot with keepsTime hidden): the referee's own timer, then a kill;
  //  - no spawner (REFEREE_BOTZONE_SPAWNER=0, as with no C compiler): the player's own timer in the grader, ruled at
  //    its kill after that loop turn's I/O (a restarted bot's turn there includes its whole sandbox's start);
  //  - a bare timer of the same length in the grader, nothing spinning: the grader's own wake-up under this load.
  // For the kept bot also its first turn's wall time (an instant answer: the bot was started, stopped, in load()).
  const limitMs = 300;
  const games = 20;
  const spawnerKept: number[] = [];
  const lastSign: number[] = [];
  const graderKept: number[] = [];
  /** No spawner (no C compiler to build it): the player keeps the turn's time in the grader. */
  const noSpawner: number[] = [];
  const firstTurn: number[] = [];
  const bare: number[] = [];
  /** Rulings more than 5 ms past the limit, said one by one. */
  const outliers: string[] = [];
  const ruled = async (seed: number, hideKeepsTime: boolean, withoutSpawner = false): Promise<{ pastMs: number; aliveMs: number | null } | null> => {
    if (withoutSpawner) process.env.REFEREE_BOTZONE_SPAWNER = '0';
    const loop = await bot(name, 'main.cpp', source);
    const player: Player = hideKeepsTime ? graderTimed(loop) : loop;
    const opponent = new InProcessPlayer('random', randomAgent, getGame);
    try {
      const record = await playGame({ game: reversi, black: player, white: opponent, seed, config: { moveTimeoutMs: limitMs, illegalMoveLimit: 1 } });
      const loser = record.end.loser;
      const first = record.turns.find((turn) => turn.side === 0);
      if (!hideKeepsTime && first?.kind === 'move' && first.wallMs !== undefined) firstTurn.push(first.wallMs * 1000);
      // Only a move's ruling (a construction or load ruling is another clock).
      if (loser?.verdict !== 'timeout' || loser.phase !== 'move') return null;
      const alive = [...(loser.output?.text ?? '').matchAll(/^alive ([\d.]+)$/gm)].pop();
      const answered = record.turns.filter((turn) => turn.side === 0 && turn.kind === 'move').length;
      if (loser.wallMs - limitMs > 5) outliers.push(`${withoutSpawner ? 'no spawner' : hideKeepsTime ? 'grader' : 'spawner'}: ${loser.wallMs} ms after ${answered} answered turns, ${loser.message}`);
      return { pastMs: loser.wallMs - limitMs, aliveMs: alive ? Number(alive[1]) : null };
    } finally {
      await player.close();
      await opponent.close();
      delete process.env.REFEREE_BOTZONE_SPAWNER;
    }
  };
  for (let i = 0; i < games; i++) {
    const kept = await ruled(i + 1, false);
    if (kept) spawnerKept.push(kept.pastMs * 1000);
    if (kept?.aliveMs !== null && kept?.aliveMs !== undefined) lastSign.push((kept.aliveMs - limitMs) * 1000);
    const timedHere = await ruled(i + 1, true);
    if (timedHere) graderKept.push(timedHere.pastMs * 1000);
    const ownTimer = await ruled(i + 1, false, true);
    if (ownTimer) noSpawner.push(ownTimer.pastMs * 1000);
    const started = performance.now();
    await new Promise((resolve) => setTimeout(resolve, limitMs));
    bare.push((performance.now() - started - limitMs) * 1000);
  }
  for (const times of [spawnerKept, lastSign, graderKept, noSpawner, bare, firstTurn]) times.sort((a, b) => a - b);
  const max = (times: number[]): string => (times.length ? `max ${(times[times.length - 1] / 1000).toFixed(2)} ms` : 'none');
  const priority = realtimePrefix().length ? 'the spawner at real-time priority' : 'the spawner at normal priority';
  console.log(
    `endless bot ${label} at a ${limitMs} ms limit, ${games} games each (goal: ruled within 5 ms), load ${loadavg()[0].toFixed(1)}, ${priority}: ` +
      `deadline kept by the spawner ruled ${show(spawnerKept)}, ${max(spawnerKept)} past the limit (${spawnerKept.length} games; ` +
      `the bot's own last sign of life ${show(lastSign)}, ${max(lastSign)} from its start past the limit); ` +
      `kept by the grader's timer ruled ${show(graderKept)}, ${max(graderKept)} past (${graderKept.length} games); ` +
      `no spawner (no C compiler: the player's own timer in the grader) ruled ${show(noSpawner)}, ${max(noSpawner)} past (${noSpawner.length} games); ` +
      `a bare ${limitMs} ms timer in the grader: ${show(bare)}, ${max(bare)} late` +
      (label.startsWith('kept') ? `; its first turn (an instant answer, the bot started in load()) ${show(firstTurn)}, ${max(firstTurn)}` : ''),
  );
  if (outliers.length) console.log(`  ruled over 5 ms past: ${outliers.join('; ')}`);
}

/** The same player with keepsTime hidden: the referee's own timer rules it (the figure before the spawner kept time). */
function graderTimed(player: BotzonePlayer): Player {
  return {
    name: player.name,
    language: player.language,
    get isolation() {
      return player.isolation;
    },
    startGame: (start) => player.startGame(start),
    requestMove: (request) => player.requestMove(request),
    abort: () => player.abort(),
    endGame: () => player.endGame(),
    close: () => player.close(),
  };
}
