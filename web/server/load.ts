/**
 * A GameRecord from the page's Load button: a file saved here, `referee play --save`, or a line of a grade's
 * games.jsonl (its `record` field). Pure code, run twice: by the page before it previews anything (so a bad file is
 * refused at once, in the game's words) and by the server before it referees from it (the page is not trusted).
 *
 * Every move is re-checked against the game's rules; what a file may leave out and still mean one game is implied
 * (the start position from the seed and the rules, ply numbers); a finished record must also pass the referee's own
 * replay. A result that does not follow from the moves is never shown as fact: checkRecord drops it and says why
 * (the page then shows the moves alone), and loadRecord, the server's gate, refuses it.
 */
import type { AnyGame, Side } from '../../harness/games/game.js';
import { getGame } from '../../harness/games/registry.js';
import { configForGame, gameRulesFor, resolveConfig, type RefereeConfig } from '../../harness/referee/config.js';
import { RECORD_FORMAT, type GameRecord, type TurnRecord } from '../../harness/referee/record.js';
import { replayRecord } from '../../harness/referee/replay.js';

export type Checked =
  | {
      ok: true;
      game: AnyGame;
      /** The record with what it left implicit filled in; without its end when `droppedEnd` says why. */
      record: GameRecord | Omit<GameRecord, 'end'>;
      /** The position after each ply (index 0: the start). */
      states: unknown[];
      /** Why the file's result was not kept (it does not follow from its moves), or null. */
      droppedEnd: string | null;
    }
  | { ok: false; error: string };

export type Loaded =
  | { ok: true; game: AnyGame; record: GameRecord; history: TurnRecord[]; future: TurnRecord[] }
  | { ok: false; error: string };

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/** A games.jsonl line wraps the record with its key and slot. */
export function unwrapRecord(input: unknown): unknown {
  return isObject(input) && isObject(input.record) && input.format === undefined ? input.record : input;
}

/** The rule switches the start position is drawn under (a finished record from before a game had switches: all off, as replay reads it). */
function startRules(game: AnyGame, config: RefereeConfig, finished: boolean): Readonly<Record<string, boolean>> | undefined {
  if (!finished) return configForGame(game, config).gameRules;
  if (config.gameRules === undefined) return Object.fromEntries(Object.keys(game.ruleOptions ?? {}).map((name) => [name, false]));
  return gameRulesFor(game, config.gameRules);
}

/** "Black's D3", "Red's 3", "White's pass". */
function turnName(game: AnyGame, side: Side, turn: Record<string, unknown>): string {
  return turn.kind === 'pass' ? `${game.sideNames[side]}'s pass` : `${game.sideNames[side]}'s ${String(turn.move)}`;
}

/** Who the end names, in the game's words. */
function claimedResult(game: AnyGame, end: Record<string, unknown>): string {
  const winner = end.winner === 0 || end.winner === 1 ? `${game.sideNames[end.winner]} won` : 'a draw';
  const reason = typeof end.reason === 'string' && end.reason !== 'score' ? ` (${end.reason})` : '';
  return `${winner}${reason}`;
}

/** The referee replay's complaint about an end, in words a person reads (no field names). */
function endInWords(game: AnyGame, message: string): string {
  const text = message.replace(/^end: /, '');
  const who = (value: string): string => (value === '0' || value === '1' ? `${game.sideNames[Number(value)]} the win` : 'a draw');
  const winner = /^winner is (\S+), but the (position|count) gives (\S+)$/.exec(text);
  if (winner) return `its final position gives ${who(winner[3])}`;
  const score = /^score is (.+), but the (?:position|count) gives \[(\d+),(\d+)\]$/.exec(text);
  if (score) return `its final position counts ${game.sideNames[0]} ${score[2]}, ${game.sideNames[1]} ${score[3]}`;
  if (/^diff is/.test(text)) return 'its margin does not match the final position';
  if (/game is not over/.test(text)) return 'the game is not over after its moves';
  if (/already over/.test(text)) return 'the game was already over before that end';
  if (/finalState/.test(text)) return 'its final position is not the one its moves lead to';
  return text;
}

/**
 * Check a record before anything shows or plays it: its moves one by one in the game's words (the first bad one
 * named by ply, side and move), then, for a finished record, the referee's replay of everything else.
 */
