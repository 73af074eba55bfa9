/**
 * The total a student's printing may take in grade.json. The sandbox already keeps at most 64 KB per call, but a
 * student printing on every move of every game would still fill grade.json with megabytes (and report.html,
 * exports and the batch folder with it). Past the budget each capture keeps only a marker with the byte count.
 */
import type { Side } from '../harness/games/game.js';
import type { CapturedOutput } from '../harness/referee/player.js';
import type { GameRecord } from '../harness/referee/record.js';

export const STUDENT_OUTPUT_BUDGET_BYTES = 256 * 1024;

export interface BudgetedGame {
  record: GameRecord;
  studentSide: Side;
}

/** The marker that replaces what the budget cut. */
export const cutMarker = (bytes: number): string => `… ${bytes} bytes more, cut (grade.json keeps ${STUDENT_OUTPUT_BUDGET_BYTES / 1024} KB of output per student)`;

/**
 * Copies of the games with the student's captured output cut to `budget` bytes in all. A forfeit's own output
 * (the evidence the report shows) is served first, then each game's start and turns in order. The records the
 * journal holds are not changed.
 */
export function capStudentOutput<T extends BudgetedGame>(games: readonly T[], budget = STUDENT_OUTPUT_BUDGET_BYTES): T[] {
  let left = budget;
  const cap = (output: CapturedOutput | undefined): CapturedOutput | undefined => {
    if (!output) return output;
    const bytes = Buffer.byteLength(output.text, 'utf8');
    if (bytes <= left) {
      left -= bytes;
      return output;
    }
    // Cut on a character boundary: decoding a partial sequence would add replacement characters.
    const kept = Buffer.from(output.text, 'utf8').subarray(0, left).toString('utf8').replace(/\uFFFD$/u, '');
    const keptBytes = Buffer.byteLength(kept, 'utf8');
    left = 0;
    const cut = bytes - keptBytes;
    return { text: `${kept}${kept === '' || kept.endsWith('\n') ? '' : '\n'}${cutMarker(cut)}\n`, droppedBytes: output.droppedBytes };
  };
  const copies = games.map((game) => ({ ...game, record: { ...game.record } }));
  for (const game of copies) {
    const loser = game.record.end.loser;
    if (loser?.side === game.studentSide && loser.output) game.record.end = { ...game.record.end, loser: { ...loser, output: cap(loser.output) } };
  }
  for (const game of copies) {
    const side = game.studentSide;
    const start = game.record.start[side];
    if (start.output) {
      const both: GameRecord['start'] = [...game.record.start];
      both[side] = { ...start, output: cap(start.output) };
      game.record.start = both;
    }
    game.record.turns = game.record.turns.map((turn) => (turn.side === side && turn.output ? { ...turn, output: cap(turn.output) } : turn));
  }
  return copies;
}
