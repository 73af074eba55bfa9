/**
 * `referee tournament` as a user runs it (dist/cli/index.js in a subprocess): a class of 8 submissions plus two
 * reference levels in a round-robin, killed with SIGKILL half-way and resumed, ranks exactly as an uninterrupted
 * run with the same seed; tournament.html opens in Chromium and a crosstable cell opens its game.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import Database from 'better-sqlite3';
import { chromium, type BrowserContext } from 'playwright-core';
import { PAGE_WAIT_MS } from '../web/serve-helpers.js';
import { packageFile } from '../../grading/package-root.js';
import { validateTournamentResult, type TournamentResult } from '../../grading/tournament/result.js';
import { tempDir } from '../batch/helpers.js';
import { stopAfterwards } from '../setup/children.js';

const CLI = packageFile('dist', 'cli', 'index.js');
const CHROMIUM = '/usr/bin/chromium';
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update'];
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Eight deterministic students: the three samples and five generated JS players (a fixed stride through the moves). */
function makeClass(): string {
  const dir = tempDir('tournament-class');
  for (const kind of ['weak', 'fair', 'strong']) {
    mkdirSync(join(dir, kind));
    writeFileSync(join(dir, kind, 'AIPlayer.ts'), readFileSync(packageFile('tests', 'fixtures', 'students', kind, 'AIPlayer.ts')));
  }
  for (let k = 1; k <= 5; k++) {
    writeFileSync(
      join(dir, `stride${k}.js`),
      `export class AIPlayer {\n  constructor(color) { this.color = color; this.turn = 0; }\n  getMove(board) {\n    const moves = board.getLegalActions(this.color);\n    this.turn += 1;\n    return moves[(this.turn * ${k}) % moves.length];\n  }\n}\n`,
    );
  }
  return dir;
}

const journaled = (outDir: string): number => {
  try {
    const db = new Database(join(outDir, 'tournament.sqlite'), { readonly: true, fileMustExist: true });
    try {
      return (db.prepare('SELECT COUNT(*) AS n FROM games').get() as { n: number }).n;
    } finally {
      db.close();
    }
  } catch {
    return 0;
  }
};

