/**
 * Issue #20: `--entry FILE` on `referee play` (and the same route in tournament and serve), as a subprocess, with
 * a student folder that keeps an old version beside the one to play: bot_v1.py and bot_v2.py both define AIPlayer.
 */
import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import type { SeriesResult } from '../../harness/referee/series.js';
import type { TournamentResult } from '../../grading/tournament/result.js';
import { isolateCache, scratch } from '../sandbox/support.js';

const CLI = resolve('dist/cli/index.js');
const run = promisify(execFile);
const env = () => ({ ...process.env, NODE_OPTIONS: '' });

/** bot_v1.py crashes on its first move, so a game it plays ends in a forced loss; bot_v2.py plays legal moves. */
function versionedFolder(): string {
  const dir = scratch('entry-v2');
  writeFileSync(join(dir, 'bot_v1.py'), [
    'class AIPlayer:',
    '    def __init__(self, color):',
    '        self.color = color',
    '',
    '    def get_move(self, board):',
    "        raise RuntimeError('bot_v1 is the old version')",
    '',
  ].join('\n'));
  writeFileSync(join(dir, 'heuristics.py'), [
    'CORNERS = {"A1", "H1", "A8", "H8"}',
    '',
    'def pick(moves):',
    '    corners = [move for move in moves if move in CORNERS]',
    '    return (corners or sorted(moves))[0] if moves else None',
    '',
  ].join('\n'));
  writeFileSync(join(dir, 'bot_v2.py'), [
    'from heuristics import pick',
    '',
    '',
    'class AIPlayer:',
    '    def __init__(self, color):',
    '        self.color = color',
    '',
    '    def get_move(self, board):',
    '        return pick(list(board.get_legal_actions(self.color)))',
    '',
  ].join('\n'));
  return dir;
}

beforeAll(() => {
  isolateCache();
});

test('referee play --entry bot_v2.py plays that file of the folder (both games end on the board)', async () => {
  const dir = versionedFolder();
  const { stdout } = await run(process.execPath, [CLI, 'play', '--black', dir, '--white', 'random', '--entry', 'bot_v2.py', '--games', '2', '--seed', '3', '--json'], { env: env() });
  const result = JSON.parse(stdout) as SeriesResult;
  const ends = result.records.map((record) => record.end.reason);
  expect({ games: result.games, scoreEnds: result.scoreEnds, ends }).toEqual({ games: 2, scoreEnds: 2, ends: ['score', 'score'] });
});

test('referee play on the same folder without --entry: a one-line usage error asking for --entry', async () => {
  const dir = versionedFolder();
  const failure = await run(process.execPath, [CLI, 'play', '--black', dir, '--white', 'random', '--games', '1'], { env: env() }).then(
    () => null,
    (error: { code: number; stderr: string }) => error,
  );
  expect(failure?.code).toBe(2);
  expect(failure?.stderr).toMatch(/--entry FILE/);
});

test('referee play --entry naming a file the folder lacks: the one-line error names the fix', async () => {
  const dir = versionedFolder();
  const failure = await run(process.execPath, [CLI, 'play', '--black', dir, '--white', 'random', '--entry', 'bot_v3.py', '--games', '1'], { env: env() }).then(
    () => null,
    (error: { code: number; stderr: string }) => error,
  );
  expect(failure?.code).toBe(2);
  expect(failure?.stderr).toMatch(/the entry bot_v3\.py .* is not a file in .*: give a path relative to the folder/);
});

test('referee tournament --entry bot_v2.py: the folder takes part with that file and its games end on the board', async () => {
  const dir = versionedFolder();
  const out = join(scratch('entry-tournament'), 'out');
  await run(process.execPath, [CLI, 'tournament', dir, 'random', '--entry', 'bot_v2.py', '--games-per-pair', '2', '--jobs', '1', '--seed', '4', '--out', out], { env: env() });
  const result = JSON.parse(readFileSync(join(out, 'tournament.json'), 'utf8')) as TournamentResult;
  const folder = result.participants.find((participant) => participant.kind === 'submission');
  expect({ language: folder?.language, excluded: folder?.excluded }).toEqual({ language: 'Python', excluded: undefined });
  expect(result.games.map((game) => game.record.end.reason)).toEqual(['score', 'score']);
});
