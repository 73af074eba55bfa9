/**
 * What the referee talks to. A Player is anything that can start a game with a colour and answer move requests:
 * a trusted in-process reference AI (./in-process.ts) or an untrusted submission behind the sandbox
 * (harness/sandbox). The referee measures every clock itself and trusts nothing a player reports about time.
 */
import type { Side } from '../games/game.js';
import type { ErrorSite } from './record.js';

/**
 * The limits a player plays under, so a search can budget itself. TypeScript/JavaScript read it with
 * `moveInfo()` from 'referee' during getMove; Python receives it as `info=` when get_move has a parameter
 * literally named `info`.
 */
export interface MoveInfo {
  /** The player's colour symbol, e.g. 'X'. */
  color: string;
  /** Per-ask time limit in ms (the answer must arrive before it). */
  timeLimitMs: number;
  /** Limit for the whole turn, every ask included, in ms (game.py times the turn too). */
  turnTimeLimitMs?: number;
  /** Time already used in this turn by earlier asks, in ms (0 on the first ask): the player's own time, see timeUsedMs. */
  turnTimeUsedMs?: number;
  /** 1-based count of this player's own moves in this game. */
  moveNumber: number;
  /**
   * Time this player has used so far in this game, in ms, as measured by the referee: wall time, less what a sandboxed
   * player waited, runnable, for a CPU (the referee credits it: a busy grader's time is not the player's).
   */
  timeUsedMs: number;
  /** 1 on the first ask of a turn; 2, 3 … after illegal answers. */
  attempt: number;
  /** How many asks this turn has in all (the platform asks 3 times). */
  attemptsAllowed: number;
  /** The opponent's last move in notation, or null (first move, or the opponent passed). */
  lastMove: string | null;
}

export interface GameStart {
  /** Game registry id, e.g. 'reversi'. */
  game: string;
  side: Side;
  /** The game's seed (a player may seed its own randomness from it). */
  seed: number;
  /** The encoded initial state (games with seeded layouts differ from game to game). */
  initialState: string;
  /**
   * Seed the player's own randomness (Math.random, Python's random) from `seed` and `side` before it is built
   * (config.seedPlayerRandom); absent means no.
   */
  seedRandom?: boolean;
  /** The time allowed for construction, in ms. */
  timeLimitMs: number;
  /**
   * The time allowed for loading the submission (load, or a startGame that loads because load was not called), in
   * ms, apart from timeLimitMs (config.loadTimeoutMs); absent: timeLimitMs.
   */
  loadTimeLimitMs?: number;
  /**
   * The turns played before this player joins the game (serve after an undo, a Load or a restore: the game goes on
   * from them); absent for a game from its start. A kept-running Botzone bot is brought up to them in load().
   */
  history?: MoveRequest['history'];
}

/** A move played since the player's previous turn began, so a host can update its live board (game.py's). */
export interface PlayedMove {
  side: Side;
  /** Canonical notation. */
  move: string;
}

export interface MoveRequest {
  /** The encoded current state; the player builds its own board from it (or checks its live board against it). */
  state: string;
  info: MoveInfo;
  /**
   * On the first ask of a turn: the moves played (by either side; passes left out) since this player's previous
   * turn began, oldest first — its own accepted move, then the opponent's. A host keeping one live Board per game
   * applies them. Absent on retries (the board is the same one, as in game.py) and on the player's first turn.
   */
  played?: PlayedMove[];
  /**
   * Every turn of the game so far, passes included (the referee's own list: read it during the call, never keep
   * it). A process-protocol player (Botzone's) rebuilds the whole request/response history from it.
   */
  history?: readonly { readonly side: Side; readonly kind: 'move' | 'pass'; readonly move?: string }[];
  /**
   * For a player that keeps time itself (Player.keepsTime): how long this ask may take in all, in ms (the limit plus
   * any time bank or strike grace it may draw on). The player stops its code then and answers 'timeout' with timedMs.
   */
  deadlineMs?: number;
  /**
   * The referee rules this ask on the player's own time — the wall time less what it waited, runnable, for a CPU
   * (askCrediting) — and allows it this much of it, in ms (the limit plus any time bank or strike grace): a host's
   * own timer must not end the ask sooner, only backstop it (at CREDIT_STRETCH times this). Absent: wall time.
   */
  ownTimeLimitMs?: number;
}

/** Captured output of the player during one call, already capped by whoever captured it. */
export interface CapturedOutput {
  text: string;
  /** Bytes dropped beyond the cap. */
  droppedBytes: number;
}

/**
 * How a call to a player ended, as the player's host saw it. The referee turns these into verdicts. `timedMs`: the
 * call's wall time as a player that keeps time itself measured it (Player.keepsTime); ignored from any other.
 */
