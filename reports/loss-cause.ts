/**
 * Why a game was lost by force, in the words a student needs: which rule, what the submission did (the square it
 * named and why that square was refused, the exception and the line it came from, the signal that killed it, how
 * long construction took), and the fix that fits that cause. Everything comes from the game record's data (the
 * referee's forfeit, its illegal attempts with the game's own reasons, the start record); nothing is read back
 * from messages or markup.
 */
import type { ForfeitRecord, GameRecord, IllegalAttempt } from '../harness/referee/record.js';
import { count } from '../grading/words.js';

/** The kinds of forced loss a report tells apart (a timeout while building the player is not a slow search). */
export type LossCause = 'construct' | 'load' | 'timeout' | 'illegal' | 'error' | 'crash' | 'memory' | 'tamper' | 'protocol';

/** The order causes are listed in when several happened: the ones a student fixes in code first. */
export const CAUSE_ORDER: readonly LossCause[] = ['crash', 'error', 'illegal', 'tamper', 'construct', 'load', 'timeout', 'memory', 'protocol'];

export const ms = (value: number): string =>
  value >= 1000 ? `${Number((value / 1000).toFixed(1))} s` : `${value < 10 ? Number(value.toFixed(1)) : Math.round(value)} ms`;

/** The cause of a forced loss (by its record: the phase and the rule the referee named, never its message text). */
export function causeOf(loser: ForfeitRecord): LossCause {
  if (loser.verdict === 'timeout' && loser.phase === 'start') return /^loadTimeoutMs/.test(loser.rule ?? '') ? 'load' : 'construct';
  return loser.verdict;
}

const REASON_WORDS: Record<IllegalAttempt['reason'], string> = {
  'not-a-string': 'not a string',
  'not-notation': "not written in the game's move notation",
  'not-legal': 'not a legal move here',
};

/** Which rule an illegal answer broke, in the game's words where the game gave them. */
export const attemptReason = (attempt: IllegalAttempt): string => attempt.why ?? REASON_WORDS[attempt.reason];

/** One illegal answer: what came back and which rule it broke. */
export function attemptText(attempt: IllegalAttempt): string {
  const shown = attempt.returned.type === 'string' ? JSON.stringify(attempt.returned.text) : attempt.returned.text;
  return `${shown}: ${attemptReason(attempt)}`;
}

/** The attempts of a turn, repeated answers folded ('"D4": D4 is taken (3 times)'). */
export function attemptsText(attempts: readonly IllegalAttempt[]): string {
  const counted = new Map<string, number>();
  for (const attempt of attempts) counted.set(attemptText(attempt), (counted.get(attemptText(attempt)) ?? 0) + 1);
  return [...counted].map(([text, count]) => (count === 1 ? text : `${text} (${count} times)`)).join('; ');
}

/** Where a loss happened: at ply N, or while the player was being built or loaded. */
export function whenLost(record: GameRecord): string {
  const loser = record.end.loser;
  if (!loser) return `after ply ${record.turns.length}`;
  if (loser.phase === 'start') return causeOf(loser) === 'load' ? 'while the submission was loading' : 'while the AIPlayer was being built, before its first move';
  return `at ply ${record.turns.length + 1}`;
}

/** The failure in one phrase, for a game row and the replay ("KeyError: 'F3' in evaluate (AIPlayer.py, line 11)"). */
export function lossDetail(record: GameRecord): string {
  const loser = record.end.loser;
  if (!loser) return '';
  switch (causeOf(loser)) {
    case 'construct':
      return `building the AIPlayer took ${ms(loser.wallMs)}, over the ${ms(record.config.constructTimeoutMs)} allowed`;
    case 'load':
      return `loading the submission took ${ms(loser.wallMs)}, over the ${ms(record.config.loadTimeoutMs ?? loser.wallMs)} allowed`;
    case 'timeout':
      return loser.message;
    case 'illegal':
      return `${count(loser.attempts.length, 'illegal answer')} in one turn — ${attemptsText(loser.attempts)}`;
    case 'error':
      return loser.where ? `${loser.message} in ${loser.where.function} (${loser.where.file}, line ${loser.where.line})` : loser.message;
    default:
      return loser.message;
  }
}

