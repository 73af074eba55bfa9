/** `referee play`: a series between two players (reference AIs or submissions) and its report. */
import type { Command } from 'commander';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Player } from '../harness/referee/player.js';
import { formatSeriesReport, playSeries } from '../harness/referee/series.js';
import { gameArg, nonNegativeInt, positiveInt } from './args.js';
import { referenceNamesByGame, resolvePlayer } from './players.js';
import { addRuleOptions, ruleConfig, type RuleFlags } from './rule-options.js';

interface PlayFlags extends RuleFlags {
  black: string;
  white: string;
  games: number;
  seed: number;
  game: string;
  show?: boolean;
  json?: boolean;
  save?: string;
}

export function register(program: Command): void {
  const command = program
    .command('play')
    .description('play a series between two players; colours alternate, --black takes Black in game 1')
    .requiredOption('--black <player>', `a submission path or a reference AI of the game (${referenceNamesByGame()})`)
    .requiredOption('--white <player>', 'a submission path or a reference AI (as for --black)')
    .option('--games <n>', 'number of games', positiveInt, 2)
    .option('--seed <s>', 'series seed (every game is seeded from it)', nonNegativeInt, 1)
    .option('--game <id>', 'game to play', 'reversi')
    .option('--show', 'print the board after every move, like board.display()')
    .option('--save <dir>', 'write each game record as <dir>/game-<n>.json (check one with `referee replay`)')
    .option('--json', 'print the series result (with every record) as JSON');
  addRuleOptions(command).action(async (flags: PlayFlags) => {
    const game = gameArg(flags.game);
    const players: Player[] = [];
    try {
      players.push(await resolvePlayer(flags.black, game));
      players.push(await resolvePlayer(flags.white, game));
      if (flags.save) mkdirSync(flags.save, { recursive: true });
      const result = await playSeries({
        game,
        a: players[0],
        b: players[1],
        games: flags.games,
        seed: flags.seed,
        config: ruleConfig(flags),
        onTurn: flags.show
          ? (turn, state, index) => {
              const what = turn.kind === 'pass' ? 'passes' : `plays ${turn.move}`;
              console.log(`\nGame ${index + 1}, ply ${turn.ply}: ${game.sideNames[turn.side]} (${game.symbols[turn.side]}) ${what}`);
              console.log(game.renderText(state));
            }
          : undefined,
        onGame: (record, index) => {
          if (flags.save) writeFileSync(join(flags.save, `game-${index + 1}.json`), `${JSON.stringify(record, null, 1)}\n`);
          if (!flags.json && flags.games > 1) {
            const end = record.end;
            const result = end.winner === null ? 'draw' : `${record.players[end.winner]} wins`;
            const how = end.reason === 'score' ? `${end.score?.join('-')}` : `${end.reason}: ${end.loser?.message ?? ''}`;
            console.log(`game ${index + 1}/${flags.games}: ${record.players[0]} (${game.symbols[0]}) vs ` +
              `${record.players[1]} (${game.symbols[1]}): ${result} (${how})`);
          }
        },
      });
      console.log(flags.json ? JSON.stringify(result) : `\n${formatSeriesReport(result)}`);
    } finally {
      await Promise.all(players.map((p) => p.close()));
    }
  });
}
