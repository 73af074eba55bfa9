/**
 * Grading one submission: the interface check, then every rubric item's games against its reference opponent
 * (colours alternating, the submission Black in even games), up to `parallelGames` at a time. Each finished game
 * goes to the journal at once, so an interrupted grade resumes from the games it finished.
 */
import { mkdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Side } from '../harness/games/game.js';
import { getGame } from '../harness/games/registry.js';
import type { GameRecord } from '../harness/referee/record.js';
import { capStudentOutput } from './output-budget.js';
import { isGraderError } from '../harness/referee/grader-error.js';
import { deriveSeed } from '../harness/referee/seed.js';
import { LOSS_VERDICTS, VERDICT_DESCRIPTIONS } from '../harness/referee/verdict.js';
import { assignmentHash, compiledOpponents, isSequential, opponentAt, opponentLabel, slotCount, type Assignment, type OpponentItem } from './assignment.js';
import { artefactSpec, buildArtefact } from './pool/artefact.js';
import type { Contestant } from './contestant.js';
import { GRADE_FORMAT, type GameEntry, type GradeResult, type InterfaceCheckResult, type ItemResult, type VerdictCounts } from './grade-result.js';
import { gameKey, Journal, JOURNAL_FILE, readJournal, type JournalEntry } from './journal.js';
import { LiveFile, LiveGames, LIVE_FILE } from './live.js';
import { harnessVersion } from './package-root.js';
import { InProcessPool } from './pool/in-process.js';
import { PoolAbortError, PoolWorkerError, withdrawController, type GameJob, type GamePool, type PlayerSpec, type WorkerInfo } from './pool/job.js';
import { cachedPlayers } from './pool/play.js';
import { describeRule, itemPoints, roundPoints, sprtPoints, sprtResult, type SprtResult } from './scoring.js';
import { randomOpening } from './tournament/openings.js';
import type { GameScore } from './tournament/sprt.js';
import { wilsonInterval } from './stats.js';
import { count } from './words.js';

/** The grade was stopped (SIGINT/SIGTERM through GradeOptions.signal): its finished games are journaled. */
export class GradeInterrupted extends Error {
  constructor(readonly gamesFinished: number) {
    super(`interrupted after ${count(gamesFinished, 'game')}`);
    this.name = 'GradeInterrupted';
  }
}

export interface GradeOptions {
  /** Stops the grade: games not yet started are withdrawn, games in play finish; then GradeInterrupted. */
  signal?: AbortSignal;
  assignment: Assignment;
  /** Called once the interface check is done, before any game (the CLI warns up front from it). */
  onCheck?: (check: InterfaceCheckResult) => void;
  /** The config file, or 'built-in'. */
  assignmentSource: string;
  contestant: Contestant;
  /** Where the journal (games.jsonl) goes; without it nothing is written and nothing resumes. */
  outDir?: string;
  /** Reuse the journal's finished games instead of starting afresh. */
  resume?: boolean;
  /** Replaces every item's series seed. */
  seed?: number | null;
  /** Play just this one game (item index, game index): how the report re-runs a single game. */
  only?: { item: number; index: number };
  /** The command line that re-runs this grade, for the report. */
  command?: string;
  /** Called as each game finishes (or is taken from the journal). */
  onGame?: (entry: GameEntry, finished: number, total: number) => void;
  /** Keeps finished games instead of outDir's games.jsonl (the batch runner's SQLite journal); resumes from it. */
  store?: GameStore;
  /** Games played at once, replacing the assignment's parallelGames (ignored with `pool`). */
  parallelGames?: number;
  /**
   * Where the games are played (forked workers, a queue). Without it they are played in this process with the
   * contestant's own players. The interface check and the scoring always happen here.
   */
  pool?: GamePool;
  /** The contestant as the pool's workers will build it (required with `pool`: a compiled artefact). */
  contestantSpec?: PlayerSpec;
  /** Called when a worker starts one of this grade's games. */
  onGameStart?: (slot: GameSlot, worker: WorkerInfo) => void;
  /** The pool plays lower orders first (a batch passes the student's place, so students finish in order). */
  order?: number;
  /** Awaited after the interface check, just before the games go to the pool (a batch queues students in order). */
  beforeGames?: () => Promise<void>;
  /**
   * Where games in play are shown to watchers (a batch's journal). Without it, a grade with outDir keeps its own
   * out/live.json.
   */
  live?: LiveGames;
}

