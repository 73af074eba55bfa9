/**
 * Issue #28's queue attacks, by a Redis client that has the password but not the queue's key file, against a real
 * redis-server, `referee batch --queue` and `referee worker` as subprocesses:
 *   - the waiting jobs rewritten: a student's artefact replaced by a classmate's, the reference seat by `random`;
 *   - a forged worker heartbeat (it would hide "no worker connected");
 *   - a job with no coordinator, and one naming a ghost coordinator with a forged lease;
 *   - a job's lock taken and held forever (a BullMQ worker that never finishes).
 * The same run is made twice: with the checks (every grade equals the local batch's, each attack is named in one
 * line), and as the control with them off (REFEREE_TEST_QUEUE_UNSIGNED_JOBS=1 and no practical deadline), where
 * the rewrite changes the student's grade, the ghost job is played, the heartbeat hides the warning and the held
 * game stays held: so the first run's outcome is the checks' doing.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { Queue, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { harnessVersion } from '../../grading/package-root.js';
import { queueName } from '../../grading/queue/connection.js';
import { tempDir } from '../batch/helpers.js';
import { Cli, freePort, makeQueueClass, RedisServer, sleep, startWorker, writeQueueConfig } from './helpers.js';

let redis: RedisServer;
beforeAll(async () => {
  redis = new RedisServer(await freePort());
  await redis.start();
});
afterAll(async () => {
  await redis.stop();
});

const QUEUE = queueName(harnessVersion());
const ids = ['zalice', 'zbob'];
const classDir = makeQueueClass(ids);
const config = writeQueueConfig(900);
const GAMES = 8; // 2 students x (2 random + 2 greedy)

type Data = { key: string; label: string; players: { kind: string; name: string; ai?: string; artefact?: string }[] };

/** The attacker: only the password (no key file), as a student with a leaked password would be. */
function attacker(): { queue: Queue; raw: Redis } {
  const queue = new Queue(QUEUE, { connection: { url: redis.adminUrl }, prefix: 'referee' });
  queue.on('error', () => undefined);
  return { queue, raw: new Redis(redis.adminUrl) };
}

async function until<T>(check: () => Promise<T | null | false> | T | null | false, what: string, timeoutMs = 120_000): Promise<T> {
  for (let waited = 0; waited < timeoutMs; waited += 100) {
    const value = await check();
    if (value) return value;
    await sleep(100);
  }
  throw new Error(`never: ${what}`);
}

/** A grade without what differs between runs (timings). */
function grade(outDir: string, student: string): unknown {
  const result = JSON.parse(readFileSync(join(outDir, 'students', student, 'grade.json'), 'utf8')) as { games: unknown; score: number };
  const strip = (value: unknown): unknown =>
    Array.isArray(value)
      ? value.map(strip)
      : value && typeof value === 'object'
        ? Object.fromEntries(Object.entries(value).filter(([key]) => !['wallMs', 'cpuMs', 'loadMs'].includes(key)).map(([key, inner]) => [key, strip(inner)]))
        : value;
  return strip({ games: result.games, score: result.score });
}

interface Run {
  out: string;
  coordinator: Cli;
  worker: Cli;
  exit: { code: number | null };
  thiefHeldAfter: boolean;
}

