/**
 * Reproducible grades: a submission whose moves come from Math.random (TypeScript) or the random module (Python)
 * plays the very same games in two grades with the same config and seed, because the sandbox seeds the player's
 * randomness per game from the game's seed (config.seedPlayerRandom, on by default). With the switch off the
 * platform's behaviour returns: the player's randomness is its own, and the games differ. The built CLI runs as
 * a subprocess, as a student runs it, through the real sandbox.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from '@jest/globals';
import { packageRoot } from '../../grading/package-root.js';

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

type Mode = 'bwrap' | 'no-bwrap-root' | 'no-bwrap-non-root';
const root = process.getuid?.() === 0;
chmodSync(work, 0o777); // the non-root grader writes its output here

let runs = 0;
/** The games' moves of one grade, by the CLI in a sandbox mode (as uid 65534 through setpriv for non-root). */
function movesOf(submission: string, configPath: string, mode: Mode = 'bwrap'): string[][] {
  const out = join(work, `out-${++runs}`);
  const env: NodeJS.ProcessEnv = { ...process.env, NODE_OPTIONS: '', REFEREE_CACHE_DIR: join(work, `cache-${mode}`) };
  if (mode !== 'bwrap') env.REFEREE_SANDBOX_NO_BWRAP = '1';
  const nonRoot = mode === 'no-bwrap-non-root' && root;
  const command = nonRoot ? 'setpriv' : process.execPath;
  const args = [CLI, 'grade', submission, '--config', configPath, '--out', out, '--quiet'];
  if (nonRoot) args.unshift('--reuid=65534', '--regid=65534', '--clear-groups', process.execPath);
  const run = spawnSync(command, args, { encoding: 'utf8', env });
  expect({ status: run.status, stderr: run.stderr }).toEqual({ status: 0, stderr: expect.any(String) });
  const grade = JSON.parse(readFileSync(join(out, 'grade.json'), 'utf8')) as { games: { record: { turns: { kind: string; move?: string }[] } }[] };
  expect(grade.games).toHaveLength(2);
  const games = grade.games.map((game) => game.record.turns.map((turn) => `${turn.kind}:${turn.move ?? ''}`));
  for (const turns of games) expect(turns.length).toBeGreaterThan(20);
  return games;
}

describe.each([
  ['TypeScript (Math.random)', join(FIXTURES, 'AIPlayer.ts')],
  ['Python (random)', join(FIXTURES, 'python', 'AIPlayer.py')],
])('%s', (_label, submission) => {
  test('same code, config and seed: the same games; seedPlayerRandom false: the player\'s own randomness again', () => {
    const seeded = config();
    expect(movesOf(submission, seeded)).toEqual(movesOf(submission, seeded));
    // Two full random Reversi games that coincide by chance are out of reach (tens of plies with several choices each).
    const unseeded = config(false);
    expect(movesOf(submission, unseeded)).not.toEqual(movesOf(submission, unseeded));
  }, 240_000);

  test.each(['no-bwrap-root', 'no-bwrap-non-root'] as const)('seeded the same way without bubblewrap (%s)', (mode) => {
    const seeded = config();
    expect(movesOf(submission, seeded, mode)).toEqual(movesOf(submission, seeded, 'bwrap'));
  }, 240_000);
});
