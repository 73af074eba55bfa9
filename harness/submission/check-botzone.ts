/**
 * The interface check of a Botzone bot, in Botzone's terms: it speaks the protocol the judge would speak to it
 * (JSON or the simple interaction, restarted or kept running), and it plays a whole game as each colour against a
 * random mover under Botzone's limits (1 s a turn times the language's multiplier, the first turn doubled, one
 * invalid action loses). Its first turn of each game is the gate; a loss later warns (the games decide).
 */
import type { AnyGame, Side } from '../games/game.js';
import { deriveSeed } from '../games/common/seed.js';
import { botzoneGameIds } from '../games/registry.js';
import { configForGame, presetConfig } from '../referee/config.js';
import { playGame } from '../referee/match.js';
import type { Player, PlayerAnswer } from '../referee/player.js';
import type { GameRecord } from '../referee/record.js';
import { BotzonePlayer, botzoneLanguage } from '../sandbox/botzone-player.js';
import type { Layers } from '../sandbox/layers.js';
import type { CheckStep } from './check.js';
import type { ResolvedSubmission } from './resolve.js';

/** A trusted random mover (seeded), the check's opponent. */
function randomMover(game: AnyGame, seed: number): Player {
  let state: unknown = null;
  let n = 0;
  return {
    name: 'random',
    trusted: true,
    async startGame() {
      n = 0;
      return { kind: 'ready' };
    },
    async requestMove(request) {
      state = game.decode(request.state);
      const legal = game.legalMoves(state);
      const pick = legal[deriveSeed(seed, ++n) % legal.length];
      return { kind: 'move', value: game.formatMove(pick) };
    },
    async abort() {},
    async endGame() {},
    async close() {},
  };
}

/** Botzone's words for why a bot lost, with the fix. */
const BOTZONE_FIX: Record<string, string> = {
  timeout: "Botzone's limit is wall time from the start of the process: stop the search at about 0.9 of the limit (clock() counts CPU time only; the first turn has double), and print before you clean up",
  illegal: 'an invalid action loses at once on Botzone: replay every request and response onto your board (x is the column, y the row; {"x": -1, "y": -1} is "you move first", the opponent\'s pass, and your own pass only when you have no move)',
  crash: 'a runtime error loses on Botzone: check array indices, and return 0 from main after printing the answer',
  memory: "Botzone's limit is 256 MB for the whole process (a Java bot's heap gets 192 MB of it): shrink the static tables",
  protocol: 'print exactly one answer a turn: one JSON line {"response": {...}} (simple interaction: the response line), then exit, or print >>>BOTZONE_REQUEST_KEEP_RUNNING<<< and wait for the next request',
  error: 'the bot cannot play this game on Botzone',
};

export interface BotzoneCheckInput {
  game: AnyGame;
  submission: ResolvedSubmission;
  bundlePath: string;
  files?: string[];
  layers: Layers;
  seed: number;
  memoryMb?: number;
}

/** The protocol step and the two games' steps (moves: the first turns; later: the rest). */
export async function checkBotzoneBot(input: BotzoneCheckInput): Promise<CheckStep[]> {
  const { game, submission, layers } = input;
  const traits = submission.botzone!;
  const steps: CheckStep[] = [];
  const how = `${traits.interaction === 'json' ? 'JSON' : 'simple'} interaction, ${traits.keepRunning ? 'kept running (>>>BOTZONE_REQUEST_KEEP_RUNNING<<<)' : 'restarted every turn'}; ${traits.evidence}`;
  if (!game.botzone) {
    steps.push({ id: 'export', title: "speaks Botzone's protocol", status: 'fail', detail: how, hint: `Botzone has no judge for ${game.title}: grade the bot on ${botzoneGameIds().join(', ')}` });
    return steps;
  }
  if (traits.interaction === 'simple' && !game.botzone.simpleInteraction) {
    steps.push({ id: 'export', title: "speaks Botzone's protocol", status: 'fail', detail: how, hint: `Botzone's ${game.botzone.name} judge has no simple interaction: read the one JSON line {"requests": [...], "responses": [...]} and print {"response": {...}}` });
    return steps;
  }
  steps.push({ id: 'export', title: "speaks Botzone's protocol", status: 'pass', detail: how });
  steps.push({ id: 'construct', title: 'starts as a whole program (no constructor)', status: 'pass', detail: traits.keepRunning ? 'a kept-running bot is started before the game and stopped until its first request, which it gets with a doubled limit' : 'a restarted bot starts on each request; its start counts in the turn (the first turn doubled)' });
  const config = configForGame(game, presetConfig('botzone', game.id));
  const language = botzoneLanguage(submission.language);
  const opening: string[] = [];
  let gate: CheckStep | null = null;
  let later: CheckStep | null = null;
  const laterPlayed: string[] = [];
  for (const side of [0, 1] as Side[]) {
    const bot = new BotzonePlayer({
      name: 'check',
      bundlePath: input.bundlePath,
      submissionRoot: submission.root,
      ...(input.files && (language === 'Python' || language === 'Java') ? { files: input.files } : {}),
      language,
      interaction: traits.interaction,
      keepRunning: traits.keepRunning,
      game: game.id,
      layers,
      ...(input.memoryMb !== undefined ? { memoryMb: input.memoryMb } : {}),
    });
    const seed = input.seed + side;
    const opponent = randomMover(game, seed);
    let record: GameRecord;
    try {
      record = await playGame({ game, black: side === 0 ? bot : opponent, white: side === 1 ? bot : opponent, seed, config });
    } finally {
      await bot.close();
    }
    const mine = record.turns.filter((turn) => turn.side === side && turn.kind === 'move');
    const loser = record.end.loser;
    const colour = game.sideNames[side];
    if (loser && loser.side === side) {
      const first = mine.length === 0;
      const found: CheckStep = {
        id: first ? 'moves' : 'later',
        title: first ? 'answers its first turn within the limit' : 'plays a whole game (warnings only: the games decide)',
        status: first ? 'fail' : 'warn',
        detail: `as ${colour}, turn ${mine.length + 1}: ${loser.verdict}: ${loser.message}`,
        hint: BOTZONE_FIX[loser.verdict] ?? '',
        ...(loser.output?.text ? { output: loser.output.text.replace(/\n$/, '').split('\n').slice(-12) } : {}),
      };
      if (first) gate ??= found;
      else later ??= found;
    }
    if (mine.length > 0) {
      const first = mine[0];
      opening.push(`${colour}: ${first.move} in ${Math.round(first.wallMs ?? 0)} ms${first.debug ? ` (debug: ${first.debug.slice(0, 80)})` : ''}`);
      if (!(loser && loser.side === side)) laterPlayed.push(`${colour}: ${mine.length} moves, ${record.end.winner === side ? 'won' : record.end.winner === null ? 'drew' : 'lost'} on the board`);
    }
  }
  steps.push(gate ?? { id: 'moves', title: 'answers its first turn within the limit', status: 'pass', detail: opening.join('; ') });
  steps.push({ id: 'tamper', title: 'does not change the board it is given', status: 'skip', detail: 'a Botzone bot keeps its own board' });
  steps.push(later ?? { id: 'later', title: 'plays a whole game (warnings only: the games decide)', status: 'pass', detail: laterPlayed.join('; ') });
  return steps;
}

export type { PlayerAnswer };