/** 'in evaluate, AIPlayer.py line 11: ' from the first loss that says where its exception came from. */
function where(losses: readonly ForfeitRecord[]): string {
  const site = losses.find((loser) => loser.where)?.where;
  return site ? `look at ${site.file} line ${site.line} (${site.function}): ` : '';
}

/** What to do about a cause, in the submission's language. */
export function causeAdvice(cause: LossCause, language: string, losses: readonly ForfeitRecord[]): string {
  const python = /python/i.test(language);
  const cpp = /c\+\+|cpp/i.test(language);
  switch (cause) {
    case 'construct':
      return python
        ? 'keep __init__ light: store the colour and set up tables lazily, at the first get_move; load nothing large and start no search when the AIPlayer is built'
        : cpp
          ? 'keep the constructor light: fill large tables lazily, at the first getMove, or make them static data the compiler lays out'
          : 'keep the constructor light: build tables lazily, at the first getMove';
    case 'load':
      return python
        ? "code at the top level of a module runs on import (a demo game, training): put it under if __name__ == '__main__':"
        : 'work done when the code loads (static initialisers, top-level code): do it lazily, at the first move';
    case 'timeout':
      return `stop the search by the clock (${python ? 'info.time_limit_ms, with get_move(self, board, info=None)' : cpp ? 'clock() or std::chrono against the limit' : "moveInfo().timeLimitMs, import { moveInfo } from 'board-referee'"}), with a margin of 10–20%`;
    case 'illegal': {
      const reasons = new Set(losses.flatMap((loser) => loser.attempts.map((attempt) => attempt.reason)));
      const legal = python ? 'board.get_legal_actions(self.color)' : cpp ? 'board.getLegalActions(color)' : 'board.getLegalActions(this.color)';
      if (reasons.has('not-a-string')) return `return the move as a string such as 'D3', one of ${legal}, on every path of your code`;
      if (reasons.has('not-notation')) return `write moves exactly as ${legal} lists them (upper-case letter, then the number)`;
      return `answer only a move from ${legal} for the position you were given: an answer repeated after a refusal is refused again, so a stale copy of the board loses the game`;
    }
    case 'error':
      return python
        ? `${where(losses)}guard the lookup, index or call that failed there (the replay shows the position and the whole traceback)`
        : `${where(losses)}the replay shows the position and the stack; guard the lookup, index or call that failed`;
    case 'crash': {
      const signals = new Set(losses.map((loser) => loser.signal).filter(Boolean));
      if (signals.has('SIGSEGV') || signals.has('SIGBUS')) return 'look for an array index out of bounds or a pointer used after delete: build with -g -fsanitize=address,undefined and play that position with `referee play`';
      if (signals.has('SIGABRT')) return 'an assert or an uncaught exception aborted the program: build with -g and play that position with `referee play` to see which';
      if (signals.has('SIGFPE')) return 'a division by zero (or an integer overflow in a division): guard the divisor';
      return 'the process ended on its own: do not call exit() or os._exit(), and catch what your code can throw';
    }
    case 'memory':
      return 'free search trees between moves, or bound their size';
    case 'tamper':
      return python ? 'search on a copy (deepcopy(board)) and leave the board you were given as it was' : 'search on a copy of the board and leave the one you were given as it was';
    case 'protocol':
      return 'the player host broke its protocol: print nothing to the protocol pipes; if you did not, tell the instructor (this may be the grader)';
  }
}

/** A verdict counted in a summary (no record at hand), in words: 'illegal answers × 2, exception × 1'. */
export const VERDICT_WORDS: Record<ForfeitRecord['verdict'], string> = {
  timeout: 'out of time',
  illegal: 'illegal answers',
  tamper: 'changed board',
  error: 'exception',
  crash: 'crash',
  memory: 'memory',
  protocol: 'protocol',
};

/** The cause's name at the start of an advice line. */
export const CAUSE_TITLES: Record<LossCause, string> = {
  construct: 'Building the AIPlayer',
  load: 'Loading',
  timeout: 'Time',
  illegal: 'Illegal answers',
  error: 'Exception',
  crash: 'Crash',
  memory: 'Memory',
  tamper: 'Changed board',
  protocol: 'Protocol',
};
