/**
 * `referee batch --compare old-out/`: the students whose score differs between two batch outputs, and why —
 * which rubric items moved (with their win rates), a check that now fails, and what changed underneath (the
 * submission, the config or the harness).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { BATCH_JOURNAL_FILE, BatchJournal } from './journal-db.js';
import { BatchUsageError } from './runner.js';
import type { ItemSummary, StudentSummary } from './summary.js';
import { displayWidth, padColumns } from '../text-width.js';
import { count } from '../words.js';

export interface ScoreChange {
  student: string;
  before: number | null;
  after: number | null;
  /** One phrase per cause, most telling first. */
  reasons: string[];
}

export interface Comparison {
  changes: ScoreChange[];
  /** Students in both outputs with the same score. */
  unchanged: number;
}

function readSummaries(outDir: string): Map<string, StudentSummary> {
  const path = join(outDir, BATCH_JOURNAL_FILE);
  if (!existsSync(path)) throw new BatchUsageError(`${outDir} holds no batch journal (${BATCH_JOURNAL_FILE}): pass the --out folder of an earlier referee batch`);
  const journal = BatchJournal.open(path, { readonly: true });
  try {
    return new Map(journal.grades().map((grade) => [grade.student, grade.summary]));
  } finally {
    journal.close();
  }
}

const pct = (rate: number): string => `${(100 * rate).toFixed(1)}%`;
const itemKey = (item: ItemSummary): string => `${item.opponent}\u0000${item.title}`;

function reasonsFor(before: StudentSummary, after: StudentSummary): string[] {
  const reasons: string[] = [];
  if (after.status === 'error') reasons.push(`could not be graded: ${after.error}`);
  else if (before.status === 'error') reasons.push(`graded now (before: ${before.error})`);
  else if (before.interfaceCheck.passed && !after.interfaceCheck.passed) reasons.push(`the interface check now fails (${after.interfaceCheck.reason})`);
  else if (!before.interfaceCheck.passed && after.interfaceCheck.passed) reasons.push('the interface check now passes');
  if (after.status === 'graded' && before.status === 'graded') {
    const old = new Map(before.items.map((item) => [itemKey(item), item]));
    for (const item of after.items) {
      const was = old.get(itemKey(item));
      old.delete(itemKey(item));
      if (!was) reasons.push(`${item.title}: a new item (${item.points} / ${item.maxPoints})`);
      else if (was.points !== item.points || was.maxPoints !== item.maxPoints) {
        const rate = was.winRate !== item.winRate ? `, win rate ${pct(was.winRate)} → ${pct(item.winRate)}` : ', same win rate';
        reasons.push(`${item.title}: ${was.points} → ${item.points} / ${item.maxPoints}${rate}`);
      }
    }
    for (const gone of old.values()) reasons.push(`${gone.title}: item removed (was ${gone.points} / ${gone.maxPoints})`);
  }
  const causes = [
    before.submissionHash !== after.submissionHash ? 'submission changed' : null,
    before.configHash !== after.configHash ? 'config changed' : null,
    before.harness !== after.harness ? `harness ${before.harness} → ${after.harness}` : null,
  ].filter((cause): cause is string => cause !== null);
  if (causes.length > 0) reasons.push(`(${causes.join(', ')})`);
  return reasons;
}

export function compareBatches(oldOut: string, newOut: string): Comparison {
  const before = readSummaries(oldOut);
  const after = readSummaries(newOut);
  const changes: ScoreChange[] = [];
  let unchanged = 0;
  for (const student of [...new Set([...before.keys(), ...after.keys()])].sort()) {
    const was = before.get(student);
    const now = after.get(student);
    if (!was) changes.push({ student, before: null, after: now!.score, reasons: ['new in this batch'] });
    else if (!now) changes.push({ student, before: was.score, after: null, reasons: ['not in this batch'] });
    else if (was.score !== now.score) changes.push({ student, before: was.score, after: now.score, reasons: reasonsFor(was, now) });
    else unchanged += 1;
  }
  return { changes, unchanged };
}

const signed = (delta: number): string => `${delta > 0 ? '+' : delta < 0 ? '−' : '±'}${Math.abs(Math.round(delta * 100) / 100)}`;

export function formatComparison(comparison: Comparison, oldOut: string, newOut: string): string {
  const { changes, unchanged } = comparison;
  if (changes.length === 0) return `No score changed between ${oldOut} and ${newOut} (${unchanged} students compared).`;
  const width = Math.max(...changes.map((change) => displayWidth(change.student)));
  const lines = [`${count(changes.length, 'student')} changed score between ${oldOut} and ${newOut} (${unchanged} unchanged):`];
  for (const change of changes) {
    const score =
      change.before === null ? `new: ${change.after}` : change.after === null ? `was ${change.before}` : `${change.before} → ${change.after} (${signed(change.after - change.before)})`;
    lines.push(`  ${padColumns(change.student, width)}  ${score}: ${change.reasons.join('; ')}`);
  }
  return lines.join('\n');
}
