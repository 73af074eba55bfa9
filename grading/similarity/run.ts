/**
 * One similarity run over a class: the source half (dolos-lib, base code subtracted) and the behaviour half
 * (probe positions in the sandbox), joined into pairs and clusters worth a look. Either half may be missing
 * (dolos-lib not installed; --no-behaviour; a class too small): the report says which and why, and the other
 * half stands. The result is data (SimilarityReport); the cli writes it and reports/ renders it.
 */
import { availableParallelism } from 'node:os';
import { performance } from 'node:perf_hooks';
import { getGame } from '../../harness/games/registry.js';
import type { Assignment } from '../assignment.js';
import { packageFile } from '../package-root.js';
import { MissingDependencyError } from '../optional-dependency.js';
import {
  BEHAVIOUR_THRESHOLDS,
  DEFAULT_PROBES,
  drawProbes,
  probeLimitMs,
  probeSubmission,
  referenceAnswers,
  scoreBehaviour,
  usable,
  type BehaviourPair,
  type ProbeAnswers,
  type ProbePosition,
} from './behaviour.js';
import { compareSources, type SourcePair, type SourceResult } from './source.js';
import { builtInBase, readSources, type SourceSet } from './sources.js';
import { count } from '../words.js';

export interface Entrant {
  id: string;
  /** The submission on disk: a folder or one file. */
  path: string;
}

export interface SimilarityOptions {
  students: Entrant[];
  /** Earlier classes, web solutions: compared with every student, never with each other. */
  corpus?: Entrant[];
  /** The instructor's own base code folders (the course's board.py, a handout), on top of the built-in base. */
  baseDirs?: string[];
  assignment: Assignment;
  /** Source score at or above which a pair is flagged (default SOURCE_THRESHOLD). */
  sourceThreshold?: number;
  /** Probe positions (0 skips the behaviour half). */
  probes?: number;
  seed?: number;
  /** Students probed at once (default: the number of cores). */
  jobs?: number;
  moveTimeoutMs?: number;
  onProgress?: (line: string) => void;
}

export const SOURCE_THRESHOLD = 0.5;
/** A pair is listed (not flagged) from here: enough shared code to show the instructor what is shared. */
const LIST_SOURCE = 0.25;
const LIST_BEHAVIOUR = 0.5;
const MAX_LISTED = 1000;
/** Excerpts (the lines themselves) for this many fragments of a listed pair, for the side-by-side view. */
const EXCERPTS = 8;
const EXCERPT_LINES = 40;

export interface FragmentView {
  a: { file: string; startLine: number; endLine: number; lines?: string[] };
  b: { file: string; startLine: number; endLine: number; lines?: string[] };
  kgrams: number;
}

export interface ReportedPair {
  a: string;
  b: string;
  /** One of the two is a corpus entry (not a student of this class). */
  corpus: boolean;
  flagged: boolean;
  flaggedBy: ('source' | 'behaviour')[];
  source: (Omit<SourcePair, 'a' | 'b' | 'fragments'> & { fragments: FragmentView[] }) | null;
  behaviour: (Omit<BehaviourPair, 'a' | 'b'>) | null;
}

export interface Cluster {
  members: string[];
  /** Flagged pairs inside the cluster. */
  pairs: number;
  /** The strongest evidence inside it. */
  maxSource: number;
  maxBehaviour: number;
}

export interface ProbeCost {
  id: string;
  asked: number;
  answered: number;
  /** A behaviour score could be computed. */
  scored: boolean;
  reason?: string;
  wallMs: number;
  cpuMs: number;
}

