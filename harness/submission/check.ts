/**
 * The interface check (the platform's 接口测试): a checklist, one step per line with a fix hint on failure.
 * found the entry → compiles → exports AIPlayer → constructs for both colours → legal moves on probe positions
 * within the limit → does not tamper. Type errors are warnings. Every line of student code runs in the sandbox.
 */
import { performance } from 'node:perf_hooks';
import type { AnyGame } from '../games/game.js';
import { getGame } from '../games/registry.js';
import { BOTZONE_PRESET, configForGame, DEFAULT_REFEREE_CONFIG } from '../referee/config.js';
import type { MoveInfo, PlayerAnswer } from '../referee/player.js';
import { detectLayers, isHardened, isolationRecord, type Layers } from '../sandbox/layers.js';
import { GraderError } from '../referee/grader-error.js';
import { explainLoadFailure } from '../sandbox/load-failure.js';
import { SandboxPlayer } from '../sandbox/sandbox-player.js';
import { CompileError, compileSubmission, type SourceProblem } from './compile.js';
import { describeJudged, judgeAnswer } from './judge.js';
import { probePositions } from './probes.js';
import { resolveSubmission, runtimeOf, SubmissionError, type ResolvedSubmission, type SubmissionLanguage, type SubmissionLimits, type SubmissionProtocol } from './resolve.js';
import { exportHint } from './suggest.js';
import { typeCheck, type TypeCheckResult } from './typecheck.js';

/** A timeout the grader's machine caused (see SandboxPlayer's graderStall): thrown to run the check again. */
class GraderStall extends Error {}
const STALL_ATTEMPTS = 3;

function unstalled(answer: PlayerAnswer): PlayerAnswer {
  if (answer.kind === 'timeout' && answer.stall) throw new GraderStall(answer.stall);
  return answer;
}

/** The hint for a whole program taken for the course's contract (no class AIPlayer, none of Botzone's signs). */
const WHOLE_PROGRAM_HINT = 'this file is a whole program with no class AIPlayer: if it is a Botzone bot, grade it with --protocol botzone (or "protocol": "botzone" in the assignment)';

export type StepId = 'entry' | 'compile' | 'types' | 'export' | 'construct' | 'moves' | 'tamper' | 'later';
export type StepStatus = 'pass' | 'fail' | 'warn' | 'skip';

export interface CheckStep {
  id: StepId;
  title: string;
  status: StepStatus;
  /** What happened, one line. */
  detail?: string;
  /** How to fix it (failures and warnings). */
  hint?: string;
  /** Located problems (compile errors, type errors). */
  problems?: SourceProblem[];
  /** The stack (TS: mapped to the student's files) or Python traceback of an error. */
  stack?: string;
  /** The last lines the submission printed before this step failed or warned. */
  output?: string[];
}

export interface CheckResult {
  /** True when no step failed (warnings allowed): the gate, i.e. the contract, holds. */
  ok: boolean;
  /** The limits the check ran under, stated in the output. */
  limits: { moveTimeoutMs: number; constructTimeoutMs: number; loadTimeoutMs: number; illegalLimit: number; memoryMb: number; source: string };
  submission: string;
  entry?: string;
  /** The entry's language, once found. */
  language?: SubmissionLanguage;
  game: string;
  steps: CheckStep[];
  /** The sandbox layers that were active. */
  layers: string[];
  hardened: boolean;
  durationMs: number;
}

