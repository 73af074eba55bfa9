/**
 * report.html from a GradeResult: one self-contained page (CSS, JS and data inline; a CSP forbids any network
 * access) rendered with handlebars, which escapes every value a student controls; the only unescaped inserts are
 * our own CSS and JS and the data block, which scriptSafeJson makes inert inside <script>.
 */
import { readFileSync } from 'node:fs';
import Handlebars from 'handlebars';
import type { AnyGame } from '../harness/games/game.js';
import { getGame } from '../harness/games/registry.js';
import type { GameEntry, GradeResult, ItemResult } from '../grading/grade-result.js';
import type { SprtResult } from '../grading/scoring.js';
import { packageFile } from '../grading/package-root.js';
import { dateTime } from '../grading/words.js';
import { diagnose } from './diagnosis.js';
import { CAUSE_ORDER, CAUSE_TITLES, causeOf, lossDetail, whenLost, type LossCause } from './loss-cause.js';
import { gameView, SvgTokens } from './replay-data.js';
import { scriptSafeJson } from './safe-json.js';
import { studentOutput } from './student-output.js';
import { writeFileAtomic } from '../grading/write-atomic.js';

const template = (name: string): string => readFileSync(packageFile('reports', 'templates', name), 'utf8');

let compiled: HandlebarsTemplateDelegate | null = null;

const CHECK_MARKS = { pass: '✓', fail: '✗', warn: '!', skip: '–' } as const;

const pct = (rate: number): string => `${(100 * rate).toFixed(1)}%`;

const TRACE_WIDTH = 360;
const TRACE_HEIGHT = 120;

/** One SPRT test for the report: the decision in words, with its error rate, and the LLR trace as SVG points. */
function sprtView(test: SprtResult, maxGames: number): Record<string, unknown> {
  const top = Math.max(test.upper, ...test.trace.map((step) => step.llr)) * 1.1;
  const bottom = Math.min(test.lower, ...test.trace.map((step) => step.llr)) * 1.1;
  const y = (llr: number): number => Math.round(((top - llr) / (top - bottom)) * TRACE_HEIGHT * 10) / 10;
  const x = (games: number): number => Math.round((games / Math.max(maxGames, 1)) * TRACE_WIDTH * 10) / 10;
  const points = [`0,${y(0)}`, ...test.trace.map((step) => `${x(step.games)},${y(step.llr)}`)].join(' ');
  const llr = `LLR ${test.llr.toFixed(2)}`;
  const decision =
    test.decision === 'H1'
      ? `H1 accepted after ${test.gamesUsed} games (${llr} ≥ ${test.upper.toFixed(2)}): stronger than Elo ${test.elo0} against ${test.opponent}; an AI at Elo ${test.elo0} passes at most ${pct(test.alpha)} of the time (α).`
      : test.decision === 'H0'
        ? `H0 accepted after ${test.gamesUsed} games (${llr} ≤ ${test.lower.toFixed(2)}): not shown to be stronger than Elo ${test.elo0} against ${test.opponent}; an AI at Elo ${test.elo1} fails at most ${pct(test.beta)} of the time (β).`
        : test.decision === 'max-games'
          ? `Undecided after ${test.gamesUsed} games (${llr}, bounds ${test.lower.toFixed(2)} / ${test.upper.toFixed(2)}): the fallback rule decided on the win rate ${pct(test.winRate)} — ${test.passed ? 'passed' : 'not passed'}.`
          : `Unfinished after ${test.gamesUsed} games (${llr}).`;
  return {
    ...test,
    decisionText: decision,
    passedText: test.passed ? 'passed' : 'not passed',
    pentanomialText: test.pentanomial.join(' · '),
    lowerText: test.lower.toFixed(2),
    upperText: test.upper.toFixed(2),
    width: TRACE_WIDTH,
    height: TRACE_HEIGHT,
    points,
    upperY: y(test.upper),
    lowerY: y(test.lower),
    zeroY: y(0),
  };
}

/** The forced losses of an item, by cause ("Illegal answers × 1, Exception × 2"). */
function verdictText(result: GradeResult, itemIndex: number): string {
  const counted = new Map<LossCause, number>();
  for (const entry of result.games) {
    const loser = entry.record.end.loser;
    if (entry.item !== itemIndex || loser?.side !== entry.studentSide) continue;
    counted.set(causeOf(loser), (counted.get(causeOf(loser)) ?? 0) + 1);
  }
  return CAUSE_ORDER.filter((cause) => counted.has(cause))
    .map((cause) => `${CAUSE_TITLES[cause].toLowerCase()} × ${counted.get(cause)}`)
    .join(', ');
}

function scoreText(entry: GameEntry): string {
  const { score } = entry.record.end;
  if (score === null) return '—';
  const own = score[entry.studentSide];
  const theirs = score[1 - entry.studentSide];
  return `${own}–${theirs}`;
}

function endingText(entry: GameEntry): string {
  const { end } = entry.record;
  if (!end.loser) return end.reason === 'score' ? 'on the board' : end.reason;
  const who = end.loser.side === entry.studentSide ? 'the submission' : 'the opponent';
  return `${who} lost ${whenLost(entry.record)}: ${lossDetail(entry.record)}`;
}

