/**
 * A GameRecord from the page's Load button: a file saved here, `referee play --save`, or a line of a grade's
 * games.jsonl (its `record` field). A finished record must pass the referee's own replay; a saved unfinished one
 * (no `end`) has its moves re-checked one by one. Returns the history to play on from and the rest for redo.
 */
import type { AnyGame } from '../../harness/games/game.js';
import { getGame } from '../../harness/games/registry.js';
import { configForGame, resolveConfig, type RefereeConfig } from '../../harness/referee/config.js';
import { RECORD_FORMAT, type GameRecord, type TurnRecord } from '../../harness/referee/record.js';
import { replayRecord } from '../../harness/referee/replay.js';

export type Loaded =
  | { ok: true; game: AnyGame; record: GameRecord; history: TurnRecord[]; future: TurnRecord[] }
  | { ok: false; error: string };

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function unfinishedProblem(record: Record<string, unknown>, game: AnyGame, config: RefereeConfig): string | null {
  if (!Number.isSafeInteger(record.seed)) return 'seed must be an integer';
  if (!Array.isArray(record.turns)) return 'turns must be an array';
  // The start position under the record's own rule switches (NoGo's centre rule), as the referee would start it.
  let state = game.initial(record.seed as number, configForGame(game, config).gameRules);
  if (record.initialState !== game.encode(state)) return `initialState is not the start position for seed ${String(record.seed)}`;
  for (const [index, turn] of (record.turns as unknown[]).entries()) {
    const ply = index + 1;
    if (!isObject(turn) || turn.ply !== ply) return `turns[${index}] must be ply ${ply}`;
    if (game.isTerminal(state)) return `ply ${ply}: the game was already over`;
    if (turn.side !== game.toMove(state)) return `ply ${ply}: not the side to move`;
    const legal = game.legalMoves(state);
    if (turn.kind === 'pass') {
      if (legal.length > 0) return `ply ${ply}: a pass with legal moves`;
      state = game.pass(state);
      continue;
    }
    const move = legal.find((m) => game.formatMove(m) === turn.move);
    if (move === undefined) return `ply ${ply}: ${JSON.stringify(turn.move)} is not a legal move`;
    state = game.apply(state, move);
  }
  return null;
}

export function loadRecord(input: unknown, ply: number | undefined): Loaded {
  // A games.jsonl line wraps the record with its key and slot.
  const json = isObject(input) && isObject(input.record) && input.format === undefined ? input.record : input;
  if (!isObject(json) || json.format !== RECORD_FORMAT) {
    return { ok: false, error: `not a game record: expected "format": "${RECORD_FORMAT}" (save one here, or use a line of games.jsonl)` };
  }
  let game: AnyGame;
  try {
    game = getGame(String(json.game));
  } catch (error) {
    return { ok: false, error: `record: ${(error as Error).message}` };
  }
  let record: GameRecord;
  if (json.end !== undefined) {
    const replayed = replayRecord(json, getGame);
    if (!replayed.ok) return { ok: false, error: `the record does not replay (turn ${replayed.turn}): ${replayed.message}` };
    record = replayed.record;
  } else {
    let config: RefereeConfig;
    try {
      config = resolveConfig(json.config as GameRecord['config']);
      configForGame(game, config);
    } catch (error) {
      return { ok: false, error: `record config: ${(error as Error).message}` };
    }
    const problem = unfinishedProblem(json, game, config);
    if (problem) return { ok: false, error: `the unfinished record does not replay: ${problem}` };
    record = { ...(json as unknown as GameRecord), config };
  }
  const turns = record.turns;
  const at = ply === undefined ? turns.length : Math.min(ply, turns.length);
  // Illegal attempts, outputs and timings of the original stay with the turns: the saved record stays replayable.
  return { ok: true, game, record, history: turns.slice(0, at), future: turns.slice(at) };
}
