/**
 * A forked game worker (grading/batch/pool.ts starts them): plays the jobs it is sent, one game at a time,
 * through the same runner as a queue worker (grading/pool/play.ts), players kept warm between games. It dies
 * with its parent, taking its sandboxes with it, so a batch killed with kill -9 leaves nothing running.
 */
import { processTree, signalPids } from '../../harness/sandbox/process-tree.js';
import { harnessVersion } from '../package-root.js';
import { cachedPlayers, playJob, PlayerProvider } from '../pool/play.js';
import type { FromWorker, ToWorker } from './worker-protocol.js';

const players = new PlayerProvider(cachedPlayers());

const send = (message: FromWorker): void => {
  // Stopping: a game cut short by the kill of its players is no result (never a student's crash).
  if (stopping) return;
  process.send?.(message);
};

/** How long a stopping worker waits for its players' cgroups to go (the pool SIGKILLs it after 3 s). */
const SHUTDOWN_GRACE_MS = 2_000;
let stopping = false;

/**
 * Kill every process this worker started (sandboxes, frozen or not), let the warm players remove their cgroups
 * (bounded: a group still busy is swept by the next grader's start), then exit.
 */
function shutDown(code: number): void {
  if (stopping) return;
  stopping = true;
  signalPids(processTree(process.pid).slice(1), 'SIGKILL');
  setTimeout(() => process.exit(code), SHUTDOWN_GRACE_MS).unref();
  // A game in play ends at once (its players were just killed) and hands its players back to be closed.
  void Promise.allSettled([...inPlay])
    .then(() => players.close())
    .finally(() => process.exit(code));
}

/** The games this worker is playing (shutDown lets them end before it closes the players). */
const inPlay = new Set<Promise<unknown>>();

process.on('message', (message: ToWorker) => {
  const { job } = message;
  if (job.harness !== harnessVersion()) {
    send({ type: 'failed', key: job.key, message: `this worker runs harness ${harnessVersion()}, the job wants ${job.harness}` });
    return;
  }
  const played = playJob(job, players, { onProgress: (progress) => send({ type: 'progress', key: job.key, progress }) });
  inPlay.add(played);
  void played.finally(() => inPlay.delete(played)).catch(() => undefined);
  played.then(
    ({ record, wallMs }) => send({ type: 'played', key: job.key, record, wallMs }),
    (error: unknown) => send({ type: 'failed', key: job.key, message: (error as Error).message }),
  );
});
// Ctrl-C reaches the whole foreground process group: the pool decides what stops, not each worker.
process.on('SIGINT', () => undefined);
process.on('SIGTERM', () => shutDown(0));
process.on('disconnect', () => shutDown(0));
send({ type: 'ready' });
