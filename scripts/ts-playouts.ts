/**
 * One game's TS Board playouts in a process of their own, for `npm run bench -- boards`:
 * `node dist/scripts/ts-playouts.js <game id> <CPU seconds> <warm-up CPU seconds>` prints random playouts per CPU
 * second after the warm-up (which does not count). A process per game keeps the loop's call sites monomorphic, as
 * in a student's search, which only ever sees one Board class.
 */
import { BOARD_GAMES, LOOP_ONLY, tsPlayouts } from './bench-boards.js';

const [id, seconds, warmup] = process.argv.slice(2);
const game = [...BOARD_GAMES, LOOP_ONLY].find((one) => one.id === id);
if (!game || !(Number(seconds) > 0)) {
  console.error(`usage: ts-playouts.js <${[...BOARD_GAMES, LOOP_ONLY].map((one) => one.id).join('|')}> <CPU seconds> [warm-up CPU seconds]`);
  process.exit(2);
}
if (Number(warmup) > 0) tsPlayouts(game, Number(warmup));
console.log(tsPlayouts(game, Number(seconds)).toFixed(1));
