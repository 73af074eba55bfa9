/**
 * The replay viewer's data for each game: every position drawn by the game's own renderSvg (the Game interface
 * only; nothing here knows a game's rules), plus what happened at each ply. SVGs of one report share most of their
 * elements, so each frame is stored as indexes into one table of distinct elements (a Reversi game of 60 plies
 * shrinks about thirtyfold).
 */
import type { AnyGame } from '../harness/games/game.js';
import type { GameRecord, IllegalAttempt } from '../harness/referee/record.js';
import { discCounts } from './diagnosis.js';
import { attemptReason, lossDetail, whenLost } from './loss-cause.js';

export interface PlyView {
  ply: number;
  side: 0 | 1;
  /** 'D3', or 'pass'. */
  label: string;
  wallMs: number | null;
  /** Illegal answers before the accepted one (student-controlled text). */
  illegal: { text: string; reason: string }[];
  tamper: string | null;
  /** What the submission printed during this ply (its own plies only; capped; student-controlled). */
  output: string | null;
  /** This ask's own limit where it was not the game's (language multiplier, first turn), else null. */
  limitMs: number | null;
  /** The side's time bank left after this move, when it drew on it (config.timeBankMs), else null. */
  bankLeftMs: number | null;
  /** The side's strike count when this move went over its limit and was played (config.strikeLimit), else null. */
  strikes: number | null;
  /** Of wallMs, the time the player waited for a CPU on a busy grader, not counted (TurnRecord.cpuWaitMs), else null. */
  cpuWaitMs: number | null;
}

/** Characters of one ply's output the viewer carries (the output section and grade.json hold more). */
export const PLY_OUTPUT_CAP = 2000;

const capped = (text: string | undefined): string | null =>
  text ? (text.length > PLY_OUTPUT_CAP ? `${text.slice(0, PLY_OUTPUT_CAP)}… (${text.length - PLY_OUTPUT_CAP} more characters)` : text) : null;

export interface GameView {
  title: string;
  players: [string, string];
  /** The graded side, or null when no side is (a tournament game between two participants). */
  studentSide: 0 | 1 | null;
  result: string;
  /** One frame per position: the start, then after each ply. */
  frames: number[][];
  plies: PlyView[];
  /** How the game ended, in words (includes the forfeit message, student-controlled). */
  ending: string;
  /** The failing turn of a forced loss: its illegal attempts, shown after the last frame. */
  failedAttempts: { text: string; reason: string }[];
  timeLimitMs: number;
  /** Discs or stones of each side in every frame (from the game's board geometry). */
  counts: [number, number][];
  /** The cells that decided a game won on the board (the winning line), as circles on the last frame's picture. */
  highlight: { x: number; y: number; r: number }[];
  /** The failing ask of a forced loss (its wall time is the time chart's last bar), or null. */
  fatal: { side: 0 | 1; verdict: string; wallMs: number; stack: string | null; output: string | null } | null;
}

/** Splits SVG markup into elements and interns them; the viewer joins a frame's elements back in order. */
export class SvgTokens {
  readonly list: string[] = [];
  private readonly index = new Map<string, number>();

  encode(svg: string): number[] {
    return svg.split(/(?<=>)(?=<)/).map((part) => {
      let id = this.index.get(part);
      if (id === undefined) {
        id = this.list.length;
        this.list.push(part);
        this.index.set(part, id);
      }
      return id;
    });
  }
}

/** An illegal answer for the viewer: what came back, and the rule it broke in the game's words where known. */
const attemptView = (attempt: IllegalAttempt): { text: string; reason: string } => ({
  text: attempt.returned.type === 'string' ? JSON.stringify(attempt.returned.text) : attempt.returned.text,
  reason: attemptReason(attempt),
});

