/**
 * Source similarity through dolos-lib: its tree-sitter tokenizers (so renamed identifiers, reformatting and
 * comments change nothing) and its winnowed fingerprint index. What dolos does not do, we do here:
 * - base code: every fingerprint that occurs in the course's base files is dropped before scoring, and so is any
 *   fingerprint shared by so many students that it is the course's idiom rather than anyone's copy;
 * - per student, not per file: a student's files are scored together (split or merged files still match), and
 *   every match is attributed to the pair of files it joins, with line ranges;
 * - a corpus (last year's class, web solutions) is compared with every student but never with itself.
 * dolos-lib compiles native parsers, so it is an optional peer loaded only here.
 */
import type { File as DolosFile, FingerprintIndex, SharedFingerprint, TokenizedFile, Tokenizer } from '@dodona/dolos-lib';
import { importFor, MissingDependencyError } from '../optional-dependency.js';
import type { SourceFile, SourceLanguage, SourceSet } from './sources.js';

type DolosModule = typeof import('@dodona/dolos-lib');

/** Simulates an install without dolos-lib (tests of the one-line fix; the behaviour half must still run). */
export const HIDE_DOLOS_ENV = 'REFEREE_SIMILARITY_HIDE_DOLOS';

export async function loadDolos(): Promise<DolosModule> {
  return importFor('source similarity', async () => {
    if (process.env[HIDE_DOLOS_ENV] === '1') {
      throw Object.assign(new Error(`Cannot find package '@dodona/dolos-lib' (hidden by ${HIDE_DOLOS_ENV}=1)`), { code: 'ERR_MODULE_NOT_FOUND' });
    }
    return import('@dodona/dolos-lib');
  });
}

export interface SourceOptions {
  /** Tokens per k-gram (dolos's default 23). */
  kgramLength?: number;
  /** k-grams per winnowing window (dolos's default 17). */
  window?: number;
  /**
   * A fingerprint held by more participants than this is the course's idiom (a shared helper everyone copied
   * from the lecture), not a copy between two: dropped. Default max(10, half the class).
   */
  commonLimit?: number;
  /** Below this many own fingerprints a side's containment is noise (a near-empty submission): symmetric score only. */
  minFingerprints?: number;
  /** Fragments kept per pair of students (largest first). */
  maxFragments?: number;
}

export interface Participant extends SourceSet {
  /** A corpus entry (not a student of this class): compared with students only, never reported alone. */
  corpus: boolean;
}

export interface LineRange {
  file: string;
  /** 1-based, inclusive. */
  startLine: number;
  endLine: number;
}

export interface SourceFragment {
  a: LineRange;
  b: LineRange;
  /** Shared fingerprints along the fragment (its length in k-grams). */
  kgrams: number;
}

export interface SourcePair {
  a: string;
  b: string;
  /** max(similarity, containment when both sides are big enough): what the threshold is applied to. */
  score: number;
  /** Share of both sides' own fingerprints (base and idioms removed) that the other side also has. */
  similarity: number;
  /** Each side's share of its own fingerprints found in the other ([a, b]). */
  containment: [number, number];
  /** Own fingerprints on each side ([a, b]) after the base code and idioms were removed. */
  fingerprints: [number, number];
  /** Matches attributed to pairs of files, largest first. */
  files: { a: string; b: string; shared: number }[];
  fragments: SourceFragment[];
}

export interface ParticipantFacts {
  id: string;
  /** Fingerprints of its files in all. */
  total: number;
  /** Of those, found in the base code. */
  base: number;
  /** Of those, the course's idiom (held by more than commonLimit participants). */
  common: number;
  /** Files dropped whole because they equal a base file. */
  baseFiles: string[];
}

export interface SourceResult {
  /** Every pair of participants that shares at least one fingerprint (corpus–corpus excluded). */
  pairs: SourcePair[];
  facts: ParticipantFacts[];
  commonLimit: number;
  kgramLength: number;
  window: number;
  notes: string[];
  /** Files per language that were compared. */
  languages: Partial<Record<SourceLanguage, number>>;
}

const DOLOS_LANGUAGE: Record<SourceLanguage, string> = { python: 'python', cpp: 'cpp', typescript: 'typescript' };

/** Same text modulo line endings and trailing space: a file handed out and submitted unchanged. */
const normalised = (text: string): string => text.replace(/\r\n?/g, '\n').replace(/[ \t]+$/gm, '').trim();

interface Owned {
  owner: number;
  source: SourceFile;
  tokenized: TokenizedFile;
}

/** Tokenize a file, or note why it cannot be (a parser failure is the file's, never the run's). */
function tokenize(dolos: DolosModule, tokenizer: Tokenizer, owner: string, source: SourceFile, notes: string[]): TokenizedFile | null {
  try {
    return tokenizer.tokenizeFile(new dolos.File(`${owner}/${source.path}`, source.text) as DolosFile);
  } catch (error) {
    notes.push(`${owner}/${source.path}: could not be parsed (${(error as Error).message.split('\n')[0]}): not compared`);
    return null;
  }
}

