/**
 * What makes finished work reusable. A grade is reused when the submission, the resolved config and the harness
 * are all unchanged. A game is reused when everything that decides its moves is unchanged — so a config edit
 * that only moves points (or adds games to one item) re-scores everyone but replays only the games it changes.
 */
import type { Side } from '../../harness/games/game.js';
import type { RefereeConfig } from '../../harness/referee/config.js';
import { canonicalJson, sha256 } from '../assignment.js';

/** The grade cache key: submission hash + config hash + harness version. */
export function gradeCacheKey(parts: { submissionHash: string; configHash: string; harness: string }): string {
  return sha256(canonicalJson(parts));
}

/** Everything that decides one game between a submission and a reference opponent. */
export interface PlayParts {
  harness: string;
  /** The compiled bundle's hash (the code that actually runs). */
  submission: string;
  game: string;
  referee: RefereeConfig;
  opponent: string;
  openingMoves: number;
  seed: number;
  studentSide: Side;
}

export function playKey(parts: PlayParts): string {
  return sha256(canonicalJson({ kind: 'play', ...parts }));
}
