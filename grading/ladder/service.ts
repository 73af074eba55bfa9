/**
 * The ladder as a running service: submissions come in (submit), each is checked and validated in turn, then
 * matchmaking keeps the pool busy with the most informative rated games; practice games against the reference
 * ladder are played on request and never count; the phase (open → frozen → final → done) is read from the journal
 * on every round, so `referee ladder freeze|final` work from another process. Everything is journaled before it is
 * acted on: a restart (after kill -9 too) re-reads the journal, resumes any version still being checked or
 * validated (its finished validation games are found by key, not replayed), and goes on matchmaking.
 *
 * A grader failure (a dead worker twice, a sandbox that cannot start) never counts against a student: the game is
 * not recorded, a version's intake is retried, and after three failures it is marked `grader-error` without using
 * up the student's quota.
 */
import { randomInt } from 'node:crypto';
import { existsSync, renameSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { AnyGame } from '../../harness/games/game.js';
import { getGame } from '../../harness/games/registry.js';
import { isGraderError } from '../../harness/referee/grader-error.js';
import type { GameRecord } from '../../harness/referee/record.js';
import { createRng, deriveSeed } from '../../harness/referee/seed.js';
import { isLossVerdict, VERDICT_DESCRIPTIONS } from '../../harness/referee/verdict.js';
import { checkSubmission } from '../../harness/submission/check.js';
import { canonicalJson, sha256, type Assignment } from '../assignment.js';
import { checkLimits, submissionLimits } from '../check-limits.js';
import { checkItems } from '../contestant.js';
import { openingBook } from '../opening.js';
import { LiveGames, sqliteLiveSink } from '../live.js';
import { harnessVersion } from '../package-root.js';
import { buildArtefact } from '../pool/artefact.js';
import { PoolAbortError, PoolWorkerError, type GameJob, type GamePool, type PlayerSpec } from '../pool/job.js';
import { randomOpening } from '../tournament/openings.js';
import { stageUpload, UploadRefused } from './intake.js';
import { choosePair, OnlineSkill, type SkillPlayer } from './matchmaking.js';
import { finalResult, nextFinalMeeting, type FinalResult } from './final.js';
import { activeVersions, COUNTED_KINDS, fitLadder, type LadderFit, type Leaderboard } from './ratings.js';
import { referencePlayer, versionPlayer, type DamagedRow, type GameKind, type LadderStore, type VersionRow } from './store.js';

export interface LadderSettings {
  /** Reference AIs on the ladder, weakest first: the first is the anchor (rated 0) and the validation opponent. */
  references: string[];
  seed: number;
  /** Submissions a student may make in 24 h, and the seconds between two. */
  quota: { perDay: number; cooldownSeconds: number };
  /** Random plies of each pair's opening (played twice, colours swapped). */
  openingPlies: number;
  final: {
    /** Most final games in all. */
    maxGames: number;
    /** Most games between one adjacent pair before it is declared too close to separate. */
    pairCap: number;
    /** LOS an adjacent pair needs to count as separated. */
    threshold: number;
  };
  /** Rated games in flight at once (default: the pool's size). */
  concurrency?: number;
}

export type LadderEvent =
  | { type: 'version'; version: VersionRow }
  | { type: 'game'; kind: GameKind; id: number; black: string; white: string; blackScore: number }
  | { type: 'grader-error'; message: string }
  /** A journal row set aside at start (cut short, edited by hand, another Referee's): not counted, kept aside. */
  | { type: 'damaged'; row: DamagedRow }
  | { type: 'final'; result: FinalResult };

const LEADERBOARD_FILE = 'leaderboard.json';
export const FINAL_FILE = 'final.json';
const INTAKE_ATTEMPTS = 3;
const HEARTBEAT_MS = 2000;
/** A server heartbeat older than this is a server that is gone. */
export const HEARTBEAT_STALE_MS = 10_000;

export const gameScore = (record: GameRecord): number => (record.end.winner === null ? 0.5 : record.end.winner === 0 ? 1 : 0);

/** Write `value` as JSON atomically (a reader never sees half a file). */
export function writeJsonAtomic(path: string, value: unknown): void {
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(value, null, 2)}\n`);
  renameSync(temporary, path);
}

/**
 * Whether a ladder server is running on this data folder: its heartbeat is fresh and, the journal being on this
 * machine, its process still exists (a server killed with -9 can be restarted at once).
 */
export function serverAlive(store: LadderStore, now = Date.now()): boolean {
  const beat = store.getMeta('heartbeat');
  if (!beat) return false;
  let at: unknown;
  let pid: unknown;
  try {
    ({ at, pid } = JSON.parse(beat) as { at: unknown; pid: unknown });
  } catch {
    return false; // a heartbeat nobody can read is no server's
  }
  if (typeof at !== 'number' || !Number.isInteger(pid) || (pid as number) <= 0 || now - at >= HEARTBEAT_STALE_MS) return false;
  try {
    process.kill(pid as number, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export class LadderService {
  private readonly skill = new OnlineSkill();
  private readonly published = new Set<string>();
  private readonly busy = new Map<string, number>();
  private readonly intakeQueue: number[] = [];
  private intakeRunning = 0;
  private inFlight = 0;
  private stopped = false;
  private wake: (() => void) | null = null;
  private fit: LadderFit | null = null;
  private heartbeat: NodeJS.Timeout | null = null;
  private loopDone: Promise<void> | null = null;
  /** Games in play, move by move, in the journal's live table: `referee serve --watch DATA` shows them. */
  private live: LiveGames | null = null;
  private readonly random: () => number;
  private readonly harness = harnessVersion();
  private readonly game: AnyGame;
  /** Resolves when the final is done (final-only runs from the CLI wait on it). */
  private finalDone: { promise: Promise<FinalResult>; resolve: (result: FinalResult) => void };

  constructor(
    readonly store: LadderStore,
    readonly dataDir: string,
    readonly assignment: Assignment,
    private readonly pool: GamePool,
    readonly settings: LadderSettings,
    private readonly onEvent: (event: LadderEvent) => void = () => undefined,
  ) {
    this.game = getGame(assignment.game);
    const rng = createRng(deriveSeed(settings.seed, Date.now() % 2 ** 31));
    this.random = () => rng.next();
    let resolveFinal!: (result: FinalResult) => void;
    this.finalDone = { promise: new Promise((r) => (resolveFinal = r)), resolve: resolveFinal };
  }

  get anchor(): string {
    return this.settings.references[0];
  }

  /** Re-read the journal and start intake and matchmaking. */
  start(options: { heartbeat?: boolean } = {}): void {
    for (const row of this.store.setAsideDamaged(this.settings.references)) this.onEvent({ type: 'damaged', row });
    for (const game of this.store.games()) {
      if (COUNTED_KINDS.includes(game.kind)) this.skill.update(game.black, game.white, game.blackScore);
    }
    this.refreshTable();
    this.live = new LiveGames(sqliteLiveSink(this.store.db), (message) => this.onEvent({ type: 'grader-error', message: `live view: ${message}` }));
    for (const version of this.store.pendingVersions()) this.enqueueIntake(version.id);
    if (options.heartbeat !== false) {
      const beat = (): void => this.store.setMeta('heartbeat', JSON.stringify({ pid: process.pid, at: Date.now() }));
      beat();
      this.heartbeat = setInterval(beat, HEARTBEAT_MS);
      this.heartbeat.unref();
    }
    this.loopDone = this.loop();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.heartbeat) clearInterval(this.heartbeat);
    if (this.store.getMeta('heartbeat')) this.store.setMeta('heartbeat', JSON.stringify({ pid: process.pid, at: 0 }));
    this.poke();
    await this.pool.close();
    await this.loopDone;
    this.live?.close('interrupted');
  }

  /** The published table (instructor view; the web layer hides ids from others). */
  table(): Leaderboard {
    return this.fit!.table;
  }

  whenFinalDone(): Promise<FinalResult> {
    return this.finalDone.promise;
  }

  /** Take an upload: stage it, apply quota and cool-down, record the version, and queue its check. */
  async submit(student: string, bytes: Buffer, now = new Date(), entry?: string): Promise<{ version: VersionRow; duplicate: boolean }> {
    const staged = await stageUpload(this.dataDir, student, bytes, submissionLimits(this.assignment), entry);
    const counts = this.store.phase() === 'open';
    const outcome = this.store.addVersion({ student, contentHash: staged.contentHash, path: staged.path, chosenEntry: entry, counts, now, quota: this.settings.quota });
    if ('refused' in outcome) {
      staged.discard();
      throw new UploadRefused(outcome.refused);
    }
    if (!outcome.duplicate) {
      this.onEvent({ type: 'version', version: outcome.version });
      this.enqueueIntake(outcome.version.id);
    }
    return outcome;
  }

  /** A practice game of the student's newest valid version against a reference AI: played soon, never counted. */
  requestPractice(student: string, opponent: string): number {
    if (!this.settings.references.includes(opponent)) throw new UploadRefused(`${opponent} is not on this ladder: practise against one of ${this.settings.references.join(', ')}`);
    const version = [...this.store.versionsOf(student)].reverse().find((v) => v.status === 'valid');
    if (!version) throw new UploadRefused('you have no validated version yet: submit one first');
    if (this.store.openPracticeOf(version.id) >= 3) throw new UploadRefused('three practice games are already waiting: wait for them to finish');
    const id = this.store.requestPractice(version.id, opponent);
    this.poke();
    return id;
  }

  // Intake ---------------------------------------------------------------------------------------------------------

  private enqueueIntake(id: number): void {
    if (!this.intakeQueue.includes(id)) this.intakeQueue.push(id);
    this.pumpIntake();
  }

  private pumpIntake(): void {
    while (!this.stopped && this.intakeRunning < 2 && this.intakeQueue.length > 0) {
      const id = this.intakeQueue.shift()!;
      this.intakeRunning += 1;
      void this.intake(id).finally(() => {
        this.intakeRunning -= 1;
        this.pumpIntake();
      });
    }
  }

  private setStatus(version: VersionRow, fields: Parameters<LadderStore['updateVersion']>[1]): void {
    this.store.updateVersion(version.id, fields);
    const updated = this.store.version(version.id)!;
    this.onEvent({ type: 'version', version: updated });
    if (fields.status === 'valid' || fields.status === 'invalid') this.refreshTable();
    this.poke();
  }

  private async intake(id: number): Promise<void> {
    const version = this.store.version(id);
    if (!version || this.stopped) return;
    try {
      this.setStatus(version, { status: 'checking' });
      const path = resolve(this.dataDir, version.path);
      const limits = checkLimits(this.assignment, `the ladder's assignment (${this.assignment.title})`);
      const check = await checkSubmission(path, version.chosenEntry ? { ...limits, entry: version.chosenEntry } : limits);
      const report = checkItems(check);
      if (!check.ok) {
        const failed = report.items.find((item) => item.status === 'fail');
        const message = failed ? `${failed.title}${failed.detail ? `: ${failed.detail.split('\n')[0]}` : ''}${failed.fix ? ` — ${failed.fix}` : ''}` : 'the interface check failed';
        this.setStatus(version, { status: 'failed', checkReport: report, language: check.language ?? null, message, verdictAt: new Date().toISOString() });
        return;
      }
      const artefact = await buildArtefact(path, version.chosenEntry ?? this.assignment.entry, this.assignment.protocol);
      await this.pool.publish(artefact);
      this.published.add(artefact.hash);
      this.setStatus(version, { status: 'validating', checkReport: report, language: check.language ?? null, artefact: artefact.hash, runtime: artefact.runtime, entry: artefact.entry });
      const verdict = await this.validate(this.store.version(id)!);
      this.setStatus(version, { status: verdict === null ? 'valid' : 'invalid', message: verdict, verdictAt: new Date().toISOString() });
    } catch (error) {
      if (this.stopped || error instanceof PoolAbortError) return;
      const attempts = version.attempts + 1;
      const message = `grader error (not your fault; attempt ${attempts} of ${INTAKE_ATTEMPTS}): ${(error as Error).message.split('\n')[0]}`;
      this.onEvent({ type: 'grader-error', message: `version ${id}: ${message}` });
      if (attempts >= INTAKE_ATTEMPTS || !(error instanceof PoolWorkerError || isGraderError(error))) {
        this.setStatus(version, { status: 'grader-error', attempts, message: `${message}; the instructor has been told — it does not use up a submission` });
      } else {
        this.setStatus(version, { status: 'received', attempts, message });
        const retry = setTimeout(() => this.enqueueIntake(id), 2000);
        retry.unref();
      }
    }
  }

  /** Two games against itself (both colours) and one against the weakest reference: null, or why it failed. */
  private async validate(version: VersionRow): Promise<string | null> {
    const self = versionPlayer(version.id);
    const weakest = referencePlayer(this.anchor);
    const studentBlack = version.id % 2 === 1;
    const games: [string, string][] = [[self, self], [self, self], studentBlack ? [self, weakest] : [weakest, self]];
    const seed = deriveSeed(this.settings.seed, 1_000_000 + version.id);
    const opening = randomOpening(this.game, seed, this.settings.openingPlies);
    const played = await Promise.all(games.map(([black, white], n) => this.playCounted('validation', black, white, seed, opening, `validation ${n + 1}`, -1)));
    for (let n = 0; n < played.length; n++) {
      const record = played[n].record;
      if (!isLossVerdict(record.end.reason)) continue;
      const loser = record.end.loser?.side ?? (record.end.winner === 0 ? 1 : 0);
      const [black, white] = games[n];
      if ((loser === 0 ? black : white) !== self) continue;
      const what = n < 2 ? `against itself as ${loser === 0 ? 'Black' : 'White'}` : `against ${this.anchor}`;
      const detail = record.end.loser?.message ? `: ${record.end.loser.message}` : '';
      return `validation game ${n + 1} (${what}, game #${played[n].id}) lost because it ${VERDICT_DESCRIPTIONS[record.end.reason]}${detail}`;
    }
    return null;
  }

  // Games ----------------------------------------------------------------------------------------------------------

  private async spec(player: string): Promise<PlayerSpec> {
    if (player.startsWith('r:')) return { kind: 'reference', name: player.slice(2), ai: player.slice(2), openingMoves: 0 };
    const version = this.store.version(Number(player.slice(1)))!;
    if (!version.artefact || !this.published.has(version.artefact)) {
      // After a restart: build again from the kept files (the compiler caches by content) and publish.
      const artefact = await buildArtefact(resolve(this.dataDir, version.path), version.chosenEntry ?? this.assignment.entry, this.assignment.protocol);
      if (artefact.hash !== version.artefact) this.store.updateVersion(version.id, { artefact: artefact.hash, runtime: artefact.runtime, entry: artefact.entry });
      await this.pool.publish(artefact);
      this.published.add(artefact.hash);
      return { kind: 'artefact', name: this.nameOf(version), artefact: artefact.hash, runtime: artefact.runtime, entry: artefact.entry };
    }
    return { kind: 'artefact', name: this.nameOf(version), artefact: version.artefact, runtime: version.runtime!, entry: version.entry! };
  }

  private nameOf(version: VersionRow): string {
    const pseudonym = this.store.students().find((s) => s.id === version.student)?.pseudonym ?? 'student';
    return `${pseudonym} v${version.id}`;
  }

  /**
   * Play one game (a dead worker is retried once), journal it, and count it. A second failure is the grader's:
   * nothing is recorded and the error goes up (intake retries; matchmaking just picks again).
   */
  private async playCounted(kind: GameKind, black: string, white: string, seed: number, opening: string[], tag: string, order = 0): Promise<{ id: number; record: GameRecord }> {
    const specs: [PlayerSpec, PlayerSpec] = [await this.spec(black), await this.spec(white)];
    const { played } = openingBook(this.game, seed, opening);
    const line = opening.slice(0, played);
    const key = sha256(canonicalJson({ kind: 'ladder-game', tag, harness: this.harness, game: this.game.id, referee: this.assignment.referee, black, white, code: specs.map((s) => (s.kind === 'artefact' ? s.artefact : s.ai)), seed, opening: line }));
    const stored = this.store.gameByKey(key);
    if (stored) return { id: stored.id, record: this.store.game(stored.id)!.record };
    const job: GameJob = { key, harness: this.harness, game: this.game.id, config: this.assignment.referee, seed, players: specs, label: `${specs[0].name} vs ${specs[1].name} (${kind})`, opening: line };
    for (let attempt = 1; ; attempt++) {
      try {
        const live = this.live;
        const result = await this.pool
          .play(job, { order, onStart: (worker) => live?.start(key, job.label, worker.name), onProgress: (progress) => live?.progress(key, progress) })
          .finally(() => live?.end(key));
        const row = this.store.saveGame({ key, kind, black, white, seed, blackScore: gameScore(result.record), reason: result.record.end.reason, wallMs: result.wallMs, worker: result.worker }, result.record);
        await result.done?.();
        if (COUNTED_KINDS.includes(kind)) {
          this.skill.update(black, white, row.blackScore);
          this.refreshTable();
        }
        this.onEvent({ type: 'game', kind, id: row.id, black, white, blackScore: row.blackScore });
        return { id: row.id, record: result.record };
      } catch (error) {
        if (error instanceof PoolWorkerError && attempt < 2 && !this.stopped) continue;
        throw error;
      }
    }
  }

  /** Recompute the published table from the journal (and note each student's new point on its rating curve). */
  refreshTable(): void {
    const previous = this.fit?.table;
    this.fit = fitLadder({ references: this.settings.references, anchor: this.anchor, students: this.store.students(), versions: this.store.allVersions(), games: this.store.games() });
    const before = new Map(previous?.rows.map((row) => [row.player, row.games]) ?? []);
    const changed = this.fit.table.rows.filter((row) => row.kind === 'student' && before.get(row.player) !== row.games);
    if (changed.length > 0) this.store.addHistory(changed.map((row) => ({ version: row.version!, games: row.games, elo: row.elo, low: row.low, high: row.high })));
    writeJsonAtomic(join(this.dataDir, LEADERBOARD_FILE), this.fit.table);
  }

  private poke(): void {
    const wake = this.wake;
    this.wake = null;
    wake?.();
  }

  private nextSerial(): number {
    const serial = Number(this.store.getMeta('serial') ?? '0') + 1;
    this.store.setMeta('serial', String(serial));
    return serial;
  }

  /** Start a meeting: the same opening twice, colours swapped; both players busy until both games are done. */
  private startMeeting(kind: GameKind, a: string, b: string): void {
    const seed = deriveSeed(this.settings.seed, this.nextSerial());
    const opening = randomOpening(this.game, seed, this.settings.openingPlies);
    for (const player of [a, b]) this.busy.set(player, (this.busy.get(player) ?? 0) + 1);
    this.inFlight += 2;
    const games = [this.playCounted(kind, a, b, seed, opening, kind, 0), this.playCounted(kind, b, a, seed, opening, kind, 0)];
    void Promise.allSettled(games).then((results) => {
      for (const player of [a, b]) {
        const left = (this.busy.get(player) ?? 1) - 1;
        if (left <= 0) this.busy.delete(player);
        else this.busy.set(player, left);
      }
      this.inFlight -= 2;
      for (const result of results) {
        if (result.status === 'rejected' && !this.stopped && !(result.reason instanceof PoolAbortError)) {
          this.onEvent({ type: 'grader-error', message: `a ${kind} game of ${a} and ${b} could not be played (nobody is charged; another is chosen): ${(result.reason as Error).message}` });
        }
      }
      this.poke();
    });
  }

  private startPractice(request: { id: number; version: number; opponent: string }): void {
    const self = versionPlayer(request.version);
    const seed = deriveSeed(this.settings.seed, this.nextSerial());
    const opening = randomOpening(this.game, seed, this.settings.openingPlies);
    const colours: [string, string] = request.id % 2 === 0 ? [self, referencePlayer(request.opponent)] : [referencePlayer(request.opponent), self];
    this.inFlight += 1;
    this.busy.set(self, (this.busy.get(self) ?? 0) + 1);
    void this.playCounted('practice', colours[0], colours[1], seed, opening, `practice ${request.id}`, 1)
      .then((game) => this.store.finishPractice(request.id, game.id))
      .catch((error: unknown) => {
        if (!this.stopped && !(error instanceof PoolAbortError)) this.onEvent({ type: 'grader-error', message: `practice game ${request.id}: ${(error as Error).message}` });
      })
      .finally(() => {
        this.inFlight -= 1;
        const left = (this.busy.get(self) ?? 1) - 1;
        if (left <= 0) this.busy.delete(self);
        else this.busy.set(self, left);
        this.poke();
      });
  }

  /** Players standing for rated games: the reference ladder and every active version. */
  private ratedPlayers(): SkillPlayer[] {
    const active = [...activeVersions(this.store.allVersions()).values()].map((v) => ({ id: versionPlayer(v.id), reference: false }));
    return [...this.settings.references.map((name) => ({ id: referencePlayer(name), reference: true })), ...active];
  }

  private concurrency(): number {
    return this.settings.concurrency ?? Math.max(1, this.pool.size);
  }

  private finalGames(): number {
    return this.store.gameCount(['final']);
  }

  /** One round of scheduling; false when nothing more can start now. */
  private scheduleOne(): boolean {
    if (this.inFlight >= this.concurrency()) return false;
    const practice = this.store.openPractice().find((request) => !this.practiceInFlight.has(request.id));
    if (practice) {
      this.practiceInFlight.add(practice.id);
      this.startPractice(practice);
      return true;
    }
    const phase = this.store.phase();
    if (phase === 'done') return false;
    const players = this.ratedPlayers();
    if (players.filter((p) => !p.reference).length === 0) return false;
    if (phase === 'final') return this.scheduleFinal(players);
    // Leave a lane for intake's validation games (they jump the queue anyway).
    if (this.inFlight + 2 > this.concurrency() + 1) return false;
    const pair = choosePair(this.skill, players, new Set(this.busy.keys()), this.random);
    if (!pair) return false;
    this.startMeeting('rated', pair[0].id, pair[1].id);
    return true;
  }

  private readonly practiceInFlight = new Set<number>();

  private scheduleFinal(players: SkillPlayer[]): boolean {
    const step = nextFinalMeeting(this.fit!, this.skill, players, new Set(this.busy.keys()), this.settings.final, this.finalGames(), this.random);
    if ('meet' in step) {
      this.startMeeting('final', step.meet[0], step.meet[1]);
      return true;
    }
    if ('done' in step && this.inFlight === 0) this.finish(step.done);
    return false;
  }

  private finish(reason: string): void {
    this.store.setMeta('final-reason', reason);
    const result = finalResult(this.fit!, this.assignment, { reason, finalGames: this.finalGames(), threshold: this.settings.final.threshold, pairCap: this.settings.final.pairCap, meetings: (a, b) => this.skill.meetings(a, b) });
    writeJsonAtomic(join(this.dataDir, FINAL_FILE), result);
    this.store.setMeta('phase', 'done');
    this.onEvent({ type: 'final', result });
    this.finalDone.resolve(result);
  }

  private async loop(): Promise<void> {
    while (!this.stopped) {
      try {
        while (!this.stopped && this.scheduleOne()) {
          // Keep starting games while lanes are free.
        }
      } catch (error) {
        this.onEvent({ type: 'grader-error', message: `matchmaking: ${(error as Error).message}` });
      }
      if (this.stopped) break;
      // Wake on a finished game or a new version, and at least every second to read the phase.
      await new Promise<void>((resolve) => {
        this.wake = resolve;
        setTimeout(resolve, 1000).unref();
      });
      this.wake = null;
    }
  }
}

/** A fresh seed for a new ladder (kept in the journal so every game seed derives from it). */
export function ladderSeed(store: LadderStore): number {
  const existing = store.getMeta('seed');
  if (existing) return Number(existing);
  const seed = randomInt(1, 2 ** 31 - 1);
  store.setMeta('seed', String(seed));
  return seed;
}

export const hasFinal = (dataDir: string): boolean => existsSync(join(dataDir, FINAL_FILE));
