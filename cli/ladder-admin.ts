/**
 * The instructor's side of `referee ladder` (start, freeze, final, export, rebuild): everything that opens the
 * ladder's journal. Loaded only by those subcommands (cli/ladder.ts), so `ladder submit` works from a student
 * install.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ForkPool, WorkerStartError } from '../grading/batch/pool.js';
import { ladderClassroom, ladderExport, ladderGradescope, LADDER_EXPORTS, type LadderExportName } from '../grading/exporters/ladder.js';
import { readFinal, type FinalResult } from '../grading/ladder/final.js';
import { rebuildFrom } from '../grading/ladder/rebuild.js';
import { enrol, readRoster, RosterError, TOKENS_FILE } from '../grading/ladder/roster.js';
import { FINAL_FILE, ladderSeed, LadderService, serverAlive, writeJsonAtomic, type LadderEvent, type LadderSettings } from '../grading/ladder/service.js';
import { defaultReferences, LadderSetupError, loadSetup, saveSetup, validateReferences, type LadderSetup } from '../grading/ladder/setup.js';
import { LadderJournalError, LadderStore, LADDER_JOURNAL_FILE } from '../grading/ladder/store.js';
import type { Leaderboard } from '../grading/ladder/ratings.js';
import type { GamePool } from '../grading/pool/job.js';
import { startLadderServer } from '../web/server/ladder-app.js';
import { UsageError } from './args.js';
import { assignmentArg } from './assignment-arg.js';
import { padColumns } from '../grading/text-width.js';
import { clockTime, count } from '../grading/words.js';

export interface LadderStartFlags {
  config: string;
  roster: string;
  data: string;
  port: number;
  host: string;
  trustProxy?: boolean;
  allowedHost?: string[];
  jobs: number;
  queue?: string;
  keyFile?: string;
  redisPasswordFile?: string;
  references?: string[];
  quota: number;
  cooldown: number;
  openingPlies: number;
  finalGames: number;
  pairCap: number;
  los: number;
}

const gameWorker = (): string => process.env.REFEREE_BATCH_WORKER || fileURLToPath(new URL('../grading/batch/worker.js', import.meta.url));

function openStore(dir: string, create = false): LadderStore {
  const path = join(resolve(dir), LADDER_JOURNAL_FILE);
  if (!create && !existsSync(path)) throw new UsageError(`${dir} holds no ladder (no ${LADDER_JOURNAL_FILE}): give the --data folder of \`referee ladder start\``);
  try {
    return LadderStore.open(path);
  } catch (error) {
    if (error instanceof LadderJournalError) throw new UsageError(error.message);
    throw error;
  }
}

/** The ladder's saved setup, or the one line saying it was never started or is damaged. */
function setupOf(store: LadderStore, data: string): LadderSetup {
  let setup: LadderSetup | null;
  try {
    setup = loadSetup(store);
  } catch (error) {
    if (error instanceof LadderSetupError) throw new UsageError(`${join(data, LADDER_JOURNAL_FILE)}: ${error.message}`);
    throw error;
  }
  if (!setup) throw new UsageError(`${data}: the ladder was never started: run \`referee ladder start\` first`);
  return setup;
}

/**
 * The scan the service runs at start (LadderStore.setAsideDamaged), for the commands that read the journal without
 * a service: a damaged row is set aside, and said, the same way on every path.
 */
function setAsideDamaged(store: LadderStore, settings: LadderSettings): void {
  for (const row of store.setAsideDamaged(settings.references)) logEvent({ type: 'damaged', row });
}

function logEvent(event: LadderEvent): void {
  const at = clockTime();
  if (event.type === 'version') {
    const v = event.version;
    console.log(`${at} version ${v.id} of ${v.student}: ${v.status}${v.message ? ` — ${v.message}` : ''}`);
  } else if (event.type === 'grader-error') {
    console.error(`${at} grader error: ${event.message}`);
  } else if (event.type === 'damaged') {
    const { table, id, student, version, why } = event.row;
    const of = version === undefined ? '' : ` (of version ${version})`;
    const what = table === 'games' ? `game ${id}` : table === 'versions' ? `version ${id} (of ${student})` : table === 'history' ? `rating-history point ${id}${of}` : `practice request ${id}${of}`;
    const after =
      table === 'games' ? 'matchmaking plays another game in its place'
      : table === 'versions' ? 'the student can submit it again'
      : table === 'history' ? "the version's next rating adds a new point"
      : 'the student can ask for the practice game again';
    console.error(`warning: ${LADDER_JOURNAL_FILE} ${what} is damaged (${why}): set aside in its quarantine table and not counted, everything else kept; ${after}, or restore ${LADDER_JOURNAL_FILE} from a backup to keep it`);
  } else if (event.type === 'final') {
    console.log(`${at} final done: ${event.result.reason}; ${count(event.result.finalGames, 'final game')}`);
  }
}

