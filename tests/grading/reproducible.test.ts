/**
 * Reproducible grades: a submission whose moves come from Math.random (TypeScript) or the random module (Python)
 * plays the very same games in two grades with the same config and seed, because the sandbox seeds the player's
 * randomness per game from the game's seed (config.seedPlayerRandom, on by default). With the switch off the
 * platform's behaviour returns: the player's randomness is its own, and the games differ. The built CLI runs as
 * a subprocess, as a student runs it, through the real sandbox.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from '@jest/globals';
import { packageRoot } from '../../grading/package-root.js';
import { canRun, graderCommand, modeEnv, SANDBOX_MODES, type ModeId } from '../setup/sandbox-modes.js';
import { seedCache } from '../setup/suite-cache.js';

const CLI = join(packageRoot(), 'dist', 'cli', 'index.js');
const FIXTURES = join(packageRoot(), 'tests', 'fixtures', 'random-players');
const work = mkdtempSync(join(tmpdir(), 'referee-reproducible-'));

function config(seedPlayerRandom?: boolean): string {
  const path = join(work, `config-${String(seedPlayerRandom)}.json`);
  writeFileSync(
    path,
    JSON.stringify({
      title: 'reproducible',
      game: 'reversi',
      ...(seedPlayerRandom === undefined ? {} : { seedPlayerRandom }),
      interfaceCheck: { points: 10 },
      opponents: [{ name: 'random', games: 2, points: 90, seed: 7 }],
    }),
  );
  return path;
}

type Mode = Extract<ModeId, 'bwrap' | 'no-bwrap-root' | 'no-bwrap-user'>;
chmodSync(work, 0o777); // the non-root grader writes its output here

/** A cache per mode: a root grader's starts from the suite's runtime; a non-root grader's is its own. */
function cacheFor(mode: Mode): string {
  const cache = join(work, `cache-${mode}`);
  if (!existsSync(cache)) {
    mkdirSync(cache, { mode: 0o777 });
    chmodSync(cache, 0o777);
    if (SANDBOX_MODES[mode].uid === 0) seedCache(cache);
  }
  return cache;
}

let runs = 0;
/** The games' moves of one grade, by the CLI in a sandbox mode (tests/setup/sandbox-modes.ts). */
function movesOf(submission: string, configPath: string, mode: Mode = 'bwrap'): string[][] {
  const out = join(work, `out-${++runs}`);
  const env = modeEnv(SANDBOX_MODES[mode], { ...process.env, NODE_OPTIONS: '', REFEREE_CACHE_DIR: cacheFor(mode) });
  const [command, ...args] = graderCommand(SANDBOX_MODES[mode], [CLI, 'grade', submission, '--config', configPath, '--out', out, '--quiet']);
  const run = spawnSync(command, args, { encoding: 'utf8', env });
  expect({ status: run.status, stderr: run.stderr }).toEqual({ status: 0, stderr: expect.any(String) });
  const grade = JSON.parse(readFileSync(join(out, 'grade.json'), 'utf8')) as { games: { record: { turns: { kind: string; move?: string }[]; end: { reason: string; loser?: unknown } } }[] };
  expect(grade.games).toHaveLength(2);
  // Each game played out under the rules (no verdict); not a length: a random game may end in a 9-move wipe-out
  // (seen once on Node 24: 13–0 at ply 9).
  for (const game of grade.games) expect({ reason: game.record.end.reason, loser: game.record.end.loser }).toEqual({ reason: 'score', loser: undefined });
  return grade.games.map((game) => game.record.turns.map((turn) => `${turn.kind}:${turn.move ?? ''}`));
}

/** The modes that grade the seeded config again and compare with bubblewrap's games. */
const OTHER_MODES = ['no-bwrap-root', 'no-bwrap-user'] as const;

/** The seeded grade's games under bubblewrap, played once per submission and compared by every mode. */
const bwrapSeeded = new Map<string, string[][]>();
function bwrapGames(submission: string): string[][] {
  if (!bwrapSeeded.has(submission)) bwrapSeeded.set(submission, movesOf(submission, config()));
  return bwrapSeeded.get(submission)!;
}

describe.each([
  ['TypeScript (Math.random)', join(FIXTURES, 'AIPlayer.ts')],
  ['Python (random)', join(FIXTURES, 'python', 'AIPlayer.py')],
])('%s', (_label, submission) => {
  test('same code, config and seed: the same games; seedPlayerRandom false: the player\'s own randomness again', () => {
    const first = bwrapGames(submission);
    // The second grade with the same seed: the cases below grade it again in other modes (each a grade of its own, in
    // a process of its own); where neither can run here, a second grade under bubblewrap.
    if (!OTHER_MODES.some((mode) => canRun(SANDBOX_MODES[mode]))) expect(movesOf(submission, config())).toEqual(first);
    // Two full random Reversi games that coincide by chance are out of reach (tens of plies with several choices each).
    const unseeded = config(false);
    expect(movesOf(submission, unseeded)).not.toEqual(movesOf(submission, unseeded));
  }); // jest's 5-minute limit: three or four graders in a row at load 40+

  for (const mode of OTHER_MODES) {
    (canRun(SANDBOX_MODES[mode]) ? test : test.skip)(`seeded the same way without bubblewrap (${mode})`, () => {
      const seeded = config();
      expect(movesOf(submission, seeded, mode)).toEqual(bwrapGames(submission));
    });
  }
});
