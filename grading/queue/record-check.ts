/**
 * A record from the queue is checked against the job the coordinator sent, not just for shape: the same game,
 * seed, rules and opening, the players named as the job names them, each student's seat played inside the sandbox
 * (an isolation record) and each reference seat by the trusted in-process AI (none), and every move legal on
 * replay. A worker bug or a stale build cannot then put a reference AI in a student's seat.
 */
import { getGame } from '../../harness/games/registry.js';
import { configForGame } from '../../harness/referee/config.js';
import type { GameRecord } from '../../harness/referee/record.js';
import { replayRecord } from '../../harness/referee/replay.js';
import { canonicalJson } from '../assignment.js';
import type { GameJob } from '../pool/job.js';

/** Why `record` is not a faithful record of `job` (one line), or null when it is. */
export function recordMismatch(job: GameJob, record: GameRecord): string | null {
  const replay = replayRecord(record, getGame);
  if (!replay.ok) return `it does not replay (turn ${replay.turn}: ${replay.message})`;
  if (record.game !== job.game) return `it is a ${record.game} game, the job a ${job.game} game`;
  if (record.seed !== job.seed) return `its seed is ${record.seed}, the job's ${job.seed}`;
  const game = getGame(job.game);
  if (canonicalJson(record.config) !== canonicalJson(configForGame(game, job.config))) return 'its rules are not the job’s';
  for (const side of [0, 1] as const) {
    const spec = job.players[side];
    if (record.players[side] !== spec.name) return `seat ${side} is ${JSON.stringify(record.players[side])}, the job names ${JSON.stringify(spec.name)}`;
    const isolation = record.isolation?.[side];
    if (spec.kind === 'artefact' && !isolation) return `${spec.name}'s seat was not played by a sandboxed submission`;
    if (spec.kind === 'reference' && isolation) return `${spec.name}'s seat was played by a sandboxed program, not the reference AI`;
  }
  const opening = job.opening ?? [];
  const played = record.turns.filter((turn) => turn.kind === 'move').slice(0, opening.length).map((turn) => turn.move);
  if (opening.some((move, index) => played[index] !== move)) return 'its first moves are not the job’s opening';
  return null;
}
