/**
 * What the submission printed, gathered from the game records in play order and capped for the report (the full
 * text stays in grade.json). Every string here is student-controlled: templates escape it.
 */
import type { CapturedOutput } from '../harness/referee/player.js';
import type { GradeResult } from '../grading/grade-result.js';

export interface OutputBlock {
  where: string;
  text: string;
  /** Bytes the capture itself dropped (the sandbox's cap). */
  droppedBytes: number;
}

export interface StudentOutput {
  blocks: OutputBlock[];
  /** A note when the report shows less than was captured. */
  truncatedNote: string | null;
}

/** Characters of output a report shows at most. */
export const OUTPUT_CAP = 20_000;

export function studentOutput(result: GradeResult, cap: number = OUTPUT_CAP): StudentOutput {
  const all: OutputBlock[] = [];
  const add = (where: string, output: CapturedOutput | undefined): void => {
    if (output && (output.text !== '' || output.droppedBytes > 0)) all.push({ where, text: output.text, droppedBytes: output.droppedBytes });
  };
  if (result.interfaceCheck.output) add('interface check', { text: result.interfaceCheck.output, droppedBytes: 0 });
  for (const entry of result.games) {
    const side = entry.studentSide;
    const { record } = entry;
    const name = `${result.items[entry.item]?.title ?? `item ${entry.item}`}, game ${entry.index + 1}`;
    add(`${name}, construction`, record.start[side].output);
    for (const turn of record.turns) {
      if (turn.side !== side) continue;
      (turn.illegal ?? []).forEach((attempt, i) => add(`${name}, ply ${turn.ply}, illegal answer ${i + 1}`, attempt.output));
      add(`${name}, ply ${turn.ply}`, turn.output);
    }
    const loser = record.end.loser;
    if (loser && loser.side === side) {
      loser.attempts.forEach((attempt, i) => add(`${name}, last turn, illegal answer ${i + 1}`, attempt.output));
      add(`${name}, last turn (${loser.verdict})`, loser.output);
    }
  }
  const blocks: OutputBlock[] = [];
  let used = 0;
  let hidden = 0;
  for (const block of all) {
    if (used >= cap) {
      hidden += block.text.length;
      continue;
    }
    const room = cap - used;
    if (block.text.length > room) {
      blocks.push({ ...block, text: block.text.slice(0, room) });
      hidden += block.text.length - room;
      used = cap;
    } else {
      blocks.push(block);
      used += block.text.length;
    }
  }
  return {
    blocks,
    truncatedNote: hidden > 0 ? `Output truncated: ${hidden} more characters are not shown here; grade.json holds everything captured.` : null,
  };
}
