/** `referee replay <record.json>`: re-check a game record move by move and print the final board. */
import type { Command } from 'commander';
import { readFileSync } from 'node:fs';
import { explainEnd } from '../harness/referee/explain.js';
import { getGame } from '../harness/games/registry.js';
import { replayRecord } from '../harness/referee/replay.js';
import { UsageError } from './args.js';
import { oneLine } from '../harness/referee/verdict.js';

export function register(program: Command): void {
  program
    .command('replay')
    .description('re-validate a game record move by move and print the final position; exit 1 if it is corrupt')
    .argument('<record>', 'a game record JSON file (from `referee play --save` or a grade)')
    .option('--json', 'print the verdict as JSON')
    .action((file: string, opts: { json?: boolean }) => {
      let json: unknown;
      try {
        json = JSON.parse(readFileSync(file, 'utf8'));
      } catch (err) {
        const why = (err as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : oneLine((err as Error).message);
        throw new UsageError(`cannot read record ${file}: ${why}; pass a JSON file written by \`referee play --save\``);
      }
      const result = replayRecord(json, getGame);
      if (opts.json) {
        console.log(JSON.stringify(result.ok
          ? { ok: true, game: result.record.game, turns: result.record.turns.length, end: result.record.end }
          : result));
      } else if (result.ok) {
        const { record } = result;
        const game = getGame(record.game);
        console.log(game.renderText(result.finalState));
        const end = record.end;
        const winner = end.winner === null ? 'draw' : `${game.sideNames[end.winner]} (${record.players[end.winner]}) wins`;
        console.log(`valid: ${record.turns.length} turns, ${winner} by ${end.reason}` +
          (end.score ? `, ${end.score.join('-')}` : ''));
        console.log(`decided by: ${explainEnd(record, game.sideNames)}`);
      } else {
        console.error(`referee: corrupt record at turn ${result.turn}: ${result.message}`);
      }
      if (!result.ok) process.exitCode = 1;
    });
}
