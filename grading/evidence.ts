/**
 * What a student needs next to a forced loss: the stack (or traceback) and the last lines the submission printed
 * before it, read from the game record (every turn's captured output, then the failing ask's own).
 */
import type { GameRecord } from '../harness/referee/record.js';
import type { GradeResult } from './grade-result.js';

export const OUTPUT_TAIL = 20;

/** The submission's output up to and including the failing ask, last `tail` lines. */
export function outputBefore(record: GameRecord, side: 0 | 1, tail = OUTPUT_TAIL): string[] {
  const texts: string[] = [];
  if (record.start[side].output?.text) texts.push(record.start[side].output.text);
  for (const turn of record.turns) if (turn.side === side && turn.output?.text) texts.push(turn.output.text);
  const loser = record.end.loser;
  if (loser?.side === side && loser.output?.text) texts.push(loser.output.text);
  const lines = texts.join('').replace(/\n$/, '').split('\n');
  return lines.length === 1 && lines[0] === '' ? [] : lines.slice(-tail);
}

export interface LossEvidence {
  item: number;
  index: number;
  /** The ply that failed (turns.length + 1), 0 for a failed start. */
  ply: number;
  verdict: string;
  message: string;
  stack?: string;
  /** Where an exception was raised in the submission's own files (Python), when the host said. */
  where?: { file: string; line: number; function: string };
  output: string[];
}

/** The first forced loss of the submission in each rubric item, with its evidence. */
export function firstForcedLosses(result: GradeResult): LossEvidence[] {
  const found = new Map<number, LossEvidence>();
  for (const entry of result.games) {
    const loser = entry.record.end.loser;
    if (!loser || loser.side !== entry.studentSide || found.has(entry.item)) continue;
    found.set(entry.item, {
      item: entry.item,
      index: entry.index,
      ply: loser.phase === 'start' ? 0 : entry.record.turns.length + 1,
      verdict: loser.verdict,
      message: loser.message,
      ...(loser.stack ? { stack: loser.stack } : {}),
      ...(loser.where ? { where: loser.where } : {}),
      output: outputBefore(entry.record, entry.studentSide),
    });
  }
  return [...found.values()].sort((a, b) => a.item - b.item);
}
