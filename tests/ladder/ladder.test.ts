/**
 * `referee ladder` as a class uses it: the server as a CLI subprocess on a free port, a tiny roster, real TS,
 * Python and C++ submissions sent with `referee ladder submit`, the leaderboard's intervals over HTTP, the hostile
 * uploads refused with nothing stored, a kill -9 of the server mid-game and a restart that loses no submission and
 * no game, freeze and the final from the CLI, export, `rebuild` equal byte for byte, and the pages in Chromium.
 * One ladder for the whole file (the steps build on each other); waits are on the API's state, never the clock.
 */
import { spawn } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import Database from 'better-sqlite3';
import type { Browser } from 'playwright-core';
import { packageFile } from '../../grading/package-root.js';
import { tempDir } from '../batch/helpers.js';
import { makeZip, type ZipFileSpec } from '../batch/zip-writer.js';
import { CLI, launchBrowser, requireBuild, startCli, type Started } from '../web/serve-helpers.js';
import { stopAfterwards } from '../setup/children.js';
import { WatchSource } from '../../web/server/watch.js';
import { ladderCsv } from '../../grading/exporters/ladder.js';
import { LADDER_ASSIGNMENT } from './assignment.js';

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

const run = (args: string[]): Promise<Run> =>
  new Promise((resolve) => {
    const child = stopAfterwards(spawn(process.execPath, [CLI, ...args], { stdio: ['ignore', 'pipe', 'pipe'] }));
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });

