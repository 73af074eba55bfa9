/**
 * `npm run bench -- credit`: moves on a busy grader. Games of a trivial sandboxed player (its first legal move, ~1 ms
 * of CPU) against the random reference AI at 500 ms a move, the bench and its players pinned to CPU 0 beside CPU
 * hogs pinned there too. Played two ways, interleaved so both meet the same load: on the wall clock (before: the
 * referee is not shown the player's scheduling, so it times the move as it did before moves were credited) and
 * credited (after). Prints how many moves were ruled late each way, how many moves of the credited games were over
 * the limit by the wall clock alone, and what reading schedstat costs a move. Asserts nothing.
 * BENCH_CREDIT_GAMES (default 6 each way) and BENCH_CREDIT_HOGS (default 4) change the run.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { getGame } from '../harness/games/registry.js';
import { InProcessPlayer } from '../harness/referee/in-process.js';
import { playGame } from '../harness/referee/match.js';
import type { Player, PlayerScheduling } from '../harness/referee/player.js';
import type { GameRecord } from '../harness/referee/record.js';
import { deriveSeed } from '../harness/referee/seed.js';
import type { SandboxPlayer } from '../harness/sandbox/sandbox-player.js';
import { randomAgent } from '../reference-ai/generic/random.js';
import { benchPlayer, percentile } from './bench-support.js';

const LIMIT_MS = 500;
/** The hogs' niceness (as root): about nine times a default task's share of the CPU each. */
const HOG_NICE = -10;

const FIRST_LEGAL_PLAYER = `
export class AIPlayer {
  constructor(color) { this.color = color; }
  getMove(board) { return board.getLegalActions(this.color)[0]; }
}
`;

/** The sandboxed player as the referee sees it, counting (and timing) its schedstat reads; `hidden`: none at all. */
function observed(inner: SandboxPlayer, hidden: boolean, reads: number[]): Player {
  const player: Player = {
    name: inner.name,
    get isolation() {
      return inner.isolation;
    },
    get language() {
      return inner.language;
    },
    load: (start) => inner.load(start),
    startGame: (start) => inner.startGame(start),
    requestMove: (request) => inner.requestMove(request),
    abort: () => inner.abort(),
    endGame: () => inner.endGame(),
    close: () => inner.close(),
  };
  if (!hidden) {
    player.scheduling = (withState?: boolean): PlayerScheduling | null => {
      const started = performance.now();
      const seen = inner.scheduling(withState);
      reads.push((performance.now() - started) * 1000);
      return seen;
    };
  }
  return player;
}

interface Tally {
  games: number;
  moves: number;
  late: number;
  overByWall: number;
  credited: number[];
  walls: number[];
}

function tally(records: GameRecord[], side: (index: number) => 0 | 1): Tally {
  const result: Tally = { games: records.length, moves: 0, late: 0, overByWall: 0, credited: [], walls: [] };
  records.forEach((record, index) => {
    for (const turn of record.turns) {
      if (turn.side !== side(index) || turn.kind !== 'move') continue;
      result.moves += 1;
      result.walls.push(turn.wallMs ?? 0);
      if ((turn.wallMs ?? 0) > LIMIT_MS) result.overByWall += 1;
      if (turn.cpuWaitMs !== undefined) result.credited.push(turn.cpuWaitMs);
    }
    const loser = record.end.loser;
    if (loser && loser.side === side(index) && loser.verdict === 'timeout') {
      result.late += 1;
      result.moves += 1;
      result.walls.push(loser.wallMs);
      result.overByWall += 1;
    }
  });
  result.walls.sort((a, b) => a - b);
  return result;
}

const ms = (value: number | undefined): string => (value === undefined ? '-' : `${value.toFixed(0)} ms`);

