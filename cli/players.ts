/** Turns a `--black` / `--white` argument into a Player: a reference AI by name, or a submission path. */
import type { AnyGame } from '../harness/games/game.js';
import { distance } from 'fastest-levenshtein';
import { gameIds, getGame } from '../harness/games/registry.js';
import { InProcessPlayer } from '../harness/referee/in-process.js';
import type { Player } from '../harness/referee/player.js';
import { CompileError } from '../harness/submission/compile.js';
import { createSubmissionPlayer, isSubmissionPath } from '../harness/submission/player.js';
import { SubmissionError, type SubmissionProtocol } from '../harness/submission/resolve.js';
import { referenceAgent, referenceNames } from '../reference-ai/index.js';
import { UsageError } from './args.js';
import { isZipName } from '../grading/batch/layout.js';
import { submissionArg } from './zip-arg.js';

/** The closest name within a few edits (case ignored), or null. */
export function didYouMean(wanted: string, names: readonly string[]): string | null {
  const best = names
    .map((name) => ({ name, cost: distance(name.toLowerCase(), wanted.toLowerCase()) }))
    .sort((a, b) => a.cost - b.cost)[0];
  return best && best.cost <= Math.max(2, Math.floor(wanted.length / 3)) ? best.name : null;
}

/** Every game's reference AIs, for help texts: "reversi: random, greedy, …; connect4: …". */
export function referenceNamesByGame(): string {
  return gameIds().map((id) => `${id}: ${referenceNames(id).join(', ')}`).join('; ');
}

export interface PlayerOptions {
  memoryMb?: number;
  /** Makes the `human` player (a person at `referee serve`'s page); without it `human` is not offered. */
  human?: () => Player;
  /** The entry file inside a folder submission (--entry); ignored for a file or a reference AI. */
  entry?: string;
  /** --protocol botzone: a Botzone bot whatever its source shows. */
  protocol?: SubmissionProtocol;
}

export async function resolvePlayer(arg: string, game: AnyGame, options: PlayerOptions = {}): Promise<Player> {
  const names = referenceNames(game.id);
  if (arg === 'human' && options.human) return options.human();
  if (names.includes(arg)) return new InProcessPlayer(arg, referenceAgent(game.id, arg), getGame);
  if (isZipName(arg)) arg = await submissionArg(arg);
  if (!isSubmissionPath(arg)) {
    const near = didYouMean(arg, names);
    throw new UsageError(`unknown player '${arg}'${near ? `: did you mean '${near}'?` : ''} Use a reference AI of ${game.id} (${names.join(', ')}), human, or a submission path`);
  }
  try {
    return await createSubmissionPlayer(arg, { game: game.id, memoryMb: options.memoryMb, entry: options.entry, ...(options.protocol ? { protocol: options.protocol } : {}) });
  } catch (err) {
    // A submission that cannot be found or compiled is the user's input to fix, not a harness failure.
    if (err instanceof SubmissionError || err instanceof CompileError) throw new UsageError(err.message);
    throw err;
  }
}