/** Poll `probe` until it returns a value (state, not time: the bound only turns a hang into a message). */
async function until<T>(what: string, probe: () => Promise<T | null | undefined | false>, limitMs = 240_000): Promise<T> {
  const end = Date.now() + limitMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > end) throw new Error(`gave up waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

interface Row {
  player: string;
  kind: string;
  version: number | null;
  games: number;
  elo: number;
  low: number;
  high: number;
  losNext: number | null;
  student?: string;
}

describe('referee ladder', () => {
  let root: string;
  let data: string;
  let server: Started | null = null;
  let tokens: Record<string, string>;
  let browser: Browser | null = null;
  const start = async (): Promise<Started> =>
    startCli(
      ['ladder', 'start', '--config', join(root, 'assignment.json'), '--roster', join(root, 'roster.csv'), '--data', data, '--port', '0', '--jobs', '2', '--quota', '2', '--cooldown', '0', '--pair-cap', '6', '--final-games', '24'],
      /referee ladder: (http:\/\/\S+)/,
    );
  // The flood case drains this address's request bucket on purpose: the other cases wait for it to refill (a 429
  // is retried) rather than depend on which case ran before them.
  const api = async (path: string, token?: string, init: RequestInit = {}): Promise<{ status: number; data: Record<string, unknown> }> => {
    for (let tries = 0; ; tries += 1) {
      const response = await fetch(new URL(path, server!.url), { ...init, headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(init.headers ?? {}) } });
      if (response.status === 429 && tries < 240) {
        await response.arrayBuffer();
        await new Promise((resolve) => setTimeout(resolve, 500));
        continue;
      }
      return { status: response.status, data: (await response.json()) as Record<string, unknown> };
    }
  };
  const board = async (): Promise<{ rows: Row[]; games: number; unrated: unknown[] }> => (await api('/api/leaderboard')).data as never;
  const journal = <T>(query: string): T => {
    const db = new Database(join(data, 'ladder.sqlite'), { readonly: true, fileMustExist: true });
    try {
      return db.prepare(query).get() as T;
    } finally {
      db.close();
    }
  };
  const stored = (): { versions: number; folders: number; incoming: number } => ({
    versions: journal<{ n: number }>('SELECT COUNT(*) AS n FROM versions').n,
    folders: existsSync(join(data, 'submissions')) ? readdirSync(join(data, 'submissions')).flatMap((s) => readdirSync(join(data, 'submissions', s))).length : 0,
    incoming: existsSync(join(data, 'incoming')) ? readdirSync(join(data, 'incoming')).length : 0,
  });
  const submit = (path: string, student: string, ...more: string[]): Promise<Run> => run(['ladder', 'submit', path, '--url', server!.url, '--token', tokens[student], ...more]);

  beforeAll(async () => {
    requireBuild();
    root = tempDir('ladder');
    data = join(root, 'data');
    writeFileSync(join(root, 'assignment.json'), JSON.stringify(LADDER_ASSIGNMENT));
    writeFileSync(join(root, 'roster.csv'), 'student,name\nts,Tess Script\npy,Py Thon\ncpp,Cee Plus\nbroken,Bro Ken\n');
    mkdirSync(join(root, 'ts'));
    // It prints on every move: its stdout is its own, never its opponents' to read (the /api/games redaction case).
    const weak = readFileSync(packageFile('tests', 'fixtures', 'students', 'weak', 'AIPlayer.ts'), 'utf8');
    writeFileSync(join(root, 'ts', 'AIPlayer.ts'), weak.replace('getMove(board: Board): string {', 'getMove(board: Board): string {\n    console.log("TS-PRIVATE-EVAL");'));
    expect(readFileSync(join(root, 'ts', 'AIPlayer.ts'), 'utf8')).toContain('TS-PRIVATE-EVAL');
    server = await start();
    tokens = Object.fromEntries(
      readFileSync(join(data, 'tokens.csv'), 'utf8')
        .trim()
        .split('\n')
        .slice(1)
        .map((line) => line.split(',')),
    );
  });

  afterAll(async () => {
    await browser?.close();
    server?.child.kill('SIGKILL');
  });

  test('tokens are written once, 0600, and stored only hashed', () => {
    expect(Object.keys(tokens).sort()).toEqual(['broken', 'cpp', 'instructor', 'py', 'ts']);
    expect(readFileSync(join(data, 'tokens.csv')).length).toBeGreaterThan(0);
    expect(statSync(join(data, 'tokens.csv')).mode & 0o777).toBe(0o600);
    const raw = readFileSync(join(data, 'ladder.sqlite')).toString('latin1') + (existsSync(join(data, 'ladder.sqlite-wal')) ? readFileSync(join(data, 'ladder.sqlite-wal')).toString('latin1') : '');
    for (const token of Object.values(tokens)) expect(raw.includes(token)).toBe(false);
  });

  test('a TS folder and a Python folder are checked, validated and rated with an interval', async () => {
    const [ts, py] = await Promise.all([submit(join(root, 'ts'), 'ts'), submit(packageFile('tests', 'fixtures', 'python', 'greedy'), 'py')]);
    expect(ts.stdout).toMatch(/Version \d+ is checked, validated and rated: -?\d+ Elo \(95% interval -?\d+ to -?\d+\)/);
    expect(py.stdout).toMatch(/Version \d+ is checked, validated and rated/);
    expect([ts.code, py.code]).toEqual([0, 0]);
    const table = await until('both students in the table', async () => {
      const t = await board();
      return t.rows.filter((r) => r.kind === 'student').length === 2 ? t : null;
    });
    for (const row of table.rows) {
      expect(row.low).toBeLessThanOrEqual(row.elo);
      expect(row.high).toBeGreaterThanOrEqual(row.elo);
      expect(row.student).toBeUndefined();
      if (row.kind === 'student') expect(row.high - row.low).toBeGreaterThan(0);
    }
    expect(table.rows.find((r) => r.player === 'r:random')!.elo).toBe(0);
    expect(table.rows.slice(0, -1).every((r) => typeof r.losNext === 'number')).toBe(true);
    // The instructor sees names; the same upload again is the same version.
    const asInstructor = (await api('/api/leaderboard', tokens.instructor)).data as unknown as { rows: Row[] };
    expect(asInstructor.rows.filter((r) => r.kind === 'student').map((r) => r.student).sort()).toEqual(['py', 'ts']);
    const again = await submit(join(root, 'ts'), 'ts');
    expect(again.stdout).toMatch(/The same files as version \d+/);
  }, 300_000);

  test('a submission that fails the check gets its report at once, is never rated, and the quota holds', async () => {
    const broken = join(root, 'broken.ts');
    writeFileSync(broken, 'export class AIPlayer {\n  getMove(board: any) { return board.getLegalActions(\n}\n');
    const first = await submit(broken, 'broken');
    expect(first.code).toBe(1);
    expect(first.stdout).toMatch(/failed the interface check \(it will not be rated\)/);
    writeFileSync(broken, 'export class AIPlayer {\n  getMove(board: any) { return 42; }\n}\n');
    const second = await submit(broken, 'broken');
    expect(second.code).toBe(1);
    writeFileSync(broken, 'export class AIPlayer {\n  getMove(board: any) { return 43; }\n}\n');
    const third = await submit(broken, 'broken');
    expect(third.code).toBe(2);
    expect(third.stderr.trim().split('\n')).toHaveLength(1);
    expect(third.stderr).toMatch(/quota reached: 2 submissions a day/);
    const table = await board();
    expect(table.rows.some((r) => r.kind === 'student' && !['ts', 'py'].includes(String((r as Row).student ?? '')) && r.version !== null && r.version > 2)).toBe(false);
  }); // the suite's 5-minute hang catcher: each submission is checked (type check ~55 s at load 40); 120 s ran out at load 35

  test('a wrong token, an oversize upload, hostile zips and a flood are each one line and store nothing', async () => {
    const before = stored();
    const wrong = await run(['ladder', 'submit', join(root, 'ts'), '--url', server!.url, '--token', 'lt_not-a-token-at-all']);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^referee: unknown token/)]);
    const big = join(root, 'big');
    mkdirSync(big);
    writeFileSync(join(big, 'AIPlayer.py'), 'class AIPlayer: pass\n');
    writeFileSync(join(big, 'weights.bin'), Buffer.from(Array.from({ length: 6 * 1024 * 1024 }, (_, i) => (i * 2654435761) >>> 24)));
    const oversize = await submit(big, 'cpp');
    expect(oversize.code).toBe(2);
    expect(oversize.stderr.trim().split('\n')).toEqual([expect.stringMatching(/over the cap/)]);
    const hostile: [ZipFileSpec, RegExp][] = [
      [{ name: '../../escape.py', content: 'x = 1\n' }, /refused/],
      [{ name: '/etc/cron.d/x', content: 'x' }, /refused/],
      [{ name: 'board.py', content: '/etc/passwd', mode: 0o120777 }, /symbolic link/],
      [{ name: 'bomb.bin', content: Buffer.alloc(64 * 1024 * 1024), deflate: true, declaredSize: 100 }, /cannot be extracted|over the cap/],
    ];
    for (const [entry, why] of hostile) {
      const path = join(root, 'hostile.zip');
      writeFileSync(path, makeZip([entry, { name: 'AIPlayer.py', content: 'class AIPlayer: pass\n' }]));
      const refused = await submit(path, 'cpp');
      expect(refused.code).toBe(2);
      expect(refused.stderr.trim().split('\n')).toEqual([expect.stringMatching(why)]);
    }
    expect(existsSync(join(root, 'escape.py'))).toBe(false);
    // A flood: the address is throttled with one line; then it recovers. The bucket refills 20 a second of the
    // server's clock: on a loaded machine one volley of 150 can reach the server slower than that (0 of 150 refused
    // at load 25), so volleys follow each other until one is refused; the bound is a count of volleys, not time.
    let throttled: Response[] = [];
    for (let volley = 1; throttled.length === 0; volley++) {
      if (volley > 20) throw new Error('20 volleys of 150 requests and not one refused with 429');
      const flood = await Promise.all(Array.from({ length: 150 }, () => fetch(new URL('/api/leaderboard', server!.url))));
      throttled = flood.filter((response) => response.status === 429);
      await Promise.all(flood.filter((response) => response !== throttled[0]).map((response) => response.arrayBuffer()));
    }
    expect(await throttled[0].json()).toEqual({ error: expect.stringMatching(/^too many requests from this address/) });
    await until('the address to recover', async () => (await fetch(new URL('/api/leaderboard', server!.url))).status === 200);
    expect(stored()).toEqual(before);
  }); // the suite's 5-minute hang catcher: each submission is checked (type check ~55 s at load 40); 120 s ran out at load 35

  test('a student reads a game against a classmate without the classmate\'s stdout; a wrong token uploads nothing', async () => {
    const me = async (student: string): Promise<{ games: { id: number; black: string; white: string }[]; versions: { id: number }[] }> => (await api('/api/me', tokens[student])).data as never;
    const tsPlayers = new Set((await me('ts')).versions.map((v) => `v${v.id}`));
    const game = await until('a game between ts and py', async () => (await me('py')).games.find((g) => tsPlayers.has(g.black) || tsPlayers.has(g.white)));
    const asPy = JSON.stringify((await api(`/api/games/${game.id}`, tokens.py)).data);
    expect(asPy).toContain('"turns"');
    expect(asPy).not.toContain('TS-PRIVATE-EVAL');
    // Control: the same game still carries the output for its author and the instructor.
    expect(JSON.stringify((await api(`/api/games/${game.id}`, tokens.ts)).data)).toContain('TS-PRIVATE-EVAL');
    expect(JSON.stringify((await api(`/api/games/${game.id}`, tokens.instructor)).data)).toContain('TS-PRIVATE-EVAL');
    // A wrong token on an upload is refused before the body is read: the client announces 2 MB and sends none of
    // it; the 401 comes anyway (the old server waited for the whole body first, so this never answered).
    const url = new URL('/api/submit', server!.url);
    const answer = await new Promise<{ status: number }>((resolve, reject) => {
      const request = httpRequest({ host: url.hostname, port: url.port, path: url.pathname, method: 'POST', headers: { 'content-type': 'application/zip', 'content-length': 2_000_000, authorization: 'Bearer lt_wrong-token-here' } });
      request.on('response', (response) => (response.resume(), resolve({ status: response.statusCode ?? 0 }), request.destroy()));
      request.on('error', (error) => (request.destroyed ? undefined : reject(error)));
      request.flushHeaders();
    });
    // 401, or 429 while the earlier cases' wrong tokens still hold this address's throttle: refused either way.
    expect([401, 429]).toContain(answer.status);
  });

  test('over real HTTP: a classmate\'s typos behind the same address never lock out a right token; foreign Host and Origin refused', async () => {
    /** One raw request (any Host header), retried while this address's request bucket refills from the flood case. */
    const raw = async (path: string, headers: Record<string, string | number>, method = 'GET'): Promise<{ status: number; body: string }> => {
      const url = new URL(path, server!.url);
      for (;;) {
        const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
          const request = httpRequest({ host: url.hostname, port: url.port, path: `${url.pathname}${url.search}`, method, headers });
          request.on('response', (response) => {
            let body = '';
            response.on('data', (chunk: Buffer) => (body += chunk.toString()));
            response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
          });
          request.on('error', reject);
          request.end();
        });
        if (!(answer.status === 429 && /too many requests from this address/.test(answer.body))) return answer;
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
    };
    const typo = `${tokens.py.slice(0, 6)}-mistyped-${'x'.repeat(12)}`;
    const answers: number[] = [];
    for (let attempt = 0; attempt < 14; attempt += 1) answers.push((await raw('/api/me', { authorization: `Bearer ${typo}` })).status);
    expect(answers.slice(0, 10)).toEqual(Array(10).fill(401));
    expect(answers.slice(10)).toEqual(Array(4).fill(429));
    // The right token from the same address, even one sharing the typo's first characters, goes through.
    expect((await raw('/api/me', { authorization: `Bearer ${tokens.py}` })).status).toBe(200);
    expect((await raw('/api/me', { authorization: `Bearer ${tokens.ts}` })).status).toBe(200);
    // DNS rebinding: a name that is not loopback, the bound address or an --allowed-host is refused, on every route.
    const rebound = await raw('/api/leaderboard', { host: 'evil.example:80' });
    expect(rebound.status).toBe(421);
    expect(JSON.parse(rebound.body).error).toMatch(/^host 'evil\.example:80' refused: start the ladder with --allowed-host evil\.example/);
    expect((await raw('/api/leaderboard', { host: `localhost:${new URL(server!.url).port}` })).status).toBe(200);
    // A post from another site's page (the student's browser holds no cookie, but the rule is serve's): refused.
    const foreign = await raw('/api/submit?file=AIPlayer.py', { authorization: `Bearer ${tokens.py}`, origin: 'http://evil.example', 'content-type': 'application/octet-stream', 'content-length': 0 }, 'POST');
    expect(foreign.status).toBe(403);
    expect(JSON.parse(foreign.body).error).toMatch(/another web site was refused/);
    // CSV exports defuse a cell a spreadsheet would run (a roster name or pseudonym starting with = + - @).
    const csv = ladderCsv({ awards: [{ student: '=HYPERLINK("http://evil")', pseudonym: '@x', version: 1, rank: 1, elo: -5, low: -50, high: 40, points: 10, basis: 'rating' }], max: 10 } as never);
    expect(csv).toContain(`'=HYPERLINK`);
    expect(csv).toContain(`'@x`);
    expect(csv).toContain(',-5,-50,40,');
  });

  test('the pages: leaderboard with intervals, a student page with versions and a game replay (Chromium)', async () => {
    browser = await launchBrowser();
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(server!.url);
    await page.waitForSelector('#leaderboard tbody tr.student');
    const intervals = await page.$$eval('#leaderboard tbody tr td.interval', (cells) => cells.map((cell) => cell.textContent ?? ''));
    expect(intervals.every((text) => /^-?\d+ … -?\d+$/.test(text))).toBe(true);
    expect(await page.$$eval('.bar span', (spans) => spans.length)).toBeGreaterThan(0);
    expect(await page.content()).not.toMatch(/Tess Script|>ts</);
    const mine = await page.goto(new URL(`/me?token=${encodeURIComponent(tokens.ts)}`, server!.url).href);
    expect(mine!.headers()['referrer-policy']).toBe('no-referrer');
    await page.waitForSelector('#versions tbody tr');
    // The token was read, then taken out of the address bar (and the history entry).
    expect(page.url()).toBe(new URL('/me', server!.url).href);
    expect(await page.textContent('#standing')).toMatch(/95% interval -?\d+ … -?\d+/);
    await page.click('#games tbody tr a');
    await page.waitForSelector('#board svg');
    await page.click('#last');
    expect(await page.textContent('#ply-label')).toMatch(/\d/);
    expect(errors).toEqual([]);
    await page.close();
    // `referee serve --watch DATA` reads the ladder's journal like a tournament's: its finished games (and the live table).
    const watched = new WatchSource(data).overview();
    expect(watched.source).toBe('tournament');
    expect(watched.gamesTotal).toBeGreaterThan(0);
  });

  test('kill -9 mid-game loses no submission and no game; a restart resumes; final, export and rebuild', async () => {
    // A C++ submission goes in and the server dies while games are being played.
    const cpp = await submit(packageFile('tests', 'fixtures', 'cpp', 'aiplayer-reversi'), 'cpp', '--no-wait');
    expect(cpp.code).toBe(0);
    const cppVersion = Number(/version (\d+)/.exec(cpp.stdout)![1]);
    const published = (await board()).games;
    await until('games in play', async () => (await board()).games > published + 2);
    const seen = (await board()).games;
    server!.child.kill('SIGKILL');
    await new Promise((resolve) => server!.child.once('exit', resolve));
    const kept = journal<{ n: number }>("SELECT COUNT(*) AS n FROM games WHERE kind IN ('validation', 'rated', 'final')").n;
    expect(kept).toBeGreaterThanOrEqual(seen);
    expect(journal<{ n: number }>(`SELECT COUNT(*) AS n FROM versions WHERE id = ${cppVersion}`).n).toBe(1);
    server = await start();
    // Matchmaking resumes and the C++ version finishes its intake.
    await until('games after the restart', async () => journal<{ n: number }>('SELECT COUNT(*) AS n FROM games').n > kept + 2);
    const cppState = await until('the C++ verdict', async () => {
      const v = (await api(`/api/versions/${cppVersion}`, tokens.cpp)).data;
      return ['valid', 'invalid', 'failed', 'grader-error'].includes(String(v.status)) ? v : null;
    });
    expect(cppState.status).toBe('valid');
    expect(cppState.language).toBe('C++');

    expect((await run(['ladder', 'freeze', '--data', data])).stdout).toMatch(/frozen/);
    const final = await run(['ladder', 'final', '--data', data]);
    expect(final.code).toBe(0);
    expect(final.stdout).toMatch(/Final: /);
    const csv = await run(['ladder', 'export', '--data', data, '--format', 'csv']);
    const lines = csv.stdout.trim().split('\n');
    expect(lines[0]).toBe('student,pseudonym,version,rank,elo,low,high,points,max_points,basis');
    expect(lines.slice(1).map((line) => line.split(',')[0]).sort()).toEqual(['cpp', 'py', 'ts']);
    const gradescope = join(root, 'gs');
    expect((await run(['ladder', 'export', '--data', data, '--format', 'gradescope', '--out', gradescope])).code).toBe(0);
    const results = JSON.parse(readFileSync(join(gradescope, 'ts', 'results.json'), 'utf8')) as { leaderboard: { name: string }[] };
    expect(results.leaderboard.map((entry) => entry.name)).toEqual(['Elo', '95% interval', 'Rank']);

    server!.child.kill('SIGTERM');
    await new Promise((resolve) => server!.child.once('exit', resolve));
    server = null;
    const rebuilt = await run(['ladder', 'rebuild', '--data', data]);
    expect(rebuilt.stdout).toMatch(/leaderboard\.json: identical, byte for byte/);
    expect(rebuilt.stdout).toMatch(/final\.json: identical, byte for byte/);
    expect(rebuilt.code).toBe(0);
  }, 400_000);

  test('damaged journal rows: the server starts, names each in one line with the fix, counts none, keeps the rest; submit --entry', async () => {
    const published = JSON.parse(readFileSync(join(data, 'leaderboard.json'), 'utf8')) as { games: number; rows: Row[] };
    const db = new Database(join(data, 'ladder.sqlite'));
    type Game = { id: number; kind: string; black: string; white: string };
    const last = db.prepare('SELECT id, kind, black, white FROM games ORDER BY id DESC LIMIT 1').get() as Game;
    const decided = (db.prepare("SELECT id, kind, black, white FROM games WHERE kind IN ('rated', 'final') AND black_score != 0.5 AND id != ? ORDER BY id").all(last.id) as Game[]).slice(0, 2);
    const [edited, foreign] = decided;
    // A crash cut the last row short; an instructor flipped a result by hand; a row came from another Referee version.
    db.prepare('UPDATE games SET record = substr(record, 1, length(record) / 2) WHERE id = ?').run(last.id);
    db.prepare('UPDATE games SET black_score = 1 - black_score WHERE id = ?').run(edited.id);
    db.prepare("UPDATE games SET record = json_set(record, '$.format', 'referee.game/0') WHERE id = ?").run(foreign.id);
    const failed = (db.prepare("SELECT id FROM versions WHERE student = 'broken' ORDER BY id LIMIT 1").get() as { id: number }).id;
    db.prepare('UPDATE versions SET check_report = substr(check_report, 1, 20) WHERE id = ?').run(failed);
    // Rating-over-time points and practice requests damaged the same ways: a torn write, a hand edit, a stray row.
    const good = (db.prepare("SELECT MIN(id) AS id FROM versions WHERE status = 'valid'").get() as { id: number }).id;
    const point = Number(db.prepare("INSERT INTO history (version, games, elo, low, high, at) VALUES (?, 4, '12O.5', 0, 200, '2026-11-27T10:00:00.000Z')").run(good).lastInsertRowid);
    const upsideDown = Number(db.prepare("INSERT INTO history (version, games, elo, low, high, at) VALUES (?, 4, 300, 0, 200, '2026-11-27T10:00:00.000Z')").run(good).lastInsertRowid);
    const stranger = Number(db.prepare("INSERT INTO practice (version, opponent, requested_at) VALUES (?, 'deep-blue', '2026-11-27T10:00:00.000Z')").run(good).lastInsertRowid);
    const orphan = Number(db.prepare("INSERT INTO practice (version, opponent, requested_at) VALUES (99999, 'random', '2026-11-27T10:00:00.000Z')").run().lastInsertRowid);
    // The server adds rating points as soon as it runs: the ones there now are counted by their time.
    const { n: history, at: lastPoint } = db.prepare('SELECT COUNT(*) AS n, MAX(at) AS at FROM history').get() as { n: number; at: string };
    const practice = (db.prepare('SELECT COUNT(*) AS n FROM practice').get() as { n: number }).n;
    const games = (db.prepare('SELECT COUNT(*) AS n FROM games').get() as { n: number }).n;
    const versions = (db.prepare('SELECT COUNT(*) AS n FROM versions').get() as { n: number }).n;
    db.close();

    server = await start();
    const warnings = server.output().split('\n').filter((line) => line.startsWith('warning: ladder.sqlite'));
    const fix = /: set aside in its quarantine table and not counted, everything else kept; .*, or restore ladder\.sqlite from a backup to keep it$/;
    expect(warnings).toEqual([
      expect.stringMatching(new RegExp(`^warning: ladder\\.sqlite version ${failed} \\(of broken\\) is damaged \\(its check report is cut short or not JSON\\)`)),
      expect.stringMatching(new RegExp(`^warning: ladder\\.sqlite game ${edited.id} is damaged \\(its stored result [01] is not its record's \\([01]\\): edited by hand\\)`)),
      expect.stringMatching(new RegExp(`^warning: ladder\\.sqlite game ${foreign.id} is damaged \\(its record is of another Referee version \\(format "referee\\.game/0"`)),
      expect.stringMatching(new RegExp(`^warning: ladder\\.sqlite game ${last.id} is damaged \\(its record is cut short or not JSON\\)`)),
      expect.stringMatching(new RegExp(`^warning: ladder\\.sqlite practice request ${stranger} \\(of version ${good}\\) is damaged \\(its opponent "deep-blue" is not one of this ladder's reference AIs\\): .*the student can ask for the practice game again`)),
      expect.stringMatching(new RegExp(`^warning: ladder\\.sqlite practice request ${orphan} \\(of version 99999\\) is damaged \\(its version "99999" is not one of this ladder's\\)`)),
      expect.stringMatching(new RegExp(`^warning: ladder\\.sqlite rating-history point ${point} \\(of version ${good}\\) is damaged \\(its elo "12O\\.5" is not a rating\\): .*the version's next rating adds a new point`)),
      expect.stringMatching(new RegExp(`^warning: ladder\\.sqlite rating-history point ${upsideDown} \\(of version ${good}\\) is damaged \\(its rating lies outside its own interval\\)`)),
    ]);
    for (const line of warnings) expect(line).toMatch(fix);
    // Nothing else lost; the bad rows kept aside whole; the table counts none of them.
    expect(journal<{ n: number }>('SELECT COUNT(*) AS n FROM games').n).toBe(games - 3);
    expect(journal<{ n: number }>('SELECT COUNT(*) AS n FROM versions').n).toBe(versions - 1);
    expect(journal<{ n: number }>("SELECT COUNT(*) AS n FROM quarantine WHERE row LIKE '{\"id\":%'").n).toBe(6);
    expect(journal<{ n: number }>("SELECT COUNT(*) AS n FROM quarantine WHERE tbl = 'history'").n).toBe(2);
    expect(journal<{ n: number }>(`SELECT COUNT(*) AS n FROM history WHERE at <= '${lastPoint}'`).n).toBe(history - 2);
    expect(journal<{ n: number }>('SELECT COUNT(*) AS n FROM practice').n).toBe(practice - 2);
    const players = new Set(published.rows.map((row) => row.player));
    const counted = [last, edited, foreign].filter((g) => ['validation', 'rated', 'final'].includes(g.kind) && g.black !== g.white && players.has(g.black) && players.has(g.white)).length;
    expect((await board()).games).toBe(published.games - counted);

    // --entry names the file to play over the conventions (AIPlayer.py here is a decoy that cannot even be built).
    const folder = join(root, 'py-entry');
    mkdirSync(folder);
    writeFileSync(join(folder, 'mybot.py'), readFileSync(packageFile('tests', 'fixtures', 'python', 'greedy', 'AIPlayer.py')));
    writeFileSync(join(folder, 'AIPlayer.py'), 'class AIPlayer:\n    def __init__(self, color):\n        raise RuntimeError("decoy: not the entry")\n');
    const missing = await submit(folder, 'py', '--entry', 'nope.py');
    expect({ code: missing.code, lines: missing.stderr.trim().split('\n') }).toEqual({ code: 2, lines: [expect.stringMatching(/--entry nope\.py is not a file in .*py-entry: give its path relative to the folder/)] });
    const before = stored();
    const escape = await api('/api/submit?entry=..%2F..%2Fladder.sqlite', tokens.py, { method: 'POST', body: new Uint8Array(makeZip([{ name: 'mybot.py', content: 'x = 1\n' }])), headers: { 'content-type': 'application/zip' } });
    expect(escape).toEqual({ status: 400, data: { error: expect.stringMatching(/^--entry "\.\.\/\.\.\/ladder\.sqlite" is not a path inside the submission/) } });
    expect(stored()).toEqual(before);
    const chosen = await submit(folder, 'py', '--entry', 'mybot.py');
    expect(chosen.stdout).toMatch(/Version \d+ is checked and validated/);
    expect(chosen.code).toBe(0);
    const id = Number(/version (\d+)/.exec(chosen.stdout)![1]);
    expect(journal<{ chosen_entry: string; language: string }>(`SELECT chosen_entry, language FROM versions WHERE id = ${id}`)).toEqual({ chosen_entry: 'mybot.py', language: 'Python' });
    server!.child.kill('SIGTERM');
    await new Promise((resolve) => server!.child.once('exit', resolve));
    server = null;
  }, 300_000);

  test('with no server: rebuild sets damaged rows aside as start does; a damaged final.json is written again; a damaged setup is one line', async () => {
    const db = new Database(join(data, 'ladder.sqlite'));
    const game = db.prepare("SELECT id FROM games WHERE kind IN ('rated', 'final') AND black_score != 0.5 ORDER BY id DESC LIMIT 1").get() as { id: number };
    const version = db.prepare("SELECT id FROM versions WHERE student = 'py' AND check_report IS NOT NULL ORDER BY id DESC LIMIT 1").get() as { id: number };
    // Damaged since the server last started: a result flipped by hand, a check report cut short, a heartbeat garbled.
    db.prepare('UPDATE games SET black_score = 1 - black_score WHERE id = ?').run(game.id);
    db.prepare('UPDATE versions SET check_report = substr(check_report, 1, 20) WHERE id = ?').run(version.id);
    db.prepare("UPDATE meta SET value = 'garbled{' WHERE key = 'heartbeat'").run();
    const aside = (db.prepare('SELECT COUNT(*) AS n FROM quarantine').get() as { n: number }).n;
    db.close();
    const fix = /: set aside in its quarantine table and not counted, everything else kept; .*, or restore ladder\.sqlite from a backup to keep it$/;
    const rebuilt = await run(['ladder', 'rebuild', '--data', data]);
    const warnings = rebuilt.stderr.trimEnd().split('\n');
    expect(warnings).toEqual([
      expect.stringMatching(new RegExp(`^warning: ladder\\.sqlite version ${version.id} \\(of py\\) is damaged \\(its check report is cut short or not JSON\\)`)),
      expect.stringMatching(new RegExp(`^warning: ladder\\.sqlite game ${game.id} is damaged \\(its stored result [01] is not its record's \\([01]\\): edited by hand\\)`)),
    ]);
    for (const line of warnings) expect(line).toMatch(fix);
    expect(rebuilt.stdout).toMatch(/leaderboard\.json DIFFERS from the journal/);
    expect(rebuilt.code).toBe(1);
    expect(journal<{ n: number }>('SELECT COUNT(*) AS n FROM quarantine').n).toBe(aside + 2);
    // Set aside once: a second rebuild says nothing of them.
    const again = await run(['ladder', 'rebuild', '--data', data]);
    expect(again.stderr).toBe('');

    // final.json cut short (a full disk): export says so with the fix; `final` writes it again from the journal.
    const finalPath = join(data, 'final.json');
    writeFileSync(finalPath, readFileSync(finalPath, 'utf8').slice(0, 100));
    const refused = await run(['ladder', 'export', '--data', data, '--format', 'csv']);
    expect({ code: refused.code, stdout: refused.stdout, stderr: refused.stderr.trimEnd() }).toEqual({
      code: 2,
      stdout: '',
      stderr: `referee: ${finalPath} is damaged (it is cut short or not JSON): run \`referee ladder final --data ${data}\` to write it again from the journal`,
    });
    const rewritten = await run(['ladder', 'final', '--data', data]);
    expect({ code: rewritten.code, stderr: rewritten.stderr.trimEnd() }).toEqual({ code: 0, stderr: 'warning: final.json was damaged (it is cut short or not JSON): written again from the journal' });
    const csv = await run(['ladder', 'export', '--data', data, '--format', 'csv']);
    expect(csv.code).toBe(0);
    expect(csv.stdout.split('\n')[0]).toBe('student,pseudonym,version,rank,elo,low,high,points,max_points,basis');
    expect((await run(['ladder', 'rebuild', '--data', data])).stdout).toMatch(/final\.json: identical, byte for byte/);

    // The saved setup cut short: one line with the fix (start writes it anew), on every command that reads it.
    const edit = new Database(join(data, 'ladder.sqlite'));
    const settings = (edit.prepare("SELECT value FROM meta WHERE key = 'settings'").get() as { value: string }).value;
    edit.prepare("UPDATE meta SET value = substr(value, 1, 10) WHERE key = 'settings'").run();
    edit.close();
    const [rebuild, final] = await Promise.all([run(['ladder', 'rebuild', '--data', data]), run(['ladder', 'final', '--data', data])]);
    for (const each of [rebuild, final]) {
      expect({ code: each.code, stderr: each.stderr.trimEnd() }).toEqual({
        code: 2,
        stderr: `referee: ${join(data, 'ladder.sqlite')}: the ladder's saved setup (its assignment and settings) is cut short or not JSON: start the ladder again with its --config (\`referee ladder start\` writes the setup anew and keeps every game), or restore the journal from a backup`,
      });
    }
    const restore = new Database(join(data, 'ladder.sqlite'));
    restore.prepare("UPDATE meta SET value = ? WHERE key = 'settings'").run(settings);
    restore.close();
  }, 300_000);
});
