/**
 * `npm run bench -- similarity`: the similarity report's figures on the labelled set (scripts/similarity-labelled.ts):
 * the share of copies flagged (ports included), of independent pairs flagged, pairs flagged by base code alone,
 * the behaviour half's cost per student; then the source comparison of a synthesised 300-student class, timed.
 * Goals (issue #33): ≥ 95% of copies, ≤ 2% of independent pairs, 0 base-only pairs, 300 students ≤ 2 min.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { defaultAssignment } from '../grading/assignment.js';
import { runSimilarity, SOURCE_THRESHOLD } from '../grading/similarity/run.js';
import { compareSources } from '../grading/similarity/source.js';
import { builtInBase, readSources } from '../grading/similarity/sources.js';
import { buildLabelledSet, buildLargeClass, type LabelledStudent } from './similarity-labelled.js';

const pct = (part: number, whole: number): string => `${whole > 0 ? ((100 * part) / whole).toFixed(1) : '0.0'}%`;

export async function benchSimilarity(largeClass = 300): Promise<void> {
  console.log('## Similarity (labelled set from tests/fixtures/similarity; goals: copies ≥ 95%, independent ≤ 2%, base-only 0)');
  const scratch = mkdtempSync(join(tmpdir(), 'referee-bench-similarity-'));
  try {
    const labelled: LabelledStudent[] = buildLabelledSet(join(scratch, 'class'));
    const byId = new Map(labelled.map((student) => [student.id, student]));
    const started = performance.now();
    const report = await runSimilarity({
      students: labelled.map((student) => ({ id: student.id, path: join(scratch, 'class', student.id) })),
      assignment: defaultAssignment('reversi'),
    });
    const seconds = (performance.now() - started) / 1000;
    const flagged = new Map(report.pairs.filter((pair) => pair.flagged).map((pair) => [`${pair.a}\0${pair.b}`, pair]));
    const copies: string[][] = [];
    const independent: string[][] = [];
    const baseOnly: string[][] = [];
    for (let i = 0; i < labelled.length; i++) {
      for (let j = i + 1; j < labelled.length; j++) {
        const [x, y] = [labelled[i], labelled[j]];
        const pair = x.id < y.id ? [x.id, y.id] : [y.id, x.id];
        if (x.baseOnly && y.baseOnly) baseOnly.push(pair);
        else if (x.family === y.family) copies.push(pair);
        else independent.push(pair);
      }
    }
    const isFlagged = ([a, b]: string[]): boolean => flagged.has(`${a}\0${b}`);
    const crossLanguage = (pair: string[]): boolean => pair.some((id) => byId.get(id)!.port === true) && !pair.every((id) => byId.get(id)!.port === true);
    const ports = copies.filter(crossLanguage);
    const caught = copies.filter(isFlagged);
    const bySource = caught.filter(([a, b]) => flagged.get(`${a}\0${b}`)!.flaggedBy.includes('source')).length;
    const byBehaviourOnly = caught.filter(([a, b]) => flagged.get(`${a}\0${b}`)!.flaggedBy.join() === 'behaviour').length;
    console.log(`labelled set: ${labelled.length} students in ${new Set(labelled.map((s) => s.family)).size} families; ${copies.length} copy pairs (${ports.length} across languages), ${independent.length} independent pairs, ${baseOnly.length} starter-only pairs`);
    console.log(`copies flagged: ${caught.length}/${copies.length} = ${pct(caught.length, copies.length)} (goal ≥ 95%); by source ${bySource}, by behaviour alone ${byBehaviourOnly}`);
    console.log(`  ports (across languages) flagged: ${ports.filter(isFlagged).length}/${ports.length} = ${pct(ports.filter(isFlagged).length, ports.length)}`);
    const missed = copies.filter((pair) => !isFlagged(pair));
    for (const [a, b] of missed.slice(0, 12)) {
      const listed = report.pairs.find((pair) => pair.a === a && pair.b === b);
      console.log(`  missed ${a} · ${b}: source ${listed?.source?.score ?? '—'}, behaviour ${listed?.behaviour?.score ?? '—'} (z ${listed?.behaviour?.basis.z ?? '—'})`);
    }
    const falseFlags = independent.filter(isFlagged);
    console.log(`independent pairs flagged: ${falseFlags.length}/${independent.length} = ${pct(falseFlags.length, independent.length)} (goal ≤ 2%)`);
    for (const [a, b] of falseFlags.slice(0, 8)) {
      const pair = flagged.get(`${a}\0${b}`)!;
      console.log(`  flagged ${a} · ${b} by ${pair.flaggedBy.join('+')}: source ${pair.source?.score ?? '—'}, behaviour ${pair.behaviour?.score ?? '—'} (agreement ${pair.behaviour?.basis.agreement ?? '—'} vs ${pair.behaviour?.basis.expected ?? '—'})`);
    }
    const listed = (pair: string[]) => report.pairs.find((each) => each.a === pair[0] && each.b === pair[1]);
    const highest = (pairs: string[][], half: 'source' | 'behaviour'): number => Math.max(0, ...pairs.map((pair) => listed(pair)?.[half]?.score ?? 0));
    const lowestCopy = Math.min(...copies.filter((pair) => !crossLanguage(pair)).map((pair) => listed(pair)?.source?.score ?? 0));
    console.log(
      `  margins: highest independent source score ${highest(independent, 'source')} (threshold ${report.thresholds.source}; lowest same-language copy ${lowestCopy}); ` +
        `highest independent behaviour score ${highest(independent, 'behaviour')} (flag at ${report.thresholds.behaviour.score} with z ≥ ${report.thresholds.behaviour.z}); ` +
        `highest starter-only source score ${highest(baseOnly, 'source')}`,
    );
    // MCTS noise: time-budgeted searches disagree with themselves; independent ones must still not flag.
    const noisy = report.pairs.filter((pair) => pair.behaviour && Math.min(...pair.behaviour.basis.selfAgreement) < 0.9);
    const noisyIndependent = noisy.filter((pair) => byId.get(pair.a)?.family !== byId.get(pair.b)?.family);
    console.log(
      `  noisy players (self-agreement < 0.9): ${new Set(noisy.flatMap((pair) => [pair.a, pair.b])).size}; their independent pairs listed ${noisyIndependent.length}, flagged by behaviour ${noisyIndependent.filter((pair) => pair.flaggedBy.includes('behaviour')).length}`,
    );
    console.log(`starter-only pairs flagged (base code alone): ${baseOnly.filter(isFlagged).length}/${baseOnly.length} (goal 0)`);
    const costs = report.behaviour.costs;
    const walls = costs.map((cost) => cost.wallMs).sort((x, y) => x - y);
    const mean = walls.reduce((sum, ms) => sum + ms, 0) / Math.max(1, walls.length);
    console.log(
      `behaviour: ${report.behaviour.positions.length} positions × 2 asks per student; per student mean ${(mean / 1000).toFixed(1)} s wall, median ${((walls[Math.floor(walls.length / 2)] ?? 0) / 1000).toFixed(1)} s, ` +
        `max ${((walls[walls.length - 1] ?? 0) / 1000).toFixed(1)} s (sandbox start-up and the bots' own thinking; ${availableParallelism()} students at a time); ` +
        `${costs.filter((cost) => !cost.scored).length} without a score; the whole run ${seconds.toFixed(1)} s (source ${report.source.seconds} s)`,
    );

    // Timing: the source half of a large class, the way the command runs it (one process).
    const large = join(scratch, 'large');
    buildLargeClass(large, largeClass);
    const participants = Array.from({ length: largeClass }, (_, i) => {
      const id = `student-${String(i).padStart(3, '0')}`;
      return { ...readSources(id, join(large, id)), corpus: false };
    });
    const timed = performance.now();
    const result = await compareSources(participants, [builtInBase()], {}, SOURCE_THRESHOLD);
    const took = (performance.now() - timed) / 1000;
    const above = result.pairs.filter((pair) => pair.score >= SOURCE_THRESHOLD).length;
    console.log(
      `source comparison of ${largeClass} synthesised students (disguised copies of ${participants.length > 0 ? 'the seeds' : '—'}; ${(largeClass * (largeClass - 1)) / 2} pairs, ` +
        `${above} above the threshold with fragments built): ${took.toFixed(1)} s on ${availableParallelism()} cores (goal ≤ 120 s)`,
    );
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
