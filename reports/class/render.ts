/**
 * out/index.html: the class at a glance — a sortable leaderboard (score, per-item points, losses by rule, links
 * to each report), a score histogram as inline SVG, the win rate against each opponent, and who failed the
 * interface check and why. Handlebars escapes every student-controlled value (ids, failure reasons).
 */
import Handlebars from 'handlebars';
import { LOSS_VERDICTS } from '../../harness/referee/verdict.js';
import { VERDICT_WORDS } from '../loss-cause.js';
import { count, dateTime } from '../../grading/words.js';
import { classStatus, type StudentSummary } from '../../grading/batch/summary.js';
import { CLASS_CSS, CLASS_SCRIPT, CLASS_TEMPLATE } from './template.js';
import { writeFileAtomic } from '../../grading/write-atomic.js';

export interface ClassIndexOptions {
  title: string;
  students: StudentSummary[];
  /** Student id → pseudonym: names are replaced and report links left out (reports name the student). */
  pseudonyms?: Map<string, string> | null;
  /** The link to a student's report, relative to index.html (default students/<id>/report.html). */
  reportHref?: (id: string) => string | null;
  generatedAt?: string;
}

let compiled: HandlebarsTemplateDelegate | null = null;

const pct = (rate: number): string => `${(100 * rate).toFixed(1)}%`;
const round = (value: number): number => Math.round(value * 100) / 100;