export interface CheckOptions {
  /** 'botzone': check it as a Botzone bot whatever its source shows (--protocol botzone). */
  protocol?: SubmissionProtocol;
  /** Game registry id (default 'reversi'). */
  game?: string;
  /** Per-move limit in ms (default: the platform's 60 s; the CLI passes the assignment's, see grading/check-limits). */
  moveTimeoutMs?: number;
  /** Where the limits come from, e.g. 'the built-in reversi assignment' (shown to the student). */
  limitsSource?: string;
  /** Construction limit in ms (default: the move limit). */
  constructTimeoutMs?: number;
  /** Allowance for loading the submission, apart from construction (default: the game's, 60 s). */
  loadTimeoutMs?: number;
  /** Asks per probe position before it counts as failed (default 3, as the platform). */
  illegalLimit?: number;
  /** Resident-memory limit in MB (default: the game's course: configForGame). */
  memoryMb?: number;
  allowImports?: string[];
  /** Size caps checked before compiling (default 5 MB, 500 files). */
  limits?: SubmissionLimits;
  /** Run tsc for warnings (default true for TypeScript entries). */
  typeCheck?: boolean;
  /**
   * A tighter limit the submission will meet later (the built-in ladder's 500 ms a move when `check` judges the
   * platform's 60 s): answers slower than it pass with a warning naming it.
   */
  pace?: { moveTimeoutMs: number; source: string };
  /** Called once when an answer has not come after `waitingAfterMs` (default 5 s): the CLI says it is waiting. */
  onWaiting?: (waitedMs: number, moveTimeoutMs: number) => void;
  waitingAfterMs?: number;
  /** The entry file inside a folder submission (`--entry`, the assignment's `entry`), over the name conventions. */
  entry?: string;
  /** Seed for the probe positions (default 1). */
  seed?: number;
  layers?: Layers;
}

/** 500 ms, 2.1 s, 60 s. */
function formatSeconds(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const seconds = ms / 1000;
  return `${seconds >= 10 ? Math.round(seconds) : Math.round(seconds * 10) / 10} s`;
}

const TITLES: Record<StepId, string> = {
  entry: 'found the entry',
  compile: 'compiles',
  types: 'type checks',
  export: 'exports AIPlayer',
  construct: "constructs for both colours within the time limit",
  moves: 'getMove answers the opening legally within the time limit',
  tamper: 'does not change the board it is given',
  later: 'later positions (warnings only: the games decide)',
};

/** The steps and hints in Python's words (the platform's get_move, deepcopy, sys.exit). */
const PYTHON_TITLES: Partial<Record<StepId, string>> = {
  export: 'defines class AIPlayer',
  construct: 'AIPlayer(color) constructs for both colours within the time limit',
  moves: 'get_move answers the opening legally within the time limit',
};

/** The steps and hints in the C++ SDK's words (getPoint, Point, the 3 s wall clock). */
const CPP_TITLES: Partial<Record<StepId, string>> = {
  export: 'exports getPoint and clearPoint (or an AIPlayer)',
  construct: 'loads and starts for both colours within the time limit',
  moves: 'answers the opening legally within the time limit',
};

const CPP_FIX: Record<string, string> = {
  timeout: "answer sooner: the limit is wall time (less what the grader's own load kept your player waiting), and clock() adds up every thread's CPU time; budget with std::chrono::steady_clock, which the course's judge counts too",
  error: 'catch the exception inside getPoint, or do not throw it',
  crash: 'fix the crash (the signal above): check array indices and pointers, and do not call exit()',
  memory: 'use less memory (the limit applies to the whole process); free what you allocate each move',
  protocol: 'do not write to file descriptors 3/4',
  tamper: 'work on a copy of the board',
  illegal: 'return new Point(top[y] - 1, y) for a column y with top[y] > 0 (rows count from the top)',
};

/** A C++ AIPlayer (any game's Board header) is not the Connect Four SDK: its hints name getMove and the Board. */
const CPP_AIPLAYER_FIX: Record<string, string> = {
  error: 'catch the exception inside getMove, or do not throw it',
  illegal: 'return one of board.getLegalActions(color), exactly as written (the Board header names the moves)',
};

const FIX: Record<string, string> = {
  timeout: "make it answer sooner: check the time you are given, moveInfo().timeLimitMs (import { moveInfo } from 'board-referee')",
  error: 'fix the error above (the stack points at your code)',
  crash: 'do not exit the process; return a move instead',
  memory: 'use less memory (the limit applies to the whole process)',
  protocol: 'do not write to file descriptors 3/4 or change JSON/Object.prototype.toJSON',
  tamper: 'work on board.copy() instead of the board you are given',
  illegal: 'return one of board.getLegalActions(color), exactly as written (e.g. "D3")',
};

