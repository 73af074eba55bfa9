/**
 * tournament.html from a TournamentResult: one self-contained page like report.html (CSS, JS and data inline, a
 * CSP forbidding the network, handlebars escaping every participant-controlled value): the ranking with each 95%
 * interval drawn as a bar, the crosstable (W-D-L and score per pair; a cell opens the pair's first game), every
 * game in a table, and report.html's own replay viewer.
 */
import { readFileSync } from 'node:fs';
import Handlebars from 'handlebars';
import { getGame } from '../../harness/games/registry.js';
import { packageFile } from '../../grading/package-root.js';
import { count, dateTime } from '../../grading/words.js';
import type { TournamentResult } from '../../grading/tournament/result.js';
import { gameView, SvgTokens } from '../replay-data.js';
import { scriptSafeJson } from '../safe-json.js';
import { writeFileAtomic } from '../../grading/write-atomic.js';

const template = (...path: string[]): string => readFileSync(packageFile('reports', ...path), 'utf8');

let compiled: HandlebarsTemplateDelegate | null = null;

const BAR_WIDTH = 240;

/** A rating to the nearest point, never "-0". */
const whole = (x: number): string => String(Math.round(x) || 0);

const resultText = (score: number): string => (score === 1 ? '1–0' : score === 0 ? '0–1' : '½–½');

function viewModel(result: TournamentResult): Record<string, unknown> {
  const game = getGame(result.game);
  const tokens = new SvgTokens();
  const views = result.games.map((entry) =>
    gameView(game, entry.record, tokens, {
      title: `Round ${entry.round}: ${entry.players[0]} (${game.sideNames[0]}) vs ${entry.players[1]} (${game.sideNames[1]})`,
      studentSide: null,
      result: resultText(entry.blackScore),
    }),
  );
  // Interval bars share one Elo scale.
  const finite = result.ranking.flatMap((row) => [row.low, row.high]).filter((x) => Number.isFinite(x));
  const lo = Math.min(...finite, 0);
  const hi = Math.max(...finite, 1);
  const span = hi - lo || 1;
  const x = (elo: number): number => Math.round(((elo - lo) / span) * (BAR_WIDTH - 8)) + 4;
  const awards = new Map((result.rubric?.awards ?? []).map((award) => [award.id, award]));
  // Reference AIs (Referee's own opponents) are marked wherever a player is named: they are not anyone's submission.
  const reference = new Set(result.participants.filter((participant) => participant.kind === 'reference').map((participant) => participant.id));
  const ranking = result.ranking.map((row) => ({
    ...row,
    reference: reference.has(row.id),
    award: awards.get(row.id)?.points ?? null,
    awardBasis: awards.get(row.id)?.basis ?? '',
    eloText: whole(row.elo),
    intervalText: `${whole(row.low)} … ${whole(row.high)}`,
    score: row.games > 0 ? `${((100 * row.points) / row.games).toFixed(1)}%` : '—',
    los: row.losNext === null ? '' : `${(100 * row.losNext).toFixed(1)}%`,
    bar: { x1: x(row.low), x2: x(row.high), cx: x(row.elo), width: BAR_WIDTH },
  }));
  const order = result.ranking.map((row, index) => ({ id: row.id, rank: index + 1, reference: reference.has(row.id) }));
  const cellOf = new Map(result.crosstable.map((cell) => [`${cell.a}\u0000${cell.b}`, cell]));
  const crossRows = order.map(({ id: rowId, rank, reference: isReference }) => ({
    id: rowId,
    rank,
    reference: isReference,
    cells: order.map(({ id: columnId }) => {
      if (rowId === columnId) return { self: true };
      const direct = cellOf.get(`${rowId}\u0000${columnId}`);
      const reverse = cellOf.get(`${columnId}\u0000${rowId}`);
      const cell = direct ?? (reverse ? { ...reverse, wins: reverse.losses, losses: reverse.wins } : undefined);
      if (!cell) return { empty: true };
      const games = cell.wins + cell.draws + cell.losses;
      const points = cell.wins + cell.draws / 2;
      return {
        wdl: `${cell.wins}-${cell.draws}-${cell.losses}`,
        score: `${points % 1 === 0 ? points : points.toFixed(1)}/${games}`,
        firstGame: cell.games[0],
        title: `${rowId} vs ${columnId}: ${cell.wins} won, ${cell.draws} drawn, ${cell.losses} lost — games ${cell.games.map((g) => g + 1).join(', ')}`,
        tone: points * 2 > games ? 'plus' : points * 2 < games ? 'minus' : 'even',
      };
    }),
  }));
  return {
    title: result.title,
    result,
    gameTitle: game.title,
    isSwiss: result.pairing === 'swiss',
    rubric: result.rubric ?? null,
    dispersionText: result.model.dispersion.toFixed(3),
    hasReference: reference.size > 0,
    ranking,
    order,
    crossRows,
    excluded: result.participants.filter((participant) => participant.excluded),
    games: result.games.map((entry) => ({
      ...entry,
      number: entry.index + 1,
      resultText: resultText(entry.blackScore),
      plies: entry.record.turns.length,
      openingText: entry.opening.join(' ') || '—',
      ending: views[entry.index].ending,
    })),
    hasGames: views.length > 0,
    viewOptions: views.map((view) => `${view.title} — ${view.result}`),
    moveTimeoutMs: result.referee.moveTimeoutMs,
    openingsText: result.openings.kind === 'random' ? `${result.openings.plies} random plies drawn from the seed` : `${count(result.openings.lines, 'line')} from ${result.openings.path}`,
    roundsText: count(result.rounds, 'round'),
    meetingText: `${count(result.gamesPerPair, 'game')} a meeting`,
    finishedText: dateTime(result.timings.finishedAt),
    css: template('templates', 'report.css') + template('tournament', 'tournament.css'),
    viewerJs: template('templates', 'viewer.js'),
    crossJs: template('tournament', 'crosstable.js'),
    dataJson: scriptSafeJson({ sideNames: game.sideNames, tokens: tokens.list, games: views }),
  };
}

export function renderTournamentReport(result: TournamentResult): string {
  compiled ??= Handlebars.create().compile(template('tournament', 'tournament.hbs'));
  return compiled(viewModel(result));
}

export function writeTournamentReport(path: string, result: TournamentResult): void {
  writeFileAtomic(path, renderTournamentReport(result));
}
