/**
 * The child host: runs inside the sandboxed process, loads one compiled submission and answers the parent's
 * requests. Bundled with esbuild into one file (host-bundle.ts) and run with plain node, never ts-node.
 *
 * Everything the host relies on after student code has run (JSON, fs.writeSync, the game's functions) is
 * captured before the submission loads, so a student overriding JSON.stringify or prototypes can only break
 * their own answers — which the parent then rejects as a protocol violation. Nothing here is trusted by the
 * parent: it validates every line and keeps every clock itself.
 */
import { readFileSync, writeSync } from 'node:fs';
import Module from 'node:module';
import { Socket } from 'node:net';
import { dirname, resolve, sep } from 'node:path';
import { getGame } from '../../games/registry.js';
import { createRng } from '../../games/common/seed.js';
import type { MoveInfo, PlayedMove } from '../../referee/player.js';
import { describeValue } from '../../referee/describe-value.js';
import { installBoundary } from './boundary.js';
import { parseConfinement } from '../confinement.js';
import type { Answer, HostConfig, Request, ValueStandIn } from '../protocol.js';
import { ANSWER_FD, REQUEST_FD } from '../protocol.js';
import { liveBoards } from './live-board.js';

const stringify = JSON.stringify;
const parse = JSON.parse;
const config = parse(process.argv[2] ?? '{}') as HostConfig;
const game = getGame(config.game);
const createBoard = game.studentBoard.create.bind(game.studentBoard);
const boards = liveBoards(game);
const fingerprint = boards.fingerprint;
const symbols = game.symbols;
const freeze = Object.freeze;
/** The ask being answered, for `moveInfo()`; frozen so a submission cannot change what the next call reads. */
let currentInfo: Readonly<MoveInfo> | null = null;
/**
 * What `import { Board, moveInfo } from 'board-referee'` (or the older 'referee') gives: the class of the game's student board, and the
 * documented accessor for the move's limits (getMove itself receives only the board, as in game.py).
 */
const refereeModule = Object.freeze({
  Board: (createBoard(game.initial(0)) as object).constructor,
  moveInfo: (): Readonly<MoveInfo> | null => currentInfo,
});

interface StudentPlayer {
  getMove(board: unknown): unknown;
}
type StudentClass = new (color: string) => StudentPlayer;

let playerClass: StudentClass | null = null;
let player: StudentPlayer | null = null;
/** This game's one Board (game.py's), and its fingerprint when the current turn began. */
let live: unknown = null;
let snapshot = '';
/** The id of the request being worked on; an answer for it is sent at most once. */
let current: number | null = null;

const ownKeys = Object.keys;
const isArray = Array.isArray;
const bufferFrom = Buffer.from.bind(Buffer);

/**
 * The channel's JSON, written by the host itself: JSON.stringify looks up `toJSON` on every object it meets, and an
 * inherited Object.prototype.toJSON (the student's) could rewrite a 'tamper' answer into a 'move'. Only primitives
 * go through the captured stringify, which consults no prototype for them; objects and arrays are the host's own,
 * walked by their own keys.
 */
function encode(value: unknown): string {
  if (value === null || typeof value !== 'object') return value === undefined ? 'null' : stringify(value);
  let text = '';
  if (isArray(value)) {
    for (let i = 0; i < value.length; i++) text += (i > 0 ? ',' : '') + encode(value[i]);
    return `[${text}]`;
  }
  const keys = ownKeys(value);
  let first = true;
  for (let i = 0; i < keys.length; i++) {
    const item = (value as Record<string, unknown>)[keys[i]];
    if (item === undefined) continue;
    text += (first ? '' : ',') + stringify(keys[i]) + ':' + encode(item);
    first = false;
  }
  return `{${text}}`;
}

function send(answer: Answer): void {
  const bytes = bufferFrom(`${encode(answer)}\n`);
  let sent = 0;
  while (sent < bytes.length) sent += writeSync(ANSWER_FD, bytes, sent);
}

/** Captured before the boundary wraps process.kill: the host stops itself after answering (HostConfig). */
const stopSelf = config.stopAfterAnswer ? process.kill.bind(process, process.pid, 'SIGSTOP') : null;

function answer(id: number, message: Answer): void {
  if (current !== id) return;
  current = null;
  send(message);
  // Synchronously after the write: no student callback can run in between, none until the parent wakes it.
  if (stopSelf) stopSelf();
}

