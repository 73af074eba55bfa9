/**
 * Running a tournament: schedule meetings (round-robin, gauntlet or Swiss round by round), turn each meeting into
 * games — each opening twice, colours swapped — take finished games from the journal, play the rest on a
 * GameRunner, journal each as it lands, then build the crosstable and fit the ratings.
 *
 * Determinism: a game's seed and opening follow from the tournament seed and the game pair's place in the
 * schedule; Swiss pairings follow from earlier results, which on a resume come from the journal. So a resumed
 * tournament plays exactly the games an uninterrupted one would, and replays none it finished.
 */
import { performance } from 'node:perf_hooks';
import { getGame } from '../../harness/games/registry.js';
import type { RefereeConfig } from '../../harness/referee/config.js';
import type { GameRecord } from '../../harness/referee/record.js';
import { deriveSeed } from '../../harness/referee/seed.js';
import { canonicalJson, sha256 } from '../assignment.js';
import { harnessVersion } from '../package-root.js';
import { fitRatings, likelihoodOfSuperiority, type PairResult } from './elo.js';
import { openingBook } from '../opening.js';
import { LiveGames } from '../live.js';
import { PoolWorkerError, type GameJob, type GamePool, type PlayedGame } from '../pool/job.js';
import { randomOpening } from './openings.js';
import { gauntlet, meetingKey, roundRobin, swissRound, SwissPairingError, type Round, type SwissStanding } from './pairing.js';
import type { Participant } from './participants.js';
import { TOURNAMENT_FORMAT, type CrosstableCell, type RankingRow, type TournamentFormat, type TournamentGame, type TournamentParticipant, type TournamentResult } from './result.js';
import type { TournamentJournal } from './journal.js';
import { describeTournamentRule, tournamentAwards } from './rubric.js';
import type { TournamentItem } from '../assignment.js';

export interface TournamentOptions {
  title: string;
  game: string;
  referee: RefereeConfig;
  pairing: TournamentFormat;
  /** Everyone who plays, in seeding order (submissions' artefacts already published to the pool). */
  players: Participant[];
  /** Participants that could not play (shown, not rated). */
  excluded: TournamentParticipant[];
  /** Gauntlet: the ids of the fixed opponents everyone else meets. */
  gauntletFixed?: string[];
  /** Swiss: rounds to play; round-robin: times through the whole cycle (default 1). */
  rounds?: number;
  gamesPerPair: number;
  /** Random plies per opening, or lines read from a file. */
  openings: { kind: 'random'; plies: number } | { kind: 'file'; path: string; lines: string[][] };
  seed: number;
  anchor: string;
  anchorElo: number;
  journal: TournamentJournal;
  pool: GamePool;
  /** The assignment's tournament rubric item, if any. */
  rubric?: TournamentItem;
  command: string;
  onEvent?: (event: TournamentEvent) => void;
  signal?: AbortSignal;
}

export type TournamentEvent =
  | { type: 'round'; round: number; rounds: number; games: number; resumed: number }
  | { type: 'game'; game: TournamentGame; finished: number; total: number };

/** The tournament cannot run as asked (bad anchor, too many Swiss rounds): one line naming the fix. */
export class TournamentUsageError extends Error {
  override name = 'TournamentUsageError';
}

export class TournamentInterrupted extends Error {
  override name = 'TournamentInterrupted';
}

/** A game could not be played because the grader failed (twice): stop with the journal intact, charge nobody. */
export class GraderError extends Error {
  override name = 'GraderError';
}

/** Play a job; a grader failure (a dead worker) is retried once, then stops the tournament. */
async function playOnce(pool: GamePool, job: GameJob, signal: AbortSignal | undefined, live: LiveGames): Promise<PlayedGame> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await pool
        .play(job, { signal, onStart: (worker) => live.start(job.key, job.label, worker.name), onProgress: (progress) => live.progress(job.key, progress) })
        .finally(() => live.end(job.key));
    } catch (error) {
      if (signal?.aborted) throw new TournamentInterrupted('interrupted');
      if (error instanceof PoolWorkerError && attempt < 2) continue;
      if (error instanceof PoolWorkerError) throw new GraderError(`${job.label} could not be played twice: ${error.message}`);
      throw error;
    }
  }
}

const scoreOf = (record: GameRecord): 0 | 0.5 | 1 => (record.end.winner === null ? 0.5 : record.end.winner === 0 ? 1 : 0);

