/** The rule flags of the commands that play (play, check), mapped onto RefereeConfig. */
import { InvalidArgumentError, type Command } from 'commander';
import { presetConfig, type RefereeConfig } from '../harness/referee/config.js';
import { positiveInt } from './args.js';

export interface RuleFlags {
  moveTimeout?: number;
  turnTimeout?: number;
  illegalLimit?: number;
  quitEndsGame?: boolean;
  gameRule?: Record<string, boolean>;
  timeBank?: number;
  strikes?: number;
  platform?: string;
  memoryMb?: number;
  loadTimeout?: number;
}

/** `--game-rule name=true|false`, collected into one object (repeatable). */
export function gameRule(text: string, previous: Record<string, boolean> = {}): Record<string, boolean> {
  const match = /^([A-Za-z][\w]*)=(true|false)$/.exec(text);
  if (!match) {
    throw new InvalidArgumentError(`expected name=true or name=false, e.g. centerFirstMoveBanned=false (got ${JSON.stringify(text)})`);
  }
  return { ...previous, [match[1]]: match[2] === 'true' };
}

export function addRuleOptions(command: Command): Command {
  return command
    .option('--move-timeout <ms>', 'time limit per ask in ms (platform: 60000)', positiveInt)
    .option('--illegal-limit <n>', 'asks per turn; the nth illegal answer loses (platform: 3)', positiveInt)
    .option('--memory-mb <mb>', "resident-memory limit of a submission's process in MB (default: the game's course, e.g. 512 reversi, 1024 connect4-nogo)", positiveInt)
    .option('--load-timeout <ms>', 'allowance for loading a submission (imports, static initialisers), apart from the move limit (default 60000)', positiveInt);
}

/** The rules that only whole games use (play): the turn limit, 'Q', the game's own switches. */
export function addGameRuleOptions(command: Command): Command {
  return command
    .option('--turn-timeout <ms>', 'time limit per turn, every ask included, in ms (default: the move timeout, as game.py)', positiveInt)
    .option('--quit-ends-game', "an answer of 'Q' ends the game by the count, as game.py's human-quit path (default: illegal)")
    .option('--game-rule <name=value>', "a game's own rule switch, e.g. centerFirstMoveBanned=false for nogo (repeatable)", gameRule)
    .option('--time-bank <ms>', 'a time bank per side and game: a move over its limit draws the overage from it instead of losing', positiveInt)
    .option('--strikes <n>', 'soft timeout: a move over its limit is played and costs a strike; the nth strike loses', positiveInt)
    .option('--platform <name>', "the rules preset: course (the course platform's, default) or botzone (1 s a turn x language, first turn x2, one invalid action loses)", platformName);
}

export function platformName(text: string): 'course' | 'botzone' {
  if (text !== 'course' && text !== 'botzone') throw new InvalidArgumentError(`expected course or botzone (got ${JSON.stringify(text)})`);
  return text;
}

/** The config the flags ask for, under the --platform preset (Botzone's limits and rulings for the game). */
export function presetRuleConfig(flags: RuleFlags, gameId: string): Partial<RefereeConfig> {
  return presetConfig(flags.platform === 'botzone' ? 'botzone' : 'course', gameId, ruleConfig(flags));
}

export function ruleConfig(flags: RuleFlags): Partial<RefereeConfig> {
  const config: Partial<RefereeConfig> = {};
  if (flags.moveTimeout !== undefined) config.moveTimeoutMs = flags.moveTimeout;
  if (flags.turnTimeout !== undefined) config.turnTimeoutMs = flags.turnTimeout;
  if (flags.illegalLimit !== undefined) config.illegalMoveLimit = flags.illegalLimit;
  if (flags.quitEndsGame) config.quitEndsGame = true;
  if (flags.gameRule !== undefined) config.gameRules = flags.gameRule;
  if (flags.timeBank !== undefined) config.timeBankMs = flags.timeBank;
  if (flags.strikes !== undefined) config.strikeLimit = flags.strikes;
  if (flags.memoryMb !== undefined) config.memoryMb = flags.memoryMb;
  if (flags.loadTimeout !== undefined) config.loadTimeoutMs = flags.loadTimeout;
  return config;
}