/** One game of the grade: its rubric item, its number within the item, its seed and its games.jsonl key. */
export interface GameSlot {
  item: number;
  index: number;
  seed: number;
  key: string;
}

/** Somewhere other than games.jsonl to keep finished games and find them again. */
export interface GameStore {
  /** The finished game of this slot from an earlier run, if there is one. */
  find(slot: GameSlot): JournalEntry | undefined;
  /** Keep a finished game; it must be durable when this returns. */
  save(entry: JournalEntry): void;
  /** The store's key for a slot's game (everything that decides it): also the pool job's idempotency key. */
  keyOf?(slot: GameSlot): string;
}

const resultFor = (record: GameRecord, side: Side): GameEntry['result'] =>
  record.end.winner === null ? 'draw' : record.end.winner === side ? 'win' : 'loss';

const zeroVerdicts = (): VerdictCounts => Object.fromEntries(LOSS_VERDICTS.map((verdict) => [verdict, 0])) as VerdictCounts;

/** The submission's score difference in one game (a forced loss counts ±diff, game.py's way). */
function diffFor(record: GameRecord, side: Side): number {
  const { score, winner, diff } = record.end;
  if (score !== null) return score[side] - score[1 - side];
  return winner === null ? 0 : winner === side ? diff : -diff;
}

/** Tags the seeds of paired (SPRT) games, so they never coincide with a fixed-N item's and share no journal key. */
const PAIRED_SEED_TAG = 0x5052;

/**
 * A game's seed. A sequential (SPRT) item's games come in colour-swapped pairs that share their seed — and so their
 * opening — as fastchess pairs them; every other item's games each have their own.
 */
export function slotSeed(item: OpponentItem, itemSeed: number, index: number): number {
  return isSequential(item) ? deriveSeed(deriveSeed(itemSeed, PAIRED_SEED_TAG), Math.floor(index / 2)) : deriveSeed(itemSeed, index);
}

const scoreOf = (entry: GameEntry): GameScore => (entry.result === 'win' ? 1 : entry.result === 'draw' ? 0.5 : 0);

/**
 * A sequential item's games that count, and its tests: per opponent (one, or a ladder's levels in order) the SPRT
 * over that opponent's games in order, stopping at its decision; a ladder stops at the first level not passed.
 * Games journaled beyond a decision (played in parallel, or by an earlier config) count for nothing.
 */
export function sequentialOutcome(item: OpponentItem, entries: GameEntry[]): { counted: GameEntry[]; tests: SprtResult[]; settled: boolean } {
  if (item.scoring.rule !== 'sprt') throw new TypeError('sequentialOutcome: not an sprt item');
  const levels = item.ladder?.length ?? 1;
  const counted: GameEntry[] = [];
  const tests: SprtResult[] = [];
  for (let level = 0; level < levels; level++) {
    const mine = entries
      .filter((entry) => Math.floor(entry.index / item.games) === level)
      .sort((a, b) => a.index - b.index);
    // Only the unbroken run of games from the level's first counts (a gap is a game still to play).
    const run: GameEntry[] = [];
    for (const entry of mine) {
      if (entry.index !== level * item.games + run.length) break;
      run.push(entry);
    }
    const test = sprtResult(item.scoring, opponentAt(item, level * item.games), run.map(scoreOf));
    tests.push(test);
    counted.push(...run.slice(0, test.decision === 'unfinished' || test.decision === 'max-games' ? run.length : test.gamesUsed));
    if (test.decision === 'unfinished') return { counted, tests, settled: false };
    if (!test.passed) break;
  }
  return { counted, tests, settled: true };
}

