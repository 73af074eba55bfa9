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
  /** The game (1-based, as report.html#game=N counts) and ply (0: construction) the output belongs to. */
  game: number | null;
  ply: number | null;
}

/** One game's output: its blocks in ply order, each linked to its ply in the replay. */
export interface OutputGroup {
  title: string;
  game: number | null;
  blocks: OutputBlock[];
  characters: number;
}

export interface StudentOutput {
  blocks: OutputBlock[];
  groups: OutputGroup[];
  /** A note when the report shows less than was captured. */
  truncatedNote: string | null;
}

/** Characters of output a report shows at most. */
export const OUTPUT_CAP = 20_000;

export function studentOutput(result: GradeResult, cap: number = OUTPUT_CAP): StudentOutput {
  const all: OutputBlock[] = [];
  const titles = new Map<number | null, string>([[null, 'Interface check']]);
  let game: number | null = null;
  const add = (where: string, output: CapturedOutput | undefined, ply: number | null): void => {
    if (output && (output.text !== '' || output.droppedBytes > 0)) all.push({ where, text: output.text, droppedBytes: output.droppedBytes, game, ply });
  };
  if (result.interfaceCheck.output) add('interface check', { text: result.interfaceCheck.output, droppedBytes: 0 }, null);
  // What the submission printed before a failed or warned check step (its last lines), so a print before a
  // throw or a timeout in the check is not lost.
  for (const item of result.interfaceCheck.items) {
    if (item.output?.length) add(`interface check: ${item.title} (last lines)`, { text: `${item.output.join('\n')}\n`, droppedBytes: 0 }, null);
  }
  result.games.forEach((entry, index) => {
    game = index + 1;
    const side = entry.studentSide;
    const { record } = entry;
    const name = `${result.items[entry.item]?.title ?? `item ${entry.item}`}, game ${entry.index + 1}`;
    titles.set(game, name);
    add('construction', record.start[side].output, 0);
    for (const turn of record.turns) {
      if (turn.side !== side) continue;
      (turn.illegal ?? []).forEach((attempt, i) => add(`ply ${turn.ply}, illegal answer ${i + 1}`, attempt.output, turn.ply));
      add(`ply ${turn.ply}`, turn.output, turn.ply);
    }
    const loser = record.end.loser;
    if (loser && loser.side === side) {
      const ply = record.turns.length + 1;
      loser.attempts.forEach((attempt, i) => add(`ply ${ply} (last turn), illegal answer ${i + 1}`, attempt.output, ply));
      add(`ply ${ply} (last turn, ${loser.verdict})`, loser.output, ply);
    }
  });
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
  const groups: OutputGroup[] = [];
  for (const block of blocks) {
    let group = groups.at(-1);
    if (!group || group.game !== block.game) {
      group = { title: titles.get(block.game) ?? '', game: block.game, blocks: [], characters: 0 };
      groups.push(group);
    }
    group.blocks.push(block);
    group.characters += block.text.length;
  }
  return {
    blocks,
    groups,
    truncatedNote: hidden > 0 ? `Output truncated: ${hidden} more characters are not shown here; grade.json holds everything captured.` : null,
  };
}
