/**
 * Behaviour similarity: a port of a classmate's bot to another language shares no tokens with it, but it still
 * chooses the same moves. Every submission answers the same probe positions (drawn, seeded, from reference games
 * of the assignment's game), in the sandbox, twice each; a pair is judged against how often each agrees with
 * itself (a copy agrees with the original as often as the original agrees with itself, MCTS noise included) and
 * against how often independent players agree on each position (the class's own answers and the reference AIs').
 */
import { performance } from 'node:perf_hooks';
import type { AnyGame, Side } from '../../harness/games/game.js';
import { getGame } from '../../harness/games/registry.js';
import { askWithin, settleWithin } from '../../harness/referee/ask.js';
import { configForGame, type RefereeConfig } from '../../harness/referee/config.js';
import { isGraderError } from '../../harness/referee/grader-error.js';
import { findLegalMove } from '../../harness/referee/legal-move.js';
import type { MoveInfo, Player, PlayerAnswer } from '../../harness/referee/player.js';
import { createRng, deriveSeed } from '../../harness/referee/seed.js';
import { createSubmissionPlayer } from '../../harness/submission/player.js';
import { referenceLevels } from '../../reference-ai/index.js';
import { randomOpening } from '../../reference-ai/opening.js';
import type { Assignment } from '../assignment.js';
import { submissionLimits } from '../check-limits.js';

export interface ProbePosition {
  /** The encoded state (the game's own codec). */
  state: string;
  side: Side;
  legal: number;
  /** Where it was drawn from, e.g. 'ply 17 of weighted vs mcts (seed 3)'. */
  origin: string;
}

export interface ProbeOptions {
  /** Positions (default 24); each is asked twice. */
  positions?: number;
  seed?: number;
  /** The per-ask limit a player is told and held to (default the assignment's, at most 10 s). */
  moveTimeoutMs?: number;
  /** Consecutive failed asks with no answer yet that end a student's probing (default 4). */
  giveUpAfter?: number;
}

export const DEFAULT_PROBES = 24;
/** Allowance for a sandbox's first start (bubblewrap, a host compiled on first use) beyond the constructor's limit. */
const SANDBOX_STARTUP_MS = 60_000;
const REPEATS = 2;

function dummyInfo(game: AnyGame, side: Side, limitMs: number): MoveInfo {
  return { color: game.symbols[side], timeLimitMs: limitMs, turnTimeLimitMs: limitMs, turnTimeUsedMs: 0, moveNumber: 1, timeUsedMs: 0, attempt: 1, attemptsAllowed: 1, lastMove: null };
}

/** The reference AIs cheap enough to play probe games and answer every probe (the game's ladder minus the heavy). */
function probeLevels(gameId: string) {
  return referenceLevels(gameId).filter((level) => level.heavy !== true);
}

/**
 * `count` distinct positions from seeded reference games (a short random opening, then two reference AIs),
 * each with at least three legal moves where the game offers them: a position with one sensible move says
 * nothing about who copied whom.
 */
export function drawProbes(assignment: Assignment, count = DEFAULT_PROBES, seed = 1): ProbePosition[] {
  const game = getGame(assignment.game);
  const config = configForGame(game, assignment.referee);
  const levels = probeLevels(game.id).filter((level) => level.name !== 'random');
  const players = levels.length > 0 ? levels : probeLevels(game.id);
  const rng = createRng(deriveSeed(seed, 0));
  const seen = new Set<string>();
  const probes: ProbePosition[] = [];
  for (let match = 0; probes.length < count && match < count * 4; match++) {
    const gameSeed = deriveSeed(seed, match + 1);
    const black = players[rng.int(players.length)];
    const white = players[rng.int(players.length)];
    let state = game.initial(gameSeed, config.gameRules);
    const opening = randomOpening(game, state, gameSeed, 4 + rng.int(6));
    const agents = [black.factory(game, 0, gameSeed, state), white.factory(game, 1, deriveSeed(gameSeed, 1), state)];
    const positions: { state: unknown; ply: number; legal: number }[] = [];
    for (let ply = 0; ply < 400 && !game.isTerminal(state); ply++) {
      const legal = game.legalMoves(state);
      if (legal.length === 0) {
        state = game.pass(state);
        continue;
      }
      const side = game.toMove(state);
      if (legal.length >= 3 || (legal.length === 2 && ply > 6)) positions.push({ state, ply, legal: legal.length });
      const booked = opening.get(game.encode(state));
      state = game.apply(state, booked ?? agents[side].choose(state, dummyInfo(game, side, config.moveTimeoutMs)));
    }
    // Two positions a game, at different depths, keep the probes spread over openings, middle games and endings.
    for (let pick = 0; pick < 2 && positions.length > 0 && probes.length < count; pick++) {
      const chosen = positions.splice(rng.int(positions.length), 1)[0];
      const encoded = game.encode(chosen.state);
      if (seen.has(encoded)) continue;
      seen.add(encoded);
      probes.push({ state: encoded, side: game.toMove(chosen.state), legal: chosen.legal, origin: `ply ${chosen.ply} of ${black.name} vs ${white.name} (seed ${gameSeed})` });
    }
  }
  return probes;
}

