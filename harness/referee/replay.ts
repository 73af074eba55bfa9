/**
 * Re-check a GameRecord move by move from the seed's initial position: every move legal for the side to move,
 * passes only without a legal move, every recorded illegal answer really illegal, and an end that follows from
 * the final position and the config. A corrupt or tampered record is rejected with the first failing ply.
 */
import { other, type AnyGame, type Game, type Side } from '../games/game.js';
import { gameRulesFor } from './config.js';
import { findLegalMove } from './legal-move.js';
import { RecordShapeError, validateRecordShape, type GameRecord, type IllegalAttempt } from './record.js';

export type GameLookup = (id: string) => AnyGame;

export type ReplayResult<S = unknown> =
  | { ok: true; record: GameRecord; finalState: S }
  /** `turn`: 0 for the header, the 1-based ply of the first bad turn, turns.length + 1 for the end. */
  | { ok: false; turn: number; message: string };

/** Thrown inside replay to stop at the first problem; never escapes. */
class ReplayFailure extends Error {
  constructor(
    readonly turn: number,
    message: string,
  ) {
    super(message);
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The problem with a recorded illegal attempt, or null when it was indeed illegal for the reason given. */
function attemptProblem<S, M>(game: Game<S, M>, legal: readonly M[], attempt: IllegalAttempt): string | null {
  const { returned, reason } = attempt;
  if (returned.type !== 'string') {
    return reason === 'not-a-string' ? null : `a ${returned.type} was recorded as ${reason}`;
  }
  if (returned.truncated) return reason === 'not-a-string' ? 'a string was recorded as not-a-string' : null;
  const found = findLegalMove(game, legal, returned.text);
  if (typeof found === 'number') {
    return `${JSON.stringify(returned.text)} is a legal move here, yet was recorded as illegal`;
  }
  return found === reason ? null : `${JSON.stringify(returned.text)} is ${found}, not ${reason}`;
}

function sameScore(a: readonly [number, number] | null, b: readonly [number, number]): boolean {
  return a !== null && a[0] === b[0] && a[1] === b[1];
}

function replayChecked<S, M>(record: GameRecord, game: Game<S, M>): S {
  const { config } = record;
  const sideName = (side: Side): string => game.sideNames[side];
  let rules: Readonly<Record<string, boolean>>;
  try {
    // A record written before a game had rule switches played with all of them off.
    rules =
      config.gameRules === undefined
        ? Object.fromEntries(Object.keys(game.ruleOptions ?? {}).map((name) => [name, false]))
        : gameRulesFor(game, config.gameRules);
  } catch (error) {
    throw new ReplayFailure(0, `config.gameRules: ${messageOf(error)}`);
  }
  const expectedInitial = game.encode(game.initial(record.seed, rules));
  if (record.initialState !== expectedInitial) {
    throw new ReplayFailure(0, `initialState is not the start position for seed ${record.seed}`);
  }
  let state = game.initial(record.seed, rules);

  const checkAttempts = (ply: number, legal: readonly M[], attempts: readonly IllegalAttempt[]): void => {
    attempts.forEach((attempt, index) => {
      // attempt.tamper is informational: game.py compares the board once, after the turn.
      const problem = attemptProblem(game, legal, attempt);
      if (problem) throw new ReplayFailure(ply, `ply ${ply}: illegal attempt ${index + 1}: ${problem}`);
    });
  };

  for (const turn of record.turns) {
    const ply = turn.ply;
    const fail = (message: string): never => {
      throw new ReplayFailure(ply, `ply ${ply}: ${message}`);
    };
    if (game.isTerminal(state)) fail('the game was already over');
    const side = game.toMove(state);
    if (turn.side !== side) fail(`recorded for ${sideName(turn.side)}, but ${sideName(side)} was to move`);
    const legal = game.legalMoves(state);
    if (turn.kind === 'pass') {
      if (legal.length > 0) fail(`${sideName(side)} passed, but could play ${legal.slice(0, 4).map((move) => game.formatMove(move)).join(', ')}${legal.length > 4 ? ', …' : ''}`);
      state = game.pass(state);
      continue;
    }
    const attempts = turn.illegal ?? [];
    if (attempts.length >= config.illegalMoveLimit) {
      fail(`${attempts.length} illegal answers recorded before a move, but the limit is ${config.illegalMoveLimit}`);
    }
    checkAttempts(ply, legal, attempts);
    if (turn.tamper !== undefined && config.tamperLoses) {
      fail('a changed board was let pass although config.tamperLoses is true');
    }
    const found = findLegalMove(game, legal, turn.move);
    if (typeof found !== 'number') {
      fail(`${JSON.stringify(turn.move)} is not a legal move for ${sideName(side)} (${found})`);
    }
    const move = legal[found as number];
    if (game.moveDetails) {
      const details = game.moveDetails(state, move);
      const recorded = turn.details ?? {};
      const keys = new Set([...Object.keys(details), ...Object.keys(recorded)]);
      for (const key of keys) {
        if (details[key] !== recorded[key]) {
          const [was, is] = [JSON.stringify(recorded[key]), JSON.stringify(details[key])];
          fail(`details.${key} is ${was}, but the move gives ${is}`);
        }
      }
    }
    state = game.apply(state, move);
  }

  const endPly = record.turns.length + 1;
  const fail = (message: string): never => {
    throw new ReplayFailure(endPly, `end: ${message}`);
  };
  const { end } = record;
  let recordedFinal: string;
  try {
    recordedFinal = game.encode(game.decode(end.finalState));
  } catch (error) {
    return fail(`finalState does not decode: ${messageOf(error)}`);
  }
  if (recordedFinal !== game.encode(state)) fail('finalState is not the position the moves lead to');

  if (end.reason === 'quit') {
    if (!config.quitEndsGame) fail("a 'quit' end although config.quitEndsGame is false ('Q' is then an illegal answer)");
    if (end.loser !== undefined) fail("a 'quit' end names a loser");
    if (end.quitBy !== game.toMove(state)) fail('quitBy must be the side to move when the game ended');
    if (game.isTerminal(state)) fail("a 'quit' end after the game was already over");
    const outcome = game.outcome(state);
    if (end.winner !== outcome.winner) fail(`winner is ${String(end.winner)}, but the count gives ${String(outcome.winner)}`);
    if (!sameScore(end.score, outcome.score)) fail(`score is ${JSON.stringify(end.score)}, but the count gives ${JSON.stringify(outcome.score)}`);
    if (end.diff !== outcome.diff) fail(`diff is ${end.diff}, but the count gives ${outcome.diff}`);
    return state;
  }
  if (end.reason === 'resign') {
    if (end.resignedBy === undefined) fail("a 'resign' end must name resignedBy");
    if (end.loser !== undefined) fail("a 'resign' end names a loser");
    if (game.isTerminal(state)) fail("a 'resign' end after the game was already over");
    if (end.winner !== other(end.resignedBy!)) fail(`winner must be the opponent of the side that resigned (${other(end.resignedBy!)})`);
    if (end.score !== null) fail('a resignation records score null');
    if (end.diff !== config.forcedLossDiff) fail(`a resignation reports diff ${config.forcedLossDiff} (config.forcedLossDiff)`);
    return state;
  }
  if (end.reason === 'score') {
    if (end.loser !== undefined) fail("a 'score' end names a loser");
    if (!game.isTerminal(state)) fail("reason is 'score' but the game is not over");
    const outcome = game.outcome(state);
    if (end.winner !== outcome.winner) {
      fail(`winner is ${String(end.winner)}, but the position gives ${String(outcome.winner)}`);
    }
    if (!sameScore(end.score, outcome.score)) {
      fail(`score is ${JSON.stringify(end.score)}, but the position gives ${JSON.stringify(outcome.score)}`);
    }
    if (end.diff !== outcome.diff) fail(`diff is ${end.diff}, but the position gives ${outcome.diff}`);
    return state;
  }

  const loser = end.loser;
  if (loser === undefined) return fail(`a forced loss ('${end.reason}') must name the loser`);
  if (loser.verdict !== end.reason) fail(`reason '${end.reason}' differs from the loser's verdict '${loser.verdict}'`);
  if (end.winner !== other(loser.side)) fail(`winner must be the loser's opponent (${other(loser.side)})`);
  if (end.score !== null) fail('a forced loss records score null');
  if (end.diff !== config.forcedLossDiff) {
    fail(`a forced loss reports diff ${config.forcedLossDiff} (config.forcedLossDiff)`);
  }
  if (loser.verdict === 'tamper' && !config.tamperLoses) fail('a tamper loss under config.tamperLoses false');
  if (loser.phase === 'start') {
    if (record.turns.length > 0) fail('a construction failure after moves were played');
    if (loser.attempts.length > 0) fail('a construction failure with illegal attempts');
    return state;
  }
  if (game.isTerminal(state)) fail('a forced loss after the game was already over');
  const side = game.toMove(state);
  if (loser.side !== side) fail(`the loser is ${sideName(loser.side)}, but ${sideName(side)} was to move`);
  const legal = game.legalMoves(state);
  if (legal.length === 0) fail(`${sideName(side)} had no legal move, so it passes and is not asked`);
  const limit = config.illegalMoveLimit;
  if (loser.verdict === 'illegal' ? loser.attempts.length !== limit : loser.attempts.length >= limit) {
    const count = loser.attempts.length;
    fail(`${count} illegal attempts do not fit verdict '${loser.verdict}' with illegalMoveLimit ${limit}`);
  }
  checkAttempts(endPly, legal, loser.attempts);
  return state;
}

/**
 * Re-check a record (a parsed object or JSON text). `game` is the game itself or a lookup by the record's id.
 * Never throws for bad input: the result names the first failing turn.
 */
export function replayRecord<S = unknown>(input: unknown, game: Game<S, any> | GameLookup): ReplayResult<S> {
  let json = input;
  if (typeof input === 'string') {
    try {
      json = JSON.parse(input);
    } catch (error) {
      return { ok: false, turn: 0, message: `record is not valid JSON: ${messageOf(error)}` };
    }
  }
  try {
    const record = validateRecordShape(json);
    let resolved: Game<S, unknown>;
    try {
      resolved = typeof game === 'function' ? (game(record.game) as Game<S, unknown>) : game;
    } catch (error) {
      return { ok: false, turn: 0, message: `record game ${JSON.stringify(record.game)}: ${messageOf(error)}` };
    }
    if (resolved.id !== record.game) {
      const message = `record is a ${JSON.stringify(record.game)} game, not ${JSON.stringify(resolved.id)}`;
      return { ok: false, turn: 0, message };
    }
    return { ok: true, record, finalState: replayChecked(record, resolved) };
  } catch (error) {
    if (error instanceof ReplayFailure || error instanceof RecordShapeError) {
      return { ok: false, turn: error.turn, message: error.message };
    }
    return { ok: false, turn: 0, message: `record could not be replayed: ${messageOf(error)}` };
  }
}