export async function benchCredit(): Promise<void> {
  const games = Number(process.env.BENCH_CREDIT_GAMES ?? 6);
  const hogCount = Number(process.env.BENCH_CREDIT_HOGS ?? 4);
  console.log(`## Moves on a busy grader (${games} games each way, a trivial sandboxed player vs random, ${LIMIT_MS} ms a move, CPU 0 shared with ${hogCount} CPU hogs at nice ${process.getuid?.() === 0 ? HOG_NICE : 0})`);
  const reversi = getGame('reversi');
  const pinned = ((): string | null => {
    try {
      const before = execFileSync('taskset', ['-pc', String(process.pid)], { encoding: 'utf8' }).split(':').pop()!.trim();
      // Every thread of this process (-a), so the sandboxed children it starts are pinned too.
      execFileSync('taskset', ['-a', '-pc', '0', String(process.pid)], { stdio: 'ignore' });
      return before;
    } catch {
      return null;
    }
  })();
  if (pinned === null) {
    console.log('skipped: taskset (util-linux) is needed to pin the bench beside its hogs');
    return;
  }
  // Hogs above the players' priority (as root; else at theirs): the machine's other work takes the CPU first, as
  // a class's other checks and games do on a loaded grader. Plain hogs leave a trivial player on time (the kernel
  // favours a task that wakes after sleeping), which would measure nothing.
  const nice = process.getuid?.() === 0 ? ['nice', '-n', String(HOG_NICE)] : [];
  const hogs: ChildProcess[] = Array.from({ length: hogCount }, () => spawn(nice[0] ?? 'taskset', [...nice.slice(1), ...(nice.length ? ['taskset'] : []), '-c', '0', process.execPath, '-e', 'for(;;){}'], { stdio: 'ignore' }));
  const inner = await benchPlayer('credit-first-legal', 'AIPlayer.js', FIRST_LEGAL_PLAYER);
  const reads: number[] = [];
  const loads: number[] = [];
  const byWall: GameRecord[] = [];
  const credited: GameRecord[] = [];
  try {
    const wallPlayer = observed(inner, true, reads);
    const creditPlayer = observed(inner, false, reads);
    const side = (index: number): 0 | 1 => (index % 2) as 0 | 1;
    for (let index = 0; index < games; index++) {
      for (const [player, records] of [[wallPlayer, byWall], [creditPlayer, credited]] as const) {
        const opponent = new InProcessPlayer('random', randomAgent, getGame);
        loads.push(loadavg()[0]);
        const record = await playGame({
          game: reversi,
          black: side(index) === 0 ? player : opponent,
          white: side(index) === 0 ? opponent : player,
          seed: deriveSeed(31, index),
          config: { moveTimeoutMs: LIMIT_MS },
        });
        records.push(record);
      }
    }
  } finally {
    for (const hog of hogs) hog.kill('SIGKILL');
    await inner.close();
    execFileSync('taskset', ['-a', '-pc', pinned, String(process.pid)], { stdio: 'ignore' });
  }
  const side = (index: number): 0 | 1 => (index % 2) as 0 | 1;
  const before = tally(byWall, side);
  const after = tally(credited, side);
  const sortedCredit = after.credited.slice().sort((a, b) => a - b);
  console.log(`wall clock (before): ${before.late} of ${before.moves} moves ruled late (each lost its game: ${before.late} of ${before.games}); move wall p50 ${ms(percentile(before.walls, 50))}, p99 ${ms(percentile(before.walls, 99))}, max ${ms(before.walls.at(-1))}`);
  console.log(`credited (after): ${after.late} of ${after.moves} moves ruled late (${after.late} of ${after.games} games); ${after.overByWall} moves over ${LIMIT_MS} ms by the wall clock (late by the old rule), ${sortedCredit.length} kept their credited wait (p50 ${ms(percentile(sortedCredit, 50))}, max ${ms(sortedCredit.at(-1))}); move wall p50 ${ms(percentile(after.walls, 50))}, p99 ${ms(percentile(after.walls, 99))}, max ${ms(after.walls.at(-1))}`);
  const sortedReads = reads.slice().sort((a, b) => a - b);
  const perMove = after.moves > 0 ? reads.length / after.moves : 0;
  const meanRead = reads.reduce((sum, one) => sum + one, 0) / Math.max(1, reads.length);
  console.log(`schedstat: ${perMove.toFixed(2)} reads a move (the ask's start; its answer only when over the limit by the wall clock; more where a deadline was looked at again), ${percentile(sortedReads, 50)?.toFixed(0) ?? '-'} µs p50 / ${meanRead.toFixed(0)} µs mean a read: ${(perMove * meanRead).toFixed(0)} µs a move, of a ${LIMIT_MS} ms limit; load ${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)}`);
}
