/** Shared by the grading, report and template tests: small assignments and contestants that count their games. */
import type { Player } from '../../harness/referee/player.js';
import { resolveAssignment, type Assignment } from '../../grading/assignment.js';
import { referenceContestant, type Contestant } from '../../grading/contestant.js';
import type { InterfaceCheckResult } from '../../grading/grade-result.js';

/** Two cheap opponents, two games each: a whole grade in well under a second with in-process players. */
export const SMALL_ASSIGNMENT_JSON = {
  title: 'Small test assignment',
  moveTimeoutMs: 5000,
  parallelGames: 2,
  interfaceCheck: { points: 10 },
  opponents: [
    { name: 'random', games: 2, points: 20, seed: 7, scoring: { rule: 'linear', minWinRate: 0, fullWinRate: 1 } },
    { name: 'greedy', games: 2, points: 30, seed: 8, scoring: { rule: 'threshold', winRate: 0.5 }, visibility: 'hidden' },
  ],
};

export function smallAssignment(overrides: Record<string, unknown> = {}): Assignment {
  return resolveAssignment({ ...SMALL_ASSIGNMENT_JSON, ...overrides });
}

/** A reference contestant whose players count the games they start. */
export function countingContestant(name: string, game = 'reversi'): Contestant & { starts: () => number } {
  const inner = referenceContestant(game, name);
  let starts = 0;
  return {
    submission: inner.submission,
    check: () => inner.check(),
    async createPlayer(): Promise<Player> {
      const player = await inner.createPlayer();
      return {
        name: player.name,
        startGame: (start) => {
          starts += 1;
          return player.startGame(start);
        },
        requestMove: (request) => player.requestMove(request),
        abort: (reason) => player.abort(reason),
        endGame: () => player.endGame(),
        close: () => player.close(),
      };
    },
    starts: () => starts,
  };
}

/** A contestant that fails the interface check with student-controlled text in it. */
export function failingContestant(detail: string): Contestant {
  const check: InterfaceCheckResult = {
    passed: false,
    layers: ['permission'],
    output: detail,
    items: [
      { id: 'entry', title: 'found the entry', status: 'pass', detail: 'AIPlayer.ts' },
      { id: 'export', title: 'exports AIPlayer', status: 'fail', detail, fix: 'export a class named AIPlayer' },
      { id: 'moves', title: 'getMove returns a legal move', status: 'skip' },
    ],
  };
  return {
    submission: { name: 'broken.ts', path: 'broken.ts', hash: 'f'.repeat(64), language: 'TypeScript', kind: 'submission' },
    check: async () => check,
    createPlayer: async () => {
      throw new Error('a failed interface check must not create players');
    },
  };
}