function timeUsed(entry: GameEntry): string {
  let ms = 0;
  for (const turn of entry.record.turns) {
    if (turn.side !== entry.studentSide) continue;
    ms += turn.wallMs ?? 0;
    for (const attempt of turn.illegal ?? []) ms += attempt.wallMs;
  }
  if (entry.record.end.loser?.side === entry.studentSide) ms += entry.record.end.loser.wallMs;
  return ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(0)} ms`;
}

/** The view model: everything the template shows, already phrased. */
function viewModel(result: GradeResult): Record<string, unknown> {
  const game = getGame(result.assignment.game);
  const config = result.assignment.config;
  const tokens = new SvgTokens();
  const views = result.games.map((entry) => {
    const item = result.items[entry.item];
    return gameView(game, entry.record, tokens, {
      title: `${item.title}, game ${entry.index + 1} (${game.sideNames[entry.studentSide]})`,
      studentSide: entry.studentSide,
      result: entry.result,
    });
  });
  const counts = new Map(result.games.map((entry, index) => [entry, views[index].counts]));
  const items = result.items.map((item, itemIndex) => ({
    ...item,
    diagnosis: diagnose(result, itemIndex, counts, game.sideNames).lines,
    skipped: item.status === 'skipped',
    summary: item.status === 'skipped' ? 'not played' : `${item.wins}-${item.draws}-${item.losses} (W-D-L), win rate ${pct(item.winRate)}`,
    winRatePct: pct(item.winRate),
    wilsonPct: `${pct(item.wilson.low)} – ${pct(item.wilson.high)}`,
    verdictText: verdictText(result, itemIndex),
    sprtTests: (item.sprt ?? []).map((test) => sprtView(test, item.scoring.rule === 'sprt' ? item.scoring.maxGames : item.games)),
    games: result.games
      .map((entry, view) => ({ entry, view }))
      .filter(({ entry }) => entry.item === itemIndex)
      .map(({ entry, view }) => ({
        view,
        // The deep link's game number (1-based, report.html#game=N&ply=P), and the ply that decided a forced loss.
        link: view + 1,
        fatalPly: entry.record.end.loser ? entry.record.turns.length + 1 : null,
        number: entry.index + 1,
        slot: `${entry.item}:${entry.index}`,
        colour: game.sideNames[entry.studentSide],
        result: entry.result,
        score: scoreText(entry),
        plies: entry.record.turns.length,
        timeUsed: timeUsed(entry),
        ending: endingText(entry),
      })),
  }));
  const firstGame = result.games[0];
  const sub = result.submission;
  return {
    assignment: result.assignment,
    submission: { ...sub, label: sub.path ?? `${sub.name} (reference AI)` },
    environment: result.environment,
    finishedAt: result.timings.finishedAt,
    finishedText: dateTime(result.timings.finishedAt),
    timings: result.timings,
    score: result.score,
    maxScore: result.maxScore,
    percent: result.maxScore > 0 ? ((100 * result.score) / result.maxScore).toFixed(1) : '0.0',
    checkPassed: result.interfaceCheck.passed,
    interfaceCheck: result.interfaceCheck,
    checkItems: result.interfaceCheck.items.map((item, index, all) => ({
      ...item,
      mark: CHECK_MARKS[item.status],
      // A skipped step says why: an earlier step failed, or (with its own detail, or nothing failed) it does not apply.
      skipNote: item.status !== 'skip' ? null : all.slice(0, index).some((earlier) => earlier.status === 'fail') ? 'not run: an earlier step failed' : item.detail ? null : 'does not apply here',
    })),
    sandboxLayers: (result.isolation?.layers ?? result.interfaceCheck.layers).join(', '),
    isolation: result.isolation ?? null,
    graderError: result.status === 'grader-error' ? (result.graderError ?? 'unknown') : null,
    items,
    warnings: result.warnings,
    rules:
      `${config.referee.moveTimeoutMs} ms per move (each ask; ${config.referee.turnTimeoutMs ?? config.referee.moveTimeoutMs} ms for the whole turn, retries included; ` +
      `moveInfo() in TypeScript and info in Python give them), ` +
      `${config.referee.constructTimeoutMs} ms to build the AIPlayer, ${config.referee.illegalMoveLimit} asks per turn before an illegal-move loss, ` +
      `changing the board ${config.referee.tamperLoses ? 'loses' : 'is recorded but allowed'}.`,
    moveTimeoutMs: config.referee.moveTimeoutMs,
    hasGames: views.length > 0,
    viewOptions: views.map((view) => `${view.title} — ${view.result}`),
    output: studentOutput(result),
    seedOverride: result.seedOverride !== null,
    command: result.command,
    oneGameCommand: firstGame ? `${result.command} --only ${firstGame.item}:${firstGame.index} --out referee-rerun` : null,
    css: template('report.css'),
    viewerJs: template('viewer.js'),
    dataJson: scriptSafeJson({ sideNames: game.sideNames, tokens: tokens.list, games: views }),
  };
}

/** The whole report as one HTML string. */
export function renderReport(result: GradeResult): string {
  compiled ??= Handlebars.create().compile(template('report.hbs'));
  return compiled(viewModel(result));
}

/** Render and write atomically. */
export function writeReport(path: string, result: GradeResult): void {
  writeFileAtomic(path, renderReport(result));
}
