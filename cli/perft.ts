/** `referee perft <depth>`: leaf count from the start position and the speed it was counted at. */
import type { Command } from 'commander';
import { gameRulesFor } from '../harness/referee/config.js';
import { gameArg, positiveInt, UsageError } from './args.js';
import { gameRule } from './rule-options.js';

export function register(program: Command): void {
  program
    .command('perft')
    .description('count the leaves of the game tree to <depth> plies from the start position (a rules check)')
    .argument('<depth>', 'plies to search, e.g. 9', positiveInt)
    .option('--game <id>', 'game to count', 'reversi')
    .option('--game-rule <name=value>', "a game's own rule switch, e.g. board10=true for amazons on 10x10 (repeatable)", gameRule)
    .option('--json', 'print machine-readable JSON')
    .action((depth: number, opts: { game: string; gameRule?: Record<string, boolean>; json?: boolean }) => {
      const game = gameArg(opts.game);
      if (!game.perft) throw new UsageError(`game '${game.id}' has no perft: use a game that defines one`);
      let rules;
      try {
        rules = gameRulesFor(game, opts.gameRule);
      } catch (error) {
        throw new UsageError((error as Error).message);
      }
      const initial = game.initial(0, rules);
      const start = process.hrtime.bigint();
      const leaves = game.perft(initial, depth);
      const seconds = Number(process.hrtime.bigint() - start) / 1e9;
      const leavesPerSecond = Math.round(leaves / Math.max(seconds, 1e-9));
      if (opts.json) {
        console.log(JSON.stringify({ game: game.id, ...(opts.gameRule ? { gameRules: opts.gameRule } : {}), depth, leaves, seconds, leavesPerSecond }));
      } else {
        console.log(`perft(${depth}) = ${leaves}  (${seconds.toFixed(3)} s, ${(leavesPerSecond / 1e6).toFixed(1)} M leaves/s)`);
      }
    });
}
