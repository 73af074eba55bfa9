/**
 * Tournament participants: a student's submission (compiled once here into a pool artefact, or refused with the
 * reason) or a reference AI by name — `weighted`, or `mcts:2000` for the generic UCT search with another playout
 * budget. Each carries the pool's PlayerSpec, so its games can be played by any GamePool (forked workers or a
 * queue), and the hash of the code that plays, which keys the journal.
 */
import { extname, resolve } from 'node:path';
import { referenceAgentByName } from '../../reference-ai/budget.js';
import { sha256 } from '../assignment.js';
import { artefactSpec, buildArtefact, type Artefact } from '../pool/artefact.js';
import type { PlayerSpec } from '../pool/job.js';
import type { SubmissionProtocol } from '../../harness/submission/resolve.js';

export interface Participant {
  /** Unique within the tournament: a student id, or the reference AI's name. */
  id: string;
  kind: 'submission' | 'reference';
  /** Reference AIs: the name as given (`weighted`, `mcts:2000`); submissions: the path played. */
  source: string;
  /** The code that plays: the artefact's sha256, or sha256 of `reference:<game>:<name>`. Keys the journal. */
  hash: string;
  language: string;
  /** How a pool plays this participant. */
  player: PlayerSpec;
  /** A submission's compiled files, to publish to the pool before its first game. */
  artefact?: Artefact;
}

export function referenceParticipant(game: string, name: string): Participant {
  referenceAgentByName(game, name);
  return {
    id: name,
    kind: 'reference',
    source: name,
    hash: sha256(`reference:${game}:${name}`),
    language: 'reference AI',
    player: { kind: 'reference', name, ai: name, openingMoves: 0 },
  };
}

const LANGUAGES: Record<string, string> = { '.ts': 'TypeScript', '.js': 'JavaScript', '.mjs': 'JavaScript', '.cjs': 'JavaScript', '.py': 'Python', '.cpp': 'C++', '.cc': 'C++', '.so': 'C++', '.java': 'Java' };

/** A submission ready to play, or one that cannot (problem: one line naming the fix). */
export interface SubmissionOutcome {
  participant: Participant;
  problem?: string;
}

/** Resolve and compile a submission; a failure is the participant's problem, never the tournament's. */
export async function submissionParticipant(id: string, path: string, entry?: string, protocol?: SubmissionProtocol): Promise<SubmissionOutcome> {
  const absolute = resolve(path);
  const language = LANGUAGES[extname(absolute)] ?? (extname(absolute) === '' ? 'folder' : 'unknown');
  const unplayable = (problem: string): SubmissionOutcome => ({
    participant: { id, kind: 'submission', source: absolute, hash: sha256(`unplayable:${absolute}`), language, player: { kind: 'reference', name: id, ai: 'none', openingMoves: 0 } },
    problem,
  });
  try {
    const artefact = await buildArtefact(absolute, entry, protocol);
    const entryLanguage = artefact.runtime === 'python' ? 'Python' : artefact.runtime === 'cpp' ? 'C++' : artefact.runtime === 'botzone' ? 'Botzone bot' : language === 'folder' ? 'TypeScript/JavaScript' : language;
    return {
      participant: { id, kind: 'submission', source: absolute, hash: artefact.hash, language: entryLanguage, player: artefactSpec(artefact, id), artefact },
    };
  } catch (error) {
    return unplayable((error as Error).message.split('\n')[0]);
  }
}