function endingOf(game: AnyGame, record: GameRecord, final: unknown): string {
  const { end } = record;
  const winnerName = end.winner === null ? null : `${game.sideNames[end.winner]} (${record.players[end.winner]})`;
  if (end.loser) {
    const loser = `${game.sideNames[end.loser.side]} (${record.players[end.loser.side]})`;
    const rule = end.loser.rule ? ` (rule: ${end.loser.rule})` : '';
    return `${loser} lost ${whenLost(record)}: ${lossDetail(record)}${rule}`;
  }
  if (end.reason === 'resign' && end.resignedBy !== undefined) return `${game.sideNames[end.resignedBy]} (${record.players[end.resignedBy]}) resigned: ${winnerName} won.`;
  if (end.reason === 'score' && game.geometry && game.isTerminal(final)) {
    // The game's own words: why it ended, and a score only where the game has one (Reversi's disc count).
    const ending = game.geometry.ending(final);
    const score = ending.score ? ` ${ending.score}` : '';
    return `${winnerName === null ? `Draw${score}` : `${winnerName} won${score}`}: ${ending.reason}.`;
  }
  const score = end.score ? ` ${end.score[0]}–${end.score[1]}` : '';
  const quit = end.reason === 'quit' && end.quitBy !== undefined ? ` ${game.sideNames[end.quitBy]} answered 'Q' (quitEndsGame): the count decided.` : '';
  return (winnerName === null ? `Draw${score}.` : `${winnerName} won${score}.`) + quit;
}

export function gameView(game: AnyGame, record: GameRecord, tokens: SvgTokens, meta: { title: string; studentSide: 0 | 1 | null; result: string }): GameView {
  let state = game.decode(record.initialState);
  const states = [state];
  const frames = [tokens.encode(game.renderSvg(state))];
  const plies: PlyView[] = [];
  for (const turn of record.turns) {
    if (turn.kind === 'pass') {
      state = game.pass(state);
    } else {
      const move = game.parseMove(turn.move ?? '');
      if (move === null) throw new Error(`record ply ${turn.ply}: ${JSON.stringify(turn.move)} is not ${game.id} notation`);
      state = game.apply(state, move);
    }
    states.push(state);
    frames.push(tokens.encode(game.renderSvg(state, turn.kind === 'move' ? { lastMove: turn.move } : {})));
    plies.push({
      ply: turn.ply,
      side: turn.side,
      label: turn.kind === 'move' ? (turn.move as string) : 'pass',
      wallMs: turn.wallMs ?? null,
      illegal: (turn.illegal ?? []).map(attemptView),
      tamper: turn.tamper ?? null,
      output: turn.side === meta.studentSide ? capped([...(turn.illegal ?? []).map((attempt) => attempt.output?.text ?? ''), turn.output?.text ?? '', turn.debug !== undefined ? `[debug] ${turn.debug}\n` : ''].join('')) : null,
      limitMs: turn.limitMs ?? null,
      bankLeftMs: turn.bankLeftMs ?? null,
      strikes: turn.strikes ?? null,
      cpuWaitMs: turn.cpuWaitMs ?? null,
    });
  }
  const loser = record.end.loser;
  const won = record.end.reason === 'score' && game.geometry !== undefined && game.isTerminal(state);
  const cells = won ? new Map(game.geometry!.cells(state).map((cell) => [cell.name, cell])) : null;
  const highlight = won ? game.geometry!.ending(state).line.flatMap((name) => (cells!.has(name) ? [{ x: cells!.get(name)!.x, y: cells!.get(name)!.y, r: cells!.get(name)!.r }] : [])) : [];
  return {
    title: meta.title,
    players: record.players,
    studentSide: meta.studentSide,
    result: meta.result,
    frames,
    plies,
    ending: endingOf(game, record, state),
    failedAttempts: (record.end.loser?.attempts ?? []).map(attemptView),
    timeLimitMs: record.config.moveTimeoutMs,
    counts: discCounts(game, states),
    highlight,
    fatal:
      loser && loser.phase === 'move'
        ? { side: loser.side, verdict: loser.verdict, wallMs: loser.wallMs, stack: loser.stack ?? null, output: loser.side === meta.studentSide ? capped(loser.output?.text) : null }
        : null,
  };
}
