/**
 * A real redis-server for the queue tests (its own free port and temp dir, stopped afterwards), the CLI as
 * subprocesses (coordinator and workers), and small classes of fast students.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll } from '@jest/globals';
import { Redis } from 'ioredis';
import { BATCH_JOURNAL_FILE, BatchJournal } from '../../grading/batch/journal-db.js';
import { packageFile } from '../../grading/package-root.js';
import { tempDir, TINY_ASSIGNMENT_JSON } from '../batch/helpers.js';
import { stopAfterwards } from '../setup/children.js';

/** The queue's key file for every CLI these tests start (results are signed with it). */
export const KEY_FILE = join(tempDir('qkey'), 'queue.key');
writeFileSync(KEY_FILE, `${'k'.repeat(64)}\n`, { mode: 0o600 });

/** Every redis-server of these tests has this password; CLIs get it from the environment, never argv. */
export const REDIS_PASSWORD = `pw-${process.pid}-${Date.now()}`;

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** redis-server with the persistence README recommends (appendonly, fsync on every write). */
export class RedisServer {
  private process: ChildProcess | null = null;
  readonly dir = tempDir('redis');

  /** A password is required (as README asks of any Redis reachable from other machines). */
  readonly password = REDIS_PASSWORD;

  /** With `tls`, Redis speaks only TLS (rediss://) with this certificate and key (PEM files). */
  constructor(
    private listenPort: number,
    private readonly tls?: { cert: string; key: string },
  ) {}

  get port(): number {
    return this.listenPort;
  }

  /** Whether it has answered once: from then on its port is fixed (a restart mid-run keeps the CLIs' URL). */
  private answered = false;

  /** The URL the CLIs get (the password reaches them through REFEREE_REDIS_PASSWORD). */
  get url(): string {
    return `${this.tls ? 'rediss' : 'redis'}://127.0.0.1:${this.port}/0`;
  }

  /** The URL with the password, for this test process's own clients. */
  get adminUrl(): string {
    return `${this.tls ? 'rediss' : 'redis'}://:${this.password}@127.0.0.1:${this.port}/0`;
  }

  /**
   * Starts it and waits until it answers. The port was free when chosen but bound only now: should another jest
   * worker's connection have taken it meanwhile, redis-server exits at once and the first start takes another port.
   */
  async start(): Promise<void> {
    for (let attempt = 1; !(await this.launch()); attempt++) {
      if (this.answered || attempt === 3) throw new Error(`redis-server could not listen on port ${this.port} (it exited at once)`);
      this.listenPort = await freePort();
    }
    this.answered = true;
  }

  /** false if redis-server exited before it answered. */
  private async launch(): Promise<boolean> {
    const listen = this.tls
      ? ['--port', '0', '--tls-port', String(this.port), '--tls-cert-file', this.tls.cert, '--tls-key-file', this.tls.key, '--tls-ca-cert-file', this.tls.cert, '--tls-auth-clients', 'no']
      : ['--port', String(this.port)];
    const child = spawn(
      'redis-server',
      [...listen, '--bind', '127.0.0.1', '--dir', this.dir, '--appendonly', 'yes', '--appendfsync', 'always', '--save', '', '--daemonize', 'no', '--requirepass', this.password],
      { stdio: 'ignore' },
    );
    this.process = child;
    stopAfterwards(child, 'file');
    // Until it answers or exits, however long a loaded machine takes to start it (a hang is the test's timeout).
    for (;;) {
      if (child.exitCode !== null || child.signalCode !== null) return false;
      const probe = new Redis(this.adminUrl, { lazyConnect: true, retryStrategy: () => null, maxRetriesPerRequest: 0, ...(this.tls ? { tls: { ca: readFileSync(this.tls.cert) } } : {}) });
      probe.on('error', () => undefined);
      try {
        await probe.connect();
        await probe.ping();
        return true;
      } catch {
        await sleep(100);
      } finally {
        probe.disconnect();
      }
    }
  }

  /** SIGTERM (Redis syncs its append-only file and exits) and wait for the exit. */
  /** SIGSTOP / SIGCONT: a Redis that stops answering without closing its sockets. */
  freeze(): void {
    this.process?.kill('SIGSTOP');
  }

  thaw(): void {
    this.process?.kill('SIGCONT');
  }

  async stop(): Promise<void> {
    const child = this.process;
    this.process = null;
    if (!child || child.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
  }
}

/** A CLI subprocess with its output collected. */
export class Cli {
  readonly process: ChildProcess;
  stdout = '';
  stderr = '';
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Its exit once its output is all read (both pipes closed): what a test reads the output after. */
  readonly closed: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;

  /** `until` 'file': a CLI a test starts for the tests after it (a replacement worker); see stopAfterwards. */
  constructor(args: string[], env: Record<string, string | undefined> = {}, until?: 'test' | 'file') {
    this.process = spawn(process.execPath, [packageFile('dist', 'cli', 'index.js'), ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, REFEREE_QUEUE_KEY_FILE: KEY_FILE, REFEREE_REDIS_PASSWORD: REDIS_PASSWORD, ...env },
    });
    this.process.stdout!.setEncoding('utf8').on('data', (chunk: string) => (this.stdout += chunk));
    this.process.stderr!.setEncoding('utf8').on('data', (chunk: string) => (this.stderr += chunk));
    this.exited = new Promise((resolve) => this.process.once('exit', (code, signal) => resolve({ code, signal })));
    this.closed = new Promise((resolve) => this.process.once('close', (code, signal) => resolve({ code, signal })));
    // A test that failed or timed out must not leave its workers running: they would take the next tests' games.
    stopAfterwards(this.process, until, () => `referee ${args.join(' ')}\n${this.stdout}${this.stderr}`);
  }