const PYTHON_FIX: Record<string, string> = {
  timeout: 'make it answer sooner: stop your search in time (func_timeout, or get_move(self, board, info=None) and info.time_limit when info is given: game.py calls get_move(board=board))',
  error: 'fix the error above (the traceback points at your code)',
  crash: 'do not call sys.exit or os._exit; return a move instead',
  memory: 'use less memory (the limit applies to the whole process)',
  protocol: 'do not write to file descriptors 3/4',
  tamper: 'work on deepcopy(board) (or undo with backpropagation) instead of changing the board you are given',
  illegal: 'return one of board.get_legal_actions(color) as a string, exactly as written (e.g. "D3")',
};

function fixes(language: SubmissionLanguage | undefined): Record<string, string> {
  return language === 'Python' ? PYTHON_FIX : language === 'C++' ? CPP_FIX : FIX;
}

/** Lines of output kept with a failure: the last ones printed before it (the rest is in the report). */
export const OUTPUT_TAIL_LINES = 20;

/** The stack and the tail of the output an answer carries, for a failed or warned step. */
export function evidence(answer: PlayerAnswer | undefined, printed: readonly string[] = []): Pick<CheckStep, 'stack' | 'output'> {
  const lines = [...printed];
  if (answer?.output?.text) lines.push(...answer.output.text.replace(/\n$/, '').split('\n'));
  const stack = answer?.kind === 'error' && answer.stack ? answer.stack : undefined;
  return {
    ...(stack ? { stack } : {}),
    ...(lines.length > 0 ? { output: lines.slice(-OUTPUT_TAIL_LINES) } : {}),
  };
}

function failure(game: AnyGame, answer: PlayerAnswer, limitMs: number, language?: SubmissionLanguage): { detail: string; hint: string } {
  const judged = judgeAnswer(game, null, answer, limitMs);
  const cause = causeHint(answer, language);
  if (cause) return { detail: describeJudged(judged), hint: cause };
  const missing = judged.verdict === 'error' && language === 'Python' ? /No module named '([^']+)'/.exec(judged.message) : null;
  if (missing) {
    const hint = missing[1].split('.')[0] === 'numpy'
      ? "numpy is missing from the grader's python3, not from your code: install it there (Debian/Ubuntu: apt-get install python3-numpy) or set REFEREE_PYTHON to a python3 that has it"
      : `'${missing[1]}' is not available to submissions (the standard library, numpy, board, game and func_timeout are): remove the import, or copy the module into your submission folder`;
    return { detail: describeJudged(judged), hint };
  }
  return { detail: describeJudged(judged), hint: fixes(language)[judged.verdict] ?? '' };
}

/**
 * A hint for causes the verdict alone does not tell apart: a load that took the time (the __main__ guard, static
 * initialisers), a library the loader refused (its real reason), a player stopped at its memory limit.
 */
function causeHint(answer: PlayerAnswer, language: SubmissionLanguage | undefined): string | null {
  if (answer.kind === 'timeout' && answer.loading === true) {
    if (language === 'Python') return "move the work done at import (a demo game, training, a local Game(...).run()) under if __name__ == '__main__': — or raise the assignment's loadTimeoutMs";
    if (language === 'C++') return 'do the static initialisers\' work lazily (in the first getPoint), or make the static tables smaller — or raise the assignment\'s loadTimeoutMs';
    return "move work done when the module loads into the constructor or the first getMove — or raise the assignment's loadTimeoutMs";
  }
  if (answer.kind === 'move' && language === 'Python' && /raised FunctionTimedOut/.test(JSON.stringify(answer.value) ?? '')) {
    return "your own func_timeout fired inside get_move and its FunctionTimedOut was not caught: game.py's func_timeout turns that into None, an illegal answer, and asks again (the third loses). Catch FunctionTimedOut in get_move and return the best move found so far";
  }
  if (answer.kind === 'error') {
    const rule = sandboxRuleHint(answer.message);
    if (rule) return rule;
  }
  if (answer.kind === 'error' && language === 'C++' && answer.message.startsWith('the compiled player could not be loaded')) {
    return explainLoadFailure(answer.message)?.hint ?? 'rebuild it: g++ -std=c++17 -O2 -fPIC -shared on Linux x86-64';
  }
  return null;
}

