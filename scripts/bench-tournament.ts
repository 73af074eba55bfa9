/**
 * `npm run bench:tournament`: the two tournaments the README reports, end to end through the CLI on a generated
 * class (deterministic JS players of three kinds and strengths, the three sample students, one that does not
 * compile): a 30-student Swiss (plus `random` as the anchor: 31 players, so a bye each round) and a
 * 10-participant round-robin (8 students + random + weighted, 4 games a meeting). Prints time, games/s and
 * the ranking's head and tail with their 95% intervals.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { packageFile } from '../grading/package-root.js';
import type { TournamentResult } from '../grading/tournament/result.js';

const CLI = packageFile('dist', 'cli', 'index.js');

/** A stride through the legal moves (weak), optionally taking corners first (better). */
const strideSource = (k: number, corners: boolean): string => `export class AIPlayer {
  constructor(color) { this.color = color; this.turn = 0; }
  getMove(board) {
    const moves = board.getLegalActions(this.color);
    this.turn += 1;
    ${corners ? "const corner = moves.find((m) => ['A1', 'H1', 'A8', 'H8'].includes(m)); if (corner) return corner;" : ''}
    return moves[(this.turn * ${k}) % moves.length];
  }
}
`;

/** Most flips, weighted by a positional table scaled by `w` (stronger as w grows). */
const flipsSource = (w: number): string => `const W = [[100,-20,10,5,5,10,-20,100],[-20,-50,-2,-2,-2,-2,-50,-20],[10,-2,1,1,1,1,-2,10],[5,-2,1,0,0,1,-2,5],[5,-2,1,0,0,1,-2,5],[10,-2,1,1,1,1,-2,10],[-20,-50,-2,-2,-2,-2,-50,-20],[100,-20,10,5,5,10,-20,100]];
export class AIPlayer {
  constructor(color) { this.color = color; }
  getMove(board) {
    let best = null, bestValue = -Infinity;
    for (const move of board.getLegalActions(this.color)) {
      const copy = board.copy();
      const flipped = copy.move(move, this.color);
      const value = (flipped ? flipped.length : 0) + ${w} * W[Number(move[1]) - 1][move.charCodeAt(0) - 65];
      if (value > bestValue) { best = move; bestValue = value; }
    }
    return best;
  }
}
`;

function makeClass(students: number): string {
  const dir = mkdtempSync(join(tmpdir(), 'referee-bench-class-'));
  for (const kind of ['weak', 'fair', 'strong']) {
    mkdirSync(join(dir, kind));
    writeFileSync(join(dir, kind, 'AIPlayer.ts'), readFileSync(packageFile('tests', 'fixtures', 'students', kind, 'AIPlayer.ts')));
  }
  let made = 3;
  for (let i = 0; made < students; i++) {
    const kind = i % 3;
    const name = `s${String(made + 1).padStart(2, '0')}`;
    const source = kind === 0 ? strideSource(1 + (i % 7), false) : kind === 1 ? strideSource(2 + (i % 5), true) : flipsSource([0, 0.05, 0.2, 1, 3][i % 5]);
    writeFileSync(join(dir, `${name}.js`), source);
    made += 1;
  }
  writeFileSync(join(dir, 'zz-broken.ts'), 'export class AIPlayer {\n  getMove(board: any) { return board.getLegalActions(\n}\n');
  return dir;
}

function run(label: string, args: string[]): void {
  const out = mkdtempSync(join(tmpdir(), 'referee-bench-tournament-'));
  const started = performance.now();
  const child = spawnSync(process.execPath, [CLI, 'tournament', ...args, '--out', out], { encoding: 'utf8' });
  const seconds = (performance.now() - started) / 1000;
  if (child.status !== 0) {
    console.log(`${label}: failed (exit ${child.status}): ${child.stderr.trim().split('\n').slice(-3).join(' | ')}`);
    return;
  }
  const result = JSON.parse(readFileSync(join(out, 'tournament.json'), 'utf8')) as TournamentResult;
  const rated = result.ranking.length;
  const widths = result.ranking.filter((row) => row.id !== result.anchor.id).map((row) => row.high - row.low);
  const median = [...widths].sort((a, b) => a - b)[Math.floor(widths.length / 2)];
  console.log(`${label}: ${rated} rated, ${result.participants.length - rated} excluded, ${result.rounds} rounds, ${result.games.length} games in ${seconds.toFixed(1)} s (${(result.games.length / seconds).toFixed(1)} games/s), median 95% interval width ${median.toFixed(0)} Elo`);
  const line = (row: TournamentResult['ranking'][number]): string =>
    `    ${String(row.rank).padStart(2)}. ${row.id.padEnd(10)} ${row.elo.toFixed(0).padStart(5)} [${row.low.toFixed(0)}, ${row.high.toFixed(0)}]  ${row.wins}-${row.draws}-${row.losses}${row.byes ? `, ${row.byes} bye` : ''}`;
  for (const row of result.ranking.slice(0, 3)) console.log(line(row));
  console.log('    …');
  for (const row of result.ranking.slice(-2)) console.log(line(row));
  rmSync(out, { recursive: true, force: true });
}

const jobs = String(availableParallelism());
const thirty = makeClass(30);
const eight = makeClass(8);
console.log(`## Tournaments (referee tournament, ${jobs} jobs, built-in Reversi rules: 500 ms a move)`);
run('Swiss, 30 students + random', [thirty, 'random', '--format', 'swiss', '--jobs', jobs, '--seed', '1']);
run('round-robin, 8 students + random + weighted, 4 games a meeting', [eight, 'random', 'weighted', '--games-per-pair', '4', '--jobs', jobs, '--seed', '1']);
rmSync(thirty, { recursive: true, force: true });
rmSync(eight, { recursive: true, force: true });
