/** The rule flags every command that plays games shares (play, check, grade), mapped onto RefereeConfig. */
import type { Command } from 'commander';
import type { RefereeConfig } from '../harness/referee/config.js';
import { positiveInt } from './args.js';

export interface RuleFlags {
  moveTimeout?: number;
  illegalLimit?: number;
}

export function addRuleOptions(command: Command): Command {
  return command
    .option('--move-timeout <ms>', 'time limit per move in ms (platform: 60000)', positiveInt)
    .option('--illegal-limit <n>', 'asks per turn; the nth illegal answer loses (platform: 3)', positiveInt);
}

export function ruleConfig(flags: RuleFlags): Partial<RefereeConfig> {
  const config: Partial<RefereeConfig> = {};
  if (flags.moveTimeout !== undefined) config.moveTimeoutMs = flags.moveTimeout;
  if (flags.illegalLimit !== undefined) config.illegalMoveLimit = flags.illegalLimit;
  return config;
}