/** Strings, finite numbers, booleans, null and small plain data travel as JSON; anything else as a stand-in. */
function carry(value: unknown): { value?: unknown; standIn?: ValueStandIn } {
  const type = typeof value;
  if (type === 'string') {
    const text = value as string;
    return { value: text.length > 1000 ? text.slice(0, 1000) : text };
  }
  if ((type === 'number' && Number.isFinite(value)) || type === 'boolean' || value === null) return { value };
  // Objects travel as a preview, never as their JSON: a toJSON() giving a legal move must not become that move.
  const preview = describeValue(value);
  return { standIn: { type: preview.type, text: preview.text } };
}

/** A V8 stack frame: `at fn (file:line:col)` or `at file:line:col`. */
const FRAME = /^\s*at (?:(.{1,200}?) \()?(.+?):(\d+):\d+\)?$/;

/**
 * The student's own line nearest the throw, as Python's host says it: the first frame in a file of the submission
 * (--enable-source-maps has already mapped the bundle to the student's sources), named relative to its folder.
 */
function whereIn(stack: string): { file: string; line: number; function: string } | undefined {
  const root = `${dirname(config.bundle)}${sep}`;
  for (const text of stack.split('\n').slice(1, 60)) {
    const frame = FRAME.exec(text);
    if (!frame || !frame[2].startsWith(root)) continue;
    const file = frame[2].slice(root.length);
    // The compiled bundle itself is not a file the student wrote (a frame its source map does not cover).
    if (resolve(frame[2]) === resolve(config.bundle) || file.split(/[\\/]/).includes('..') || file.includes('node_modules')) continue;
    return { file: file.split(sep).join('/').slice(0, 300), line: Number(frame[3]), function: (frame[1] ?? '<module>').replace(/^(?:async |new )/, '').slice(0, 200) };
  }
  return undefined;
}

function errorAnswer(id: number, error: unknown): Answer {
  let message = 'a value that is not an Error was thrown';
  let stack: string | undefined;
  let where: { file: string; line: number; function: string } | undefined;
  try {
    if (error instanceof Error) {
      message = `${error.name}: ${error.message}`;
      stack = typeof error.stack === 'string' ? error.stack.slice(0, 8000) : undefined;
      where = stack ? whereIn(stack) : undefined;
    } else {
      message = `threw ${describeValue(error).text}`;
    }
  } catch {
    // a hostile error object; the generic message stands
  }
  // rlimit --as turns a Buffer bomb into this RangeError: the memory ceiling, not a bug in the student's logic.
  // Node 20/22 say "Array buffer allocation failed"; Node 24 says "RangeError: Failed to allocate memory".
  if (/Array buffer allocation failed|Allocation failed|^RangeError: Failed to allocate memory/.test(message)) return { t: 'memory', id, message };
  return { t: 'error', id, message: message.slice(0, 2000), stack, ...(where ? { where } : {}) };
}

function load(id: number): void {
  const bundle = config.bundle;
  const mod = new Module(bundle);
  mod.filename = bundle;
  mod.paths = [];
  const source = readFileSync(bundle, 'utf8');
  // Every run-time door to node's built-ins closes before student code runs (boundary.ts).
  const boundary = installBoundary(new Set(config.allow));
  // Module#_compile (rather than vm.compileFunction) so --enable-source-maps maps stacks to the student's files;
  // the original, which the boundary has just closed to everyone else.
  mod.require = ((name: string) => (name === 'referee' || name === 'board-referee' ? refereeModule : boundary.require(name))) as NodeJS.Require;
  boundary.compile(mod, source, bundle);
  const exported = mod.exports as Record<string, unknown> | ((...args: unknown[]) => unknown);
  let names: string[] = [];
  let entry: string | null = null;
  if (typeof exported === 'function') {
    entry = 'module.exports';
    playerClass = exported as unknown as StudentClass;
  } else if (typeof exported === 'object' && exported !== null) {
    names = Object.keys(exported).slice(0, 50);
    if (typeof exported.AIPlayer === 'function') entry = 'AIPlayer';
    else if (typeof exported.default === 'function') entry = 'default';
    if (entry) playerClass = exported[entry] as StudentClass;
  }
  answer(id, { t: 'loaded', id, exports: names, entry, ...getMoveParams(playerClass) });
}

