/**
 * The one game runner behind every pool: a job's two player specs become Players (kept warm between jobs: a
 * sandbox starts once per submission per worker, not once per game) and the referee plays the game. The
 * in-process pool, the forked workers and the queue workers all call playJob; only where it runs differs.
 */
import { performance } from 'node:perf_hooks';
import { getGame } from '../../harness/games/registry.js';
import { InProcessPlayer } from '../../harness/referee/in-process.js';
import { playGame, playGameUnstalled } from '../../harness/referee/match.js';
import type { Player } from '../../harness/referee/player.js';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BotzonePlayer } from '../../harness/sandbox/botzone-player.js';
import { findJava, noJava } from '../../harness/sandbox/java-runtime.js';
import { SandboxPlayer } from '../../harness/sandbox/sandbox-player.js';
import { referenceAgentByName } from '../../reference-ai/budget.js';
import { canonicalJson } from '../assignment.js';
import { openingBook, withBook, withRandomOpening } from '../opening.js';
import { BOTZONE_TRAITS_FILE, cachedArtefact } from './artefact.js';
import { PoolWorkerError, PROGRESS_EVERY_MS, type GameJob, type GameProgress, type PlayerSpec } from './job.js';
import { ProgressReporter } from './progress.js';

/** Makes the Player for a spec; the provider below keeps it warm. */
export type PlayerFactory = (spec: PlayerSpec, game: string) => Promise<Player>;

/** Players from the local artefact cache (sandboxed) and the reference-AI registry (in-process). */
export const cachedPlayers =
  (artefactDir: (hash: string) => string | null = cachedArtefact): PlayerFactory =>
  async (spec, game) => {
    if (spec.kind === 'reference') {
      return new InProcessPlayer(spec.name, withRandomOpening(referenceAgentByName(game, spec.ai), spec.openingMoves), getGame);
    }
    const dir = artefactDir(spec.artefact);
    if (!dir) throw new PoolWorkerError(`the compiled submission ${spec.artefact.slice(0, 12)} is not in this worker's cache`);
    if (spec.runtime === 'botzone') return botzoneArtefactPlayer(spec.name, dir, spec.entry, game);
    return new SandboxPlayer({ name: spec.name, bundlePath: `${dir}/${spec.entry}`, submissionRoot: dir, game, runtime: spec.runtime });
  };

/** A Botzone artefact's botzone.json (written by buildArtefact, hash-checked): its language and how it talks. */
function botzoneTraits(dir: string): { language?: unknown; interaction?: unknown; keepRunning?: unknown } {
  try {
    return JSON.parse(readFileSync(join(dir, BOTZONE_TRAITS_FILE), 'utf8')) as { language?: unknown; interaction?: unknown; keepRunning?: unknown };
  } catch (error) {
    throw new PoolWorkerError(`the Botzone artefact in ${dir} has no readable ${BOTZONE_TRAITS_FILE}: ${(error as Error).message}`);
  }
}

/**
 * Why this machine cannot run the player of `spec` (a Java bot where no JDK is), or null: asked before a game
 * starts, so a queue worker without a JDK refuses the game in one line, and it is played on a worker with one.
 */
export function missingRuntime(spec: PlayerSpec, artefactDir: (hash: string) => string | null = cachedArtefact): string | null {
  if (spec.kind !== 'artefact' || spec.runtime !== 'botzone') return null;
  const dir = artefactDir(spec.artefact);
  if (!dir || botzoneTraits(dir).language !== 'Java' || findJava()) return null;
  return `${spec.name} is a Java Botzone bot: ${noJava()}`;
}

/** A Botzone bot from its artefact folder; its botzone.json says how it talks. */
function botzoneArtefactPlayer(name: string, dir: string, entry: string, game: string): Player {
  const traits = botzoneTraits(dir);
  const language = traits.language === 'Python' || traits.language === 'JavaScript' || traits.language === 'Java' ? traits.language : 'C++';
  const interaction = traits.interaction === 'simple' ? 'simple' : 'json';
  const files = language === 'Python' || language === 'Java' ? artefactFiles(dir) : undefined;
  return new BotzonePlayer({ name, bundlePath: join(dir, entry), submissionRoot: dir, ...(files ? { files } : {}), language, interaction, keepRunning: traits.keepRunning === true, game });
}

/** Every file of an artefact folder but its own bookkeeping (a Python bot's modules). */
function artefactFiles(dir: string): string[] {
  const found: string[] = [];
  const walk = (folder: string): void => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.isFile() && entry.name !== '.complete' && entry.name !== BOTZONE_TRAITS_FILE) found.push(path);
    }
  };
  walk(dir);
  return found;
}

/** Idle players by spec, most recently used last; at most `keep` idle ones stay alive. */
export class PlayerProvider {
  private readonly idle: { key: string; player: Player }[] = [];

  constructor(
    private readonly factory: PlayerFactory,
    private readonly keep = 6,
  ) {}

  async acquire(spec: PlayerSpec, game: string): Promise<{ key: string; player: Player }> {
    const key = canonicalJson({ game, spec });
    const found = this.idle.findIndex((entry) => entry.key === key);
    if (found >= 0) return this.idle.splice(found, 1)[0];
    return { key, player: await this.factory(spec, game) };
  }

  private closed = false;

  release(entry: { key: string; player: Player }): void {
    // Released after close (a game that was in play): closed at once, not kept for a next game that never comes.
    if (this.closed) {
      void entry.player.close().catch(() => undefined);
      return;
    }
    this.idle.push(entry);
    while (this.idle.length > this.keep) void this.idle.shift()!.player.close().catch(() => undefined);
  }

  async close(): Promise<void> {
    this.closed = true;
    const players = this.idle.splice(0);
    await Promise.allSettled(players.map((entry) => entry.player.close()));
  }
}

export interface PlayJobOptions {
  /** The game so far, as it is played (see PlayOptions.onProgress). */
  onProgress?: (progress: GameProgress) => void;
  /** Default PROGRESS_EVERY_MS. */
  progressEveryMs?: number;
}

/** Play one job to its record. A failure to build a player from its spec is the grader's (PoolWorkerError). */
export async function playJob(
  job: GameJob,
  players: PlayerProvider,
  options: PlayJobOptions = {},
): Promise<{ record: Awaited<ReturnType<typeof playGame>>; wallMs: number }> {
  const game = getGame(job.game);
  const taken: { key: string; player: Player }[] = [];
  const reporting: { reporter: ProgressReporter | null } = { reporter: null };
  try {
    for (const spec of job.players) {
      try {
        taken.push(await players.acquire(spec, job.game));
      } catch (error) {
        if (error instanceof PoolWorkerError) throw error;
        throw new PoolWorkerError(`could not set up ${spec.name}: ${(error as Error).message}`);
      }
    }
    const started = performance.now();
    const { book } = openingBook(game, job.seed, job.opening ?? []);
    const [black, white] = taken.map((entry) => withBook(entry.player, book));
    // A game whose move the grader's machine stalled is played again from its start: watchers see it start afresh.
    const record = await playGameUnstalled(() => {
      reporting.reporter?.stop();
      const reporter = options.onProgress ? new ProgressReporter(job, options.onProgress, options.progressEveryMs ?? PROGRESS_EVERY_MS) : null;
      reporting.reporter = reporter;
      return playGame({ game, black, white, seed: job.seed, config: job.config, onTurn: reporter ? (turn) => reporter.turn(turn) : undefined });
    });
    return { record, wallMs: Math.round(performance.now() - started) };
  } finally {
    reporting.reporter?.stop();
    for (const entry of taken) players.release(entry);
  }
}
