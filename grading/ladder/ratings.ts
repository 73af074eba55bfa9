/**
 * The published table: one joint maximum-likelihood fit (the tournament's Ordo-equal Elo, grading/tournament/
 * elo.ts) over every counted game between the players standing now — each student's active version and the
 * reference AIs — anchored at the weakest reference (random = 0). Never recency-weighted: a game played in week 1
 * weighs what a game played an hour ago weighs. A pure function of the journal's rows, so `rebuild` re-derives it
 * exactly.
 */
import { fitRatings, likelihoodOfSuperiority, type PairResult, type RatingFit } from '../tournament/elo.js';
import { referencePlayer, versionPlayer, type GameKind, type StudentRow, type VersionRow } from './store.js';

/** Games that count for the published rating (practice never does; self-play validation cannot). */
export const COUNTED_KINDS: readonly GameKind[] = ['validation', 'rated', 'final'];

export interface LeaderboardRow {
  rank: number;
  /** `v12` or `r:random`. */
  player: string;
  kind: 'student' | 'reference';
  /** The pseudonym (or the reference AI's name). */
  pseudonym: string;
  /** The student id: only in the instructor's view. */
  student?: string;
  version: number | null;
  language: string | null;
  /** Counted games against the players in the table. */
  games: number;
  points: number;
  elo: number;
  low: number;
  high: number;
  /** Likelihood that this row is stronger than the next row; null on the last row. */
  losNext: number | null;
}

export interface UnratedRow {
  player: string;
  pseudonym: string;
  student?: string;
  version: number;
  games: number;
  /** Why it is not in the table yet. */
  reason: string;
}

export interface Leaderboard {
  format: 'referee.ladder-table/1';
  anchor: string;
  /** Counted games behind the fit (between players of the table). */
  games: number;
  rows: LeaderboardRow[];
  unrated: UnratedRow[];
  model: string;
}

export interface TableInput {
  references: string[];
  anchor: string;
  students: StudentRow[];
  versions: VersionRow[];
  games: { kind: GameKind; black: string; white: string; blackScore: number }[];
}

/** Each student's active version: the newest valid one submitted before the freeze. */
export function activeVersions(versions: readonly VersionRow[]): Map<string, VersionRow> {
  const active = new Map<string, VersionRow>();
  for (const version of versions) if (version.status === 'valid' && version.counts) active.set(version.student, version);
  return active;
}

const round = (x: number, digits = 1): number => {
  const scale = 10 ** digits;
  const value = Math.round(x * scale) / scale;
  return Object.is(value, -0) ? 0 : value;
};

/** The fitted table and the LOS between any two of its players (the final's stopping rule needs pairs beyond the rows' neighbours). */
export interface LadderFit {
  table: Leaderboard;
  los(a: string, b: string): number;
}

export const publishedTable = (input: TableInput): Leaderboard => fitLadder(input).table;

