/**
 * Paired openings: every opening is played twice, colours swapped, so neither side of a meeting is favoured by
 * it. An opening is a line of moves from the game's start position — N random plies drawn from the game pair's
 * seed, or a line read from a file — that the referee plays for both sides before either is asked (book moves).
 * Lines rather than positions keep every record replayable from the start position with `referee replay`.
 */
import { readFileSync } from 'node:fs';
import type { AnyGame } from '../../harness/games/game.js';
import { createRng, deriveSeed } from '../../harness/referee/seed.js';
import { openingBook } from '../opening.js';
import { count } from '../words.js';

/** The file of openings cannot be used: one line naming the fix. */
export class OpeningsError extends Error {
  override name = 'OpeningsError';
}

/** N random legal plies from the start position of `seed` (passes are the referee's, not the book's). */
export function randomOpening(game: AnyGame, seed: number, plies: number): string[] {
  const rng = createRng(deriveSeed(seed, 0x0bee));
  let state = game.initial(seed);
  const line: string[] = [];
  for (let ply = 0; ply < plies * 4 && line.length < plies && !game.isTerminal(state); ply++) {
    const moves = game.legalMoves(state);
    if (moves.length === 0) {
      state = game.pass(state);
      continue;
    }
    const move = moves[rng.int(moves.length)];
    line.push(game.formatMove(move));
    state = game.apply(state, move);
  }
  return line;
}

/** Read a file of openings: one line per opening, moves separated by spaces or commas; `#` starts a comment. */
export function readOpenings(path: string, game: AnyGame): string[][] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new OpeningsError(`cannot read the openings file ${path} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}): check the path`);
  }
  const lines: string[][] = [];
  text.split('\n').forEach((raw, index) => {
    const content = raw.replace(/#.*/, '').trim();
    if (content === '') return;
    const moves = content.split(/[\s,]+/).filter((move) => move !== '');
    if (!game.seededLayout) {
      const { played } = openingBook(game, 0, moves);
      if (played < moves.length) {
        throw new OpeningsError(`${path}:${index + 1}: ${JSON.stringify(moves[played])} is not a legal ${game.id} move after ${count(played, 'move')}: write each opening as legal moves from the start, e.g. ${randomOpening(game, 1, 3).join(' ')}`);
      }
    }
    lines.push(moves);
  });
  if (lines.length === 0) throw new OpeningsError(`${path} holds no openings: write one line of moves per opening, e.g. ${randomOpening(game, 1, 3).join(' ')}`);
  return lines;
}
