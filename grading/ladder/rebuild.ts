/**
 * `referee ladder rebuild`: the published table (and the final, once there is one) re-derived from the journal
 * alone — every game's record is replayed by the referee's rules and its result taken from the record, not from
 * the stored score — and compared with what the service published.
 */
import { getGame } from '../../harness/games/registry.js';
import type { GameRecord } from '../../harness/referee/record.js';
import { replayRecord } from '../../harness/referee/replay.js';
import type { Assignment } from '../assignment.js';
import { finalResult, type FinalResult } from './final.js';
import { fitLadder, COUNTED_KINDS, type Leaderboard } from './ratings.js';
import { gameScore, type LadderSettings } from './service.js';
import type { GameRow, LadderStore } from './store.js';

export interface Rebuilt {
  table: Leaderboard;
  final: FinalResult | null;
  games: number;
  /** Games whose record does not replay or whose stored result disagrees with it (left out of the fit). */
  problems: string[];
}

export function rebuildFrom(store: LadderStore, assignment: Assignment, settings: LadderSettings): Rebuilt {
  const games: GameRow[] = [];
  const problems: string[] = [];
  for (const row of store.gamesWithRecords()) {
    let record: GameRecord;
    try {
      record = JSON.parse(row.record) as GameRecord;
    } catch {
      problems.push(`game ${row.id}: its record is not JSON`);
      continue;
    }
    const replayed = replayRecord(record, getGame);
    if (!replayed.ok) {
      problems.push(`game ${row.id}: its record does not replay (turn ${replayed.turn}: ${replayed.message})`);
      continue;
    }
    const score = gameScore(record);
    if (score !== row.blackScore) problems.push(`game ${row.id}: stored result ${row.blackScore} but its record says ${score}`);
    const { record: _record, ...rest } = row;
    games.push({ ...rest, blackScore: score });
  }
  const anchor = settings.references[0];
  const fit = fitLadder({ references: settings.references, anchor, students: store.students(), versions: store.allVersions(), games });
  let final: FinalResult | null = null;
  if (store.phase() === 'done') {
    const meetings = (a: string, b: string): number =>
      games.filter((g) => COUNTED_KINDS.includes(g.kind) && ((g.black === a && g.white === b) || (g.black === b && g.white === a))).length;
    final = finalResult(fit, assignment, {
      reason: store.getMeta('final-reason') ?? 'unknown',
      finalGames: games.filter((g) => g.kind === 'final').length,
      threshold: settings.final.threshold,
      pairCap: settings.final.pairCap,
      meetings,
    });
  }
  return { table: fit.table, final, games: games.length, problems };
}