function summarizeItem(assignment: Assignment, itemIndex: number, seed: number, allEntries: GameEntry[], skipped: boolean): ItemResult {
  const item = assignment.opponents[itemIndex];
  const sequential = isSequential(item) && !skipped ? sequentialOutcome(item, allEntries) : null;
  const entries = sequential ? sequential.counted : allEntries;
  const bySide: ItemResult['bySide'] = [
    { wins: 0, draws: 0, losses: 0 },
    { wins: 0, draws: 0, losses: 0 },
  ];
  const verdicts = zeroVerdicts();
  const opponentVerdicts = zeroVerdicts();
  let diffSum = 0;
  for (const entry of entries) {
    const key = entry.result === 'win' ? 'wins' : entry.result === 'draw' ? 'draws' : 'losses';
    bySide[entry.studentSide][key] += 1;
    diffSum += diffFor(entry.record, entry.studentSide);
    const loser = entry.record.end.loser;
    if (loser) (loser.side === entry.studentSide ? verdicts : opponentVerdicts)[loser.verdict] += 1;
  }
  const wins = bySide[0].wins + bySide[1].wins;
  const draws = bySide[0].draws + bySide[1].draws;
  const losses = bySide[0].losses + bySide[1].losses;
  const played = entries.length;
  const winRate = played === 0 ? 0 : (wins + draws / 2) / played;
  const interval = wilsonInterval(wins + draws / 2, played);
  let points = 0;
  if (!skipped && sequential) {
    if (item.ladder) {
      const passed = sequential.tests.filter((test) => test.passed).length;
      points = passed === 0 ? 0 : item.ladder[passed - 1].points;
    } else {
      points = sprtPoints(item, sequential.tests[0]);
    }
  } else if (!skipped && item.scoring.rule !== 'sprt') {
    points = itemPoints(item.scoring, winRate, item.points);
  }
  return {
    opponent: item.name,
    title: item.title,
    status: skipped ? 'skipped' : sequential ? (sequential.settled ? 'played' : 'partial') : played === item.games ? 'played' : 'partial',
    games: slotCount(item),
    played,
    wins,
    draws,
    losses,
    winRate,
    wilson: { low: interval.low, high: interval.high },
    points,
    maxPoints: item.points,
    ...(sequential ? { sprt: sequential.tests } : {}),
    scoring: item.scoring,
    rule: describeRule(item.scoring),
    seed,
    visibility: item.visibility,
    bySide,
    verdicts,
    opponentVerdicts,
    averageDiff: played === 0 ? 0 : diffSum / played,
  };
}

function warningsFor(result: Omit<GradeResult, 'warnings'>, assignment: Assignment, only: boolean): string[] {
  const warnings: string[] = [];
  if (result.graderError) {
    warnings.push(`Not graded: grader error (${result.graderError}). This is a failure of the grading machine, not of the submission: fix it and grade again (--resume keeps the finished games).`);
  }
  if (result.isolation && !result.isolation.hardened) {
    warnings.push(`Not isolated: the sandbox ran without bubblewrap${result.isolation.problem ? ` (${result.isolation.problem})` : ''}, so these results guard against accidents, not attacks.`);
  }
  if (!result.interfaceCheck.passed && !result.graderError) {
    warnings.push('The interface check failed, so no games were played: fix the items marked as failed and grade again.');
  }
  for (const verdict of LOSS_VERDICTS) {
    const count = result.items.reduce((sum, item) => sum + item.verdicts[verdict], 0);
    if (count === 0) continue;
    const limit = verdict === 'timeout' ? ` (the limit is ${assignment.referee.moveTimeoutMs} ms per move)` : '';
    warnings.push(`${count} game${count === 1 ? ' was' : 's were'} lost because the AI ${VERDICT_DESCRIPTIONS[verdict]}${limit}.`);
  }
  const dropped = result.games.reduce((sum, game) => sum + droppedBytes(game.record, game.studentSide), 0);
  if (dropped > 0) warnings.push(`The AI printed more than the capture limit: ${dropped} bytes of output were dropped.`);
  if (result.timings.resumedGames > 0) {
    warnings.push(`${count(result.timings.resumedGames, 'game')} ${result.timings.resumedGames === 1 ? 'was' : 'were'} taken from the journal of an interrupted run (--resume).`);
  }
  if (only) warnings.push('Only one game was played (--only): this is not a complete grade.');
  return warnings;
}

