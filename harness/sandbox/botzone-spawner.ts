/**
 * The grader's side of the Botzone spawner (native/botzone-spawner.c): one long-lived sandbox per restart-per-turn
 * bot, inside which the spawner forks and execs the bot each turn, so a turn costs a process start rather than a
 * whole sandbox start (bubblewrap, setpriv, the cgroup, the shell: ~70 ms). The spawner's events are framed (the
 * header says how many bytes follow), so whatever the bot prints is only ever the bytes of an "O" event.
 */
import { spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import type { Writable } from 'node:stream';

/** How one run of the bot ended. */
export type SpawnedEnd =
  /**
   * `wallMs`: from the spawner's receipt of the run to the bot's end, on the sandbox's clock; `overLimit`: the run's
   * deadline stopped it (then wallMs is when: the limit itself when the kernel's timer did it).
   */
  | { kind: 'exit'; code: number | null; signal: NodeJS.Signals | null; cpuMs: number; wallMs: number; overLimit: boolean }
  | { kind: 'not-started'; message: string }
  /** A kept bot (S) runs and is stopped before its first turn; `cpuMs`: the CPU it had before the stop. */
  | { kind: 'started'; cpuMs: number }
  /** A kept bot's turn (T) ended with the keep-running marker; the bot is stopped. Times on the sandbox's clock. */
  | { kind: 'paused'; cpuMs: number; wallMs: number }
  /** The sandbox itself ended (its process closed) before the bot's end was told. */
  | { kind: 'sandbox-ended' };

interface Run {
  onStdout: (chunk: Buffer) => void;
  done: (end: SpawnedEnd) => void;
}

/** Most an event header may be before the stream is taken for corrupt. */
const MAX_HEADER = 96;
/** The spawner's largest deadline (a day; untimed runs send none). */
const MAX_LIMIT_US = 24 * 3600 * 1_000_000;

export class SpawnerSession {
  /** Resolves when the spawner said "ready"; rejects if the sandbox ended first. */
  readonly ready: Promise<void>;
  private readonly stdin: Writable;
  private buffer: Buffer = Buffer.alloc(0);
  private run: Run | null = null;
  /** The previous run has ended (a run is only started once the last one's end was told). */
  private idle: Promise<void> = Promise.resolve();
  private isReady = false;
  private ownWaits = false;
  private ended = false;
  private readyWaiters: { resolve: () => void; reject: (error: Error) => void } | null = null;
  /** dropKept() callers, answered in order by the spawner's "D" events. */
  private dropped: (() => void)[] = [];

  constructor(readonly process: ChildProcess) {
    this.stdin = process.stdin as Writable;
    this.stdin.on('error', () => undefined);
    this.ready = new Promise<void>((resolve, reject) => {
      this.readyWaiters = { resolve, reject };
    });
    // An unobserved rejection must not crash the grader: the caller awaits `ready` when it needs it.
    this.ready.catch(() => undefined);
    process.stdout?.on('data', (chunk: Buffer) => this.onData(chunk));
    process.once('close', () => this.end());
  }

  get alive(): boolean {
    return !this.ended;
  }

  /** The spawner said (at ready) that it reads its own CPU waits and takes them off a turn's end. */
  get timesOwnWaits(): boolean {
    return this.ownWaits;
  }

  /**
   * Start the bot with `input` on its stdin (then closed), to be stopped by the spawner `limitMs` after it gets the
   * run (null: no deadline). `onStdout` gets its output as it comes; the promise resolves with how it ended. Runs
   * wait for the previous one's end.
   */
  async start(input: string, limitMs: number | null, onStdout: (chunk: Buffer) => void): Promise<SpawnedEnd> {
    return this.send('R', input, limitMs, onStdout);
  }

  /**
   * Start the bot to be kept running (Botzone's keep-running): it execs and is stopped at once, so it gets no CPU
   * before its first turn; an earlier kept bot is killed first. Resolves 'started' (or how it failed).
   */
  async startKept(): Promise<SpawnedEnd> {
    return this.send('S', null, null, () => undefined);
  }

  /**
   * A kept bot's turn: `input` on its stdin (left open), the bot continued, stopped again when its stdout carries the
   * keep-running marker ('paused') or killed `limitMs` after the spawner got the turn ('exit', overLimit).
   */
  async turn(input: string, limitMs: number | null, onStdout: (chunk: Buffer) => void): Promise<SpawnedEnd> {
    return this.send('T', input, limitMs, onStdout);
  }

  private async send(kind: 'R' | 'S' | 'T', input: string | null, limitMs: number | null, onStdout: (chunk: Buffer) => void): Promise<SpawnedEnd> {
    await this.idle;
    if (this.ended) return { kind: 'sandbox-ended' };
    let finished!: () => void;
    this.idle = new Promise((resolve) => (finished = resolve));
    return new Promise<SpawnedEnd>((resolve) => {
      this.run = {
        onStdout,
        done: (end) => {
          this.run = null;
          finished();
          resolve(end);
        },
      };
      if (kind === 'S') {
        this.stdin.write('S\n');
        return;
      }
      const bytes = Buffer.from(input ?? '', 'utf8');
      const limitUs = limitMs === null ? 0 : Math.max(1, Math.min(MAX_LIMIT_US, Math.round(limitMs * 1000)));
      this.stdin.write(Buffer.concat([Buffer.from(`${kind} ${bytes.length} ${limitUs}\n`), bytes]));
    });
  }

  /** SIGKILL the bot: a running one (its end is still told, and the next run waits for it), or a kept one between turns. */
  kill(): void {
    if (!this.ended) this.stdin.write('K\n');
  }

  /** Between turns: SIGKILL a kept bot; resolves once the spawner has reaped it (or the sandbox has ended). */
  dropKept(): Promise<void> {
    if (this.ended) return Promise.resolve();
    return new Promise<void>((resolve) => {
      this.dropped.push(resolve);
      this.stdin.write('D\n');
    });
  }

  /** Ask the spawner to end (it kills a running bot and exits when its input closes). */
  close(): void {
    this.stdin.end();
  }

  private onData(chunk: Buffer): void {
    this.buffer = this.buffer.length === 0 ? chunk : Buffer.concat([this.buffer, chunk]);
    for (;;) {
      const newline = this.buffer.indexOf(10);
      if (newline < 0) {
        if (this.buffer.length > MAX_HEADER) this.corrupt();
        return;
      }
      const header = this.buffer.subarray(0, newline).toString('latin1');
      if (header === 'D') {
        this.buffer = this.buffer.subarray(newline + 1);
        this.dropped.shift()?.();
        continue;
      }
      if (header === 'ready' || header === 'ready waits') {
        this.buffer = this.buffer.subarray(newline + 1);
        this.ownWaits = header === 'ready waits';
        this.isReady = true;
        this.readyWaiters?.resolve();
        continue;
      }
      const exit = /^X (-?\d+) (\d+) (\d+) ([01])$/.exec(header);
      if (exit) {
        this.buffer = this.buffer.subarray(newline + 1);
        const status = Number(exit[1]);
        // The raw wait status: low 7 bits a signal number (0: exited, its code in the next byte).
        const signal = status & 0x7f;
        this.run?.done({
          kind: 'exit',
          code: signal === 0 ? (status >> 8) & 0xff : null,
          signal: signal === 0 ? null : signalName(signal),
          cpuMs: Number(exit[2]) / 1000,
          wallMs: Number(exit[3]) / 1000,
          overLimit: exit[4] === '1',
        });
        continue;
      }
      const started = /^B (\d+)$/.exec(header);
      if (started) {
        this.buffer = this.buffer.subarray(newline + 1);
        this.run?.done({ kind: 'started', cpuMs: Number(started[1]) / 1000 });
        continue;
      }
      const paused = /^P (\d+) (\d+)$/.exec(header);
      if (paused) {
        this.buffer = this.buffer.subarray(newline + 1);
        this.run?.done({ kind: 'paused', cpuMs: Number(paused[1]) / 1000, wallMs: Number(paused[2]) / 1000 });
        continue;
      }
      const framed = /^([OE]) (\d+)$/.exec(header);
      if (!framed) return this.corrupt();
      const size = Number(framed[2]);
      if (this.buffer.length < newline + 1 + size) return;
      const body = this.buffer.subarray(newline + 1, newline + 1 + size);
      this.buffer = this.buffer.subarray(newline + 1 + size);
      if (framed[1] === 'O') this.run?.onStdout(Buffer.from(body));
      else this.run?.done({ kind: 'not-started', message: body.toString('utf8') });
    }
  }

  /** The spawner said something out of its protocol: the sandbox is no longer trusted to tell a run's end. */
  private corrupt(): void {
    this.process.kill('SIGKILL');
    this.end();
  }

  private end(): void {
    if (this.ended) return;
    this.ended = true;
    if (!this.isReady) this.readyWaiters?.reject(new Error('the sandbox ended before the spawner was ready'));
    for (const resolve of this.dropped.splice(0)) resolve();
    this.run?.done({ kind: 'sandbox-ended' });
  }
}

export function signalName(number: number): NodeJS.Signals | null {
  const names: Record<number, NodeJS.Signals> = { 4: 'SIGILL', 6: 'SIGABRT', 7: 'SIGBUS', 8: 'SIGFPE', 9: 'SIGKILL', 11: 'SIGSEGV', 14: 'SIGALRM', 15: 'SIGTERM', 24: 'SIGXCPU', 25: 'SIGXFSZ', 31: 'SIGSYS' };
  return names[number] ?? null;
}

let realtime: string[] | null = null;

/**
 * The command prefix that starts the spawner's sandbox at real-time priority (SCHED_FIFO 1; `chrt`), so that the
 * spawner wakes at a kept bot's deadline and at its marker whatever the load (a plain process's timer woke 25 ms late
 * at the median at load ~20, one in SCHED_FIFO 0.04 ms). The spawner puts each bot back to the normal policy before
 * exec. Empty where the grader may not grant it (not root, a container without CAP_SYS_NICE, no chrt) or with
 * REFEREE_BOTZONE_REALTIME=0: the spawner then keeps time at normal priority.
 */
export function realtimePrefix(): string[] {
  if (process.env.REFEREE_BOTZONE_REALTIME === '0') return [];
  if (realtime) return realtime;
  const chrt = ['/usr/bin/chrt', '/bin/chrt'].find((path) => existsSync(path));
  realtime = chrt && spawnSync(chrt, ['-f', '1', 'true'], { stdio: 'ignore' }).status === 0 ? [chrt, '-f', '1'] : [];
  return realtime;
}

/** A sandbox could not start at real-time priority here: the spawner runs at normal priority from now on. */
export function refuseRealtime(): void {
  realtime = [];
}
