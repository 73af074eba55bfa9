/**
 * Advice per opponent, computed from the game records only (nothing here knows a game's rules): how much of the
 * time budget the submission used, how it lost (by the board or by a rule), how it did with each colour, and in
 * which phase of the game its losses were decided. Each line is a finding and what to do about it.
 */
import type { AnyGame } from '../harness/games/game.js';
import type { GameEntry, GradeResult, ItemResult } from '../grading/grade-result.js';
import { CAUSE_ORDER, CAUSE_TITLES, causeAdvice, causeOf, lossDetail, ms, whenLost, type LossCause } from './loss-cause.js';
import { count } from '../grading/words.js';

export interface Diagnosis {
  /** One sentence each: a finding, then the advice. */
  lines: string[];
}

const { max, round } = Math;

/** The plies of a set of games lost by rule: 'ply 12', 'plies 9–14'. */
function listPlies(entries: readonly GameEntry[]): string {
  const plies = entries.map((entry) => entry.record.turns.length + 1).sort((a, b) => a - b);
  return plies[0] === plies[plies.length - 1] ? `ply ${plies[0]}` : `plies ${plies[0]}–${plies[plies.length - 1]}`;
}

function percentile(sorted: number[], share: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))];
}

/** Discs or stones of each side in every position of a game, from the game's board geometry (never its SVG markup). */
export function discCounts(game: AnyGame, states: unknown[]): [number, number][] {
  const [first, second] = game.symbols;
  return states.map((state) => {
    const counts: [number, number] = [0, 0];
    for (const cell of game.geometry?.cells(state) ?? []) {
      if (cell.piece === first) counts[0]++;
      else if (cell.piece === second) counts[1]++;
    }
    return counts;
  });
}

const PHASES = ['the opening', 'the middle game', 'the endgame'] as const;

/**
 * The ply at which a lost game was decided: the failing ask of a forced loss; otherwise the last position in
 * which the submission still had at least as many discs as the opponent (when the counts say anything), else
 * the end of the game.
 */
function decidedAt(entry: GameEntry, counts: [number, number][] | null): number {
  const { record, studentSide } = entry;
  if (record.end.loser) return record.turns.length + 1;
  if (counts && counts.some(([a, b]) => a !== b)) {
    for (let ply = counts.length - 1; ply >= 0; ply--) {
      if (counts[ply][studentSide] >= counts[ply][1 - studentSide]) return ply + 1;
    }
    return 1;
  }
  return record.turns.length;
}

