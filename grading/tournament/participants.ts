/**
 * Tournament participants: a student's submission (compiled once here to learn its hash, or why it cannot play)
 * or a reference AI by name — `weighted`, or `mcts:2000` for the generic UCT search with another playout budget.
 * A participant is plain data (ParticipantSpec) so a game job can cross a process or a queue; createPlayer turns
 * it into a Player where the game is played.
 */
import { extname, resolve } from 'node:path';
import { getGame } from '../../harness/games/registry.js';
import type { AgentFactory } from '../../harness/referee/agent.js';
import { InProcessPlayer } from '../../harness/referee/in-process.js';
import type { Player } from '../../harness/referee/player.js';
import { compileSubmission } from '../../harness/submission/compile.js';
import { createSubmissionPlayer } from '../../harness/submission/player.js';
import { resolveSubmission } from '../../harness/submission/resolve.js';
import { mctsAgent } from '../../reference-ai/generic/mcts.js';
import { referenceAgent, referenceNames } from '../../reference-ai/index.js';
import { sha256 } from '../assignment.js';

export interface ParticipantSpec {
  /** Unique within the tournament: a student id, or the reference AI's name. */
  id: string;
  kind: 'submission' | 'reference';
  /** Reference AIs: the name as given (`weighted`, `mcts:2000`); submissions: the path graded. */
  source: string;
  /** The code that plays: the compiled bundle's hash, or `reference:<game>:<name>`. Keys the journal. */
  hash: string;
  language: string;
}

/** The most playouts `mcts:N` accepts (10^6 a move is minutes per game already). */
const MAX_PLAYOUTS = 1_000_000;

/** Whether `arg` names a reference AI of the game (`weighted`, `mcts:2000`). */
export function isReferenceName(game: string, arg: string): boolean {
  const [name, budget] = arg.split(':');
  if (!referenceNames(game).includes(name)) return false;
  return budget === undefined || name === 'mcts';
}

/** The agent for a reference name; throws a one-line error naming the fix for a bad budget. */
export function referenceFactory(game: string, arg: string): AgentFactory {
  const [name, budget, ...rest] = arg.split(':');
  if (budget === undefined) return referenceAgent(game, name);
  if (name !== 'mcts' || rest.length > 0) throw new Error(`${arg}: only mcts takes a budget (mcts:2000 = 2000 playouts a move)`);
  const playouts = Number(budget);
  if (!/^\d+$/.test(budget) || playouts < 1 || playouts > MAX_PLAYOUTS) {
    throw new Error(`${arg}: the playout budget must be a whole number from 1 to ${MAX_PLAYOUTS}, e.g. mcts:2000`);
  }
  return mctsAgent({ playouts });
}

export function referenceSpec(game: string, arg: string): ParticipantSpec {
  referenceFactory(game, arg);
  return { id: arg, kind: 'reference', source: arg, hash: sha256(`reference:${game}:${arg}`), language: 'reference AI' };
}

const LANGUAGES: Record<string, string> = { '.ts': 'TypeScript', '.js': 'JavaScript', '.mjs': 'JavaScript', '.cjs': 'JavaScript', '.py': 'Python' };

/** A submission ready to play (spec) or one that cannot (problem, phrased as the fix). */
export type SubmissionOutcome = { spec: ParticipantSpec; problem?: undefined } | { spec: ParticipantSpec; problem: string };

/** Resolve and compile a submission; a failure is the participant's problem, never the tournament's. */
export async function submissionSpec(id: string, path: string): Promise<SubmissionOutcome> {
  const absolute = resolve(path);
  const spec: ParticipantSpec = { id, kind: 'submission', source: absolute, hash: sha256(`missing:${absolute}`), language: LANGUAGES[extname(absolute)] ?? 'unknown' };
  try {
    const resolved = resolveSubmission(absolute);
    spec.language = LANGUAGES[extname(resolved.entry)] ?? spec.language;
    spec.hash = (await compileSubmission(resolved)).hash;
    return { spec };
  } catch (error) {
    return { spec, problem: (error as Error).message.split('\n')[0] };
  }
}

/** The Player for a participant (a sandboxed submission, or a reference AI in this process). */
export async function createPlayer(spec: ParticipantSpec, game: string): Promise<Player> {
  if (spec.kind === 'reference') return new InProcessPlayer(spec.id, referenceFactory(game, spec.source), getGame);
  return createSubmissionPlayer(spec.source, { game, name: spec.id });
}