/** One queued batch under every attack; `checks` false is the control. */
async function attackedRun(checks: boolean): Promise<Run> {
  const { queue, raw } = attacker();
  await raw.flushall();
  const off: Record<string, string> = checks ? {} : { REFEREE_TEST_QUEUE_UNSIGNED_JOBS: '1' };
  // A heartbeat written without the key, before the coordinator looks for workers.
  await raw.set('referee:workers:ghost-worker', JSON.stringify({ name: 'ghost-worker', harness: harnessVersion(), concurrency: 8, at: Date.now() }), 'EX', 600);
  const out = join(tempDir('qattack'), checks ? 'checked' : 'control');
  const coordinator = new Cli(['batch', classDir, '--config', config, '--out', out, '--quiet', '--queue', redis.url, '--jobs', '2'], {
    ...off,
    REFEREE_QUEUE_GAME_DEADLINE_MS: checks ? '6000' : '3600000',
  });
  let thief: Worker | null = null;
  let worker: Cli | null = null;
  try {
    // Every game waiting, no worker yet: the attacker rewrites them.
    const waiting = await until(async () => {
      const jobs = await queue.getJobs(['prioritized', 'waiting']);
      return jobs.length >= GAMES ? jobs : null;
    }, 'all games waiting');
    const data = waiting.map((job) => job.data as Data);
    const bobArtefact = data.flatMap((each) => each.players).find((player) => player.name === 'zbob' && player.artefact)?.artefact;
    expect(bobArtefact).toMatch(/^[0-9a-f]{64}$/);
    for (const job of waiting) {
      const players = (job.data as Data).players.map((player) =>
        player.name === 'zalice' ? { ...player, artefact: bobArtefact } : player.kind === 'reference' ? { ...player, ai: 'random' } : player,
      );
      await raw.hset(`referee:${QUEUE}:${job.id}`, 'data', JSON.stringify({ ...job.data, players }));
    }
    // The thief takes one game and holds its lock forever (BullMQ renews it).
    let held: string | null = null;
    thief = new Worker(QUEUE, async (job) => {
      held = String(job.id);
      await new Promise(() => undefined);
    }, { connection: { url: redis.adminUrl }, prefix: 'referee', name: 'thief', concurrency: 1, lockDuration: 3000 });
    thief.on('error', () => undefined);
    const heldId = await until(() => held, 'the thief holding a game');

    // Two jobs nobody signed: one names no coordinator, one a ghost coordinator with a forged lease.
    const rules = { moveTimeoutMs: 1000, turnTimeoutMs: 1000, illegalMoveLimit: 3, constructTimeoutMs: 1000, tamperLoses: true, forcedLossDiff: 0, quitEndsGame: false };
    const forged = { key: 'forged-ghost', harness: harnessVersion(), game: 'reversi', config: rules, seed: 3, label: 'ghost vs nobody', players: [{ kind: 'reference', name: 'a', ai: 'random', openingMoves: 0 }, { kind: 'reference', name: 'b', ai: 'greedy', openingMoves: 0 }] };
    await queue.add('game', forged, { jobId: 'forged-nocoordinator', priority: 1 });
    await raw.set('referee:coordinators:ghost:1:ff', JSON.stringify({ coordinator: 'ghost:1:ff', until: Date.now() + 600_000, signature: 'f'.repeat(64) }), 'EX', 600);
    await queue.add('game', { ...forged, coordinator: 'ghost:1:ff', signature: 'e'.repeat(64) }, { jobId: 'forged-ghost', priority: 1 });
    if (checks) expect(await until(() => /no referee worker of harness \S+ is connected/.test(coordinator.stderr), 'the no-worker warning despite the forged heartbeat')).toBe(true);
    else await sleep(2500); // the coordinator's worker check (every poll while games wait) has looked at the forged beat

    worker = startWorker(redis.url, 'honest', off);
    let thiefHeldAfter = false;
    if (!checks) {
      // Control: the honest worker plays everything else; the held game stays held past the checked run's deadline.
      await until(() => (worker!.stdout.match(/\] played z/g) ?? []).length >= GAMES - 1, 'the other games played');
      await sleep(8000);
      thiefHeldAfter = (await queue.getJobState(heldId)) === 'active' && coordinator.process.exitCode === null;
      await thief.close(true); // let it go: its lock lapses and the honest worker replays it
      thief = null;
    }
    const exit = await coordinator.exited;
    return { out, coordinator, worker, exit, thiefHeldAfter };
  } finally {
    await thief?.close(true).catch(() => undefined);
    await worker?.stop();
    await coordinator.stop();
    await queue.close();
    raw.disconnect();
  }
}

describe('a Redis client with the password but not the key', () => {
  let local: string;
  beforeAll(async () => {
    local = join(tempDir('qattack-local'), 'local');
    const run = new Cli(['batch', classDir, '--config', config, '--out', local, '--quiet', '--jobs', '2']);
    expect((await run.exited).code).toBe(0);
  });

  test('rewrites jobs, forges a heartbeat, a lease and ghost jobs, holds a lock: no grade changes, each is named', async () => {
    const run = await attackedRun(true);
    expect({ exit: run.exit.code, stderr: run.coordinator.stderr }).toMatchObject({ exit: 0 });
    for (const id of ids) expect(grade(run.out, id)).toEqual(grade(local, id));
    // The worker refused the rewritten and forged jobs and played none of them.
    expect(run.worker.stdout).toMatch(/refused job \S+: job refused: its signature does not verify/);
    expect(run.worker.stdout).toMatch(/refused job forged-nocoordinator: job refused: .*coordinator/);
    expect(run.worker.stdout).toMatch(/refused job forged-ghost: job refused: its signature does not verify/);
    expect(run.worker.stdout).not.toMatch(/playing ghost vs nobody/);
    // The held game was taken back at its deadline and played by the honest worker.
    expect(run.coordinator.stderr).toMatch(/thief held zalice vs \S+ #\d+ past its deadline|thief held zbob vs \S+ #\d+ past its deadline/);
  }, 300_000);

  test('control, with the checks off: the same attacks change the grade, play the ghost job, hide the warning, stall the game', async () => {
    const run = await attackedRun(false);
    expect(run.exit.code).toBe(0);
    expect(grade(run.out, 'zalice')).not.toEqual(grade(local, 'zalice'));
    expect(run.worker.stdout).toMatch(/playing ghost vs nobody/);
    expect(run.coordinator.stderr).not.toMatch(/no referee worker/);
    expect(run.thiefHeldAfter).toBe(true);
  }, 300_000);
});