const pairKey = (a: number, b: number): number => (a < b ? a * 1_000_003 + b : b * 1_000_003 + a);

/**
 * Compare every participant with every other (corpus with students only), the base code subtracted.
 * `reportAbove`: fragments are built only for pairs scoring at least this (the others keep their score).
 */
export async function compareSources(participants: Participant[], base: SourceSet[], options: SourceOptions = {}, reportAbove = 0): Promise<SourceResult> {
  const dolos = await loadDolos();
  const kgramLength = options.kgramLength ?? 23;
  const window = options.window ?? 17;
  const students = participants.filter((participant) => !participant.corpus).length;
  const commonLimit = options.commonLimit ?? Math.max(10, Math.ceil(students / 2));
  const minFingerprints = options.minFingerprints ?? 40;
  const maxFragments = options.maxFragments ?? 30;
  const notes: string[] = [];
  const facts: ParticipantFacts[] = participants.map((participant) => ({ id: participant.id, total: 0, base: 0, common: 0, baseFiles: [] }));
  const covered = new Map<number, [number, number]>();
  const filesShared = new Map<number, Map<string, number>>();
  const owned = new Map<TokenizedFile, Owned>();
  const indexes: FingerprintIndex[] = [];
  const languages: Partial<Record<SourceLanguage, number>> = {};
  const baseTexts = new Set(base.flatMap((set) => set.files.map((file) => normalised(file.text))));
  const picker = new dolos.LanguagePicker();

  for (const language of Object.keys(DOLOS_LANGUAGE) as SourceLanguage[]) {
    const mine = participants.flatMap((participant, owner) => participant.files.filter((file) => file.language === language).map((source) => ({ owner, source })));
    if (mine.length === 0) continue;
    let tokenizer: Tokenizer;
    try {
      tokenizer = await (await picker.findLanguage(DOLOS_LANGUAGE[language])).createTokenizer();
    } catch (error) {
      // Installed, but its native parsers did not build (no compiler at install time, install scripts refused).
      throw new MissingDependencyError(
        `source similarity could not load dolos-lib's ${language} parser (${(error as Error).message.split('\n')[0]}): run \`npm rebuild @dodona/dolos-parsers tree-sitter\` with a C++ compiler installed`,
      );
    }
    const index = new dolos.FingerprintIndex(kgramLength, window, false);
    indexes.push(index);
    const files: TokenizedFile[] = [];
    for (const { owner, source } of mine) {
      // A handed-out file submitted unchanged (board.py, Judge.cpp) is the base itself: nothing of it can match.
      if (baseTexts.has(normalised(source.text))) {
        facts[owner].baseFiles.push(source.path);
        continue;
      }
      const tokenized = tokenize(dolos, tokenizer, participants[owner].id, source, notes);
      if (!tokenized) continue;
      owned.set(tokenized, { owner, source, tokenized });
      files.push(tokenized);
    }
    languages[language] = files.length;
    index.addFiles(files);
    // Base files go in after the students' files: dolos marks a fingerprint ignored when a base file adds it, and
    // only then does it leave every student file that holds it.
    for (const set of base) {
      for (const source of set.files.filter((file) => file.language === language)) {
        const tokenized = tokenize(dolos, tokenizer, set.id, source, notes);
        if (tokenized) index.addIgnoredFile(tokenized);
      }
    }
    // The course's idioms: fingerprints held by more participants than commonLimit.
    const idioms: number[] = [];
    for (const shared of index.sharedFingerprints()) {
      if (shared.ignored) continue;
      const holders = new Set(shared.files().map((file) => owned.get(file)?.owner ?? -1));
      holders.delete(-1);
      if (holders.size > commonLimit) idioms.push(shared.hash);
    }
    index.addIgnoredHashes(idioms);
    const idiomSet = new Set(idioms);

    for (const entry of index.entries()) {
      const mineFile = owned.get(entry.file)!;
      const fact = facts[mineFile.owner];
      fact.total += entry.kgrams.length;
      for (const shared of entry.ignored) {
        const count = shared.occurrencesOf(entry.file).length;
        if (idiomSet.has(shared.hash)) fact.common += count;
        else fact.base += count;
      }
    }
    for (const shared of index.sharedFingerprints()) {
      if (shared.ignored || shared.fileCount() < 2) continue;
      accumulate(shared, participants, owned, covered, filesShared);
    }
  }

  const own = facts.map((fact) => Math.max(0, fact.total - fact.base - fact.common));
  const pairs: SourcePair[] = [];
  for (const [key, [coverFirst, coverSecond]] of covered) {
    const first = Math.floor(key / 1_000_003);
    const second = key % 1_000_003;
    const sides: [number, number] = [own[first], own[second]];
    const containment: [number, number] = [sides[0] > 0 ? Math.min(1, coverFirst / sides[0]) : 0, sides[1] > 0 ? Math.min(1, coverSecond / sides[1]) : 0];
    const similarity = sides[0] + sides[1] > 0 ? Math.min(1, (coverFirst + coverSecond) / (sides[0] + sides[1])) : 0;
    // A copy padded with dead code or glued to other work still holds most of the original: the smaller side's
    // containment counts, once that side is big enough for a share of it to mean something.
    const contained = Math.min(sides[0], sides[1]) >= minFingerprints ? Math.max(...containment) : 0;
    const score = Math.max(similarity, contained);
    const files = [...(filesShared.get(key) ?? new Map<string, number>())]
      .map(([names, shared]) => {
        const [a, b] = names.split('\0');
        return { a, b, shared };
      })
      .sort((x, y) => y.shared - x.shared);
    pairs.push({
      a: participants[first].id,
      b: participants[second].id,
      score: round(score),
      similarity: round(similarity),
      containment: [round(containment[0]), round(containment[1])],
      fingerprints: sides,
      files,
      fragments: score >= reportAbove ? fragmentsOf(first, second, indexes, owned, maxFragments) : [],
    });
  }
  pairs.sort((x, y) => y.score - x.score || (x.a < y.a ? -1 : 1));
  return { pairs, facts, commonLimit, kgramLength, window, notes, languages };
}