export function diagnose(
  result: GradeResult,
  itemIndex: number,
  counts: ReadonlyMap<GameEntry, [number, number][]>,
  sideNames: readonly [string, string],
): Diagnosis {
  const item: ItemResult = result.items[itemIndex];
  const entries = result.games.filter((entry) => entry.item === itemIndex);
  if (item.status === 'skipped' || entries.length === 0) return { lines: ['Not played: the interface check failed.'] };
  const limit = result.assignment.config.referee.moveTimeoutMs;
  const lines: string[] = [];

  // The forced losses first, one line per cause, most frequent first: the fix that fits the cause is the first
  // thing a student reads (a constructor that took too long is not a slow search).
  const language = result.submission.language;
  const forcedLosses = entries.filter((entry) => entry.record.end.loser?.side === entry.studentSide);
  const byCause = new Map<LossCause, GameEntry[]>();
  for (const entry of forcedLosses) {
    const cause = causeOf(entry.record.end.loser!);
    byCause.set(cause, [...(byCause.get(cause) ?? []), entry]);
  }
  const causes = [...byCause.keys()].sort((a, b) => byCause.get(b)!.length - byCause.get(a)!.length || CAUSE_ORDER.indexOf(a) - CAUSE_ORDER.indexOf(b));
  for (const cause of causes) {
    const lost = byCause.get(cause)!;
    const first = lost[0].record;
    // Before the first move (building or loading the player, whatever failed there) says so; else the plies.
    const when = lost.every((entry) => entry.record.end.loser!.phase === 'start') ? whenLost(first) : `at ${listPlies(lost)}`;
    const detail = lossDetail(first);
    const others = lost.length > 1 && cause !== 'construct' && cause !== 'load' ? ` (the first: ${detail})` : `: ${detail}`;
    const figure = cause === 'memory' && !first.end.loser!.message ? '' : others;
    lines.push(`${CAUSE_TITLES[cause]}: ${count(lost.length, 'game')} lost ${when}${figure}. Fix: ${causeAdvice(cause, language, lost.map((entry) => entry.record.end.loser!))}.`);
  }
  const stalls = entries.reduce((sum, entry) => sum + (entry.record.start.reduce((total, start, side) => total + (side === entry.studentSide ? (start.stalls ?? 0) : 0), 0)), 0);
  if (stalls > 0) {
    lines.push(`Not charged: building the AIPlayer was started again ${count(stalls, 'time')} because the grader's machine, not the submission, used the time (the player waited for a CPU); those attempts count for nothing.`);
  }

  // Time: what the submission used of its budget, per move.
  const times: number[] = [];
  for (const entry of entries) {
    for (const turn of entry.record.turns) if (turn.side === entry.studentSide && turn.wallMs !== undefined) times.push(turn.wallMs);
  }
  times.sort((a, b) => a - b);
  if (times.length > 0 && !byCause.has('timeout')) {
    const median = percentile(times, 0.5);
    const slowest = times[times.length - 1];
    const share = slowest / limit;
    if (share < 0.1) {
      lines.push(`Time: a move took ${ms(median)} typically and ${ms(slowest)} at most of the ${ms(limit)} allowed (${(100 * share).toFixed(1)}%). You could search deeper: you have about ${max(2, Math.floor(0.7 / max(share, 0.001)))}× the time you use.`);
    } else if (share > 0.8) {
      lines.push(`Time: the slowest move took ${ms(slowest)} of ${ms(limit)} (${round(100 * share)}%): close to the limit, where a busy machine loses on time. Keep a margin.`);
    } else {
      lines.push(`Time: a move took ${ms(median)} typically and ${ms(slowest)} at most of the ${ms(limit)} allowed.`);
    }
  } else if (times.length > 0) {
    lines.push(`Time: the slowest answered move took ${ms(times[times.length - 1])} of ${ms(limit)}.`);
  }
  const byBoard = entries.filter((entry) => entry.result === 'loss' && !entry.record.end.loser).length;
  if (byBoard > 0) lines.push(`Board: ${count(byBoard, 'game')} lost on the board.`);

  // Colour split.
  const [first, second] = item.bySide;
  const rate = (side: { wins: number; draws: number; losses: number }): number => {
    const games = side.wins + side.draws + side.losses;
    return games === 0 ? NaN : (side.wins + side.draws / 2) / games;
  };
  const rates = [rate(first), rate(second)];
  if (rates.every((value) => !Number.isNaN(value))) {
    const text = `${sideNames[0]} ${first.wins}-${first.draws}-${first.losses}, ${sideNames[1]} ${second.wins}-${second.draws}-${second.losses}`;
    const gap = rates[0] - rates[1];
    lines.push(
      Math.abs(gap) >= 0.3
        ? `Colours: ${text}: much weaker as ${sideNames[gap > 0 ? 1 : 0]}; test that colour (npm run play -- --black/--white).`
        : `Colours: ${text}.`,
    );
  }

  // Where the lost games were decided: on the board only. A game lost by a rule (on time, an illegal answer …) was
  // decided by that rule at its ply, whatever the position: the Time and Rules lines above cover it, and counting
  // it here would call a middle-game timeout an endgame loss.
  const lost = entries.filter((entry) => entry.result === 'loss' && !entry.record.end.loser);
  const byRule = entries.filter((entry) => entry.result === 'loss' && entry.record.end.loser);
  if (lost.length === 0 && byRule.length > 0) {
    lines.push(`Losses: all ${byRule.length} by rule (at ${listPlies(byRule)}), none on the board: fix the rule first; the position did not decide them.`);
  }
  if (lost.length > 0) {
    // Phases are thirds of a full game: the longest game of the grade that ended on the board (a forced loss
    // cuts its game short, and would otherwise always look like an endgame).
    const finished = result.games.filter((entry) => !entry.record.end.loser).map((entry) => entry.record.turns.length);
    const fullLength = max(1, ...(finished.length > 0 ? finished : result.games.map((entry) => entry.record.turns.length + 1)));
    const phases = [0, 0, 0];
    for (const entry of lost) {
      const total = max(fullLength, entry.record.turns.length + (entry.record.end.loser ? 1 : 0));
      const ply = decidedAt(entry, counts.get(entry) ?? null);
      phases[Math.min(2, Math.floor((3 * (ply - 1)) / total))] += 1;
    }
    const worst = phases.indexOf(max(...phases));
    const advice = ['replay those openings: a few prepared first moves go a long way', 'look deeper in the middle of the game, where the opponent outplays you', 'search the end of the game exactly: with few moves left a full search is cheap'];
    lines.push(`Losses decided in ${PHASES[worst]} (${phases[worst]} of ${lost.length}): ${advice[worst]}.`);
  } else if (item.wins === item.played) {
    lines.push('Every game won: the next opponent is the test.');
  }
  return { lines };
}