/** The time per probe move a player is told and held to: `override`, else the assignment's, at most 10 s. */
export function probeLimitMs(assignment: Assignment, override?: number): number {
  return override ?? Math.min(configForGame(getGame(assignment.game), assignment.referee).moveTimeoutMs, 10_000);
}

/** The seed a probe's ask r plays under (the same for every student, so seeded randomness is comparable). */
export const probeSeed = (seed: number, position: number, repeat: number): number => deriveSeed(deriveSeed(seed, position + 1000), repeat);

export interface ProbeAnswers {
  id: string;
  /** Per position, per ask: the move's notation, or null (no legal answer). */
  moves: (string | null)[][];
  /** Asks made and legal answers got. */
  asked: number;
  answered: number;
  /** Why asks failed (the first few distinct reasons). */
  failures: string[];
  /** Set when probing stopped early (every ask failing) or could not start. */
  stopped?: string;
  /** Wall time of this student's probing, sandbox start-up included, and CPU the sandbox measured. */
  wallMs: number;
  cpuMs: number;
}

function failureText(answer: PlayerAnswer | null, limitMs: number): string {
  if (answer === null) return `no answer within ${limitMs} ms`;
  switch (answer.kind) {
    case 'error':
    case 'crash':
    case 'memory':
    case 'protocol':
      return `${answer.kind}: ${answer.message.split('\n')[0].slice(0, 200)}`;
    case 'timeout':
      return `no answer within ${limitMs} ms`;
    case 'tamper':
      return 'changed the board it was handed';
    default:
      return answer.kind;
  }
}

/**
 * Ask one submission every probe, twice, in one warm sandboxed player (a fresh AIPlayer per ask, as per game).
 * Never throws for the student's faults: a submission that does not build or crashes gets no answers and a reason.
 */
export async function probeSubmission(id: string, path: string, assignment: Assignment, probes: ProbePosition[], options: ProbeOptions = {}): Promise<ProbeAnswers> {
  const game = getGame(assignment.game);
  const config: RefereeConfig = configForGame(game, assignment.referee);
  const limitMs = probeLimitMs(assignment, options.moveTimeoutMs);
  const giveUpAfter = options.giveUpAfter ?? 4;
  const seed = options.seed ?? 1;
  const result: ProbeAnswers = { id, moves: probes.map(() => Array.from({ length: REPEATS }, () => null)), asked: 0, answered: 0, failures: [], wallMs: 0, cpuMs: 0 };
  const started = performance.now();
  const fail = (reason: string): void => {
    if (result.failures.length < 5 && !result.failures.includes(reason)) result.failures.push(reason);
  };
  let player: Player;
  try {
    player = await createSubmissionPlayer(path, { game: game.id, name: id, limits: submissionLimits(assignment), entry: assignment.entry });
  } catch (error) {
    if (isGraderError(error)) throw error;
    result.stopped = `does not build: ${(error as Error).message.split('\n')[0].slice(0, 300)}`;
    result.wallMs = Math.round(performance.now() - started);
    return result;
  }
  let failedInARow = 0;
  try {
    outer: for (let repeat = 0; repeat < REPEATS; repeat++) {
      for (let position = 0; position < probes.length; position++) {
        const probe = probes[position];
        result.asked += 1;
        const start = await askWithin(
          () => player.startGame({ game: game.id, side: probe.side, seed: probeSeed(seed, position, repeat), initialState: probe.state, seedRandom: config.seedPlayerRandom !== false, timeLimitMs: config.constructTimeoutMs }),
          // The sandbox holds the constructor to its limit itself; this outer bound also covers a cold start (the
          // sandbox's own start-up, a host built on first use), which is never the student's time.
          config.constructTimeoutMs + SANDBOX_STARTUP_MS,
        );
        let move: string | null = null;
        if (start.answer?.kind === 'ready') {
          result.cpuMs += start.answer.cpuMs ?? 0;
          const asked = await askWithin(() => player.requestMove({ state: probe.state, info: dummyInfo(game, probe.side, limitMs) }), limitMs + 2000);
          if (asked.answer === null) await settleWithin(async () => { await player.abort(`no answer within ${limitMs} ms`); }, 5000);
          if (asked.answer?.kind === 'move') {
            result.cpuMs += asked.answer.cpuMs ?? 0;
            const state = game.decode(probe.state);
            const legal = game.legalMoves(state);
            const found = findLegalMove(game, legal, asked.answer.value);
            if (typeof found === 'number') move = game.formatMove(legal[found]);
            else fail(`answered an illegal move (${found})`);
          } else {
            fail(failureText(asked.answer, limitMs));
          }
        } else {
          if (start.answer === null) await settleWithin(async () => { await player.abort('construction took too long'); }, 5000);
          fail(`could not be constructed: ${failureText(start.answer, config.constructTimeoutMs)}`);
        }
        await settleWithin(() => player.endGame(), 5000);
        result.moves[position][repeat] = move;
        if (move !== null) {
          result.answered += 1;
          failedInARow = 0;
        } else if (++failedInARow >= giveUpAfter && result.answered === 0) {
          result.stopped = `failed the first ${failedInARow} probes, so probing stopped`;
          break outer;
        }
      }
    }
  } finally {
    await settleWithin(() => player.close(), 10_000);
  }
  result.wallMs = Math.round(performance.now() - started);
  result.cpuMs = Math.round(result.cpuMs);
  return result;
}