const cli = (args: string[]) => spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8' });
/** The long runs without blocking jest's event loop, so its timeout and reporters keep working under load. */
const cliAsync = (args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> =>
  new Promise((resolve, reject) => {
    const child = stopAfterwards(spawn(process.execPath, [CLI, ...args], { stdio: ['ignore', 'pipe', 'pipe'] }));
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.once('error', reject);
    child.once('close', (status) => resolve({ status, stdout, stderr }));
  });
const ranking = (outDir: string): string[] => (JSON.parse(readFileSync(join(outDir, 'tournament.json'), 'utf8')) as TournamentResult).ranking.map((row) => `${row.id} ${row.elo.toFixed(3)}`);

describe('referee tournament (CLI)', () => {
  let classDir: string;
  let root: string;
  let rules: string;
  const args = (out: string): string[] => ['tournament', classDir, 'random', 'greedy', '--format', 'round-robin', '--seed', '5', '--jobs', '2', '--config', rules, '--out', out];

  beforeAll(() => {
    if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run npm run build first`);
    classDir = makeClass();
    root = tempDir('tournament');
    // The course platform's 60 s a move, not the built-in assignment's 500 ms: moves are timed by the wall clock
    // (as game.py does), and at load 40 players that answer in microseconds were ruled late at 519-825 ms, so the
    // interrupted run and the straight one differed in 4 to 25 of 90 games. This test is about resuming.
    rules = join(root, 'rules.json');
    writeFileSync(rules, JSON.stringify({ title: 'Tournament rules', game: 'reversi', moveTimeoutMs: 60_000, opponents: [{ name: 'random', games: 2, points: 10 }] }));
  });

  test('killed with SIGKILL and resumed: the same ranking as an uninterrupted run, and no finished game replayed', async () => {
    const straight = join(root, 'straight');
    const first = await cliAsync(args(straight));
    // The only thing on stderr may be the stated prior (the strong sample can win every game).
    expect(first.stderr.replace(/warning: At least one player scored nothing.*\n/, '')).toBe('');
    expect(first.status).toBe(0);
    expect(first.stdout).toContain('Found 8 students');
    expect(first.stdout).toContain('10 players; round-robin');
    const result = validateTournamentResult(JSON.parse(readFileSync(join(straight, 'tournament.json'), 'utf8')));
    expect(result.games).toHaveLength(90);
    expect(result.ranking).toHaveLength(10);
    expect(result.ranking.find((row) => row.id === 'random')).toMatchObject({ elo: 0, low: 0, high: 0 });
    // Every opening is played twice with colours swapped.
    for (let i = 0; i < result.games.length; i += 2) {
      expect(result.games[i + 1].players).toEqual([...result.games[i].players].reverse());
      expect(result.games[i + 1].opening).toEqual(result.games[i].opening);
      expect(result.games[i].opening).toHaveLength(4);
    }
    const csv = readFileSync(join(straight, 'ranking.csv'), 'utf8').trim().split('\n');
    expect(csv[0]).toBe('rank,id,elo,elo_low95,elo_high95,games,wins,draws,losses,points,byes,los_next');
    expect(csv).toHaveLength(11);

    const killed = join(root, 'killed');
    const child = stopAfterwards(spawn(process.execPath, [CLI, ...args(killed)], { stdio: 'ignore' }));
    let over = false;
    const exited = new Promise<NodeJS.Signals | null>((resolve) => child.once('exit', (_code, signal) => {
      over = true;
      resolve(signal);
    }));
    // Wait on the journal (30 games in) or the run's end, however long a loaded machine takes: no clock bound.
    while (!over && journaled(killed) < 30) await sleep(20);
    child.kill('SIGKILL');
    expect(await exited).toBe('SIGKILL');
    const before = journaled(killed);
    expect(before).toBeGreaterThanOrEqual(30);
    expect(before).toBeLessThan(90);

    const refused = cli(args(killed));
    expect(refused.status).toBe(2);
    expect(refused.stderr).toMatch(/already holds a tournament journal: add --resume/);

    const resumed = await cliAsync([...args(killed), '--resume']);
    expect(resumed.status).toBe(0);
    expect(resumed.stdout).toContain(`${90 - before} played, ${before} from the journal`);
    expect(ranking(killed)).toEqual(ranking(straight));
    const db = new Database(join(killed, 'tournament.sqlite'), { readonly: true });
    expect(db.prepare('SELECT COUNT(*) AS games, MAX(plays) AS maxPlays FROM games').get()).toEqual({ games: 90, maxPlays: 1 });
    db.close();
  }, 600_000);

  test('one-line usage errors: an unknown participant, a bad budget, too many Swiss rounds', () => {
    const out = join(root, 'usage');
    const unknown = cli(['tournament', 'random', 'wieghted', '--out', out]);
    expect(unknown.status).toBe(2);
    expect(unknown.stderr.trim().split('\n')).toHaveLength(1);
    expect(unknown.stderr).toMatch(/"wieghted" is neither a reference AI of reversi \(random, greedy, weighted/);
    const budget = cli(['tournament', 'random', 'mcts:lots', '--out', out]);
    expect(budget.status).toBe(2);
    const swiss = cli(['tournament', 'random', 'greedy', 'weighted', '--format', 'swiss', '--rounds', '5', '--out', join(root, 'swiss')]);
    expect(swiss.status).toBe(2);
    expect(swiss.stderr).toMatch(/--rounds 5 is more than a Swiss of 3 players can pair without repeats: use at most 3/);
  });

  test('a gauntlet with openings from a file, and a Swiss of reference AIs with a bye each round (no pair twice, byes rotate)', () => {
    const dir = tempDir('tournament-formats');
    const openings = join(dir, 'openings.txt');
    writeFileSync(openings, 'F5 D6\n# a comment\nF5 F6 E6\n');
    const out = join(dir, 'gauntlet');
    const gauntlet = cli(['tournament', 'greedy', 'weighted', 'mcts:30', 'random', '--format', 'gauntlet', '--gauntlet', 'random', '--openings', openings, '--out', out]);
    expect(gauntlet.status).toBe(0);
    const result = validateTournamentResult(JSON.parse(readFileSync(join(out, 'tournament.json'), 'utf8')));
    expect(result.schedule.flatMap((round) => round.pairings).map((pair) => pair.join(' v ')).sort()).toEqual(['greedy v random', 'mcts:30 v random', 'weighted v random']);
    expect(result.games.map((game) => game.opening.join(' '))).toEqual(['F5 D6', 'F5 D6', 'F5 F6 E6', 'F5 F6 E6', 'F5 D6', 'F5 D6']);
    expect(result.games[0].record.turns.slice(0, 2).map((turn) => turn.move)).toEqual(['F5', 'D6']);
    expect(result.openings).toEqual({ kind: 'file', path: openings, lines: 2 });

    const swissOut = join(dir, 'swiss');
    const swiss = cli(['tournament', 'random', 'greedy', 'weighted', 'mcts:30', 'mobility', '--format', 'swiss', '--rounds', '3', '--games-per-pair', '1', '--out', swissOut]);
    expect(swiss.status).toBe(0);
    const rounds = validateTournamentResult(JSON.parse(readFileSync(join(swissOut, 'tournament.json'), 'utf8')));
    const met = rounds.schedule.flatMap((round) => round.pairings.map((pair) => [...pair].sort().join(' v ')));
    expect(new Set(met).size).toBe(met.length);
    const byes = rounds.schedule.map((round) => round.bye);
    expect(new Set(byes).size).toBe(3);
    expect(rounds.ranking.reduce((sum, row) => sum + row.byes, 0)).toBe(3);
  });

  test('hostile inputs: an openings file with an illegal move, a foreign journal, two participants with one id', () => {
    const dir = tempDir('tournament-hostile');
    const openings = join(dir, 'openings.txt');
    writeFileSync(openings, '# two openings\nF5 D6 C3\nF5 F6 A1\n');
    const bad = cli(['tournament', 'random', 'greedy', '--openings', openings, '--out', join(dir, 'o1')]);
    expect(bad.status).toBe(2);
    expect(bad.stderr.trim().split('\n')).toHaveLength(1);
    expect(bad.stderr).toMatch(/openings\.txt:3: "A1" is not a legal reversi move after 2 moves: write each opening as legal moves from the start/);

    mkdirSync(join(dir, 'o2'));
    writeFileSync(join(dir, 'o2', 'tournament.sqlite'), 'not a database at all, just text that is long enough to look like a header');
    const foreign = cli(['tournament', 'random', 'greedy', '--out', join(dir, 'o2')]);
    expect(foreign.status).toBe(2);
    expect(foreign.stderr).toMatch(/is not a readable Referee tournament journal .*: move it away or use another --out/);

    writeFileSync(join(dir, 'random.js'), 'export class AIPlayer { getMove(board) { return board.getLegalActions("X")[0]; } }\n');
    const clash = cli(['tournament', 'random', join(dir, 'random.js'), '--out', join(dir, 'o3')]);
    expect(clash.status).toBe(2);
    expect(clash.stderr).toMatch(/two participants are named "random": rename one submission/);
  });

  describe('tournament.html in Chromium', () => {
    let context: BrowserContext;
    beforeAll(async () => {
      context = await chromium.launchPersistentContext(tempDir('tournament-chromium'), { executablePath: CHROMIUM, headless: true, args: ARGS });
      context.setDefaultTimeout(PAGE_WAIT_MS);
    });
    afterAll(async () => {
      await context?.close();
    });

    test('ranking with interval bars, and a crosstable cell opens its game in the replay viewer', async () => {
      const out = join(root, 'straight');
      const result = JSON.parse(readFileSync(join(out, 'tournament.json'), 'utf8')) as TournamentResult;
      const requests: string[] = [];
      const page = await context.newPage();
      page.on('request', (request) => requests.push(request.url()));
      await page.goto(pathToFileURL(join(out, 'tournament.html')).href);
      expect(await page.$$eval('.rank-row', (rows) => rows.map((row) => row.getAttribute('data-player')))).toEqual(result.ranking.map((row) => row.id));
      expect(await page.$$eval('.rank-row svg.bar', (bars) => bars.length)).toBe(10);
      // Crosstable columns are named (rank and player), reference AIs are marked, the jargon is explained on the page.
      expect(await page.$$eval('.crosstable th.col-name', (heads) => heads.map((head) => head.textContent))).toEqual(result.ranking.map((row, index) => `${index + 1}. ${row.id}`));
      const marked = await page.$$eval('.rank-row', (rows) => rows.filter((row) => row.querySelector('.ref-ai')).map((row) => row.getAttribute('data-player')));
      expect(marked.sort()).toEqual(result.participants.filter((p) => p.kind === 'reference').map((p) => p.id).sort());
      expect(marked.length).toBeGreaterThan(0);
      expect(await page.textContent('#terms')).toMatch(/LOS next.*Likelihood of superiority.*Dispersion \(\d\.\d{3}\).*reference AI/s);
      const cells = await page.$$('button.cell');
      expect(cells).toHaveLength(90);
      const target = cells[17];
      const gameIndex = Number(await target.getAttribute('data-game'));
      await target.click();
      const game = result.games[gameIndex];
      const label = await page.textContent('#ply-label');
      expect(label).toContain(`${game.players[0]} (Black) vs ${game.players[1]} (White)`);
      expect(label).toContain(`ply 0 of ${game.record.turns.length}`);
      await page.click('#last');
      expect(await page.textContent('#ply-label')).toContain(`ply ${game.record.turns.length} of ${game.record.turns.length}`);
      if (game.record.end.score) {
        expect(await page.$$eval('#board [data-disc]', (discs) => discs.length)).toBe(game.record.end.score[0] + game.record.end.score[1]);
      }
      expect(requests.every((url) => url.startsWith('file://'))).toBe(true);
      await page.close();
    });
  });
});
