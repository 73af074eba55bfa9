/**
 * DIR/similarity.html from a SimilarityReport (data passed in, never read back from the JSON). Handlebars escapes
 * every student-controlled value: ids, file names and the code excerpts themselves.
 */
import { renameSync, writeFileSync } from 'node:fs';
import Handlebars from 'handlebars';
import type { SimilarityReport } from '../../grading/similarity/run.js';
import { count, dateTime } from '../../grading/words.js';
import { SIMILARITY_CSS, SIMILARITY_TEMPLATE } from './template.js';

export interface SimilarityPageOptions {
  /** Student id → pseudonym (like the class index's anonymised view); corpus entries keep their names. */
  pseudonyms?: Map<string, string> | null;
}

let compiled: HandlebarsTemplateDelegate | null = null;

const seconds = (ms: number): string => (ms / 1000).toFixed(1);

function viewModel(report: SimilarityReport, options: SimilarityPageOptions): Record<string, unknown> {
  const names = options.pseudonyms ?? null;
  const nameOf = (id: string): string => names?.get(id) ?? id;
  const corpus = new Set(report.corpus);
  const pairs = report.pairs.map((pair, index) => ({
    ...pair,
    a: nameOf(pair.a),
    b: nameOf(pair.b),
    anchor: `pair-${index + 1}`,
    source: pair.source && {
      ...pair.source,
      fragments: pair.source.fragments.map((fragment) => ({
        kgrams: fragment.kgrams,
        a: { ...fragment.a, counterStart: fragment.a.startLine - 1 },
        b: { ...fragment.b, counterStart: fragment.b.startLine - 1 },
      })),
    },
  }));
  const languages = Object.entries(report.source.languages ?? {})
    .map(([language, files]) => count(files, `${language} file`))
    .join(', ');
  return {
    title: report.title,
    game: report.game,
    generatedAt: report.generatedAt,
    generatedText: dateTime(report.generatedAt),
    studentsText: count(report.students.length, 'student'),
    corpusText: count(report.corpus.length, 'corpus entry', 'corpus entries'),
    flaggedText: `${count(report.pairs.filter((pair) => pair.flagged).length, 'pair')} flagged in ${count(report.clusters.length, 'cluster')}`,
    anonymized: names !== null,
    studentCount: report.students.length,
    corpusCount: report.corpus.length,
    flaggedCount: report.pairs.filter((pair) => pair.flagged).length,
    thresholds: report.thresholds,
    source: report.source,
    behaviour: report.behaviour,
    baseFiles: report.source.baseFiles,
    commonLimit: report.source.commonLimit,
    languages: languages || 'no files',
    meanProbeSeconds: seconds(report.behaviour.meanWallMs ?? 0),
    probeLimit: `${report.behaviour.moveTimeoutMs ?? '?'} ms`,
    anchors: report.behaviour.anchors.join(', ') || 'no reference player',
    clusters: report.clusters.map((cluster) => ({ ...cluster, members: cluster.members.map((id) => ({ name: nameOf(id), corpus: corpus.has(id) })) })),
    pairs,
    costs: report.behaviour.costs.map((cost) => ({ ...cost, name: nameOf(cost.id), wall: seconds(cost.wallMs), cpu: seconds(cost.cpuMs) })),
    notes: report.notes.map((note) => ({ name: nameOf(note.id), lines: note.lines })),
    css: SIMILARITY_CSS,
  };
}

export function renderSimilarity(report: SimilarityReport, options: SimilarityPageOptions = {}): string {
  compiled ??= Handlebars.create().compile(SIMILARITY_TEMPLATE);
  return compiled(viewModel(report, options));
}

/** Render and write atomically. */
export function writeSimilarityPage(path: string, report: SimilarityReport, options: SimilarityPageOptions = {}): void {
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, renderSimilarity(report, options));
  renameSync(temporary, path);
}