export function checkRecord(input: unknown): Checked {
  const json = unwrapRecord(input);
  if (!isObject(json) || json.format !== RECORD_FORMAT) {
    return { ok: false, error: `not a game record: a file saved here, from \`referee play --save\`, or a games.jsonl line holds "format": "${RECORD_FORMAT}"` };
  }
  let game: AnyGame;
  try {
    game = getGame(String(json.game));
  } catch (error) {
    return { ok: false, error: messageOf(error) };
  }
  const finished = json.end !== undefined;
  let config: RefereeConfig;
  let rules: Readonly<Record<string, boolean>> | undefined;
  try {
    config = resolveConfig(json.config as GameRecord['config']);
    rules = startRules(game, config, finished);
  } catch (error) {
    return { ok: false, error: `its referee rules (config) are not valid: ${messageOf(error)}` };
  }
  // The seed draws a layout only in some games; elsewhere a file without one means the one start position.
  let seed: number;
  if (json.seed === undefined && !game.seededLayout) seed = 0;
  else if (Number.isSafeInteger(json.seed) && (json.seed as number) >= 0) seed = json.seed as number;
  else return { ok: false, error: `its seed must be a whole number${game.seededLayout ? ` (${game.title} draws its layout from it)` : ''}` };

  let state: unknown = game.initial(seed, rules);
  if (json.initialState !== undefined && json.initialState !== game.encode(state)) {
    return { ok: false, error: `its start position (initialState) is not ${game.title}'s start${game.seededLayout ? ` for seed ${seed}` : ''}: the file was edited or is of other rules` };
  }
  if (!Array.isArray(json.turns)) return { ok: false, error: 'it holds no list of moves ("turns")' };
  const states: unknown[] = [state];
  const turns: TurnRecord[] = [];
  for (const [index, raw] of (json.turns as unknown[]).entries()) {
    const ply = index + 1;
    if (!isObject(raw) || (raw.kind !== 'move' && raw.kind !== 'pass') || (raw.kind === 'move' && typeof raw.move !== 'string')) {
      return { ok: false, error: `ply ${ply} is not a move: each turn holds "side", "kind" ("move" or "pass") and, for a move, "move"` };
    }
    if (raw.ply !== undefined && raw.ply !== ply) return { ok: false, error: `turn ${ply} is numbered ply ${String(raw.ply)}: the moves are out of order or one is missing` };
    if (game.isTerminal(state)) {
      return { ok: false, error: `ply ${ply}: the game was already over after ply ${index} (${game.geometry?.ending(state).reason ?? 'a finished position'})` };
    }
    const side = game.toMove(state);
    if (raw.side !== undefined && raw.side !== side) {
      const said = raw.side === 0 || raw.side === 1 ? game.sideNames[raw.side] : JSON.stringify(raw.side);
      return { ok: false, error: `ply ${ply} is recorded for ${said}, but ${game.sideNames[side]} was to move there` };
    }
    const legal = game.legalMoves(state);
    if (raw.kind === 'pass') {
      if (legal.length > 0) return { ok: false, error: `ply ${ply}: ${game.sideNames[side]} passed with ${legal.length} legal ${legal.length === 1 ? 'move' : 'moves'} there` };
      state = game.pass(state);
    } else {
      const move = legal.find((m) => game.formatMove(m) === raw.move);
      if (move === undefined) {
        const why = game.geometry?.whyIllegal(state, raw.move as string) ?? `${String(raw.move)} is not a legal move there`;
        return { ok: false, error: `ply ${ply} (${turnName(game, side, raw)}): ${why}` };
      }
      state = game.apply(state, move);
    }
    states.push(state);
    turns.push({ ...(raw as unknown as TurnRecord), ply, side });
  }
  const players: [string, string] = Array.isArray(json.players) ? [String(json.players[0] ?? '?'), String(json.players[1] ?? '?')] : ['?', '?'];
  const record = { ...(json as unknown as GameRecord), players, seed, config, initialState: game.encode(states[0]), turns };
  if (!finished) {
    const { end: _none, ...unfinished } = record;
    return { ok: true, game, record: unfinished, states, droppedEnd: null };
  }
  const replayed = replayRecord(record, game);
  if (replayed.ok) return { ok: true, game, record: replayed.record, states, droppedEnd: null };
  if (replayed.turn >= 1 && replayed.turn <= turns.length) {
    const turn = turns[replayed.turn - 1];
    const text = replayed.message.replace(/^ply \d+: /, '');
    const details = /^details\.(\w+) is (.+), but the move gives (.+)$/.exec(text);
    const why = details
      ? `the file's note on this move (${details[1]} ${details[2]}) is not what the move does (${details[1]} ${details[3]}): the file was edited`
      : text;
    return { ok: false, error: `ply ${replayed.turn} (${turnName(game, turn.side, turn as unknown as Record<string, unknown>)}): ${why}` };
  }
  if (replayed.turn === 0) return { ok: false, error: `its header does not check: ${replayed.message}` };
  // The moves are sound, the result is not: keep the moves, drop the claim.
  const { end: claimed, ...moves } = record;
  const droppedEnd = `the file says ${claimedResult(game, claimed as unknown as Record<string, unknown>)}, but ${endInWords(game, replayed.message)}`;
  return { ok: true, game, record: moves, states, droppedEnd };
}

/** The server's gate for Load and for a page restoring its game: the history to play on from and the rest for redo. */
export function loadRecord(input: unknown, ply: number | undefined): Loaded {
  const checked = checkRecord(input);
  if (!checked.ok) return { ok: false, error: `the record does not load: ${checked.error}` };
  if (checked.droppedEnd) return { ok: false, error: `the record does not load: its result was edited (${checked.droppedEnd})` };
  const record = checked.record as GameRecord;
  const turns = record.turns;
  const at = ply === undefined ? turns.length : Math.min(ply, turns.length);
  // Illegal attempts, outputs and timings of the original stay with the turns: the saved record stays replayable.
  return { ok: true, game: checked.game, record, history: turns.slice(0, at), future: turns.slice(at) };
}