/** getMove's parameters before the first default (Function#length): 2 or more means it expects MoveInfo there. */
function getMoveParams(cls: StudentClass | null): { getMoveParams?: number } {
  try {
    const method = (cls?.prototype as { getMove?: unknown } | undefined)?.getMove;
    return typeof method === 'function' && Number.isSafeInteger(method.length) ? { getMoveParams: Math.min(method.length, 1000) } : {};
  } catch {
    return {}; // a hostile prototype getter: no hint
  }
}

function start(id: number, side: 0 | 1, randomSeed: number | undefined): void {
  if (!playerClass) throw new Error('the submission has no AIPlayer class to construct');
  player = null;
  live = null;
  currentInfo = null;
  // Reproducible grades: Math.random replays the same stream for the same game seed (config.seedPlayerRandom).
  if (randomSeed !== undefined) {
    const rng = createRng(randomSeed);
    Math.random = () => rng.next();
  }
  player = new playerClass(symbols[side]);
  answer(id, { t: 'ready', id });
}

function move(id: number, state: string, info: MoveInfo, played: PlayedMove[] | undefined): void {
  if (!player) throw new Error('getMove was asked before the player was constructed');
  if (typeof player.getMove !== 'function') throw new TypeError('AIPlayer has no getMove method');
  // A new turn brings the live board up to date; a retry in the same turn hands the very same board again.
  if (info.attempt === 1 || live === null) {
    live = boards.sync(live, state, played);
    snapshot = fingerprint(live);
  }
  const board = live;
  const before = snapshot;
  currentInfo = freeze({ ...info });
  const finish = (value: unknown): void => {
    const after = fingerprint(board);
    if (after !== before) {
      answer(id, { t: 'tamper', id, ...carry(value), detail: 'the board differs from how it was before this turn' });
    } else answer(id, { t: 'move', id, ...carry(value) });
  };
  // One argument, as game.py calls get_move(board=board): a default parameter never receives anything.
  const result = player.getMove(board);
  if (typeof result === 'object' && result !== null && typeof (result as Promise<unknown>).then === 'function') {
    (result as Promise<unknown>).then(finish, (error: unknown) => answer(id, errorAnswer(id, error)));
  } else {
    finish(result);
  }
}

function handle(request: Request): void {
  current = request.id;
  if (betweenTurns) {
    const kept = betweenTurns.error;
    betweenTurns = null;
    const failure = errorAnswer(request.id, kept);
    answer(request.id, failure.t === 'error' ? { ...failure, between: true } : failure);
    return;
  }
  try {
    if (request.t === 'load') load(request.id);
    else if (request.t === 'start') start(request.id, request.side, request.randomSeed);
    else move(request.id, request.state, request.info, request.played);
  } catch (error) {
    answer(request.id, errorAnswer(request.id, error));
  }
}

// Asynchronous throws and unhandled rejections belong to whatever the student is working on right now; one raised
// between turns is kept and reported at the next ask (a crash with its message and stack, without waiting).
let betweenTurns: { error: unknown } | null = null;
const onAsyncError = (error: unknown): void => {
  if (current !== null) answer(current, errorAnswer(current, error));
  else betweenTurns ??= { error };
};
process.on('uncaughtException', onAsyncError);
process.on('unhandledRejection', onAsyncError);

function main(): void {
  const input = new Socket({ fd: REQUEST_FD, readable: true, writable: false });
  let pending = '';
  input.setEncoding('utf8');
  input.on('data', (chunk: string) => {
    pending += chunk;
    let newline = pending.indexOf('\n');
    while (newline >= 0) {
      const line = pending.slice(0, newline);
      pending = pending.slice(newline + 1);
      handle(parse(line) as Request);
      newline = pending.indexOf('\n');
    }
  });
  // The parent closing the channel means the series is over.
  input.on('end', () => process.exit(0));
  // What the launcher installed before node started (without bubblewrap): told to the parent, hidden from the student.
  const confinement = parseConfinement(process.env.REFEREE_CONFINEMENT);
  delete process.env.REFEREE_CONFINEMENT;
  send(confinement ? { t: 'hello', seccomp: confinement.seccomp, landlock: confinement.landlock } : { t: 'hello' });
}

main();
