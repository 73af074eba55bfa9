/**
 * Shared helpers for the sandbox and Python tests: build a fixture (optionally with placeholders filled in),
 * start it behind the sandbox, play one move, and look for leftovers (processes, files) afterwards.
 */
import { createServer, type Server } from 'node:net';
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { getGame } from '../../harness/games/registry.js';
import type { MoveInfo, PlayerAnswer } from '../../harness/referee/player.js';
import { SandboxPlayer, type SandboxOptions } from '../../harness/sandbox/sandbox-player.js';
import { compileSubmission } from '../../harness/submission/compile.js';
import { resolveSubmission } from '../../harness/submission/resolve.js';
import { seedCache } from '../setup/suite-cache.js';

export const reversi = getGame('reversi');
export const HOSTILE = resolve('tests/fixtures/hostile');
export const SUBMISSIONS = resolve('tests/fixtures/submissions');

const scratchDirs: string[] = [];
afterAll(() => {
  for (const dir of scratchDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A world-readable scratch folder (the sandboxed child runs as uid nobody), removed after the test file. */
export function scratch(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), `referee-${prefix}-`));
  chmodSync(dir, 0o755);
  scratchDirs.push(dir);
  return dir;
}

/**
 * Use a private cache for this test file, so its bundles land there; it starts with the suite's shared runtime
 * (host bundle, launcher, type-check snapshot, C++ host: tests/setup/suite-cache.ts) rather than building it again.
 */
export function isolateCache(): string {
  const dir = seedCache(scratch('cache'));
  process.env.REFEREE_CACHE_DIR = dir;
  return dir;
}

/** The fixture `name` of `folder`; placeholders like __PORT__ are replaced in a copy in a scratch folder. */
export function filledFixture(folder: string, name: string, fill: Record<string, string>, scratchPrefix: string): string {
  const source = join(folder, name);
  if (Object.keys(fill).length === 0) return source;
  let text = readFileSync(source, 'utf8');
  for (const [key, value] of Object.entries(fill)) text = text.split(key).join(value);
  const path = join(scratch(scratchPrefix), basename(name));
  writeFileSync(path, text, { mode: 0o644 });
  return path;
}

/** A hostile fixture as a submission, placeholders filled in as by `filledFixture`. */
export function fixture(name: string, fill: Record<string, string> = {}): string {
  return filledFixture(HOSTILE, name, fill, 'fixture');
}

/** The player and the tag its processes' command lines carry (as `bundle` and `entry`, for leftover checks). */
export async function sandboxed(
  path: string,
  options: Partial<SandboxOptions> = {},
): Promise<{ player: SandboxPlayer; bundle: string; entry: string }> {
  const submission = resolveSubmission(path);
  const compiled = await compileSubmission(submission);
  const player = new SandboxPlayer({
    name: basename(path),
    bundlePath: compiled.bundlePath,
    submissionRoot: submission.root,
    game: 'reversi',
    ...options,
  });
  // The child runs a private staged copy whose path carries the player's tag: that finds its processes.
  return { player, bundle: player.processTag, entry: player.processTag };
}

/**
 * The built-ins the OS-layer fixtures reach for. The run-time import boundary (child/boundary.ts) refuses them
 * unless the assignment allows them, so these tests allow them, as an assignment may: what must hold then is the
 * next layer (Node's permission model, bubblewrap, seccomp, cgroups). trust.test.ts tests the boundary itself.
 */
export const OS_LAYER_IMPORTS = ['fs', 'net', 'child_process', 'worker_threads'];

/** One hostile fixture and the verdict it must get. */
export interface HostileCase {
  name: string;
  file: string;
  /** Placeholders to fill in the fixture, made when the case runs. */
  fill?: () => Record<string, string>;
  phase: 'start' | 'move';
  kind: PlayerAnswer['kind'];
  /** Extra expectations on the answer. */
  also?: (answer: PlayerAnswer) => void;
  limitMs?: number;
  memoryMb?: number;
}

export function moveInfo(timeLimitMs: number, color = 'X'): MoveInfo {
  return { color, timeLimitMs, moveNumber: 1, timeUsedMs: 0, attempt: 1, attemptsAllowed: 3, lastMove: null };
}

/** Start a game as Black at the opening and ask for one move; the construction answer if that fails. */
export async function playOpening(player: SandboxPlayer, timeLimitMs: number): Promise<{ phase: 'start' | 'move'; answer: PlayerAnswer }> {
  const state = reversi.encode(reversi.initial(1));
  const ready = await player.startGame({ game: 'reversi', side: 0, seed: 1, initialState: state, timeLimitMs });
  if (ready.kind !== 'ready') return { phase: 'start', answer: ready };
  return { phase: 'move', answer: await player.requestMove({ state, info: moveInfo(timeLimitMs) }) };
}

export function isLegalOpening(value: unknown): boolean {
  const initial = reversi.initial(1);
  return reversi.legalMoves(initial).some((move: unknown) => reversi.formatMove(move) === value);
}

/** Pids of live processes whose command line mentions `needle` (a bundle path is unique to one submission). */
export function processesMentioning(needle: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z')) continue;
      if (readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes(needle)) found.push(Number(entry));
    } catch {
      // gone while we looked
    }
  }
  return found;
}

/**
 * A TCP listener on loopback for this test file, open from beforeAll to afterAll, that records every connection
 * and every byte received: a sandboxed player must never reach it.
 */
export function loopbackListener(): { port(): number; received: string[] } {
  let listener: Server;
  let port = 0;
  const received: string[] = [];
  beforeAll(async () => {
    listener = createServer((socket) => {
      received.push('connection');
      socket.on('data', (data) => received.push(String(data)));
    });
    await new Promise<void>((done) => listener.listen(0, '127.0.0.1', done));
    port = (listener.address() as { port: number }).port;
  });
  afterAll(async () => {
    await new Promise((done) => listener.close(done));
  });
  return { port: () => port, received };
}

/** A listing of the folders a submission could try to write to, to compare before and after. */
export function listing(dirs: string[]): string[] {
  return dirs.flatMap((dir) => {
    try {
      return readdirSync(dir).map((name) => join(dir, name));
    } catch {
      return [];
    }
  }).sort();
}

/**
 * Lists the folders a hostile case might write to (`folders`, the machine's temp folder, the working folder and
 * the private `cache`); the check it returns, run after the player closed, expects no live process mentioning
 * `needle` and no new file there outside the cache. The temp folder also receives other test files' scratch
 * folders (jest runs files in parallel), so there only what a fixture would name counts: every target the
 * fixtures try contains 'pwned'.
 */
export function watchLeftovers(folders: string[], cache: string): (needle: string) => void {
  const shared = tmpdir();
  const watched = [...folders, shared, process.cwd(), cache];
  const before = listing(watched);
  return (needle) => {
    expect(processesMentioning(needle)).toEqual([]);
    const appeared = listing(watched).filter((file) => !before.includes(file) && !file.startsWith(cache));
    expect(appeared.filter((file) => dirname(file) !== shared || file.includes('pwned'))).toEqual([]);
  };
}