export interface SimilarityReport {
  title: string;
  game: string;
  generatedAt: string;
  students: string[];
  corpus: string[];
  thresholds: { source: number; behaviour: { score: number; z: number } };
  source: {
    ran: boolean;
    /** Why it did not run (dolos-lib missing, with the fix). */
    skipped?: string;
    kgramLength?: number;
    window?: number;
    commonLimit?: number;
    languages?: SourceResult['languages'];
    baseFiles: number;
    /** Per participant: fingerprints in all, in the base code, in the class's idioms; files equal to a base file. */
    facts?: SourceResult['facts'];
    seconds?: number;
  };
  behaviour: {
    ran: boolean;
    skipped?: string;
    seed: number;
    moveTimeoutMs?: number;
    positions: ProbePosition[];
    /** The reference AIs whose answers anchor how often independent players agree. */
    anchors: string[];
    costs: ProbeCost[];
    /** Mean wall time of one student's probing, in ms. */
    meanWallMs?: number;
    seconds?: number;
  };
  pairs: ReportedPair[];
  clusters: Cluster[];
  /** Per participant, files skipped or read with losses; and the run's own notes. */
  notes: { id: string; lines: string[] }[];
}

const pairId = (a: string, b: string): string => (a < b ? `${a}\0${b}` : `${b}\0${a}`);

function excerpt(set: SourceSet | undefined, file: string, start: number, end: number): string[] | undefined {
  const source = set?.files.find((each) => each.path === file);
  if (!source) return undefined;
  return source.text.split(/\r?\n/).slice(start - 1, Math.min(end, start - 1 + EXCERPT_LINES));
}

/** Referee's own starters for a game, as players (the C++ starter needs `referee init` to fill it in: left out). */
function starterEntrants(game: string, languages: Set<string>): Entrant[] {
  const starters: Entrant[] = [];
  if (languages.has('python')) starters.push({ id: 'starter (Python)', path: packageFile('student-template', ...(game === 'reversi' ? ['python', 'src'] : ['generic']), 'AIPlayer.py') });
  if (languages.has('typescript')) starters.push({ id: 'starter (TypeScript)', path: packageFile('student-template', ...(game === 'reversi' ? ['src'] : ['generic']), 'AIPlayer.ts') });
  return starters;
}

/** Pool of `jobs` workers over `items`, results in input order. */
async function mapPool<T, R>(items: T[], jobs: number, work: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.max(1, Math.min(jobs, items.length)) }, async () => {
      while (next < items.length) {
        const index = next++;
        results[index] = await work(items[index], index);
      }
    }),
  );
  return results;
}

/** Connected components of the flagged pairs (students and corpus entries alike), biggest first. */
export function clustersOf(pairs: ReportedPair[]): Cluster[] {
  const parent = new Map<string, string>();
  const find = (x: string): string => {
    let root = x;
    while (parent.get(root) !== root) root = parent.get(root)!;
    parent.set(x, root);
    return root;
  };
  const flagged = pairs.filter((pair) => pair.flagged);
  for (const { a, b } of flagged) {
    for (const x of [a, b]) if (!parent.has(x)) parent.set(x, x);
    parent.set(find(a), find(b));
  }
  const groups = new Map<string, Cluster>();
  for (const x of parent.keys()) {
    const root = find(x);
    const cluster = groups.get(root) ?? { members: [], pairs: 0, maxSource: 0, maxBehaviour: 0 };
    cluster.members.push(x);
    groups.set(root, cluster);
  }
  for (const pair of flagged) {
    const cluster = groups.get(find(pair.a))!;
    cluster.pairs += 1;
    cluster.maxSource = Math.max(cluster.maxSource, pair.source?.score ?? 0);
    cluster.maxBehaviour = Math.max(cluster.maxBehaviour, pair.behaviour?.score ?? 0);
  }
  return [...groups.values()]
    .map((cluster) => ({ ...cluster, members: cluster.members.sort() }))
    .sort((x, y) => y.members.length - x.members.length || Math.max(y.maxSource, y.maxBehaviour) - Math.max(x.maxSource, x.maxBehaviour));
}

