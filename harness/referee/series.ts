/**
 * A series between two players with alternating colours: `a` is the first side in even games and the second in
 * odd ones, and game i is seeded with deriveSeed(seed, i) (i / 2 rounded down for games with a seeded layout, so
 * each drawn board is played once with each side first): a series seed fixes every game.
 */
import type { Game, Side } from '../games/game.js';
import { configForGame, type RefereeConfig } from './config.js';
import { playGame, playGameUnstalled } from './match.js';
import type { Player } from './player.js';
import type { GameRecord, TurnRecord } from './record.js';
import { deriveSeed } from './seed.js';
import { LOSS_VERDICTS, type LossVerdict } from './verdict.js';

export interface PlaySeriesOptions<S, M> {
  game: Game<S, M>;
  a: Player;
  b: Player;
  /** Number of games, a positive integer (even for a colour-balanced series). */
  games: number;
  seed: number;
  config?: Partial<RefereeConfig>;
  /** Called as each game finishes, in order. */
  onGame?: (record: GameRecord, index: number) => void;
  onTurn?: (turn: TurnRecord, state: S, index: number) => void;
}

export interface WinDrawLoss {
  wins: number;
  draws: number;
  losses: number;
}

export interface PlayerTally extends WinDrawLoss {
  /** The same split by the side played: [as the first side (Black), as the second (White)]. */
  bySide: [WinDrawLoss, WinDrawLoss];
}

export interface SeriesResult {
  format: 'referee.series/1';
  game: string;
  /** The game's side names, e.g. ['Black', 'White']. */
  sideNames: [string, string];
  /** [a, b]. */
  names: [string, string];
  games: number;
  seed: number;
  config: RefereeConfig;
  /** Results per player: [a, b]. */
  tally: [PlayerTally, PlayerTally];
  /** Games won by each side whoever played it, and draws. */
  sideWins: [number, number];
  draws: number;
  /** a's points per game, a draw counting half. */
  scoreRate: number;
  /** Mean of a's score minus b's per game; a forced loss counts ±forcedLossDiff (game.py's diff). */
  averageDiff: number;
  /** Games that ended normally, by the board. */
  scoreEnds: number;
  /** Games ended by an answer of 'Q' under config.quitEndsGame (the count decided). */
  quitEnds: number;
  /** Forced losses by verdict, counted per loser: [a, b]. */
  verdicts: Record<LossVerdict, [number, number]>;
  records: GameRecord[];
}

/** The side player `a` takes in game `index`. */
export const sideOfA = (index: number): Side => (index % 2) as Side;

const emptyWdl = (): WinDrawLoss => ({ wins: 0, draws: 0, losses: 0 });
const emptyTally = (): PlayerTally => ({ ...emptyWdl(), bySide: [emptyWdl(), emptyWdl()] });

function count(wdl: WinDrawLoss, result: 'wins' | 'draws' | 'losses'): void {
  wdl[result] += 1;
}

/** Score difference from the point of view of `side`. */
function diffFor(record: GameRecord, side: Side): number {
  const { score, winner, diff } = record.end;
  if (score !== null) return score[side] - score[1 - side];
  return winner === null ? 0 : winner === side ? diff : -diff;
}

/** Tally finished games, in game order (player a took side index % 2), into a SeriesResult. */
export interface SeriesMeta {
  game: string;
  sideNames: readonly [string, string];
  /** [a, b]. */
  names: [string, string];
  seed: number;
  config: RefereeConfig;
}

export function summarizeSeries(records: GameRecord[], meta: SeriesMeta): SeriesResult {
  const tally: [PlayerTally, PlayerTally] = [emptyTally(), emptyTally()];
  const sideWins: [number, number] = [0, 0];
  const verdicts = Object.fromEntries(LOSS_VERDICTS.map((verdict) => [verdict, [0, 0]])) as SeriesResult['verdicts'];
  let draws = 0;
  let scoreEnds = 0;
  let quitEnds = 0;
  let diffSum = 0;
  records.forEach((record, index) => {
    const aSide = sideOfA(index);
    const { winner, loser } = record.end;
    diffSum += diffFor(record, aSide);
    if (loser) verdicts[loser.verdict][loser.side === aSide ? 0 : 1] += 1;
    else if (record.end.reason === 'quit') quitEnds += 1;
    else scoreEnds += 1;
    if (winner === null) draws += 1;
    else sideWins[winner] += 1;
    for (const player of [0, 1] as const) {
      const side: Side = player === 0 ? aSide : ((1 - aSide) as Side);
      const result = winner === null ? 'draws' : winner === side ? 'wins' : 'losses';
      count(tally[player], result);
      count(tally[player].bySide[side], result);
    }
  });
  const games = records.length;
  return {
    format: 'referee.series/1',
    game: meta.game,
    sideNames: [meta.sideNames[0], meta.sideNames[1]],
    names: meta.names,
    games,
    seed: meta.seed,
    config: meta.config,
    tally,
    sideWins,
    draws,
    scoreRate: games === 0 ? 0 : (tally[0].wins + tally[0].draws / 2) / games,
    averageDiff: games === 0 ? 0 : diffSum / games,
    scoreEnds,
    quitEnds,
    verdicts,
    records,
  };
}