/** The reference AIs' answers to every probe (one per AI per position): anchors for how often independent players agree. */
export function referenceAnswers(assignment: Assignment, probes: ProbePosition[], seed = 1): ProbeAnswers[] {
  const game = getGame(assignment.game);
  const config = configForGame(game, assignment.referee);
  return probeLevels(game.id).map((level) => {
    const started = performance.now();
    const moves = probes.map((probe, position) => {
      const state = game.decode(probe.state);
      const agent = level.factory(game, probe.side, probeSeed(seed, position, 0), state);
      return [game.formatMove(agent.choose(state, dummyInfo(game, probe.side, config.moveTimeoutMs)))];
    });
    return { id: `reference AI ${level.name}`, moves, asked: probes.length, answered: probes.length, failures: [], wallMs: Math.round(performance.now() - started), cpuMs: 0 };
  });
}

export interface BehaviourPair {
  a: string;
  b: string;
  /** 0 = as alike as independent players, 1 = as alike as each is with itself. */
  score: number;
  flagged: boolean;
  basis: {
    /** Positions both answered. */
    positions: number;
    /** How often a's and b's answers agree (every ask of a against every ask of b). */
    agreement: number;
    /** How often each agrees with itself on a second ask ([a, b]). */
    selfAgreement: [number, number];
    /** How often independent players (the rest of the class and the reference AIs) agree on these positions. */
    expected: number;
    /** Standard deviations the agreement lies above the expected. */
    z: number;
    /** The class's median agreement between two of its submissions. */
    classMedian: number;
    /** Share of the class's pairs that agree less than this one. */
    classPercentile: number;
    /**
     * A public player (the starter, a reference AI) both agree with as often as with each other: what they share
     * is that player's behaviour, not each other's, so the pair is not flagged on behaviour.
     */
    explainedBy?: string;
  };
}

export interface BehaviourThresholds {
  score: number;
  z: number;
}

export const BEHAVIOUR_THRESHOLDS: BehaviourThresholds = { score: 0.85, z: 3.5 };

/** A student's answers usable for a score: at least half the positions answered on both asks. */
export function usable(answers: ProbeAnswers): boolean {
  const both = answers.moves.filter((asks) => asks.every((move) => move !== null)).length;
  return both >= Math.max(4, Math.ceil(answers.moves.length / 2));
}

function selfAgreement(answers: ProbeAnswers): number {
  let agree = 0;
  let count = 0;
  for (const asks of answers.moves) {
    if (asks[0] === null || asks[1] === null) continue;
    count += 1;
    if (asks[0] === asks[1]) agree += 1;
  }
  return count > 0 ? agree / count : 0;
}

/** Share of cross pairs of answers (every ask of x against every ask of y) at one position that agree, or null. */
function agreementAt(x: (string | null)[], y: (string | null)[]): number | null {
  let agree = 0;
  let count = 0;
  for (const mx of x) {
    if (mx === null) continue;
    for (const my of y) {
      if (my === null) continue;
      count += 1;
      if (mx === my) agree += 1;
    }
  }
  return count > 0 ? agree / count : null;
}