export async function runSimilarity(options: SimilarityOptions): Promise<SimilarityReport> {
  const { assignment } = options;
  const say = options.onProgress ?? (() => undefined);
  const corpus = options.corpus ?? [];
  const threshold = options.sourceThreshold ?? SOURCE_THRESHOLD;
  const probesWanted = options.probes ?? DEFAULT_PROBES;
  const seed = options.seed ?? 1;
  getGame(assignment.game);
  const report: SimilarityReport = {
    title: assignment.title,
    game: assignment.game,
    generatedAt: new Date().toISOString(),
    students: options.students.map((student) => student.id),
    corpus: corpus.map((entry) => entry.id),
    thresholds: { source: threshold, behaviour: { ...BEHAVIOUR_THRESHOLDS } },
    source: { ran: false, baseFiles: 0 },
    behaviour: { ran: false, seed, positions: [], anchors: [], costs: [] },
    pairs: [],
    clusters: [],
    notes: [],
  };
  const pairs = new Map<string, ReportedPair>();
  const pairFor = (a: string, b: string): ReportedPair => {
    const key = pairId(a, b);
    let pair = pairs.get(key);
    if (!pair) {
      const [first, second] = a < b ? [a, b] : [b, a];
      pair = { a: first, b: second, corpus: report.corpus.includes(a) || report.corpus.includes(b), flagged: false, flaggedBy: [], source: null, behaviour: null };
      pairs.set(key, pair);
    }
    return pair;
  };

  // --- source ---------------------------------------------------------------------------------------------------
  const sets = new Map<string, SourceSet>();
  const participants = [
    ...options.students.map((student) => ({ ...readSources(student.id, student.path), corpus: false })),
    ...corpus.map((entry) => ({ ...readSources(entry.id, entry.path), corpus: true })),
  ];
  for (const participant of participants) {
    sets.set(participant.id, participant);
    if (participant.notes.length > 0) report.notes.push({ id: participant.id, lines: participant.notes });
    if (participant.files.length === 0 && !participant.notes.some((line) => line.startsWith('cannot'))) {
      report.notes.push({ id: participant.id, lines: ['no source file in a language Referee grades (.py, .ts/.js, .cpp/.h): nothing to compare'] });
    }
  }
  const base: SourceSet[] = [builtInBase(), ...(options.baseDirs ?? []).map((dir) => readSources(`base ${dir}`, dir))];
  report.source.baseFiles = base.reduce((sum, set) => sum + set.files.length, 0);
  if (options.students.length < 2 && corpus.length === 0) {
    report.source.skipped = `${options.students.length === 0 ? 'no student' : 'one student'} and no --corpus: nothing to compare`;
  } else {
    const started = performance.now();
    try {
      say(`source: comparing ${count(participants.length, 'submission')} (${count(report.source.baseFiles, 'base file')} subtracted)…`);
      const result = await compareSources(participants, base, {}, LIST_SOURCE);
      report.source = {
        ran: true,
        kgramLength: result.kgramLength,
        window: result.window,
        commonLimit: result.commonLimit,
        languages: result.languages,
        baseFiles: report.source.baseFiles,
        facts: result.facts,
        seconds: Math.round((performance.now() - started) / 100) / 10,
      };
      if (result.notes.length > 0) report.notes.push({ id: 'source comparison', lines: result.notes });
      for (const found of result.pairs) {
        if (found.score < LIST_SOURCE) continue;
        const { a, b, fragments, ...rest } = found;
        const pair = pairFor(a, b);
        const swapped = pair.a !== a;
        const views: FragmentView[] = fragments.map((fragment, index) => {
          const left = swapped ? fragment.b : fragment.a;
          const right = swapped ? fragment.a : fragment.b;
          const withLines = index < EXCERPTS;
          return {
            a: { ...left, ...(withLines ? { lines: excerpt(sets.get(pair.a), left.file, left.startLine, left.endLine) } : {}) },
            b: { ...right, ...(withLines ? { lines: excerpt(sets.get(pair.b), right.file, right.startLine, right.endLine) } : {}) },
            kgrams: fragment.kgrams,
          };
        });
        pair.source = swapped
          ? {
              ...rest,
              containment: [rest.containment[1], rest.containment[0]],
              fingerprints: [rest.fingerprints[1], rest.fingerprints[0]],
              files: rest.files.map((file) => ({ a: file.b, b: file.a, shared: file.shared })),
              fragments: views,
            }
          : { ...rest, fragments: views };
        if (found.score >= threshold) {
          pair.flagged = true;
          pair.flaggedBy.push('source');
        }
      }
      say(`source: done in ${report.source.seconds} s`);
    } catch (error) {
      if (!(error instanceof MissingDependencyError)) throw error;
      // The caller prints this once, whatever the verbosity: it is the fix the instructor needs.
      report.source.skipped = error.message;
    }
  }

  // --- behaviour ------------------------------------------------------------------------------------------------
  if (probesWanted <= 0) {
    report.behaviour.skipped = 'not asked for (--probes 0)';
  } else if (options.students.length < 2) {
    report.behaviour.skipped = `${options.students.length === 0 ? 'no student' : 'one student'}: no pair to compare`;
  } else {
    const started = performance.now();
    const probes = drawProbes(assignment, probesWanted, seed);
    report.behaviour.positions = probes;
    const jobs = options.jobs ?? availableParallelism();
    say(`behaviour: ${count(options.students.length, 'student')} × ${count(probes.length, 'position')} × 2 asks, ${jobs} at a time…`);
    let done = 0;
    const answers: ProbeAnswers[] = await mapPool(options.students, jobs, async (student) => {
      const result = await probeSubmission(student.id, student.path, assignment, probes, { seed, moveTimeoutMs: options.moveTimeoutMs });
      done += 1;
      say(`behaviour: [${done}/${options.students.length}] ${student.id}: ${result.answered}/${result.asked} answered in ${(result.wallMs / 1000).toFixed(1)} s${result.stopped ? ` (${result.stopped})` : ''}`);
      return result;
    });
    // The starters in the class's languages answer too: two students who both left the starter's move choice in
    // place agree with it as much as with each other, and are not flagged for it.
    const languages = new Set(participants.filter((each) => !each.corpus).flatMap((each) => each.files.map((file) => file.language)));
    const starters = starterEntrants(assignment.game, languages);
    const starterAnswers = await mapPool(starters, jobs, (starter) => probeSubmission(starter.id, starter.path, assignment, probes, { seed, moveTimeoutMs: options.moveTimeoutMs }));
    const anchors = [...referenceAnswers(assignment, probes, seed), ...starterAnswers.filter(usable)];
    report.behaviour.anchors = anchors.map((anchor) => anchor.id);
    report.behaviour.moveTimeoutMs = probeLimitMs(assignment, options.moveTimeoutMs);
    report.behaviour.costs = answers.map((each) => {
      const scored = usable(each);
      const reason = scored
        ? undefined
        : `${each.stopped ?? `answered ${each.answered} of ${each.asked} asks, too few for a behaviour score`}${each.failures.length > 0 ? ` (${each.failures.join('; ')})` : ''}`;
      return { id: each.id, asked: each.asked, answered: each.answered, scored, ...(reason ? { reason } : {}), wallMs: each.wallMs, cpuMs: each.cpuMs };
    });
    report.behaviour.meanWallMs = Math.round(answers.reduce((sum, each) => sum + each.wallMs, 0) / Math.max(1, answers.length));
    for (const found of scoreBehaviour(answers, anchors, probes.map((probe) => probe.legal))) {
      if (found.score < LIST_BEHAVIOUR && !found.flagged && !pairs.has(pairId(found.a, found.b))) continue;
      const pair = pairFor(found.a, found.b);
      const swapped = pair.a !== found.a;
      const { a: _a, b: _b, ...rest } = found;
      pair.behaviour = swapped ? { ...rest, basis: { ...rest.basis, selfAgreement: [rest.basis.selfAgreement[1], rest.basis.selfAgreement[0]] } } : rest;
      if (found.flagged) {
        pair.flagged = true;
        pair.flaggedBy.push('behaviour');
      }
    }
    report.behaviour.ran = true;
    report.behaviour.seconds = Math.round((performance.now() - started) / 100) / 10;
  }

  report.pairs = [...pairs.values()]
    .sort(
      (x, y) =>
        Number(y.flagged) - Number(x.flagged) ||
        Math.max(y.source?.score ?? 0, y.behaviour?.score ?? 0) - Math.max(x.source?.score ?? 0, x.behaviour?.score ?? 0) ||
        (x.a < y.a ? -1 : 1),
    )
    .slice(0, MAX_LISTED);
  report.clusters = clustersOf(report.pairs);
  return report;
}
