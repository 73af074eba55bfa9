import { protocolName } from './args.js';
import type { SubmissionProtocol } from '../harness/submission/resolve.js';
/** `referee play`: a series between two players (reference AIs or submissions) and its report. */
import type { Command } from 'commander';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { configForGame } from '../harness/referee/config.js';
import { explainEnd } from '../harness/referee/explain.js';
import type { Player } from '../harness/referee/player.js';
import { formatSeriesReport, playSeries } from '../harness/referee/series.js';
import { boundedInt, gameArg, nonNegativeInt, positiveInt, UsageError } from './args.js';
import { referenceNamesByGame, resolvePlayer } from './players.js';
import { addGameRuleOptions, addRuleOptions, presetRuleConfig, type RuleFlags } from './rule-options.js';
import type { SeatSession } from '../web/server/seat.js';
import type { RunningServer } from '../web/server/app.js';

interface PlayFlags extends RuleFlags {
  black: string;
  white: string;
  games: number;
  seed: number;
  game: string;
  show?: boolean;
  json?: boolean;
  save?: string;
  explain?: boolean;
  port: number;
  host: string;
  open?: boolean;
  entry?: string;
  protocol?: SubmissionProtocol;
}

export function register(program: Command): void {
  const command = program
    .command('play')
    .description('play a series between two players; colours alternate, --black takes Black in game 1')
    .requiredOption('--black <player>', `a submission path, a reference AI of the game (${referenceNamesByGame()}), or human (you, in the browser)`)
    .requiredOption('--white <player>', 'a submission path, a reference AI or human (as for --black)')
    .option('--games <n>', 'number of games', boundedInt(100000), 2)
    .option('--seed <s>', 'series seed (every game is seeded from it)', nonNegativeInt, 1)
    .option('--game <id>', 'game to play', 'reversi')
    .option('--show', 'print the board after every move, like board.display()')
    .option('--save <dir>', 'write each game record as <dir>/game-<n>.json (check one with `referee replay`)')
    .option('--explain', 'after each game, say which rule decided it (the loss rule and its message, or the board)')
    .option('--json', 'print the series result (with every record) as JSON')
    .option('--port <n>', 'with a human player: port of the page to play on (0 picks a free one)', nonNegativeInt, 0)
    .option('--host <addr>', 'with a human player: address to bind (anything but loopback needs the printed token)', '127.0.0.1')
    .option('--open', 'with a human player: open the page in a browser')
    .option('--entry <file>', 'the entry file inside a submission folder (either side), e.g. bot_v2.py (over the name conventions)')
    .option('--protocol <name>', 'botzone: run the submissions as Botzone bots (whole programs on stdin/stdout) even without the signs in their source', protocolName);
  addGameRuleOptions(addRuleOptions(command)).action(async (flags: PlayFlags) => {
    const game = gameArg(flags.game);
    const config = presetRuleConfig(flags, game.id);
    try {
      configForGame(game, config);
    } catch (error) {
      throw new UsageError((error as Error).message);
    }
    const players: Player[] = [];
    // A `human` side plays from the same page as `referee serve`; the series is refereed here as for any player.
    // The web server (fastify and the page's protocol) is loaded only when a human plays: start-up of a plain series.
    const seat: SeatSession | null = flags.black === 'human' || flags.white === 'human' ? new (await import('../web/server/seat.js')).SeatSession(game) : null;
    let page: RunningServer | null = null;
    try {
      const human = seat ? () => seat.createHuman() : undefined;
      // A submission runs under the game's memory limit (the course's), or --memory-mb.
      const memoryMb = configForGame(game, config).memoryMb;
      players.push(await resolvePlayer(flags.black, game, { human, entry: flags.entry, memoryMb, protocol: flags.protocol }));
      players.push(await resolvePlayer(flags.white, game, { human, entry: flags.entry, memoryMb, protocol: flags.protocol }));
      if (seat) {
        seat.opponent = flags.black === 'human' ? players[1].name : players[0].name;
        const { startSeatServer } = await import('./serve.js');
        page = await startSeatServer({ seat, port: flags.port, host: flags.host, open: flags.open === true });
      }
      if (flags.save) mkdirSync(flags.save, { recursive: true });
      const result = await playSeries({
        game,
        a: players[0],
        b: players[1],
        games: flags.games,
        seed: flags.seed,
        config,
        onTurn: seat || flags.show
          ? (turn, state, index) => {
              seat?.turn(turn, state);
              if (!flags.show) return;
              const what = turn.kind === 'pass' ? 'passes' : `plays ${turn.move}`;
              console.log(`\nGame ${index + 1}, ply ${turn.ply}: ${game.sideNames[turn.side]} (${game.symbols[turn.side]}) ${what}`);
              console.log(game.renderText(state));
            }
          : undefined,
        onGame: (record, index) => {
          seat?.finished(record);
          if (flags.save) writeFileSync(join(flags.save, `game-${index + 1}.json`), `${JSON.stringify(record, null, 1)}\n`);
          if (flags.explain && !flags.json) console.log(`game ${index + 1}: ${explainEnd(record, game.sideNames)}`);
          else if (!flags.json && flags.games > 1) {
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
      seat?.close();
      await Promise.all(players.map((p) => p.close()));
      await page?.close();
    }
  });
}
