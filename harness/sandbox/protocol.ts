/**
 * The JSON-lines protocol between the parent (SandboxPlayer) and the child host, one message per line on
 * dedicated fds: the parent writes to the child's fd 3, the child writes to fd 4. stdout and stderr are the
 * student's own, so `console.log` cannot corrupt the channel. Shared by both sides; types only plus constants.
 */
import type { MoveInfo, PlayedMove } from '../referee/player.js';

export const REQUEST_FD = 3;
export const ANSWER_FD = 4;

/** What the child host is told on its command line. */
export interface HostConfig {
  /** The compiled submission bundle (CommonJS). */
  bundle: string;
  /** Game registry id; the host builds the student Board for it. */
  game: string;
  /** Bare imports the assignment allows at run time (Node built-ins left external by the compiler). */
  allow: string[];
  /**
   * Stop itself (SIGSTOP) right after writing each answer, so no student code runs on after it; the parent's
   * next request comes with a SIGCONT. Off when the player may ponder.
   */
  stopAfterAnswer?: boolean;
}

/** Parent → child. Every request carries an id that its one answer repeats. */
export type Request =
  | { t: 'load'; id: number }
  /** randomSeed: a uint32 to seed the player's Math.random / random module with before it is built (absent: unseeded). */
  | { t: 'start'; id: number; side: 0 | 1; randomSeed?: number }
  | { t: 'move'; id: number; state: string; info: MoveInfo; played?: PlayedMove[] };

/** A returned value that JSON cannot carry faithfully (undefined, NaN, a function, a huge object …). */
export interface ValueStandIn {
  type: string;
  text: string;
}

/** Child → parent. `hello` is the only message without an id (sent once, before any request). */
export type Answer =
  /**
   * What the host installed on itself (or the launcher before it): seccomp 'on' or why the kernel refused it;
   * landlock (without bubblewrap) 'abi7 net scope' style, or 'missing: why' (confinement.ts).
   */
  | { t: 'hello'; seccomp?: string; landlock?: string }
  | { t: 'loaded'; id: number; exports: string[]; entry: string | null; getMoveParams?: number }
  | { t: 'ready'; id: number }
  | { t: 'move'; id: number; value?: unknown; standIn?: ValueStandIn; leftoverThreads?: number }
  | { t: 'tamper'; id: number; value?: unknown; standIn?: ValueStandIn; detail: string; leftoverThreads?: number }
  /** between: raised after an answer, between turns (the parent reports it as a crash). */
  | { t: 'error'; id: number; message: string; stack?: string; where?: { file: string; line: number; function: string }; between?: boolean }
  | { t: 'memory'; id: number; message: string };

/** Answers longer than this are a protocol violation (the host caps what it sends far below it). */
export const MAX_ANSWER_BYTES = 256 * 1024;
