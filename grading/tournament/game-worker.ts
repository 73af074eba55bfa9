/**
 * A tournament game worker (forked by local-pool.ts): plays the jobs it is sent one at a time, keeping the most
 * recently used players warm (a sandboxed submission is one process, reused across its games). It dies with its
 * parent, taking its sandboxes with it.
 */
import { processTree, signalPids } from '../../harness/sandbox/process-tree.js';
import type { Player } from '../../harness/referee/player.js';
import { playJob, type GameJob } from './game-job.js';
import { createPlayer, type ParticipantSpec } from './participants.js';

export type ToGameWorker = { type: 'play'; job: GameJob };
export type FromGameWorker =
  | { type: 'ready' }
  | { type: 'played'; key: string; record: unknown; wallMs: number }
  | { type: 'failed'; key: string; message: string };

/** Players kept per worker: enough for a round's opponents, few enough to bound memory with hundreds of students. */
const WARM_PLAYERS = 8;
const warm = new Map<string, Player>();

async function playerFor(spec: ParticipantSpec, game: string): Promise<Player> {
  const key = `${spec.id}\u0000${spec.hash}`;
  const found = warm.get(key);
  if (found) {
    warm.delete(key);
    warm.set(key, found);
    return found;
  }
  const player = await createPlayer(spec, game);
  warm.set(key, player);
  while (warm.size > WARM_PLAYERS) {
    const [oldestKey, oldest] = warm.entries().next().value as [string, Player];
    warm.delete(oldestKey);
    void oldest.close();
  }
  return player;
}

const send = (message: FromGameWorker): void => {
  process.send?.(message);
};

function shutDown(code: number): never {
  signalPids(processTree(process.pid).slice(1), 'SIGKILL');
  process.exit(code);
}

process.on('message', (message: ToGameWorker) => {
  if (message.type !== 'play') return;
  const { job } = message;
  playJob(job, (spec) => playerFor(spec, job.game)).then(
    (played) => send({ type: 'played', key: job.key, record: played.record, wallMs: played.wallMs }),
    (error: unknown) => send({ type: 'failed', key: job.key, message: error instanceof Error ? error.message : String(error) }),
  );
});
process.on('SIGINT', () => undefined);
process.on('SIGTERM', () => shutDown(0));
process.on('disconnect', () => shutDown(0));
send({ type: 'ready' });