const round = (value: number): number => Math.round(value * 1000) / 1000;

/** Credit one shared fingerprint to every pair of participants holding it, and to the pair of files it joins. */
function accumulate(
  shared: SharedFingerprint,
  participants: Participant[],
  owned: Map<TokenizedFile, Owned>,
  covered: Map<number, [number, number]>,
  filesShared: Map<number, Map<string, number>>,
): void {
  const byOwner = new Map<number, { count: number; files: Map<string, number> }>();
  for (const file of shared.files()) {
    const info = owned.get(file);
    if (!info) continue;
    const count = shared.occurrencesOf(file).length;
    const holder = byOwner.get(info.owner) ?? { count: 0, files: new Map<string, number>() };
    holder.count += count;
    holder.files.set(info.source.path, (holder.files.get(info.source.path) ?? 0) + count);
    byOwner.set(info.owner, holder);
  }
  const owners = [...byOwner.keys()].sort((x, y) => x - y);
  for (let i = 0; i < owners.length; i++) {
    for (let j = i + 1; j < owners.length; j++) {
      const first = owners[i];
      const second = owners[j];
      if (participants[first].corpus && participants[second].corpus) continue;
      const key = pairKey(first, second);
      const cover = covered.get(key) ?? [0, 0];
      cover[0] += byOwner.get(first)!.count;
      cover[1] += byOwner.get(second)!.count;
      covered.set(key, cover);
      let files = filesShared.get(key);
      if (!files) filesShared.set(key, (files = new Map()));
      for (const [fileA, countA] of byOwner.get(first)!.files) {
        for (const [fileB, countB] of byOwner.get(second)!.files) {
          const name = `${fileA}\0${fileB}`;
          files.set(name, (files.get(name) ?? 0) + Math.min(countA, countB));
        }
      }
    }
  }
}

/** The matching stretches between two participants' files (dolos's fragments of each file pair), largest first. */
function fragmentsOf(first: number, second: number, indexes: FingerprintIndex[], owned: Map<TokenizedFile, Owned>, maxFragments: number): SourceFragment[] {
  const fragments: SourceFragment[] = [];
  for (const index of indexes) {
    const entries = index.entries();
    const left = entries.filter((entry) => owned.get(entry.file)?.owner === first);
    const right = entries.filter((entry) => owned.get(entry.file)?.owner === second);
    for (const a of left) {
      for (const b of right) {
        let shares = false;
        for (const shared of a.shared) {
          if (b.shared.has(shared)) {
            shares = true;
            break;
          }
        }
        if (!shares) continue;
        const fileA = owned.get(a.file)!.source.path;
        const fileB = owned.get(b.file)!.source.path;
        for (const fragment of index.getPair(a.file, b.file).buildFragments()) {
          fragments.push({
            a: { file: fileA, startLine: fragment.leftSelection.startRow + 1, endLine: fragment.leftSelection.endRow + 1 },
            b: { file: fileB, startLine: fragment.rightSelection.startRow + 1, endLine: fragment.rightSelection.endRow + 1 },
            kgrams: fragment.pairs.length,
          });
        }
      }
    }
  }
  // Largest first; a stretch inside one already kept (on both sides) adds nothing to read.
  const inside = (x: LineRange, y: LineRange): boolean => x.file === y.file && x.startLine >= y.startLine && x.endLine <= y.endLine;
  const kept: SourceFragment[] = [];
  for (const fragment of fragments.sort((x, y) => y.kgrams - x.kgrams || x.a.startLine - y.a.startLine)) {
    if (kept.length >= maxFragments) break;
    if (kept.some((big) => inside(fragment.a, big.a) && inside(fragment.b, big.b))) continue;
    kept.push(fragment);
  }
  return kept;
}

export { MissingDependencyError };