async function openPool(flags: { jobs: number; queue?: string; keyFile?: string; redisPasswordFile?: string }): Promise<GamePool> {
  if (flags.queue) {
    const { openQueuePool } = await import('./queue-flags.js');
    return openQueuePool({ ...flags, queue: flags.queue }, Math.max(flags.jobs, 2));
  }
  try {
    return new ForkPool(gameWorker(), flags.jobs, { onWarning: (line) => console.error(`warning: ${line}`) });
  } catch (error) {
    if (error instanceof WorkerStartError) throw new UsageError(error.message);
    throw error;
  }
}

export async function startLadder(flags: LadderStartFlags): Promise<void> {
  const assignment = assignmentArg(flags.config, undefined);
  const dataDir = resolve(flags.data);
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  let roster;
  try {
    roster = readRoster(flags.roster);
  } catch (error) {
    if (error instanceof RosterError) throw new UsageError(error.message);
    throw error;
  }
  const store = openStore(dataDir, true);
  const references = flags.references ?? defaultReferences(assignment);
  const settings: LadderSettings = {
    references,
    seed: ladderSeed(store),
    quota: { perDay: flags.quota, cooldownSeconds: flags.cooldown },
    openingPlies: flags.openingPlies,
    final: { maxGames: flags.finalGames, pairCap: flags.pairCap, threshold: flags.los },
  };
  try {
    validateReferences(assignment.game, references);
    const rewritten = saveSetup(store, { assignment, settings });
    if (rewritten) console.error(`warning: ${LADDER_JOURNAL_FILE} ${rewritten}`);
  } catch (error) {
    store.close();
    if (error instanceof LadderSetupError) throw new UsageError(error.message);
    throw error;
  }
  if (serverAlive(store)) {
    store.close();
    throw new UsageError(`a ladder server is already running on ${dataDir}: stop it first (one server per data folder)`);
  }
  const tokensPath = join(dataDir, TOKENS_FILE);
  const { added } = enrol(store, roster, tokensPath);
  if (added.length > 0) console.log(`Tokens for ${added.join(', ').length > 200 ? `${added.length} people` : added.join(', ')} written to ${tokensPath} (mode 600): hand each student their line; the "instructor" line is yours. They are not stored anywhere else.`);
  const pool = await openPool(flags);
  const service = new LadderService(store, dataDir, assignment, pool, settings, logEvent);
  service.start();
  let server;
  try {
    server = await startLadderServer({ host: flags.host, port: flags.port, service, trustProxy: flags.trustProxy, allowedHosts: flags.allowedHost });
  } catch (error) {
    await service.stop();
    store.close();
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') throw new UsageError(`port ${flags.port} is in use: pick another with --port (0 picks a free one)`);
    throw error;
  }
  console.log(`referee ladder: ${server.url} — ${count(store.students().length - 1, 'student')}, phase ${store.phase()}, reference ladder ${references.join(' → ')}; Ctrl-C stops (nothing is lost)`);
  const stop = (): void => {
    void server
      .close()
      .then(() => service.stop())
      .finally(() => {
        store.close();
        process.exit(0);
      });
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

export async function freeze(flags: { data: string }): Promise<void> {
  const store = openStore(flags.data);
  try {
    if (store.phase() === 'open') {
      store.setMeta('phase', 'frozen');
      store.setMeta('frozen-at', new Date().toISOString());
      console.log('The ladder is frozen: versions submitted from now on are checked and can practise, but never count.');
    } else {
      console.log(`The ladder is already ${store.phase()}.`);
    }
  } finally {
    store.close();
  }
}

function printTable(table: Leaderboard, final: FinalResult | null): void {
  const points = new Map(final?.awards.map((a) => [a.version, a.points]) ?? []);
  console.log(`${'rank'.padStart(4)}  ${'player'.padEnd(16)}  ${'Elo'.padStart(6)}  95% interval     games  LOS(next)${final ? '  points' : ''}`);
  for (const row of table.rows) {
    const who = row.student ?? row.pseudonym;
    const los = row.losNext === null ? '' : `${(100 * row.losNext).toFixed(1)}%`;
    const pts = row.version !== null && points.has(row.version) ? String(points.get(row.version) ?? '') : '';
    console.log(`${String(row.rank).padStart(4)}  ${padColumns(who, 16)}  ${String(Math.round(row.elo)).padStart(6)}  ${`[${Math.round(row.low)}, ${Math.round(row.high)}]`.padEnd(15)}  ${String(row.games).padStart(5)}  ${los.padStart(9)}${final ? `  ${pts.padStart(6)}` : ''}`);
  }
}

export async function final(flags: { data: string; jobs: number }): Promise<void> {
  const dataDir = resolve(flags.data);
  const store = openStore(dataDir);
  try {
    const setup = setupOf(store, flags.data);
    if (store.phase() !== 'done') {
      if (!store.getMeta('frozen-at')) store.setMeta('frozen-at', new Date().toISOString());
      store.setMeta('phase', 'final');
    }
    if (store.phase() === 'final' && serverAlive(store)) {
      console.log('The running ladder server plays the final; waiting for it (Ctrl-C leaves it running)…');
      let last = -1;
      while (store.phase() !== 'done') {
        const games = store.gameCount(['final']);
        if (games !== last) console.log(`  ${count(games, 'final game')} so far`);
        last = games;
        await new Promise((r) => setTimeout(r, 2000));
        if (!serverAlive(store)) throw new UsageError('the ladder server stopped during the final: run `referee ladder final` again (finished games are kept)');
      }
    } else if (store.phase() === 'final') {
      console.log('No ladder server is running: playing the final here.');
      const pool = await openPool({ jobs: flags.jobs });
      const service = new LadderService(store, dataDir, setup.assignment, pool, setup.settings, logEvent);
      service.start({ heartbeat: true });
      await service.whenFinalDone();
      await service.stop();
    }
    let result = readFinal(join(dataDir, FINAL_FILE));
    if (result === null || 'damaged' in result) {
      // The final was played (the journal says done) but its file is gone or damaged: it is a pure function of the
      // journal (rebuild), so it is written again from there rather than lost.
      setAsideDamaged(store, setup.settings);
      const rebuilt = rebuildFrom(store, setup.assignment, setup.settings).final;
      if (!rebuilt) throw new UsageError(`${flags.data}: the ladder's phase is ${store.phase()}, not done, and it has no ${FINAL_FILE}: run \`referee ladder final\` with a server stopped to play it`);
      console.error(`warning: ${FINAL_FILE} ${result === null ? 'was missing' : `was damaged (${result.damaged})`}: written again from the journal`);
      writeJsonAtomic(join(dataDir, FINAL_FILE), rebuilt);
      result = rebuilt;
    }
    printTable(result.table, result);
    console.log(`\nFinal: ${result.reason}; ${count(result.finalGames, 'final game')}.${result.tied.length > 0 ? ` Not separated at LOS ${result.threshold}: ${result.tied.map((t) => `${t.a}/${t.b}`).join(', ')}.` : ''}\nExport with: referee ladder export --data ${flags.data} --format csv`);
  } finally {
    store.close();
  }
}

export async function rebuild(flags: { data: string }): Promise<void> {
  const dataDir = resolve(flags.data);
  const store = openStore(dataDir);
  try {
    const setup = setupOf(store, flags.data);
    setAsideDamaged(store, setup.settings);
    const rebuilt = rebuildFrom(store, setup.assignment, setup.settings);
    for (const problem of rebuilt.problems) console.error(`warning: ${problem}`);
    writeFileSync(join(dataDir, 'rebuilt-leaderboard.json'), `${JSON.stringify(rebuilt.table, null, 2)}\n`);
    const compare = (file: string, value: unknown): boolean | null => {
      const path = join(dataDir, file);
      if (!existsSync(path)) return null;
      return readFileSync(path, 'utf8') === `${JSON.stringify(value, null, 2)}\n`;
    };
    const table = compare('leaderboard.json', rebuilt.table);
    const finalSame = rebuilt.final ? compare(FINAL_FILE, rebuilt.final) : null;
    printTable(rebuilt.table, rebuilt.final);
    console.log(`\nRebuilt from ${count(rebuilt.games, 'journaled game')}: ${join(dataDir, 'rebuilt-leaderboard.json')}`);
    if (serverAlive(store)) console.log('(a server is running: games finished since its last publication may differ)');
    if (table === null) console.log('No published leaderboard.json to compare with.');
    else console.log(table ? 'leaderboard.json: identical, byte for byte.' : 'leaderboard.json DIFFERS from the journal.');
    if (finalSame !== null) console.log(finalSame ? `${FINAL_FILE}: identical, byte for byte.` : `${FINAL_FILE} DIFFERS from the journal.`);
    if (table === false || finalSame === false || rebuilt.problems.length > 0) process.exitCode = 1;
  } finally {
    store.close();
  }
}

export async function exportLadder(flags: { data: string; format: string; out?: string }): Promise<void> {
  if (!Object.hasOwn(LADDER_EXPORTS, flags.format)) throw new UsageError(`--format must be one of ${Object.keys(LADDER_EXPORTS).join(', ')}`);
  const format = flags.format as LadderExportName;
  const path = join(resolve(flags.data), FINAL_FILE);
  const result = readFinal(path);
  if (result === null) throw new UsageError(`${flags.data} has no final yet: run \`referee ladder final --data ${flags.data}\` first`);
  if ('damaged' in result) throw new UsageError(`${path} is damaged (${result.damaged}): run \`referee ladder final --data ${flags.data}\` to write it again from the journal`);
  if (format === 'csv') {
    const text = ladderExport('csv', result);
    if (flags.out) writeFileSync(flags.out, text);
    else process.stdout.write(text);
    return;
  }
  if (!flags.out) {
    process.stdout.write(ladderExport(format, result));
    return;
  }
  for (const award of result.awards) {
    const dir = join(flags.out, award.student);
    mkdirSync(dir, { recursive: true });
    const body = format === 'gradescope' ? ladderGradescope(award, result) : ladderClassroom(award, result);
    writeFileSync(join(dir, format === 'gradescope' ? 'results.json' : 'classroom.json'), `${JSON.stringify(body, null, 2)}\n`);
  }
  console.log(`Wrote ${format} output for ${count(result.awards.length, 'student')} under ${flags.out}.`);
}