function median(values: number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** Ten bins of the score as a share of the maximum (100% falls in the last), as bars with counts. */
export function scoreHistogram(students: StudentSummary[]): { bins: number[]; svg: string } {
  const bins = Array.from({ length: 10 }, () => 0);
  for (const student of students) {
    const share = student.maxScore > 0 ? student.score / student.maxScore : 0;
    bins[Math.min(9, Math.floor(share * 10))] += 1;
  }
  const width = 520;
  const height = 180;
  const bottom = 150;
  const barWidth = 44;
  const top = Math.max(1, ...bins);
  const bars = bins
    .map((count, index) => {
      const x = 20 + index * 50;
      const barHeight = Math.round((count / top) * 120);
      return (
        `<rect class="bar" x="${x}" y="${bottom - barHeight}" width="${barWidth}" height="${barHeight}"><title>${index * 10}–${index * 10 + 10}%: ${count}</title></rect>` +
        `<text x="${x + barWidth / 2}" y="${bottom - barHeight - 4}" text-anchor="middle">${count}</text>` +
        `<text x="${x + barWidth / 2}" y="${bottom + 14}" text-anchor="middle">${index * 10}%</text>`
      );
    })
    .join('');
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" id="histogram" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" role="img" aria-label="score histogram">` +
    `<line class="axis" x1="15" y1="${bottom}" x2="${width - 5}" y2="${bottom}"/>${bars}` +
    `<text x="${width / 2}" y="${height - 4}" text-anchor="middle">score (share of ${students[0]?.maxScore ?? 0} points)</text></svg>`;
  return { bins, svg };
}

function viewModel(options: ClassIndexOptions): Record<string, unknown> {
  const { students } = options;
  const names = options.pseudonyms ?? null;
  const nameOf = (id: string): string => names?.get(id) ?? id;
  const reportHref = options.reportHref ?? ((id: string) => `students/${encodeURIComponent(id)}/report.html`);
  const first = students[0];
  // A student not graded (status error) has no score: ranked after everyone graded, shown "not graded", and left
  // out of the mean, the median and the histogram (a 0 there would be charged to them).
  const notGraded = (student: StudentSummary): boolean => student.status === 'error';
  const ranked = [...students].sort(
    (a, b) => Number(notGraded(a)) - Number(notGraded(b)) || (notGraded(a) ? 0 : b.score - a.score) || (nameOf(a.id) < nameOf(b.id) ? -1 : 1),
  );
  const rows = ranked.map((student, index) => ({
    rank: notGraded(student) ? '' : index + 1,
    name: nameOf(student.id),
    notGraded: notGraded(student),
    score: student.score,
    maxScore: student.maxScore,
    percent: student.maxScore > 0 ? ((100 * student.score) / student.maxScore).toFixed(1) : '0.0',
    interfacePoints: student.interfaceCheck.points,
    failed: student.status === 'error' || !student.interfaceCheck.passed,
    items: student.items.map((item) => ({ points: item.points, winRate: pct(item.winRate) })),
    verdicts: LOSS_VERDICTS.map((verdict) => [verdict, student.items.reduce((sum, item) => sum + item.verdicts[verdict], 0)] as const)
      .filter(([, count]) => count > 0)
      .map(([verdict, count]) => `${VERDICT_WORDS[verdict]} × ${count}`)
      .join(', '),
    report: student.status === 'graded' ? reportHref(student.id) : null,
    language: student.language ?? '',
    late: student.late === true,
    identicalTo: (student.identicalTo ?? []).map(nameOf).join(', '),
  }));
  // One badge for the class: hardened only when every graded student ran under bubblewrap.
  const isolation = students.filter((student) => typeof student.hardened === 'boolean');
  const notIsolated = isolation.filter((student) => student.hardened === false).length;
  const graded = students.filter((student) => student.status === 'graded' && student.interfaceCheck.passed);
  const opponents = (first?.items ?? []).map((item, index) => {
    const rates = graded.map((student) => student.items[index]).filter((each) => each && each.played > 0);
    const mean = rates.length > 0 ? rates.reduce((sum, each) => sum + each.winRate, 0) / rates.length : 0;
    const middle = median(rates.map((each) => each.winRate));
    const fullShare = rates.length > 0 ? rates.filter((each) => each.points >= each.maxPoints).length / rates.length : 0;
    return {
      title: item.title,
      opponent: item.opponent,
      students: rates.length,
      mean,
      meanText: pct(mean),
      median: middle,
      medianText: pct(middle),
      fullShare,
      fullText: pct(fullShare),
      wins: rates.reduce((sum, each) => sum + each.wins, 0),
      draws: rates.reduce((sum, each) => sum + each.draws, 0),
      losses: rates.reduce((sum, each) => sum + each.losses, 0),
    };
  });
  const failures = students
    .filter((student) => student.status === 'error' || !student.interfaceCheck.passed)
    .map((student) => ({ name: nameOf(student.id), ...classStatus(student) }));
  const scored = students.filter((student) => !notGraded(student));
  const scores = scored.map((student) => student.score);
  return {
    title: options.title,
    anonymized: names !== null,
    students,
    maxScore: first?.maxScore ?? 0,
    mean: scores.length > 0 ? round(scores.reduce((sum, score) => sum + score, 0) / scores.length) : 0,
    median: round(median(scores)),
    scoredCount: scored.length,
    notGradedCount: students.length - scored.length,
    failedCount: failures.length,
    isolationKnown: isolation.length > 0,
    hardened: isolation.length > 0 && notIsolated === 0,
    notIsolated,
    // Counts in words ('1 student', 'no student failed …'), not '1 students' or 'submission(s)'.
    studentsText: count(students.length, 'student'),
    notIsolatedText: `${count(notIsolated, 'submission')} ran`,
    failedText: failures.length === 0 ? 'none failed the interface check' : `${failures.length} failed the interface check or could not be graded`,
    generatedAt: options.generatedAt ?? new Date().toISOString(),
    generatedText: dateTime(options.generatedAt ?? new Date()),
    itemHeaders: (first?.items ?? []).map((item) => ({ title: item.title, opponent: item.opponent })),
    rows,
    histogram: scoreHistogram(scored).svg,
    opponents,
    failures,
    css: CLASS_CSS,
    script: CLASS_SCRIPT,
  };
}

export function renderClassIndex(options: ClassIndexOptions): string {
  compiled ??= Handlebars.create().compile(CLASS_TEMPLATE);
  return compiled(viewModel(options));
}

/** Render and write atomically. */
export function writeClassIndex(path: string, options: ClassIndexOptions): void {
  writeFileAtomic(path, renderClassIndex(options));
}