/**
 * What decides one game — the harness, the rules, both players' code, the seed and the opening — and who played it
 * (two students with identical code play their own games, each recorded under their own names).
 */
export function tournamentGameKey(parts: { harness: string; game: string; referee: RefereeConfig; players: [string, string]; ids: [string, string]; seed: number; opening: string[] }): string {
  return sha256(canonicalJson({ kind: 'tournament-game', ...parts }));
}

export function defaultSwissRounds(players: number): number {
  return Math.min(Math.max(1, players - 1), Math.ceil(Math.log2(Math.max(2, players))) + 2);
}

export async function runTournament(options: TournamentOptions): Promise<TournamentResult> {
  const started = performance.now();
  const startedAt = new Date().toISOString();
  const game = getGame(options.game);
  const harness = harnessVersion();
  const players = options.players;
  const n = players.length;
  const index = new Map(players.map((spec, i) => [spec.id, i]));
  const anchor = index.get(options.anchor);
  if (anchor === undefined) throw new TournamentUsageError(`--anchor ${options.anchor} is not a participant: use one of ${players.map((p) => p.id).join(', ')}`);
  if (n < 2) throw new TournamentUsageError(`a tournament needs at least two players that can play (found ${n}): add participants`);
  const warnings: string[] = [];
  for (const each of options.excluded) warnings.push(`${each.id} did not play: ${each.excluded}`);

  // The fixed schedule (round-robin, gauntlet); Swiss rounds are made one at a time below.
  let fixedRounds: Round[] | null = null;
  let totalRounds: number;
  if (options.pairing === 'round-robin') {
    const cycle = roundRobin(n);
    const cycles = options.rounds ?? 1;
    fixedRounds = Array.from({ length: cycles }, (_, c) =>
      cycle.map((round) => ({ bye: round.bye, pairings: round.pairings.map((p) => (c % 2 === 0 ? p : { a: p.b, b: p.a })) })),
    ).flat();
    totalRounds = fixedRounds.length;
  } else if (options.pairing === 'gauntlet') {
    const fixedIds = options.gauntletFixed ?? [];
    const fixed = fixedIds.map((id) => {
      const found = index.get(id);
      if (found === undefined) throw new TournamentUsageError(`gauntlet opponent ${id} is not a participant`);
      return found;
    });
    if (fixed.length === 0) throw new TournamentUsageError('a gauntlet needs fixed opponents: name reference AIs among the participants (e.g. weighted mcts:2000)');
    const challengers = players.map((_, i) => i).filter((i) => !fixed.includes(i));
    if (challengers.length === 0) throw new TournamentUsageError('a gauntlet needs at least one challenger besides the fixed opponents');
    fixedRounds = gauntlet(challengers, fixed);
    totalRounds = fixedRounds.length;
  } else {
    totalRounds = options.rounds ?? defaultSwissRounds(n);
    if (totalRounds > n - 1 + (n % 2)) throw new TournamentUsageError(`--rounds ${totalRounds} is more than a Swiss of ${n} players can pair without repeats: use at most ${n - 1 + (n % 2)}`);
  }

  const games: TournamentGame[] = [];
  const schedule: TournamentResult['schedule'] = [];
  const standings: SwissStanding[] = players.map((_, player) => ({ player, score: 0, colourBalance: 0, hadBye: false }));
  const met = new Set<string>();
  const byes = new Array<number>(n).fill(0);
  let pairSerial = 0;
  let gamesPlayed = 0;
  let gamesResumed = 0;
  const emit = options.onEvent ?? (() => undefined);
  const plannedTotal = (): number => {
    if (fixedRounds) return fixedRounds.reduce((sum, round) => sum + round.pairings.length, 0) * options.gamesPerPair;
    return totalRounds * Math.floor(n / 2) * options.gamesPerPair;
  };
  let finished = 0;

  // One abort promise for the whole run (a listener per round would pile up on the signal).
  let onAbort: (() => void) | null = null;
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(new TournamentInterrupted('interrupted'));
    if (options.signal?.aborted) onAbort();
    else options.signal?.addEventListener('abort', onAbort, { once: true });
  });
  aborted.catch(() => undefined);
  // Games in play, move by move, for `referee serve --watch` (the journal's live table).
  const live = new LiveGames(options.journal.liveSink(), (message) => warnings.push(message));
  let liveState: 'done' | 'interrupted' = 'interrupted';
  /** Games waiting to be played: a Swiss plays each round before pairing the next; fixed schedules play all at once. */
  const waiting: { slot: TournamentGame; job: GameJob }[] = [];
  const playWaiting = async (): Promise<void> => {
    const batch = waiting.splice(0);
    await Promise.race([
      Promise.all(
        batch.map(async ({ slot, job }) => {
          const played = await playOnce(options.pool, job, options.signal, live);
          options.journal.save(job.key, played.record, played.wallMs, played.worker);
          await played.done?.();
          slot.record = played.record;
          slot.wallMs = played.wallMs;
          slot.blackScore = scoreOf(played.record);
          gamesPlayed += 1;
          emit({ type: 'game', game: slot, finished: ++finished, total: plannedTotal() });
        }),
      ),
      aborted,
    ]);
  };

  try {
    for (let r = 0; r < totalRounds; r++) {
      if (options.signal?.aborted) throw new TournamentInterrupted('interrupted');
      let round: Round;
      try {
        round = fixedRounds ? fixedRounds[r] : swissRound(standings, met);
      } catch (error) {
        if (error instanceof SwissPairingError) throw new TournamentUsageError(`round ${r + 1}: ${error.message} (the games so far are journaled)`);
        throw error;
      }
      schedule.push({ round: r + 1, pairings: round.pairings.map((p) => [players[p.a].id, players[p.b].id]), bye: round.bye === null ? null : players[round.bye].id });
      if (round.bye !== null && options.pairing === 'swiss') {
        byes[round.bye] += 1;
        standings[round.bye].hadBye = true;
        // A bye scores the meeting as won (Swiss standings only; it is not a game and is not rated).
        standings[round.bye].score += options.gamesPerPair;
      }
      const jobs: { slot: TournamentGame; job: GameJob }[] = [];
      round.pairings.forEach((pairing, meeting) => {
        met.add(meetingKey(pairing.a, pairing.b));
        for (let g = 0; g < options.gamesPerPair; g++) {
          if (g % 2 === 0) pairSerial += 1;
          const seed = deriveSeed(options.seed, pairSerial);
          const line =
            options.openings.kind === 'random'
              ? randomOpening(game, seed, options.openings.plies)
              : options.openings.lines[(pairSerial - 1) % options.openings.lines.length];
          const { played } = openingBook(game, seed, line);
          const opening = line.slice(0, played);
          // Even games: `a` is Black; odd games: colours swapped on the same opening.
          const [black, white] = g % 2 === 0 ? [pairing.a, pairing.b] : [pairing.b, pairing.a];
          const specs: [Participant, Participant] = [players[black], players[white]];
          const key = tournamentGameKey({ harness, game: game.id, referee: options.referee, players: [specs[0].hash, specs[1].hash], ids: [specs[0].id, specs[1].id], seed, opening });
          const label = `${specs[0].id} vs ${specs[1].id}, round ${r + 1}`;
          const slot: TournamentGame = {
            index: games.length,
            round: r + 1,
            meeting,
            game: g,
            players: [specs[0].id, specs[1].id],
            seed,
            opening,
            blackScore: 0.5,
            wallMs: 0,
            resumed: false,
            record: null as unknown as GameRecord,
          };
          games.push(slot);
          jobs.push({ slot, job: { key, harness, game: game.id, config: options.referee, seed, players: [specs[0].player, specs[1].player], label, opening } });
        }
      });
      const toPlay: typeof jobs = [];
      let resumedHere = 0;
      for (const each of jobs) {
        const stored = options.journal.find(each.job.key, each.job.seed);
        if (stored) {
          each.slot.record = stored.record;
          each.slot.wallMs = stored.wallMs;
          each.slot.resumed = true;
          resumedHere += 1;
        } else {
          toPlay.push(each);
        }
      }
      emit({ type: 'round', round: r + 1, rounds: totalRounds, games: jobs.length, resumed: resumedHere });
      for (const each of jobs) {
        if (each.slot.resumed) {
          each.slot.blackScore = scoreOf(each.slot.record);
          gamesResumed += 1;
          emit({ type: 'game', game: each.slot, finished: ++finished, total: plannedTotal() });
        }
      }
      waiting.push(...toPlay);
      if (fixedRounds) continue;
      // Swiss: the round's games (all at once on the pool's workers), then its standings for the next pairing.
      await playWaiting();
      for (const { slot } of jobs) {
        const [black, white] = slot.players.map((id) => index.get(id)!);
        standings[black].score += slot.blackScore;
        standings[white].score += 1 - slot.blackScore;
        standings[black].colourBalance += 1;
        standings[white].colourBalance -= 1;
      }
    }
    await playWaiting();
    liveState = 'done';
  } finally {
    if (onAbort) options.signal?.removeEventListener('abort', onAbort);
    live.close(liveState);
  }

  // Crosstable and ratings.
  const cells = new Map<string, CrosstableCell>();
  const tally = players.map(() => ({ wins: 0, draws: 0, losses: 0 }));
  for (const slot of games) {
    const [black, white] = slot.players.map((id) => index.get(id)!);
    const [a, b] = black < white ? [black, white] : [white, black];
    const key = `${a}-${b}`;
    const cell = cells.get(key) ?? { a: players[a].id, b: players[b].id, wins: 0, draws: 0, losses: 0, games: [] };
    const aScore = a === black ? slot.blackScore : 1 - slot.blackScore;
    if (aScore === 1) cell.wins += 1;
    else if (aScore === 0) cell.losses += 1;
    else cell.draws += 1;
    cell.games.push(slot.index);
    cells.set(key, cell);
    tally[black][slot.blackScore === 1 ? 'wins' : slot.blackScore === 0 ? 'losses' : 'draws'] += 1;
    tally[white][slot.blackScore === 0 ? 'wins' : slot.blackScore === 1 ? 'losses' : 'draws'] += 1;
  }
  const crosstable = [...cells.values()];
  const pairs: PairResult[] = crosstable.map((cell) => ({ a: index.get(cell.a)!, b: index.get(cell.b)!, wins: cell.wins, draws: cell.draws, losses: cell.losses }));
  const fit = fitRatings(n, pairs, anchor, options.anchorElo);
  if (fit.prior > 0) {
    warnings.push('At least one player scored nothing against the rest, so plain maximum-likelihood ratings would be infinite: one virtual draw per pair that played was added (as BayesElo\'s prior does).');
  }
  const order = players.map((_, i) => i).sort((x, y) => fit.elo[y] - fit.elo[x] || x - y);
  const ranking: RankingRow[] = order.map((player, rank) => {
    const next = order[rank + 1];
    return {
      rank: rank + 1,
      id: players[player].id,
      elo: fit.elo[player],
      low: fit.elo[player] - fit.error[player],
      high: fit.elo[player] + fit.error[player],
      games: tally[player].wins + tally[player].draws + tally[player].losses,
      ...tally[player],
      points: tally[player].wins + tally[player].draws / 2,
      byes: byes[player],
      losNext: next === undefined ? null : likelihoodOfSuperiority(fit, player, next),
    };
  });

  const participants: TournamentParticipant[] = [
    ...players.map(({ id, kind, source, hash, language }) => ({ id, kind, source, hash, language })),
    ...options.excluded,
  ];
  return {
    format: TOURNAMENT_FORMAT,
    title: options.title,
    game: game.id,
    pairing: options.pairing,
    seed: options.seed,
    rounds: totalRounds,
    gamesPerPair: options.gamesPerPair,
    openings: options.openings.kind === 'random' ? options.openings : { kind: 'file', path: options.openings.path, lines: options.openings.lines.length },
    referee: options.referee,
    environment: { harness, node: process.version, platform: `${process.platform}-${process.arch}` },
    command: options.command,
    participants,
    anchor: { id: options.anchor, elo: options.anchorElo },
    model: {
      ratings: "maximum likelihood over all games jointly (Ordo's model: expected score 1/(1+10^(-d/400)), a draw is half a win and half a loss)",
      intervals: '95%: ±1.96 standard errors from the curvature of the log-likelihood (inverse Fisher information) relative to the anchor, times the dispersion',
      draws: 'trinomial: the dispersion is the observed W/D/L score variance over the model\'s, so draws narrow the intervals',
      prior: fit.prior,
      dispersion: fit.dispersion,
    },
    ranking,
    crosstable,
    schedule,
    games,
    ...(options.rubric
      ? {
          rubric: {
            title: options.rubric.title,
            points: options.rubric.points,
            rule: describeTournamentRule(options.rubric),
            awards: tournamentAwards(options.rubric, ranking, new Set(players.filter((p) => p.kind === 'submission').map((p) => p.id))),
          },
        }
      : {}),
    warnings,
    timings: { startedAt, finishedAt: new Date().toISOString(), totalMs: Math.round(performance.now() - started), gamesPlayed, gamesResumed },
  };
}
