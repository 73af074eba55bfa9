/**
 * Every lost game explained by its real cause, with the fix that fits it first: real grades (the sandbox, the
 * Python host, g++) of a Python KeyError, a TypeScript RangeError raised in a helper file, a TypeScript player answering a taken square three times, a C++ SIGSEGV,
 * and a Python constructor that a busy grader kept from running (an injected stall: the player's process pinned
 * to one CPU beside a nice -20 busy loop), rendered into report.html and read for the first line of advice.
 */
import { execFileSync, spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from '@jest/globals';
import { resolveAssignment, type Assignment } from '../../grading/assignment.js';
import { referenceContestant, submissionContestant, type Contestant } from '../../grading/contestant.js';
import { grade } from '../../grading/grade.js';
import type { GradeResult } from '../../grading/grade-result.js';
import { getGame } from '../../harness/games/registry.js';
import { playGame } from '../../harness/referee/match.js';
import type { GameStart, Player } from '../../harness/referee/player.js';
import { createSubmissionPlayer } from '../../harness/submission/player.js';
import type { SandboxPlayer } from '../../harness/sandbox/sandbox-player.js';
import { renderReport } from '../../reports/render.js';

const FIXTURES = join(process.cwd(), 'tests', 'fixtures', 'report-causes');

function assignment(constructTimeoutMs = 5000): Assignment {
  return resolveAssignment({
    title: 'Loss causes',
    moveTimeoutMs: 3000,
    constructTimeoutMs,
    interfaceCheck: { points: 10 },
    opponents: [{ name: 'random', games: 2, points: 90, seed: 7, scoring: { rule: 'linear', minWinRate: 0, fullWinRate: 1 } }],
  });
}

async function gradeFixture(path: string, rules = assignment(), wrap: (contestant: Contestant) => Contestant = (contestant) => contestant): Promise<GradeResult> {
  const contestant = await submissionContestant(join(FIXTURES, path), rules);
  return grade({ assignment: rules, assignmentSource: 'test', contestant: wrap(contestant) });
}

const ENTITIES: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#x27;': "'", '&#x60;': '`', '&#x3D;': '=' };

/** The advice lines of the first opponent in the rendered report, as a student reads them. */
function advice(result: GradeResult): string[] {
  const html = renderReport(result);
  const block = /<section class="card opponent" id="item-0">[\s\S]*?<div class="diagnosis">([\s\S]*?)<\/div>/.exec(html);
  if (!block) throw new Error('no advice in the report');
  return [...block[1].matchAll(/<li>([\s\S]*?)<\/li>/g)].map((match) => match[1].replace(/&[#\w]+;/g, (entity) => ENTITIES[entity] ?? entity));
}

/** Resolves once the busy loop is `sh` in its own session and has run (its exec chain done): polled, not timed. */
async function hogRunning(pid: number): Promise<void> {
  const ran = (): number => Number(readFileSync(`/proc/${pid}/schedstat`, 'utf8').split(' ')[0]);
  while (readFileSync(`/proc/${pid}/comm`, 'utf8').trim() !== 'sh') await new Promise((resolve) => setTimeout(resolve, 5));
  const before = ran();
  while (ran() - before < 20e6) await new Promise((resolve) => setTimeout(resolve, 5));
}

/**
 * The injected stall: the first construction of the games runs with its process pinned to CPU 0 beside a
 * nice -20 busy loop on that CPU, so it waits runnable for a CPU the whole time (what a loaded grader does).
 */
function stallingFirstConstruction(contestant: Contestant, stalled: { count: number }): Contestant {
  return {
    ...contestant,
    async createPlayer(): Promise<Player> {
      const inner = (await contestant.createPlayer()) as SandboxPlayer;
      const startGame = async (start: GameStart) => {
        const pid = inner.pid;
        if (stalled.count > 0 || pid === null) return inner.startGame(start);
        stalled.count += 1;
        execFileSync('taskset', ['-a', '-p', '-c', '0', String(pid)], { stdio: 'ignore' });
        // The sandbox runs in a session of its own, and the kernel shares a CPU between sessions' autogroups before
        // nice counts: the busy loop gets a session too, at autogroup nice -20 (the player keeps ~1% of CPU 0).
        const hog = spawn('setsid', ['taskset', '-c', '0', 'nice', '-n', '-20', 'sh', '-c', 'while :; do :; done'], { stdio: 'ignore' });
        try {
          await hogRunning(hog.pid ?? 0);
          writeFileSync(`/proc/${hog.pid}/autogroup`, '-20');
          await hogRunning(hog.pid ?? 0);
          return await inner.startGame(start);
        } finally {
          hog.kill('SIGKILL');
        }
      };
      return new Proxy(inner, {
        get(target, key) {
          if (key === 'startGame') return startGame;
          const value = Reflect.get(target, key, target) as unknown;
          return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
        },
      });
    },
  };
}

const root = process.getuid?.() === 0;
const canStall = root && cpus().length > 1 && (() => {
  try {
    execFileSync('taskset', ['-p', String(process.pid)], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

describe('a lost game explained by its cause, fix first (real grades)', () => {
  let exception: GradeResult;
  let illegal: GradeResult;
  let segfault: GradeResult;
  let tsException: GradeResult;

  beforeAll(async () => {
    [exception, illegal, segfault, tsException] = await Promise.all([
      gradeFixture('python-exception'),
      gradeFixture('stale-square'),
      gradeFixture('cpp-segfault'),
      gradeFixture('ts-helper-exception'),
    ]);
  }, 240_000);

  test('a Python exception: the exception, the function, file and line of the student\'s own code', () => {
    const loser = exception.games.find((entry) => entry.record.end.loser)?.record.end.loser;
    expect(loser?.where).toEqual({ file: 'AIPlayer.py', line: 23, function: 'evaluate' });
    const [first] = advice(exception);
    expect(first).toMatch(/^Exception: 2 games lost at plies \d+–\d+ \(the first: KeyError: '[A-H][1-8]' in evaluate \(AIPlayer\.py, line 23\)\)\. Fix: look at AIPlayer\.py line 23 \(evaluate\): /);
    expect(renderReport(exception)).toContain('does not apply: only TypeScript is type-checked (this is Python)');
    expect(renderReport(exception)).not.toContain('not run: an earlier step failed');
  });

  test('a TypeScript exception in a helper file: its function, file and line of the student\'s own source (through the source map)', () => {
    const loser = tsException.games.find((entry) => entry.record.end.loser)?.record.end.loser;
    expect(loser?.where).toEqual({ file: 'search.ts', line: 13, function: 'remember' });
    const [first] = advice(tsException);
    expect(first).toMatch(/^Exception: 2 games lost at plies \d+–\d+ \(the first: RangeError: transposition table full \(12 entries\) in remember \(search\.ts, line 13\)\)\. Fix: look at search\.ts line 13 \(remember\): /);
  });

  test('three illegal answers: which rule each broke, in the game\'s words, and the fix for a stale board', () => {
    const loser = illegal.games.find((entry) => entry.record.end.loser)?.record.end.loser;
    expect(loser?.attempts.map((attempt) => attempt.why)).toEqual(Array(3).fill('D4 is taken: a disc is never moved, only turned over'));
    expect(loser?.message).toBe('3 illegal answers in one turn: "D4" (D4 is taken: a disc is never moved, only turned over) 3 times');
    const [first] = advice(illegal);
    expect(first).toMatch(/^Illegal answers: 2 games lost at plies \d+–\d+ \(the first: 3 illegal answers in one turn — "D4": D4 is taken: a disc is never moved, only turned over \(3 times\)\)\. Fix: answer only a move from board\.getLegalActions\(this\.color\)/);
  });

  test('a C++ SIGSEGV: the signal by name and what it usually means, not an exit code', () => {
    const loser = segfault.games.find((entry) => entry.record.end.loser)?.record.end.loser;
    expect(loser?.signal).toBe('SIGSEGV');
    const [first] = advice(segfault);
    expect(first).toMatch(/^Crash: 2 games lost at plies \d+–\d+ \(the first: the player's process was killed by SIGSEGV \(segmentation fault[^)]*\)\)\. Fix: look for an array index out of bounds .*-fsanitize=address/);
    expect(first).not.toMatch(/exit code/);
  });

  (canStall ? test : test.skip)('a constructor a busy grader kept from running is started again, not charged (no "stop the search by the clock")', async () => {
    const stalled = { count: 0 };
    const result = await gradeFixture('python-table-init', assignment(300), (contestant) => stallingFirstConstruction(contestant, stalled));
    expect(stalled.count).toBe(1);
    // Everything the assertions read, in one object, so a failure under load prints the whole story.
    const starts = result.games.map((entry) => ({ ...entry.record.start[entry.studentSide], lost: entry.record.end.loser?.side === entry.studentSide ? entry.record.end.loser : null }));
    const lines = advice(result);
    expect({ status: result.status, graderError: result.graderError, lostAtStart: starts.filter((start) => start.lost?.phase === 'start') }).toEqual({ status: 'graded', graderError: undefined, lostAtStart: [] });
    // The stalled construction (game 1's) was started again, or took longer than its 300 ms on the wall clock and
    // was still not charged: what the grader's machine took from it did not count.
    expect(starts[0].stalls === 1 || starts[0].wallMs > 300).toBe(true);
    expect(lines.filter((line) => /clock|Building the AIPlayer/.test(line))).toEqual([]);
    if (starts[0].stalls === 1) expect(lines).toContainEqual(expect.stringMatching(/^Not charged: building the AIPlayer was started again 1 time because the grader's machine, not the submission, used the time/));
  }, 120_000);

  test('a constructor that keeps four of its own threads busy is charged (its threads queue for each other: no credit)', async () => {
    const black = await createSubmissionPlayer(join(FIXTURES, 'cpp-busy-threads'), { game: 'reversi' });
    const white = await referenceContestant('reversi', 'random').createPlayer();
    try {
      const record = await playGame({ game: getGame('reversi'), black, white, seed: 1, config: { constructTimeoutMs: 300 } });
      expect({ loser: record.end.loser && { side: record.end.loser.side, phase: record.end.loser.phase, verdict: record.end.loser.verdict }, stalls: record.start[0].stalls }).toEqual({
        loser: { side: 0, phase: 'start', verdict: 'timeout' },
        stalls: undefined,
      });
    } finally {
      await Promise.all([black.close(), white.close()]);
    }
  }, 120_000);
});