export function fitLadder(input: TableInput): LadderFit {
  const pseudonyms = new Map(input.students.map((s) => [s.id, s.pseudonym]));
  const active = [...activeVersions(input.versions).values()].sort((a, b) => a.id - b.id);
  const ids = [...input.references.map(referencePlayer), ...active.map((v) => versionPlayer(v.id))];
  const index = new Map(ids.map((id, i) => [id, i]));
  const pairs = new Map<string, PairResult>();
  const tally = ids.map(() => ({ games: 0, points: 0 }));
  let counted = 0;
  for (const game of input.games) {
    if (!COUNTED_KINDS.includes(game.kind) || game.black === game.white) continue;
    const b = index.get(game.black);
    const w = index.get(game.white);
    if (b === undefined || w === undefined) continue;
    counted += 1;
    const [a, c, score] = b < w ? [b, w, game.blackScore] : [w, b, 1 - game.blackScore];
    const key = `${a}-${c}`;
    const pair = pairs.get(key) ?? { a, b: c, wins: 0, draws: 0, losses: 0 };
    if (score === 1) pair.wins += 1;
    else if (score === 0) pair.losses += 1;
    else pair.draws += 1;
    pairs.set(key, pair);
    tally[b].games += 1;
    tally[w].games += 1;
    tally[b].points += game.blackScore;
    tally[w].points += 1 - game.blackScore;
  }
  // Only players linked to the anchor by games can be rated against it.
  const anchorIndex = index.get(referencePlayer(input.anchor)) ?? 0;
  const links: number[][] = ids.map(() => []);
  for (const pair of pairs.values()) links[pair.a].push(pair.b), links[pair.b].push(pair.a);
  const reached = new Set([anchorIndex]);
  const stack = [anchorIndex];
  while (stack.length > 0) for (const next of links[stack.pop()!]) if (!reached.has(next)) reached.add(next), stack.push(next);
  const members = ids.map((_, i) => i).filter((i) => reached.has(i));
  const slot = new Map(members.map((player, k) => [player, k]));
  const memberPairs = [...pairs.values()].filter((p) => slot.has(p.a) && slot.has(p.b)).map((p) => ({ ...p, a: slot.get(p.a)!, b: slot.get(p.b)! }));
  const fit: RatingFit = fitRatings(members.length, memberPairs, slot.get(anchorIndex)!, 0);
  const order = members.map((_, k) => k).sort((x, y) => fit.elo[y] - fit.elo[x] || x - y);
  const versionOf = new Map(active.map((v) => [versionPlayer(v.id), v]));
  const rows: LeaderboardRow[] = order.map((k, rank) => {
    const player = ids[members[k]];
    const version = versionOf.get(player);
    const next = order[rank + 1];
    return {
      rank: rank + 1,
      player,
      kind: version ? 'student' : 'reference',
      pseudonym: version ? pseudonyms.get(version.student) ?? version.student : player.slice(2),
      ...(version ? { student: version.student } : {}),
      version: version?.id ?? null,
      language: version?.language ?? null,
      games: tally[members[k]].games,
      points: tally[members[k]].points,
      elo: round(fit.elo[k]),
      low: round(fit.elo[k] - fit.error[k]),
      high: round(fit.elo[k] + fit.error[k]),
      losNext: next === undefined ? null : round(likelihoodOfSuperiority(fit, k, next), 4),
    };
  });
  const unrated: UnratedRow[] = active
    .filter((v) => !reached.has(index.get(versionPlayer(v.id))!))
    .map((v) => ({ player: versionPlayer(v.id), pseudonym: pseudonyms.get(v.student) ?? v.student, student: v.student, version: v.id, games: tally[index.get(versionPlayer(v.id))!].games, reason: 'no counted game links it to the reference AIs yet' }));
  const table: Leaderboard = {
    format: 'referee.ladder-table/1',
    anchor: input.anchor,
    games: counted,
    rows,
    unrated,
    model: `joint maximum likelihood over every counted game between the players shown (Ordo's model), ${input.anchor} = 0; 95% intervals; LOS = likelihood this row is stronger than the next${fit.prior > 0 ? '; one virtual draw per pair was added because some player has no win or draw against the rest' : ''}`,
  };
  const memberSlot = (player: string): number | undefined => {
    const i = index.get(player);
    return i === undefined ? undefined : slot.get(i);
  };
  return {
    table,
    los(a, b) {
      const x = memberSlot(a);
      const y = memberSlot(b);
      return x === undefined || y === undefined ? 0.5 : likelihoodOfSuperiority(fit, x, y);
    },
  };
}

/** The table as a given viewer may see it: students' ids only for the instructor. */
export function tableFor(table: Leaderboard, instructor: boolean): Leaderboard {
  if (instructor) return table;
  return {
    ...table,
    rows: table.rows.map(({ student: _student, ...row }) => row),
    unrated: table.unrated.map(({ student: _student, ...row }) => row),
  };
}

/**
 * Adjacent students the final has not separated yet: their LOS is under `threshold` either way. Reference rows are
 * skipped (they are not graded), so adjacency is among students.
 */
export function unseparatedPairs(fit: LadderFit, threshold = 0.95): [string, string, number][] {
  const students = fit.table.rows.filter((row) => row.kind === 'student');
  const open: [string, string, number][] = [];
  for (let i = 0; i + 1 < students.length; i++) {
    const los = fit.los(students[i].player, students[i + 1].player);
    if (los < threshold && los > 1 - threshold) open.push([students[i].player, students[i + 1].player, los]);
  }
  return open;
}
