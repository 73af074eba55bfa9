/**
 * TournamentResult: a whole tournament as JSON, validated against grading/tournament/tournament.schema.json
 * (ajv) before it is written — the single source of tournament.html and ranking.csv.
 */
import { readFileSync } from 'node:fs';
import { Ajv } from 'ajv';
import { stringify } from 'csv-stringify/sync';
import { validateRecordShape, type GameRecord } from '../../harness/referee/record.js';
import type { RefereeConfig } from '../../harness/referee/config.js';
import { packageFile } from '../package-root.js';
import { writeFileAtomic } from '../write-atomic.js';
import { defuse } from '../exporters/csv.js';

export const TOURNAMENT_FORMAT = 'referee.tournament/1';
export type TournamentFormat = 'round-robin' | 'gauntlet' | 'swiss';

export interface TournamentParticipant {
  id: string;
  kind: 'submission' | 'reference';
  source: string;
  hash: string;
  language: string;
  /** Why it did not play (does not compile, not found …); absent for players. */
  excluded?: string;
}

export interface RankingRow {
  rank: number;
  id: string;
  elo: number;
  /** 95% interval, relative to the anchor. */
  low: number;
  high: number;
  games: number;
  wins: number;
  draws: number;
  losses: number;
  /** Points from games (a draw ½); Swiss byes are counted separately. */
  points: number;
  byes: number;
  /** Likelihood of superiority over the next row (null for the last). */
  losNext: number | null;
}

export interface CrosstableCell {
  /** Row and column player ids; W-D-L from `a`'s side. */
  a: string;
  b: string;
  wins: number;
  draws: number;
  losses: number;
  /** Indexes into games[]. */
  games: number[];
}

export interface TournamentGame {
  index: number;
  round: number;
  /** Which meeting of the round, and which game of it. */
  meeting: number;
  game: number;
  /** [Black, White] participant ids. */
  players: [string, string];
  seed: number;
  /** Book moves played before either side was asked. */
  opening: string[];
  /** From Black's side: 1 win, 0.5 draw, 0 loss. */
  blackScore: 0 | 0.5 | 1;
  wallMs: number;
  resumed: boolean;
  record: GameRecord;
}

export interface TournamentResult {
  format: typeof TOURNAMENT_FORMAT;
  title: string;
  game: string;
  pairing: TournamentFormat;
  seed: number;
  rounds: number;
  gamesPerPair: number;
  openings: { kind: 'random'; plies: number } | { kind: 'file'; path: string; lines: number };
  referee: RefereeConfig;
  environment: { harness: string; node: string; platform: string };
  command: string;
  participants: TournamentParticipant[];
  anchor: { id: string; elo: number };
  model: { ratings: string; intervals: string; draws: string; prior: number; dispersion: number };
  ranking: RankingRow[];
  crosstable: CrosstableCell[];
  schedule: { round: number; pairings: [string, string][]; bye: string | null }[];
  games: TournamentGame[];
  /** The assignment's tournament rubric item, when the config has one: points per submission. */
  rubric?: { title: string; points: number; rule: string; awards: { id: string; points: number; basis: string }[] };
  warnings: string[];
  timings: { startedAt: string; finishedAt: string; totalMs: number; gamesPlayed: number; gamesResumed: number };
}

let validator: ReturnType<Ajv['compile']> | null = null;

export const TOURNAMENT_SCHEMA_PATH = packageFile('grading', 'tournament', 'tournament.schema.json');

/** Validate (schema, then every record's shape); throws with the first problems listed. */
export function validateTournamentResult(json: unknown): TournamentResult {
  validator ??= new Ajv({ allErrors: true, strict: true, strictRequired: false }).compile(JSON.parse(readFileSync(TOURNAMENT_SCHEMA_PATH, 'utf8')) as object);
  if (!validator(json)) {
    const problems = (validator.errors ?? []).slice(0, 5).map((error) => `${error.instancePath || '/'} ${error.message}`);
    throw new Error(`tournament result does not match its schema: ${problems.join('; ')}`);
  }
  for (const game of (json as TournamentResult).games) validateRecordShape(game.record);
  return json as TournamentResult;
}

const writeAtomic = writeFileAtomic;

export function writeTournamentResult(path: string, result: TournamentResult): void {
  writeAtomic(path, `${JSON.stringify(validateTournamentResult(result))}\n`);
}

/** ranking.csv: one row per rated participant (csv-stringify; a cell starting = + - @ is defused). */
export function rankingCsv(result: TournamentResult): string {
  const awards = new Map((result.rubric?.awards ?? []).map((award) => [award.id, award.points]));
  const rubric = result.rubric !== undefined;
  const rows = result.ranking.map((row) => [
    row.rank,
    defuse(row.id),
    row.elo.toFixed(1),
    row.low.toFixed(1),
    row.high.toFixed(1),
    row.games,
    row.wins,
    row.draws,
    row.losses,
    row.points,
    row.byes,
    row.losNext === null ? '' : row.losNext.toFixed(4),
    ...(rubric ? [awards.get(row.id) ?? ''] : []),
  ]);
  for (const participant of result.participants.filter((each) => each.excluded)) {
    rows.push(['', defuse(participant.id), '', '', '', 0, 0, 0, 0, 0, 0, '', ...(rubric ? [0] : [])]);
  }
  const columns = ['rank', 'id', 'elo', 'elo_low95', 'elo_high95', 'games', 'wins', 'draws', 'losses', 'points', 'byes', 'los_next', ...(rubric ? ['rubric_points'] : [])];
  return stringify(rows, { header: true, columns });
}

export function writeRankingCsv(path: string, result: TournamentResult): void {
  writeAtomic(path, rankingCsv(result));
}