export async function playSeries<S, M>(options: PlaySeriesOptions<S, M>): Promise<SeriesResult> {
  const { game, a, b, games, seed, onGame, onTurn } = options;
  if (!Number.isSafeInteger(games) || games <= 0) {
    throw new RangeError(`playSeries: games must be a positive integer (got ${String(games)}); e.g. 10`);
  }
  if (!Number.isSafeInteger(seed)) {
    throw new RangeError(`playSeries: seed must be an integer (got ${String(seed)}); e.g. 1`);
  }
  const config = configForGame(options.game, options.config);
  const records: GameRecord[] = [];
  for (let index = 0; index < games; index++) {
    const aIsFirst = sideOfA(index) === 0;
    // A game whose move the grader's machine stalled is played again (never a verdict).
    const record = await playGameUnstalled(() =>
      playGame({
        game,
        black: aIsFirst ? a : b,
        white: aIsFirst ? b : a,
        // A drawn layout is played twice, once with each side first: games 2k and 2k+1 share a seed.
        seed: deriveSeed(seed, game.seededLayout ? Math.floor(index / 2) : index),
        config,
        onTurn: onTurn ? (turn, state) => onTurn(turn, state, index) : undefined,
      }),
    );
    records.push(record);
    onGame?.(record, index);
  }
  return summarizeSeries(records, { game: game.id, sideNames: game.sideNames, names: [a.name, b.name], seed, config });
}

function line(wdl: WinDrawLoss): string {
  const games = wdl.wins + wdl.draws + wdl.losses;
  const rate = games === 0 ? 0 : (wdl.wins + wdl.draws / 2) / games;
  return `${wdl.wins} - ${wdl.losses} - ${wdl.draws}  [${rate.toFixed(3)}] ${games}`;
}

const signed = (value: number, digits: number): string => `${value >= 0 ? '+' : ''}${value.toFixed(digits)}`;

/** A compact summary in the spirit of cutechess-cli's ("Score of A vs B: W - L - D  [rate] N"). */
export function formatSeriesReport(result: SeriesResult): string {
  const [nameA, nameB] = result.names;
  const [first, second] = result.sideNames;
  const [tallyA] = result.tally;
  const bySide: WinDrawLoss = { wins: result.sideWins[0], losses: result.sideWins[1], draws: result.draws };
  const rows = [
    `Score of ${nameA} vs ${nameB}: ${line(tallyA)}`,
    `...      ${nameA} playing ${first}: ${line(tallyA.bySide[0])}`,
    `...      ${nameA} playing ${second}: ${line(tallyA.bySide[1])}`,
    `...      ${first} vs ${second}: ${line(bySide)}`,
    `...      Average diff (${nameA} − ${nameB}): ${signed(result.averageDiff, 2)}`,
  ];
  const p = result.scoreRate;
  const elo = p > 0 && p < 1 ? signed(-400 * Math.log10(1 / p - 1), 1) : 'n/a (one side scored every point)';
  const drawRatio = result.games === 0 ? 0 : (100 * result.draws) / result.games;
  rows.push(`...      Elo difference: ${elo}, DrawRatio: ${drawRatio.toFixed(1)} %`);
  const forfeits = LOSS_VERDICTS.filter((verdict) => result.verdicts[verdict][0] + result.verdicts[verdict][1] > 0).map(
    (verdict) => `${verdict} ${nameA} ${result.verdicts[verdict][0]} / ${nameB} ${result.verdicts[verdict][1]}`,
  );
  const forced = forfeits.length > 0 ? `; forced losses: ${forfeits.join(', ')}` : '';
  const quits = result.quitEnds > 0 ? `; by 'Q' (quitEndsGame): ${result.quitEnds}` : '';
  rows.push(`...      Ended by score: ${result.scoreEnds}${quits}${forced}`);
  rows.push(`...      Seed: ${result.seed}`);
  return rows.join('\n');
}