export type PlayerAnswer = { timedMs?: number } & (
  /** A value came back; the referee checks it is a legal move. */
  | { kind: 'move'; value: unknown; cpuMs?: number; output?: CapturedOutput; leftoverThreads?: number; debug?: string }
  /** Construction finished (startGame), or the submission is loaded (load). */
  | { kind: 'ready'; cpuMs?: number; output?: CapturedOutput }
  /** The player's code threw or rejected. */
  | { kind: 'error'; message: string; stack?: string; where?: ErrorSite; output?: CapturedOutput }
  /**
   * After this ask the board differs from how it was at the start of the turn (game.py's rule is applied by the
   * referee once the turn is over, so a board restored before a later ask of the same turn is fine).
   */
  | { kind: 'tamper'; value?: unknown; detail?: string; cpuMs?: number; output?: CapturedOutput; leftoverThreads?: number }
  /**
   * The player's host noticed the deadline before the referee's own timer did. `loading`: the time ran out while
   * the submission was being loaded (imports, module-level code, static initialisers), under the load allowance.
   * `stall`: the grader's machine, not the player, used up the time (the player waited for a CPU), in words.
   */
  | { kind: 'timeout'; message?: string; loading?: boolean; output?: CapturedOutput; stall?: string }
  /** The player's process died. */
  | { kind: 'crash'; message: string; stack?: string; exitCode?: number | null; signal?: string | null; output?: CapturedOutput }
  /** The player exceeded its memory ceiling. */
  | { kind: 'memory'; message: string; output?: CapturedOutput }
  /** The player's host broke the protocol (malformed or unsolicited messages). */
  | { kind: 'protocol'; message: string; output?: CapturedOutput }
);

/** The isolation a player ran under, recorded in every GameRecord (see harness/sandbox/layers.ts). */
export interface PlayerIsolation {
  /** A working bubblewrap was among the layers: the sandbox guards against attacks, not only accidents. */
  hardened: boolean;
  /** The active layer names. */
  layers: string[];
  /** Why a layer that should be there is not (e.g. bubblewrap installed but unable to start), with the fix. */
  problem?: string;
  /** Which wall holds the memory limit and how high (the cgroup, or the grader's watchdog): memory-wall.ts. */
  memory?: string;
}

/** See Player.scheduling. */
export interface PlayerScheduling {
  ranMs: number;
  waitedMs: number;
  /** A thread is runnable (waiting for a CPU, or on one) or stopped by the grader between turns. */
  runnable: boolean;
}

export interface Player {
  /** Shown in records and reports. */
  readonly name: string;
  /** The sandbox layers around this player; absent for a trusted in-process player. */
  readonly isolation?: PlayerIsolation;
  /**
   * A trusted reference AI that budgets by nodes, not time: the referee still measures its moves but never rules
   * them late, so a slow or busy machine cannot change a seeded game (reproducibility). Untrusted players never
   * set this.
   */
  readonly trusted?: boolean;
  /**
   * The language the player's code is in ('C++', 'Python', 'JavaScript', 'TypeScript'), for per-language time
   * multipliers (config.timeMultipliers); absent for an in-process reference AI.
   */
  readonly language?: string;
  /**
   * Load the submission if it is not loaded yet (the first game of its process: imports and module-level code, a
   * C++ library's static initialisers), before startGame. The referee times it against config.loadTimeoutMs, apart
   * from construction. Resolves 'ready' (at once when already loaded) or a failure. Players with nothing to load
   * leave it out.
   */
  load?(start: GameStart): Promise<PlayerAnswer>;
  /**
   * What the scheduler says of this player's process (Linux schedstat): time run and time waited runnable for a
   * CPU, in ms in all, and whether it is runnable now; null where that cannot be measured. The referee does not
   * count the wait against building the AIPlayer or against a move (unless the player keepsTime): a busy grader is
   * not the student's slow constructor or search. `withState` false: `runnable` is not read (cheaper; false).
   */
  scheduling?(withState?: boolean): PlayerScheduling | null;
  /** Begin a game: a fresh AIPlayer for this colour. Resolves 'ready' or a failure. */
  startGame(start: GameStart): Promise<PlayerAnswer>;
  /**
   * This player's host stops the code at MoveRequest.deadlineMs itself, on a clock next to the code (the Botzone
   * spawner: the kernel's timer), and says how long each ask took (PlayerAnswer.timedMs): the referee rules from
   * that figure, so a ruling does not wait on the grader's own timer waking on a loaded machine. The referee's timer
   * stays behind it, a little later, for a host that goes quiet. Read before each ask.
   */
  readonly keepsTime?: boolean;
  /** Ask for a move. Must resolve; the referee races it against its own deadline. */
  requestMove(request: MoveRequest): Promise<PlayerAnswer>;
  /**
   * The referee gave up waiting (deadline passed). The player must stop computing now: a sandbox kills its
   * process; the next startGame starts afresh. It may resolve with what it found the deadline was (a sandbox whose
   * player had reached its memory limit answers 'memory'): the referee records that cause instead of a timeout.
   */
  abort(reason: string): Promise<PlayerAnswer | void>;
  /** The game is over (normally or not). */
  endGame(): Promise<void>;
  /** Release everything (processes, timers). Safe to call twice. */
  close(): Promise<void>;
}