/**
 * A refusal by design, said as one: what the rule is and what to do instead (the message itself says what was
 * refused: `the sandbox refuses os.fork …` from the Python host, `… is not allowed in this sandbox` from node's).
 */
export function sandboxRuleHint(message: string): string | null {
  if (/the sandbox refuses|is not allowed in this (sandbox|assignment)|ERR_ACCESS_DENIED/.test(message) === false) return null;
  if (/fork|process|subprocess|multiprocessing|posix_spawn|os\.system|exec|child_process|spawn/i.test(message)) {
    return 'this is a sandbox rule, not a bug: a player is one process (multiprocessing, subprocess and os.fork are refused; the platform also times one process). Search in this process — threads are allowed — or make the search cheaper';
  }
  if (/worker_threads|Worker/.test(message)) {
    return "this is a sandbox rule, not a bug: worker threads are refused (node's permission model). Search in the main thread, budgeting with moveInfo().timeLimitMs";
  }
  if (/socket|network|connect/i.test(message)) return 'this is a sandbox rule, not a bug: players have no network. Keep everything the player needs in the submission';
  if (/reading|writing|path|open/i.test(message)) {
    return 'this is a sandbox rule, not a bug: a player reads only its own submission folder and writes only its private /tmp. Keep data files inside the submission and open them by a path relative to it';
  }
  if (/import of/.test(message)) return "this is a sandbox rule of the assignment: import only the built-ins it allows (its allowImports) and your own files";
  return 'this is a sandbox rule, not a bug: the sandbox refuses what the message names; do the work another way (see the student guide, "What the sandbox refuses")';
}

/** The sandbox layers as a list of names; a Python child has the audit hook where node has its permission model. */
function activeLayers(layers: Layers, language: SubmissionLanguage | undefined): string[] {
  return isolationRecord(layers, runtimeOf(language)).layers;
}