  get pid(): number {
    return this.process.pid!;
  }

  /**
   * The first match of `pattern` in stdout (or, with 'both', in stdout and stderr: warnings go there), however long a
   * loaded machine takes; fails at once if the CLI exits without it.
   */
  async waitFor(pattern: RegExp, streams: 'stdout' | 'both' = 'stdout'): Promise<RegExpMatchArray> {
    for (;;) {
      // Its pipes closed (not just its exit: output can still be in them then), read before the last look.
      const ended = this.process.stdout!.closed && (streams === 'stdout' || this.process.stderr!.closed);
      const match = (streams === 'stdout' ? this.stdout : this.stdout + this.stderr).match(pattern);
      if (match) return match;
      if (ended) throw new Error(`no ${pattern} before the CLI exited (${this.process.exitCode ?? this.process.signalCode}): ${this.stdout}${this.stderr}`);
      await sleep(25);
    }
  }

  async stop(): Promise<void> {
    if (this.process.exitCode !== null || this.process.signalCode !== null) return;
    this.process.kill('SIGTERM');
    await this.exited;
  }
}

/**
 * A 3 s lock (renewed every 750 ms): a killed worker's game is taken over within ~5 s, while a worker held up for
 * up to ~2 s by the suite's load keeps its game.
 */
export const LOCK_ENV = { REFEREE_QUEUE_LOCK_MS: '3000' };

export function startWorker(url: string, name: string, env: Record<string, string> = {}, until?: 'test' | 'file'): Cli {
  return new Cli(['worker', '--queue', url, '--concurrency', '1', '--name', name, '--grace-seconds', '1'], { ...LOCK_ENV, ...env }, until);
}

const WEAK = (tag: string, msPerMove: number): string => `import type { Board } from 'referee';
// The tag makes each student's compiled code (and so its games' keys) its own.
const TAG = '${tag}';
export class AIPlayer {
  constructor(private readonly color: 'X' | 'O') {}
  getMove(board: Board): string {
    const until = Date.now() + ${msPerMove};
    while (Date.now() < until) { /* think */ }
    const moves = board.getLegalActions(this.color);
    return moves[TAG.charCodeAt(TAG.length - 1) % moves.length];
  }
}
`;

/** A class folder: each student a folder with its own AIPlayer.ts (distinct code, so distinct games). */
export function makeQueueClass(ids: string[], msPerMove = 0): string {
  const dir = tempDir('qclass');
  for (const id of ids) {
    mkdirSync(join(dir, id));
    writeFileSync(join(dir, id, 'AIPlayer.ts'), WEAK(id, msPerMove));
  }
  return dir;
}

/** The tiny assignment with its own seeds (distinct game keys per test). */
export function writeQueueConfig(seed: number): string {
  const path = join(tempDir('qconfig'), 'assignment.json');
  const opponents = TINY_ASSIGNMENT_JSON.opponents.map((item, index) => ({ ...item, seed: seed + index }));
  writeFileSync(path, JSON.stringify({ ...TINY_ASSIGNMENT_JSON, opponents }));
  return path;
}

export function journalStats(outDir: string): { games: number; maxPlays: number; grades: number } {
  const journal = BatchJournal.open(join(outDir, BATCH_JOURNAL_FILE), { readonly: true });
  try {
    return { ...journal.gameStats(), grades: journal.grades().length };
  } finally {
    journal.close();
  }
}

export async function waitForGames(outDir: string, count: number, timeoutMs = 120_000): Promise<void> {
  for (let waited = 0; waited < timeoutMs; waited += 50) {
    try {
      if (journalStats(outDir).games >= count) return;
    } catch {
      // no journal yet
    }
    await sleep(50);
  }
  throw new Error(`the journal in ${outDir} never reached ${count} games`);
}

/**
 * Each game's starts beyond its first that no "lost" line explains, across worker logs: `label: starts, lost`.
 * A worker whose lock lapsed (frozen, or a machine too loaded to renew it) says `lost <label>` and BullMQ gives the
 * game to another worker, which plays it from its start — the one replay the design allows. Any other second
 * start (a finished game played again) is listed. Empty when every game was started once, or once plus its losses.
 */
export function unexplainedReplays(logs: string[], prefix: string): string[] {
  const lost = new Map<string, number>();
  for (const log of logs) {
    for (const match of log.matchAll(/\] lost (\S+ vs \S+ #\d+):/g)) lost.set(match[1], (lost.get(match[1]) ?? 0) + 1);
  }
  return [...playsByLabel(logs, prefix)].filter(([label, starts]) => starts !== 1 + (lost.get(label) ?? 0)).map(([label, starts]) => `${label}: ${starts} starts, ${lost.get(label) ?? 0} lost`);
}

/** How many times each game label was started across worker logs. */
export function playsByLabel(logs: string[], prefix: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const log of logs) {
    for (const match of log.matchAll(/\] playing (\S+ vs \S+ #\d+)/g)) {
      if (!match[1].startsWith(prefix)) continue;
      counts.set(match[1], (counts.get(match[1]) ?? 0) + 1);
    }
  }
  return counts;
}

/** A redis-server for the enclosing describe (or file): started before its tests, stopped after them. */
export function redisForTests(): () => RedisServer {
  let redis: RedisServer | null = null;
  beforeAll(async () => {
    redis = new RedisServer(await freePort());
    await redis.start();
  }, 60_000);
  afterAll(async () => {
    await redis?.stop();
  }, 60_000);
  return () => redis!;
}