/**
 * Score every pair of students with usable answers. `anchors` (the reference AIs) join the class in estimating how
 * often two independent players choose the same move at each position; the pair itself is left out of that.
 */
export function scoreBehaviour(students: ProbeAnswers[], anchors: ProbeAnswers[], legalCounts: number[], thresholds = BEHAVIOUR_THRESHOLDS): BehaviourPair[] {
  const scored = students.filter(usable);
  const pool = [...scored, ...anchors];
  const positions = legalCounts.length;
  // Per position: each participant's first answer (its "vote"); counts of each move over the pool.
  const votes = pool.map((answers) => answers.moves.map((asks) => asks.find((move) => move !== null) ?? null));
  const tallies = Array.from({ length: positions }, (_, p) => {
    const counts = new Map<string, number>();
    let n = 0;
    for (const vote of votes) {
      const move = vote[p];
      if (move === null) continue;
      counts.set(move, (counts.get(move) ?? 0) + 1);
      n += 1;
    }
    return { counts, n };
  });
  /** Chance that two independent pool members other than i and j agree at p (at least chance level 1/legal). */
  const chance = (p: number, i: number, j: number): number => {
    const { counts, n: total } = tallies[p];
    const local = new Map(counts);
    let n = total;
    for (const member of [i, j]) {
      const move = votes[member][p];
      if (move === null) continue;
      local.set(move, local.get(move)! - 1);
      n -= 1;
    }
    const floor = 1 / Math.max(1, legalCounts[p]);
    if (n < 2) return floor;
    let same = 0;
    for (const count of local.values()) same += count * (count - 1);
    // Two pseudo-voters spread evenly keep a small class from calling any agreement certain.
    return Math.max(floor, (same + 2 * floor) / (n * (n - 1) + 2));
  };
  const selves = scored.map(selfAgreement);
  const raw: { i: number; j: number; agreement: number; expected: number; z: number; count: number }[] = [];
  for (let i = 0; i < scored.length; i++) {
    for (let j = i + 1; j < scored.length; j++) {
      let sum = 0;
      let expected = 0;
      let variance = 0;
      let count = 0;
      for (let p = 0; p < positions; p++) {
        const agree = agreementAt(scored[i].moves[p], scored[j].moves[p]);
        if (agree === null) continue;
        const c = chance(p, i, j);
        sum += agree;
        expected += c;
        variance += c * (1 - c);
        count += 1;
      }
      if (count === 0) continue;
      raw.push({ i, j, agreement: sum / count, expected: expected / count, z: (sum - expected) / Math.sqrt(Math.max(variance, 1e-9)), count });
    }
  }
  const agreements = raw.map((pair) => pair.agreement).sort((x, y) => x - y);
  const median = agreements.length > 0 ? agreements[Math.floor((agreements.length - 1) / 2)] : 0;
  /** Mean agreement of two participants over the positions both answered. */
  const meanAgreement = (x: ProbeAnswers, y: ProbeAnswers): number => {
    let sum = 0;
    let count = 0;
    for (let p = 0; p < positions; p++) {
      const agree = agreementAt(x.moves[p], y.moves[p]);
      if (agree === null) continue;
      sum += agree;
      count += 1;
    }
    return count > 0 ? sum / count : 0;
  };
  return raw.map(({ i, j, agreement, expected, z, count }) => {
    // What a copy would reach: two asks of the same code agree this often (for a deterministic player, always).
    const ceiling = Math.sqrt(selves[i] * selves[j]);
    const score = ceiling > expected ? Math.max(0, Math.min(1, (agreement - expected) / (ceiling - expected))) : 0;
    const below = agreements.filter((value) => value < agreement).length;
    const candidate = score >= thresholds.score && z >= thresholds.z;
    const explainedBy = candidate
      ? anchors.find((anchor) => Math.min(meanAgreement(scored[i], anchor), meanAgreement(scored[j], anchor)) >= agreement - 0.05)?.id
      : undefined;
    return {
      a: scored[i].id,
      b: scored[j].id,
      score: round(score),
      flagged: candidate && explainedBy === undefined,
      basis: {
        positions: count,
        agreement: round(agreement),
        selfAgreement: [round(selves[i]), round(selves[j])],
        expected: round(expected),
        z: round(z),
        classMedian: round(median),
        classPercentile: agreements.length > 1 ? round(below / (agreements.length - 1)) : 1,
        ...(explainedBy ? { explainedBy } : {}),
      },
    };
  });
}

const round = (value: number): number => Math.round(value * 1000) / 1000;
