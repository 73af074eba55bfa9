/**
 * Which rule decided a game, in one line, for `referee play --explain` and `referee replay`: the rule a forced
 * loss names in its record (ForfeitRecord.rule), 'Q' under quitEndsGame, or the board.
 */
import type { GameRecord } from './record.js';
import { VERDICT_DESCRIPTIONS } from './verdict.js';

export function explainEnd(record: GameRecord, sideNames: readonly [string, string] = ['Black', 'White']): string {
  const { end, players } = record;
  const who = (side: 0 | 1): string => `${players[side]} (${sideNames[side]})`;
  const winner = end.winner === null ? 'a draw' : `${who(end.winner)} wins`;
  if (end.reason === 'score') return `${winner} on the board (${end.score?.join('-') ?? ''}): the game ended by its own rules`;
  if (end.reason === 'quit') {
    return `${winner}: ${who(end.quitBy ?? 0)} answered 'Q' and quitEndsGame is on, so the count decided (${end.score?.join('-') ?? ''})`;
  }
  if (end.reason === 'resign') return `${winner}: ${who(end.resignedBy ?? 0)} resigned at ply ${record.turns.length + 1}`;
  const loser = end.loser;
  if (!loser) return `${winner} by ${end.reason}`;
  const loading = loser.phase === 'start' && /^loadTimeoutMs/.test(loser.rule ?? '');
  const when = loading ? 'while being loaded' : loser.phase === 'start' ? 'while being built' : `at ply ${record.turns.length + 1}`;
  const rule = loser.rule ?? VERDICT_DESCRIPTIONS[loser.verdict];
  return `${winner}: ${who(loser.side)} lost by ${loser.verdict} ${when} — rule: ${rule} — ${loser.message}`;
}