export async function checkSubmission(path: string, options: CheckOptions = {}): Promise<CheckResult> {
  const started = performance.now();
  const gameId = options.game ?? 'reversi';
  const game = getGame(gameId);
  const layers = options.layers ?? detectLayers();
  const steps: CheckStep[] = [];
  const moveTimeoutMs = options.moveTimeoutMs ?? DEFAULT_REFEREE_CONFIG.moveTimeoutMs;
  const constructTimeoutMs = options.constructTimeoutMs ?? moveTimeoutMs;
  const illegalLimit = options.illegalLimit ?? DEFAULT_REFEREE_CONFIG.illegalMoveLimit;
  // The game's course limits where the caller names none (connect4-nogo: Saiblo's 1 GB), as the games use.
  const course = configForGame(game);
  const memoryMb = options.memoryMb ?? (course.memoryMb as number);
  const loadTimeoutMs = options.loadTimeoutMs ?? (course.loadTimeoutMs as number);
  const limits = {
    moveTimeoutMs,
    constructTimeoutMs,
    loadTimeoutMs,
    illegalLimit,
    memoryMb,
    source: options.limitsSource ?? "the course platform's defaults",
  };
  const result = (): CheckResult => {
    for (const id of Object.keys(TITLES) as StepId[]) {
      if (steps.some((step) => step.id === id)) continue;
      // Type checks are TypeScript's: for another language they do not apply (nothing failed before them).
      const applies = id !== 'types' || !submission || submission.entry.endsWith('.ts');
      steps.push(applies ? { id, title: TITLES[id], status: 'skip' } : { id, title: TITLES[id], status: 'skip', detail: `does not apply: only TypeScript is type-checked (this is ${submission?.language ?? 'another language'})` });
    }
    steps.sort((a, b) => Object.keys(TITLES).indexOf(a.id) - Object.keys(TITLES).indexOf(b.id));
    if (submission?.language === 'Python' && !submission.botzone) for (const step of steps) step.title = PYTHON_TITLES[step.id] ?? step.title;
    if (submission?.language === 'C++' && !submission.botzone) for (const step of steps) step.title = CPP_TITLES[step.id] ?? step.title;
    return {
      ok: steps.every((step) => step.status !== 'fail'),
      limits,
      submission: path,
      entry: submission?.entry,
      ...(submission ? { language: submission.language } : {}),
      game: gameId,
      steps,
      // A Botzone bot has no in-process layer, whatever its language (as the C++ host).
      layers: submission?.botzone ? isolationRecord(layers, 'cpp').layers : activeLayers(layers, submission?.language),
      hardened: isHardened(layers, submission?.botzone ? 'cpp' : runtimeOf(submission?.language)),
      durationMs: Math.round(performance.now() - started),
    };
  };
  const step = (id: StepId, status: StepStatus, extra: Partial<CheckStep> = {}): void => {
    steps.push({ id, title: TITLES[id], status, ...extra });
  };

  let submission: ResolvedSubmission | undefined;
  try {
    submission = resolveSubmission(path, options.limits, options.entry, options.protocol);
    if (submission.notes) step('entry', 'warn', { detail: `${submission.entry}: ${submission.notes.join('; ')}`, hint: 'name the entry AIPlayer.py (Python) or src/AIPlayer.ts, or pass --entry FILE' });
    else step('entry', 'pass', { detail: submission.entry });
  } catch (error) {
    const hint = error instanceof SubmissionError && error.hint ? error.hint : 'pass AIPlayer.py or src/AIPlayer.ts, the folder that holds it, or --entry FILE with the folder';
    step('entry', 'fail', { detail: (error as Error).message, hint });
    return result();
  }

  const types: Promise<TypeCheckResult> | null =
    options.typeCheck !== false && submission.entry.endsWith('.ts') ? typeCheck(submission, gameId) : null;
  const finishTypes = async (): Promise<void> => {
    if (!types) return;
    const checked = await types;
    if (checked.graderError) throw new GraderError(checked.graderError);
    if (!checked.ran) step('types', 'skip', { detail: checked.note });
    else if (checked.problems.length === 0) step('types', 'pass');
    else {
      step('types', 'warn', {
        detail: 'the type check found errors (listed below); the code still runs',
        hint: 'fix the types: the platform compiles with tsc',
        problems: checked.problems,
      });
    }
  };

  let bundlePath: string;
  let files: string[] | undefined;
  try {
    const compiled = await compileSubmission(submission, { allowImports: options.allowImports });
    bundlePath = compiled.bundlePath;
    files = compiled.files;
    const platformFails = compiled.warnings.find((problem) => problem.text.startsWith('on the platform this fails'));
    if (platformFails) {
      // It plays here (the host falls back to a positional call), but the platform's game.py would not run it.
      step('compile', 'warn', {
        detail: `${platformFails.file}:${platformFails.line}: ${platformFails.text}`,
        hint: 'write def get_move(self, board): (and def get_move(self, board, info=None): for the move info: game.py calls get_move(board=board))',
        problems: compiled.warnings,
      });
    } else step('compile', 'pass', compiled.warnings.length > 0 ? { problems: compiled.warnings } : {});
  } catch (error) {
    if (!(error instanceof CompileError)) throw error;
    step('compile', 'fail', {
      // The places are listed once, under the step (problems), each as file:line:col.
      detail: error.problems.length === 1 ? '1 error' : `${error.problems.length} errors`,
      hint: error.problems.some((p) => p.text.includes('graded alone'))
        ? 'grade the folder that holds your files (a single file is graded alone)'
        : error.problems.some((p) => p.text.includes('not allowed') || p.text.includes('outside'))
        ? 'import only files inside your submission folder (and referee)'
        : error.problems.some((p) => p.text.includes('python3'))
          ? 'install python3 (>= 3.8) where referee runs, or set REFEREE_PYTHON'
          : error.problems.some((p) => p.text.includes('of CPU and was stopped') || p.text.includes('without progress'))
            ? 'make the compile-time computation end (or compute the table when the program runs); REFEREE_TOOL_CPU_S raises the bound'
          : error.problems.some((p) => p.text.startsWith('Windows-only code'))
            ? 'make the code portable as the line above says: Referee builds with g++ on Linux'
            : submission?.language === 'Java'
              ? error.problems.some((p) => p.text.includes('unmappable character'))
                ? 'Botzone compiles with javac -encoding utf-8: save the file as UTF-8 (GBK comments fail there too)'
                : "Botzone compiles the one file as Main.java (javac -encoding utf-8) and runs java Main: the same errors fail it there; fix them at the places listed"
            : submission?.language === 'C++'
              ? 'fix the compile errors at the places listed'
              : 'fix the syntax at the places listed',
      problems: error.problems,
    });
    // Code that does not parse gets no type errors: they would repeat the syntax errors in tsc's words.
    if (types) step('types', 'skip', { detail: 'the code does not compile' });
    return result();
  }

  if (submission.botzone) {
    // A Botzone bot is checked by the judge's protocol and limits (check-botzone.ts), not the AIPlayer contract.
    // This bot's own limit: Botzone's 1 s times its language's multiplier (Java 3 s, Python 6 s), the first turn doubled.
    const multiplier = BOTZONE_PRESET.timeMultipliers?.[submission.language] ?? 1;
    limits.moveTimeoutMs = BOTZONE_PRESET.moveTimeoutMs! * multiplier;
    limits.constructTimeoutMs = BOTZONE_PRESET.moveTimeoutMs! * multiplier * BOTZONE_PRESET.firstMoveFactor!;
    limits.illegalLimit = 1;
    limits.memoryMb = options.memoryMb ?? 256;
    limits.source = "Botzone's judge (1 s a turn x language: C++ 1, JavaScript 2, Java 3, Python 6; first turn x2; one invalid action loses)";
    // Loaded only for a Botzone bot: its player and the match runner are most of a course check's unused code.
    const { checkBotzoneBot } = await import('./check-botzone.js');
    steps.push(...(await checkBotzoneBot({ game, submission, bundlePath, files, layers, seed: options.seed ?? 1, ...(options.memoryMb !== undefined ? { memoryMb: options.memoryMb } : {}) })));
    return result();
  }
  const newPlayer = (): SandboxPlayer => new SandboxPlayer({
    name: 'check',
    bundlePath,
    submissionRoot: submission.root,
    ...(files ? { files } : {}),
    game: gameId,
    memoryMb,
    allowImports: options.allowImports,
    layers,
    runtime: runtimeOf(submission.language),
    creditCpuWaits: true,
  });
  let player = newPlayer();
  const language = submission.language;
  let hints = fixes(language);
  // Pushes the sandboxed steps; returns early at the first failure.
  const play = async (): Promise<void> => {
    const start = async (side: 0 | 1, state: unknown): Promise<PlayerAnswer> =>
      unstalled(await player.startGame({ game: gameId, side, seed: options.seed ?? 1, initialState: game.encode(state), timeLimitMs: constructTimeoutMs, loadTimeLimitMs: loadTimeoutMs }));

    // Construct for both colours; the first start also loads the module (and tells us what it exports).
    const initial = game.initial(options.seed ?? 1);
    for (const side of [0, 1] as const) {
      const answer = await start(side, initial);
      const exported = player.exports;
      if (!steps.some((s) => s.id === 'export') && exported) {
        if (exported.entry && (exported.getMoveParams ?? 0) >= 2) {
          // Only the board is passed (as game.py does): a second parameter without a default is always undefined.
          step('export', 'warn', {
            detail: `uses ${exported.entry}; getMove declares ${exported.getMoveParams} parameters, but it is called getMove(board) with one argument, as on the platform`,
            hint: "read the move info with moveInfo() (import { moveInfo } from 'board-referee', as the starter does) instead of a second parameter",
          });
        } else if (exported.entry) step('export', 'pass', { detail: `uses ${exported.entry}` });
        else {
          step('export', 'fail', { detail: `found: ${exported.exports.join(', ') || 'no exports'}`, hint: exportHint(exported.exports, 'AIPlayer', language), ...evidence(answer) });
          return;
        }
        if (language === 'C++' && exported.entry === 'AIPlayer') hints = { ...hints, ...CPP_AIPLAYER_FIX };
      }
      if (answer.kind !== 'ready') {
        const why = failure(game, answer, constructTimeoutMs, language);
        // A load that took the time is not a missing export: the loading step (construct) names it.
        const failedStep: StepId = exported || (answer.kind === 'timeout' && answer.loading === true) ? 'construct' : 'export';
        // A program that reads stdin fails here for want of a class; a Botzone bot without Botzone's signs is one.
        const hint = submission.wholeProgram && !exported?.entry ? `${why.hint}; ${WHOLE_PROGRAM_HINT}` : why.hint;
        step(failedStep, 'fail', { detail: `${game.symbols[side]}: ${why.detail}`, hint, ...evidence(answer) });
        return;
      }
      await player.endGame();
    }
    step('construct', 'pass', { detail: `${game.symbols.join(' and ')}` });

    // The gate is the contract: the opening positions (both colours). Later positions only warn: an AI that
    // fails after 20 moves still plays its games, and the games decide.
    const played: string[] = [];
    const later: string[] = [];
    let slowest = 0;
    let laterWarning: CheckStep | null = null;
    let tampered: CheckStep | null = null;
    for (const probe of probePositions(game, options.seed ?? 1)) {
      const gate = probe.label.startsWith('opening');
      // Output printed by earlier calls of this probe (constructor, illegal attempts) precedes its failure.
      const printed: string[] = [];
      const keep = (answer: PlayerAnswer): void => {
        if (answer.output?.text) printed.push(...answer.output.text.replace(/\n$/, '').split('\n'));
      };
      const ready = await start(probe.side, probe.state);
      if (ready.kind !== 'ready') {
        const why = failure(game, ready, constructTimeoutMs, language);
        const found = { detail: `${probe.label}: constructing again: ${why.detail}`, hint: why.hint, ...evidence(ready, printed) };
        if (gate) {
          step('moves', 'fail', found);
          return;
        }
        laterWarning ??= { id: 'later', title: TITLES.later, status: 'warn', ...found };
        continue;
      }
      keep(ready);
      let outcome: { ok: true; move: string } | { ok: false; detail: string; hint: string; answer: PlayerAnswer } | null = null;
      let turnUsedMs = 0;
      for (let attempt = 1; attempt <= illegalLimit && outcome === null; attempt++) {
        const info: MoveInfo = {
          color: game.symbols[probe.side],
          timeLimitMs: moveTimeoutMs,
          // The default turnTimeoutMs (the move limit, as game.py); the check itself times each ask only.
          turnTimeLimitMs: moveTimeoutMs,
          turnTimeUsedMs: Math.round(turnUsedMs),
          moveNumber: 1,
          timeUsedMs: 0,
          attempt,
          attemptsAllowed: illegalLimit,
          lastMove: null,
        };
        const asked = performance.now();
        const waitingAfterMs = options.waitingAfterMs ?? 5000;
        const waiting = options.onWaiting && waitingAfterMs < moveTimeoutMs
          ? setTimeout(() => options.onWaiting?.(waitingAfterMs, moveTimeoutMs), waitingAfterMs)
          : null;
        const answer = unstalled(
          await player.requestMove({ state: game.encode(probe.state), info }).finally(() => {
            if (waiting) clearTimeout(waiting);
          }),
        );
        const tookMs = performance.now() - asked;
        turnUsedMs += tookMs;
        if (answer.kind !== 'timeout') slowest = Math.max(slowest, tookMs);
        // 'tamper': the board differs from the turn's start after this ask. As in game.py, only the ask that
        // ends the turn counts (a board changed and restored between asks is fine).
        const changed = answer.kind === 'tamper';
        const judged = judgeAnswer(game, probe.state, changed ? { kind: 'move', value: answer.value } : answer, moveTimeoutMs);
        if (judged.verdict === 'ok') outcome = { ok: true, move: judged.move };
        else if (judged.verdict !== 'illegal' || attempt === illegalLimit) {
          outcome = { ok: false, detail: describeJudged(judged), hint: causeHint(answer, language) ?? hints[judged.verdict] ?? '', answer };
        } else keep(answer);
        if (changed && outcome !== null) {
          const detail = `${probe.label}: ${answer.detail ?? 'changed the board'}`;
          if (gate) tampered ??= { id: 'tamper', title: TITLES.tamper, status: 'fail', detail, hint: hints.tamper, ...evidence(answer, printed) };
          else laterWarning ??= { id: 'later', title: TITLES.later, status: 'warn', detail, hint: hints.tamper, ...evidence(answer, printed) };
        }
      }
      await player.endGame();
      if (outcome && !outcome.ok) {
        const found = { detail: `${probe.label}: ${outcome.detail}`, hint: outcome.hint, ...evidence(outcome.answer, printed) };
        if (gate) {
          step('moves', 'fail', found);
          if (tampered) steps.push(tampered);
          return;
        }
        laterWarning ??= { id: 'later', title: TITLES.later, status: 'warn', ...found };
        continue;
      }
      if (outcome?.ok) (gate ? played : later).push(`${probe.label} → ${outcome.move}`);
    }
    const pace = options.pace;
    if (pace && slowest > pace.moveTimeoutMs) {
      step('moves', 'warn', {
        detail: `${played.join('; ')}; the slowest answer took ${formatSeconds(slowest)}: within the platform's ${formatSeconds(moveTimeoutMs)}, over ${pace.source}'s ${formatSeconds(pace.moveTimeoutMs)} a move`,
        hint: language === 'Python'
          ? `under ${pace.source} a move over ${formatSeconds(pace.moveTimeoutMs)} loses: stop your search early (check time.monotonic() against a budget below the limit), or grade with the course's own assignment (--config)`
          : `under ${pace.source} a move over ${formatSeconds(pace.moveTimeoutMs)} loses: stop your search early (moveInfo().timeLimitMs gives the limit), or grade with the course's own assignment (--config)`,
      });
    } else step('moves', 'pass', { detail: played.join('; ') });
    steps.push(tampered ?? { id: 'tamper', title: TITLES.tamper, status: 'pass' });
    if (laterWarning) steps.push(laterWarning);
    else step('later', 'pass', later.length > 0 ? { detail: later.join('; ') } : {});
  };
  // A timeout that the grader's load caused (the player waited for a CPU) is no verdict: the sandboxed steps run
  // again in a fresh player, and after three such timeouts the check is the grader's error, never the student's.
  const settled = steps.length;
  for (let attempt = 1; ; attempt++) {
    try {
      await play();
      break;
    } catch (error) {
      if (!(error instanceof GraderStall)) throw error;
      steps.length = settled;
      if (attempt === STALL_ATTEMPTS) throw new GraderError(`the interface check could not be timed fairly (${error.message}, ${STALL_ATTEMPTS} times): grade with fewer jobs at once, then run again`);
    } finally {
      await player.close();
    }
    player = newPlayer();
  }
  await finishTypes();
  return result();
}