function droppedBytes(record: GameRecord, side: Side): number {
  let dropped = record.start[side].output?.droppedBytes ?? 0;
  for (const turn of record.turns) if (turn.side === side) dropped += turn.output?.droppedBytes ?? 0;
  if (record.end.loser?.side === side) dropped += record.end.loser.output?.droppedBytes ?? 0;
  return dropped;
}

export async function grade(options: GradeOptions): Promise<GradeResult> {
  const { assignment, contestant, only } = options;
  const started = performance.now();
  const startedAt = new Date().toISOString();
  const game = getGame(assignment.game);
  const configHash = assignmentHash(assignment);
  const version = harnessVersion();
  const seedOverride = options.seed ?? null;
  const itemSeeds = assignment.opponents.map((item) => seedOverride ?? item.seed);
  if (only && (only.item >= assignment.opponents.length || only.index >= slotCount(assignment.opponents[only.item]))) {
    throw new RangeError(`--only ${only.item}:${only.index} names no game of this assignment: items are 0..${assignment.opponents.length - 1}`);
  }

  // A failure of the grader itself (the sandbox could not start) stops the grade without a verdict against the
  // submission: the result says 'grader-error' with the reason, and keeps every game finished before it.
  let graderError: string | null = null;
  const checkStarted = performance.now();
  let check: Awaited<ReturnType<Contestant['check']>>;
  try {
    check = await contestant.check();
  } catch (error) {
    if (!isGraderError(error)) throw error;
    graderError = error.message;
    check = {
      passed: false,
      layers: [],
      items: [{ id: 'grader-error', title: 'Not graded: the grader could not run the submission', status: 'skip', detail: error.message }],
    };
  }
  const checkMs = performance.now() - checkStarted;
  options.onCheck?.(check);

  const slots: GameSlot[] = [];
  if (check.passed) {
    assignment.opponents.forEach((item, itemIndex) => {
      for (let index = 0; index < slotCount(item); index++) {
        if (only && (only.item !== itemIndex || only.index !== index)) continue;
        const seed = slotSeed(item, itemSeeds[itemIndex], index);
        const key = gameKey({
          assignmentHash: configHash,
          submissionHash: contestant.submission.hash,
          harnessVersion: version,
          item: itemIndex,
          index,
          seed,
        });
        slots.push({ item: itemIndex, index, seed, key });
      }
    });
  }

  let journal: Journal | null = null;
  let previous = new Map<string, JournalEntry>();
  const store = options.store;
  if (store === undefined && options.outDir !== undefined) {
    mkdirSync(options.outDir, { recursive: true });
    const path = join(options.outDir, JOURNAL_FILE);
    if (options.resume) previous = readJournal(path);
    journal = new Journal(path, options.resume === true);
  }
  // A grade of its own (not a batch's) shows its games in play in out/live.json, for `referee serve --watch`.
  const ownLive = options.live === undefined && store === undefined && options.outDir !== undefined && slots.length > 0 ? new LiveGames(new LiveFile(join(options.outDir, LIVE_FILE))) : null;
  const live = options.live ?? ownLive;

  const entries: GameEntry[] = [];
  const toPlay: GameSlot[] = [];
  const finish = (entry: GameEntry): void => {
    entries.push(entry);
    options.onGame?.(entry, entries.length, slots.length);
  };
  for (const slot of slots) {
    const stored = store ? store.find(slot) : previous.get(slot.key);
    if (stored && stored.item === slot.item && stored.index === slot.index && stored.record.seed === slot.seed) {
      const side = (slot.index % 2) as Side;
      finish({ item: slot.item, index: slot.index, seed: slot.seed, studentSide: side, result: resultFor(stored.record, side), wallMs: stored.wallMs, resumed: true, record: stored.record });
    } else {
      toPlay.push(slot);
    }
  }

  const gamesStarted = performance.now();
  if (options.pool && !options.contestantSpec && toPlay.length > 0) throw new TypeError('grade: a pool needs the contestant as a spec (contestantSpec)');
  // Without a pool, the contestant's own Player factory stands in for a worker's artefact cache.
  const localId = `local:${contestant.submission.hash}`;
  const pool =
    options.pool ??
    new InProcessPool(Math.max(1, Math.min(options.parallelGames ?? assignment.parallelGames, toPlay.length)), (spec, gameId) =>
      spec.kind === 'artefact' && spec.artefact === localId ? contestant.createPlayer() : cachedPlayers()(spec, gameId),
    );
  const contestantSpec: PlayerSpec = options.contestantSpec ?? { kind: 'artefact', name: contestant.submission.name, artefact: localId, runtime: 'node', entry: '' };
  // The course's compiled test AIs (.so) are untrusted: published to the pool like a submission, played sandboxed.
  const compiled = new Map<string, PlayerSpec>();
  if (toPlay.length > 0) {
    for (const path of compiledOpponents(assignment)) {
      const artefact = await buildArtefact(path);
      await pool.publish(artefact);
      compiled.set(path, artefactSpec(artefact, basename(path)));
    }
  }
  const jobFor = (slot: GameSlot): GameJob => {
    const item = assignment.opponents[slot.item];
    const name = opponentAt(item, slot.index);
    // A paired item opens both games of a pair with the same random line, played for both sides (a book).
    const paired = isSequential(item);
    const opponent: PlayerSpec = compiled.get(name) ?? { kind: 'reference', name, ai: name, openingMoves: paired ? 0 : item.openingMoves };
    const side = (slot.index % 2) as Side;
    return {
      key: store?.keyOf?.(slot) ?? slot.key,
      harness: version,
      game: game.id,
      config: assignment.referee,
      seed: slot.seed,
      players: side === 0 ? [contestantSpec, opponent] : [opponent, contestantSpec],
      label: `${contestant.submission.name} vs ${opponentLabel(name)} #${slot.index + 1}`,
      ...(paired && item.openingMoves > 0 ? { opening: randomOpening(game, slot.seed, item.openingMoves) } : {}),
    };
  };
  if (toPlay.length > 0) await options.beforeGames?.();
  // The first failure withdraws this grade's games not yet started; games already playing finish and are kept.
  const withdraw = withdrawController();
  const stop = (): void => withdraw.abort();
  if (options.signal?.aborted) stop();
  options.signal?.addEventListener('abort', stop, { once: true });
  let failure: { error: unknown } | null = null;
  const playSlot = async (slot: GameSlot): Promise<void> => {
    try {
      const job = jobFor(slot);
      const played = await pool.play(job, {
        signal: withdraw.signal,
        order: options.order,
        onStart: (worker) => {
          live?.start(job.key, contestant.submission.name, worker.name);
          options.onGameStart?.(slot, worker);
        },
        onProgress: live ? (progress) => live.progress(job.key, progress) : undefined,
      }).finally(() => live?.end(job.key));
      const side = (slot.index % 2) as Side;
      const kept: JournalEntry = { key: slot.key, item: slot.item, index: slot.index, wallMs: played.wallMs, record: played.record, worker: played.worker };
      if (store) store.save(kept);
      else journal?.append(kept);
      // Journal and count in one synchronous step (an await between would let another game's result in first).
      if (played.done) await played.done();
      finish({ item: slot.item, index: slot.index, seed: slot.seed, studentSide: side, result: resultFor(played.record, side), wallMs: played.wallMs, resumed: false, record: played.record });
    } catch (error) {
      // The grader's own failure (a sandbox that cannot start, a worker that could not play the game) stops
      // the grade without a verdict against the submission; the games not yet started are withdrawn.
      if (isGraderError(error) || error instanceof PoolWorkerError) graderError ??= (error as Error).message;
      else if (!(error instanceof PoolAbortError && withdraw.signal.aborted)) failure ??= { error };
      withdraw.abort();
    }
  };
  /**
   * A sequential (SPRT) item: one colour-swapped pair at a time, until the test decides (or the ladder meets a
   * level it does not beat). Resumed games count first, so a resume plays on from where the run stopped.
   */
  const playSequential = async (itemIndex: number, slots: GameSlot[]): Promise<void> => {
    const item = assignment.opponents[itemIndex];
    const bySlot = new Map(slots.map((slot) => [slot.index, slot]));
    for (;;) {
      if (failure || graderError !== null || withdraw.signal.aborted) return;
      const outcome = sequentialOutcome(item, entries.filter((entry) => entry.item === itemIndex));
      if (outcome.settled) return;
      const level = outcome.tests.length - 1;
      const next = level * item.games + outcome.tests[level].gamesUsed - (outcome.tests[level].gamesUsed % 2);
      const pair = [next, next + 1].map((index) => bySlot.get(index)).filter((slot): slot is GameSlot => slot !== undefined);
      if (pair.length === 0) return;
      await Promise.all(pair.map(playSlot));
    }
  };
  const sequentialItems = new Map<number, GameSlot[]>();
  const fixedSlots: GameSlot[] = [];
  for (const slot of toPlay) {
    if (!only && isSequential(assignment.opponents[slot.item])) sequentialItems.set(slot.item, [...(sequentialItems.get(slot.item) ?? []), slot]);
    else fixedSlots.push(slot);
  }
  try {
    await Promise.all([...fixedSlots.map(playSlot), ...[...sequentialItems].map(([itemIndex, slots]) => playSequential(itemIndex, slots))]);
  } finally {
    options.signal?.removeEventListener('abort', stop);
    journal?.close();
    ownLive?.close(failure || graderError !== null || options.signal?.aborted ? 'interrupted' : 'done');
    if (!options.pool) await pool.close();
  }
  if (failure) throw (failure as { error: unknown }).error;
  if (options.signal?.aborted && graderError === null) throw new GradeInterrupted(entries.length);
  const gamesMs = performance.now() - gamesStarted;

  entries.sort((a, b) => a.item - b.item || a.index - b.index);
  const items = assignment.opponents.map((_, itemIndex) =>
    summarizeItem(assignment, itemIndex, itemSeeds[itemIndex], entries.filter((entry) => entry.item === itemIndex), !check.passed),
  );
  // A sequential item keeps only the games its tests counted (the rest were never needed).
  const countedGames = new Set<GameEntry>();
  assignment.opponents.forEach((item, itemIndex) => {
    const mine = entries.filter((entry) => entry.item === itemIndex);
    const counted = isSequential(item) && check.passed && !only ? sequentialOutcome(item, mine).counted : mine;
    for (const entry of counted) countedGames.add(entry);
  });
  const keptEntries = entries.filter((entry) => countedGames.has(entry));
  const interfacePoints = check.passed && graderError === null ? assignment.interfaceCheck.points : 0;
  // Not graded is not a grade: no points are claimed (exporters and reports read `status`, never this 0).
  const score = graderError !== null ? 0 : roundPoints(interfacePoints + items.reduce((sum, item) => sum + item.points, 0));
  const maxScore = roundPoints(assignment.interfaceCheck.points + items.reduce((sum, item) => sum + item.maxPoints, 0));
  const partial: Omit<GradeResult, 'warnings'> = {
    format: GRADE_FORMAT,
    status: graderError === null ? 'graded' : 'grader-error',
    ...(graderError === null ? {} : { graderError }),
    isolation: contestant.isolation ?? null,
    assignment: { title: assignment.title, game: assignment.game, hash: configHash, source: options.assignmentSource, config: assignment },
    submission: contestant.submission,
    environment: { harness: version, node: process.version, platform: `${process.platform}-${process.arch}` },
    seedOverride,
    command: options.command ?? `referee grade ${contestant.submission.path ?? contestant.submission.name}`,
    interfaceCheck: {
      ...check,
      points: interfacePoints,
      maxPoints: assignment.interfaceCheck.points,
      visibility: assignment.interfaceCheck.visibility,
      wallMs: Math.round(checkMs),
    },
    items,
    score,
    maxScore,
    games: capStudentOutput(keptEntries),
    timings: {
      startedAt,
      finishedAt: new Date().toISOString(),
      totalMs: Math.round(performance.now() - started),
      checkMs: Math.round(checkMs),
      gamesMs: Math.round(gamesMs),
      resumedGames: keptEntries.filter((entry) => entry.resumed).length,
    },
  };
  return { ...partial, warnings: warningsFor(partial, assignment, only !== undefined) };
}
