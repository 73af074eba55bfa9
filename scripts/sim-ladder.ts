/**
 * `npm run sim:ladder`: the ladder measured (opt-in; never part of npm test).
 *
 * Part 1, the rating half, simulated: a class of 100 students of known strength (true Elo drawn from a seeded
 * RNG, random = 0 like the published scale) plus four reference AIs at fixed strengths; 80 first submit at random
 * times over the ladder's days, 20 only in the last hour before the freeze, 30 resubmit a stronger version. Games
 * are NOT played: each game's outcome is drawn from the logistic model of the two true strengths (with draws), at
 * a given rate of games an hour. Everything else is the ladder's own code: OpenSkill matchmaking (choosePair), one
 * counted validation game against random per version, the final's stopping rule (nextFinalMeeting) and the
 * published joint maximum-likelihood table (fitLadder). Printed: Kendall τ of the final ranking against the
 * truth, the late submitters' rank errors and whether their true Elo lies in their interval, the same for
 * incremental OpenSkill on exactly the same games, and the hours until a new version's interval is ±150 Elo.
 *
 * Part 2, live (with --live): a real ladder in this process on the local fork pool (2 workers), a TS, a Python and
 * a C++ submission sent with `referee ladder submit` (time to the verdict), then games per hour over a window.
 *
 *   npm run sim:ladder -- [--seed 1] [--days 7] [--rate 300] [--live | --only-live] [--live-seconds 120]
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createRng } from '../harness/referee/seed.js';
import { defaultAssignment } from '../grading/assignment.js';
import { ForkPool } from '../grading/batch/pool.js';
import { nextFinalMeeting } from '../grading/ladder/final.js';
import { choosePair, OnlineSkill, type SkillPlayer } from '../grading/ladder/matchmaking.js';
import { fitLadder, type LadderFit } from '../grading/ladder/ratings.js';
import { enrol } from '../grading/ladder/roster.js';
import { LadderService } from '../grading/ladder/service.js';
import { LadderStore, referencePlayer, versionPlayer, type GameKind, type StudentRow, type VersionRow } from '../grading/ladder/store.js';
import { packageFile } from '../grading/package-root.js';
import { startLadderServer } from '../web/server/ladder-app.js';

const arg = (name: string, fallback: number): number => {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? Number(process.argv[at + 1]) : fallback;
};
const seed = arg('seed', 1);
const days = arg('days', 7);
const rate = arg('rate', 300);
const live = process.argv.includes('--live');
const liveSeconds = arg('live-seconds', 120);

function kendallTau(a: number[], b: number[]): number {
  let concordant = 0;
  let discordant = 0;
  for (let i = 0; i < a.length; i++) {
    for (let j = i + 1; j < a.length; j++) {
      const s = Math.sign(a[i] - a[j]) * Math.sign(b[i] - b[j]);
      if (s > 0) concordant++;
      else if (s < 0) discordant++;
    }
  }
  return (concordant - discordant) / ((a.length * (a.length - 1)) / 2);
}

interface SimVersion {
  row: VersionRow;
  truth: number;
  late: boolean;
  submittedHour: number;
  narrowHour: number | null;
}

function simulate(): void {
  const rng = createRng(seed);
  const random = (): number => rng.next();
  const hours = days * 24;
  const references: [string, number][] = [['random', 0], ['greedy', 150], ['weighted', 400], ['mobility', 650]];
  const truthOf = new Map<string, number>(references.map(([name, elo]) => [referencePlayer(name), elo]));
  const students: StudentRow[] = Array.from({ length: 100 }, (_, i) => ({ id: `s${i + 1}`, name: `s${i + 1}`, pseudonym: `s${i + 1}`, instructor: false }));
  // Submissions: 80 early (uniform over the ladder but its last hour), 20 only in the last hour; 30 early ones resubmit stronger.
  const events: { hour: number; student: string; truth: number; late: boolean }[] = [];
  students.forEach((s, i) => {
    const truth = -100 + 1400 * random();
    const late = i >= 80;
    const hour = late ? hours - 1 + random() : (hours - 1) * random();
    events.push({ hour, student: s.id, truth, late });
    if (!late && i < 30) {
      const later = hour + (hours - 1 - hour) * random();
      events.push({ hour: later, student: s.id, truth: Math.min(1500, truth + 50 + 250 * random()), late: false });
    }
  });
  events.sort((x, y) => x.hour - y.hour);

  const versions: SimVersion[] = [];
  const games: { kind: GameKind; black: string; white: string; blackScore: number }[] = [];
  const skill = new OnlineSkill();
  const play = (kind: GameKind, black: string, white: string): void => {
    const e = 1 / (1 + 10 ** (-(truthOf.get(black)! - truthOf.get(white)!) / 400));
    const draw = 0.4 * e * (1 - e);
    const u = random();
    const blackScore = u < e - draw / 2 ? 1 : u < e + draw / 2 ? 0.5 : 0;
    games.push({ kind, black, white, blackScore });
    skill.update(black, white, blackScore);
  };
  const allRows = (): VersionRow[] => versions.map((v) => v.row);
  const fit = (): LadderFit => fitLadder({ references: references.map(([name]) => name), anchor: 'random', students, versions: allRows(), games });
  const players = (): SkillPlayer[] => {
    const active = new Map<string, SimVersion>();
    for (const v of versions) active.set(v.row.student, v);
    return [...references.map(([name]) => ({ id: referencePlayer(name), reference: true })), ...[...active.values()].map((v) => ({ id: versionPlayer(v.row.id), reference: false }))];
  };
  const noteNarrow = (hour: number): void => {
    const table = fit().table;
    for (const row of table.rows) {
      if (row.version === null) continue;
      const v = versions[row.version - 1];
      if (v.narrowHour === null && (row.high - row.low) / 2 <= 150) v.narrowHour = hour - v.submittedHour;
    }
  };

  const started = performance.now();
  let hour = 0;
  let next = 0;
  const perGame = 1 / rate;
  let sinceFit = 0;
  while (hour < hours) {
    while (next < events.length && events[next].hour <= hour) {
      const e = events[next++];
      const id = versions.length + 1;
      const row: VersionRow = { id, student: e.student, contentHash: String(id), path: '', submittedAt: '', counts: true, status: 'valid', language: 'sim', artefact: null, runtime: null, entry: null, message: null, checkReport: null, verdictAt: null, attempts: 0, chosenEntry: null };
      versions.push({ row, truth: e.truth, late: e.late, submittedHour: hour, narrowHour: null });
      truthOf.set(versionPlayer(id), e.truth);
      play('validation', versionPlayer(id), referencePlayer('random'));
      hour += perGame;
    }
    const pair = choosePair(skill, players(), new Set(), random);
    if (pair) {
      play('rated', pair[0].id, pair[1].id);
      play('rated', pair[1].id, pair[0].id);
    }
    hour += 2 * perGame;
    sinceFit += 2;
    if (sinceFit >= 200) {
      noteNarrow(hour);
      sinceFit = 0;
    }
  }
  const ladderGames = games.length;
  // The final: the ladder's own stopping rule, fitting after each meeting.
  let finalGames = 0;
  let reason = '';
  for (;;) {
    const current = fit();
    const step = nextFinalMeeting(current, skill, players(), new Set(), { threshold: 0.95, pairCap: 40, maxGames: 4000 }, finalGames, random);
    if ('done' in step) {
      reason = step.done;
      break;
    }
    if (!('meet' in step)) break;
    play('final', step.meet[0], step.meet[1]);
    play('final', step.meet[1], step.meet[0]);
    finalGames += 2;
    hour += 2 * perGame;
    if (finalGames % 20 === 0) noteNarrow(hour);
  }
  noteNarrow(hour);
  const table = fit().table;
  const studentsRows = table.rows.filter((r) => r.kind === 'student');
  const truthRank = [...studentsRows].sort((x, y) => versions[y.version! - 1].truth - versions[x.version! - 1].truth).map((r) => r.version);
  const mlTau = kendallTau(studentsRows.map((r) => r.elo), studentsRows.map((r) => versions[r.version! - 1].truth));
  // Incremental OpenSkill alone, on exactly the same games in the same order.
  const online = new OnlineSkill();
  for (const g of games) online.update(g.black, g.white, g.blackScore);
  const osTau = kendallTau(studentsRows.map((r) => online.get(r.player).mu), studentsRows.map((r) => versions[r.version! - 1].truth));
  const osOrder = [...studentsRows].sort((x, y) => online.get(y.player).mu - online.get(x.player).mu).map((r) => r.version);
  const late = studentsRows.filter((r) => versions[r.version! - 1].late);
  const lateInside = late.filter((r) => {
    const t = versions[r.version! - 1].truth;
    return t >= r.low && t <= r.high;
  }).length;
  const rankError = (order: (number | null)[], version: number): number => Math.abs(order.indexOf(version) - truthRank.indexOf(version));
  const mlOrder = studentsRows.map((r) => r.version);
  const lateMl = late.map((r) => rankError(mlOrder, r.version!));
  const lateOs = late.map((r) => rankError(osOrder, r.version!));
  // "Within one interval of its true rank": the rows whose intervals overlap the late row's cover its true rank.
  const withinInterval = late.filter((r) => {
    const overlapping = studentsRows.filter((o) => o.high >= r.low && o.low <= r.high).map((o) => studentsRows.indexOf(o));
    const trueRank = truthRank.indexOf(r.version!);
    return trueRank >= Math.min(...overlapping) && trueRank <= Math.max(...overlapping);
  }).length;
  const narrow = versions.map((v) => v.narrowHour).filter((h): h is number => h !== null).sort((a, b) => a - b);
  const median = (xs: number[]): number => (xs.length === 0 ? NaN : xs[Math.floor(xs.length / 2)]);
  const mean = (xs: number[]): number => xs.reduce((s, x) => s + x, 0) / Math.max(1, xs.length);
  console.log(`Simulated class (seed ${seed}): 100 students, ${versions.length} versions, ${days} days at ${rate} games/h; outcomes drawn from the true strengths (logistic, draws), not played.`);
  console.log(`  ladder games ${ladderGames}, final games ${finalGames} (${reason}); simulated in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  const inside = studentsRows.filter((r) => versions[r.version! - 1].truth >= r.low && versions[r.version! - 1].truth <= r.high).length;
  console.log(`  all students: true Elo inside the 95% interval ${inside}/${studentsRows.length}; ${/virtual draw/.test(table.model) ? 'the fit needed one virtual draw per pair (an unbeaten or winless player)' : 'plain maximum likelihood (no virtual draws)'}`);
  console.log(`  Kendall tau vs truth: published joint ML ${mlTau.toFixed(4)}   incremental OpenSkill (mu) ${osTau.toFixed(4)}`);
  console.log(`  late submitters (${late.length}): true Elo inside their 95% interval ${lateInside}/${late.length}; true rank within the ranks their interval overlaps ${withinInterval}/${late.length}`);
  console.log(`  late submitters' rank error: ML mean ${mean(lateMl).toFixed(2)} max ${Math.max(...lateMl)}   OpenSkill mean ${mean(lateOs).toFixed(2)} max ${Math.max(...lateOs)}`);
  console.log(`  hours until a new version's interval is ±150 Elo: median ${median(narrow).toFixed(2)} h (${narrow.length}/${versions.length} versions got there), 90th percentile ${narrow.length ? narrow[Math.floor(narrow.length * 0.9)].toFixed(2) : 'n/a'} h`);
}

const runCli = (args: string[]): Promise<{ code: number | null; out: string; ms: number }> =>
  new Promise((resolve) => {
    const started = performance.now();
    const child = spawn(process.execPath, [packageFile('dist', 'cli', 'index.js'), ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.on('close', (code) => resolve({ code, out, ms: performance.now() - started }));
  });

async function measureLive(): Promise<void> {
  const root = mkdtempSync(join(tmpdir(), 'referee-sim-ladder-'));
  const dataDir = join(root, 'data');
  mkdirSync(dataDir);
  const store = LadderStore.open(join(dataDir, 'ladder.sqlite'));
  const assignment = defaultAssignment('reversi');
  const tokensPath = join(dataDir, 'tokens.csv');
  enrol(store, [{ id: 'ts', name: 'ts' }, { id: 'py', name: 'py' }, { id: 'cpp', name: 'cpp' }], tokensPath);
  const tokens = Object.fromEntries(readFileSync(tokensPath, 'utf8').trim().split('\n').slice(1).map((line) => line.split(',')));
  const pool = new ForkPool(packageFile('dist', 'grading', 'batch', 'worker.js'), 2);
  const settings = { references: ['random', 'greedy', 'weighted', 'mobility'], seed, quota: { perDay: 100, cooldownSeconds: 0 }, openingPlies: 4, final: { maxGames: 100, pairCap: 20, threshold: 0.95 } };
  store.setMeta('settings', JSON.stringify(settings));
  const service = new LadderService(store, dataDir, assignment, pool, settings);
  service.start();
  const server = await startLadderServer({ host: '127.0.0.1', port: 0, service });
  console.log(`\nLive ladder on the local fork pool (2 workers), built-in reversi assignment (${assignment.referee.moveTimeoutMs} ms a move):`);
  const submissions: [string, string][] = [
    ['ts', packageFile('tests', 'fixtures', 'students', 'fair')],
    ['py', packageFile('tests', 'fixtures', 'python', 'greedy')],
    ['cpp', packageFile('tests', 'fixtures', 'cpp', 'aiplayer-reversi')],
  ];
  for (const [student, path] of submissions) {
    const result = await runCli(['ladder', 'submit', path, '--url', server.url, '--token', tokens[student]]);
    console.log(`  ${student}: verdict in ${(result.ms / 1000).toFixed(1)} s (submit to rated, while the ladder plays on): ${result.out.trim().split('\n').pop()}`);
  }
  const before = store.gameCount(['rated']);
  const t0 = performance.now();
  await new Promise((resolve) => setTimeout(resolve, liveSeconds * 1000));
  const played = store.gameCount(['rated']) - before;
  const elapsed = (performance.now() - t0) / 1000;
  console.log(`  rated games: ${played} in ${elapsed.toFixed(0)} s = ${Math.round((played * 3600) / elapsed)} games/hour on 2 workers (3 students + 4 reference AIs)`);
  await server.close();
  await service.stop();
  store.close();
  rmSync(root, { recursive: true, force: true });
}

if (!process.argv.includes('--only-live')) simulate();
if (live || process.argv.includes('--only-live')) await measureLive();
