/**
 * The seam between the tournament and whatever plays its games: a GameJob is plain JSON (it can cross a fork
 * channel or a job queue), and a GameRunner turns jobs into GameRecords. The local runner (local-pool.ts) forks
 * worker processes; a distributed queue is another GameRunner behind the same two methods.
 */
import { getGame } from '../../harness/games/registry.js';
import type { RefereeConfig } from '../../harness/referee/config.js';
import { playGame } from '../../harness/referee/match.js';
import type { Player } from '../../harness/referee/player.js';
import type { GameRecord } from '../../harness/referee/record.js';
import { openingBook, withBook } from './openings.js';
import type { ParticipantSpec } from './participants.js';

export interface GameJob {
  /** The journal key: everything that decides the game (see runner.ts). */
  key: string;
  game: string;
  referee: RefereeConfig;
  seed: number;
  /** [Black, White]. */
  players: [ParticipantSpec, ParticipantSpec];
  /** Book moves from the start position, played before either side is asked. */
  opening: string[];
}

export interface PlayedGame {
  record: GameRecord;
  wallMs: number;
}

export interface GameRunner {
  /** Play one job. Rejects only for a failure of the grader (a dead worker), never for a player's failure. */
  play(job: GameJob): Promise<PlayedGame>;
  /** Stop: jobs in flight are dropped (they reject), workers are killed. */
  close(): Promise<void>;
}

/** Play one job with the given players (kept warm by the caller across jobs). */
export async function playJob(job: GameJob, playerFor: (spec: ParticipantSpec) => Promise<Player>): Promise<PlayedGame> {
  const game = getGame(job.game);
  const { book } = openingBook(game, job.seed, job.opening);
  const [black, white] = await Promise.all(job.players.map(playerFor));
  const started = performance.now();
  const record = await playGame({ game, black: withBook(black, book), white: withBook(white, book), seed: job.seed, config: job.referee });
  return { record, wallMs: Math.round(performance.now() - started) };
}
