/**
 * `referee similarity CLASS --out DIR`: which submissions of a class (a folder or an LMS zip) are worth a look
 * together — the source compared with the course's base code subtracted, and behaviour compared over probe
 * positions, which sees through a port to another language. Writes DIR/similarity.json and DIR/similarity.html.
 * `referee batch … --similarity` calls runForBatch here on the batch's own snapshots.
 * Exit codes: 0 done (whatever was flagged: a flag is no failure), 2 usage or input error.
 */
import { randomBytes } from 'node:crypto';
import { accessSync, constants, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { InvalidArgumentError, type Command } from 'commander';
import type { Assignment } from '../grading/assignment.js';
import { InputError, openSubmissions } from '../grading/batch/input.js';
import { pseudonyms } from '../grading/batch/pseudonym.js';
import { DEFAULT_LIMITS, snapshotStudent } from '../grading/batch/snapshot.js';
import { DEFAULT_PROBES } from '../grading/similarity/behaviour.js';
import { runSimilarity, SOURCE_THRESHOLD, type Entrant, type SimilarityReport } from '../grading/similarity/run.js';
import { count } from '../grading/words.js';
import { writeSimilarityPage } from '../reports/similarity/render.js';
import { nonNegativeInt, positiveInt, UsageError } from './args.js';
import { assignmentArg } from './assignment-arg.js';

interface SimilarityFlags {
  out: string;
  base: string[];
  corpus: string[];
  config?: string;
  game?: string;
  json?: boolean;
  threshold: number;
  probes: number;
  seed: number;
  jobs?: number;
  probeMs?: number;
  anonymize?: boolean;
  quiet?: boolean;
}

export const SIMILARITY_JSON = 'similarity.json';
export const SIMILARITY_HTML = 'similarity.html';
const KEY_FILE = '.similarity-pseudonym-key';

const collect = (value: string, previous: string[]): string[] => [...previous, value];

const share = (value: string): number => {
  const number = Number(value);
  if (value.trim() === '' || !Number.isFinite(number) || number <= 0 || number > 1) throw new InvalidArgumentError('must be a number in (0, 1], e.g. 0.5.');
  return number;
};

/** A --base folder, or a --corpus folder or LMS zip. */
function folderArg(path: string, flag: '--base' | '--corpus'): string {
  const full = resolve(path);
  let usable = false;
  try {
    const stats = statSync(full);
    usable = stats.isDirectory() || (flag === '--corpus' && stats.isFile() && full.toLowerCase().endsWith('.zip'));
  } catch {
    // reported below
  }
  if (!usable) throw new UsageError(`${flag} ${path} is not ${flag === '--base' ? 'a folder: pass a folder of handed-out code' : 'a folder or a .zip: pass earlier submissions, one folder or file per student'}`);
  return full;
}

/** Every student of a class folder or zip, copied into `root` (each its own folder); problems become notes. */
async function snapshotClass(path: string, root: string, prefix: string, exclude: string[] = []): Promise<{ entrants: Entrant[]; problems: string[] }> {
  let input;
  try {
    input = await openSubmissions(path, { exclude });
  } catch (error) {
    if (error instanceof InputError) throw new UsageError(error.message);
    throw error;
  }
  const entrants: Entrant[] = [];
  const problems: string[] = [];
  try {
    for (const student of input.students) {
      const snapshot = await snapshotStudent(student, root, DEFAULT_LIMITS);
      if (snapshot.problem !== undefined) problems.push(`${prefix}${student.id}: not compared — ${snapshot.problem}`);
      else entrants.push({ id: `${prefix}${student.id}`, path: snapshot.path });
    }
  } finally {
    input.close();
  }
  return { entrants, problems };
}

/** A secret kept in the out folder, so pseudonyms stay the same from one run to the next. */
function pseudonymKey(outDir: string): string {
  const path = join(outDir, KEY_FILE);
  if (existsSync(path)) return readFileSync(path, 'utf8').trim();
  const key = randomBytes(16).toString('hex');
  writeFileSync(path, key, { mode: 0o600 });
  return key;
}

function writeAtomic(path: string, text: string): void {
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, text);
  renameSync(temporary, path);
}

/** Write the JSON and the pages; returns the lines naming them. */
export function writeSimilarity(report: SimilarityReport, outDir: string, names: Map<string, string> | null): string[] {
  mkdirSync(outDir, { recursive: true });
  const json = join(outDir, SIMILARITY_JSON);
  const html = join(outDir, SIMILARITY_HTML);
  writeAtomic(json, `${JSON.stringify(report, null, 2)}\n`);
  writeSimilarityPage(html, report);
  const lines = [`similarity: ${html}`, `data: ${json}`];
  if (names) {
    const anonymous = join(outDir, 'similarity-anonymous.html');
    writeSimilarityPage(anonymous, report, { pseudonyms: names });
    lines.push(`anonymised: ${anonymous}`);
  }
  return lines;
}

export function summaryLine(report: SimilarityReport): string {
  const flagged = report.pairs.filter((pair) => pair.flagged);
  const halves = [
    report.source.ran ? 'source compared' : `source not compared (${report.source.skipped})`,
    report.behaviour.ran ? `behaviour probed (${report.behaviour.positions.length} positions, ${((report.behaviour.meanWallMs ?? 0) / 1000).toFixed(1)} s per student)` : `behaviour not probed (${report.behaviour.skipped})`,
  ];
  return `Compared ${count(report.students.length, 'student')}${report.corpus.length > 0 ? ` and ${count(report.corpus.length, 'corpus entry', 'corpus entries')}` : ''}: ${count(flagged.length, 'pair')} flagged in ${count(report.clusters.length, 'cluster')}; ${halves.join('; ')}.`;
}

/**
 * The batch's snapshot of each student (`snapshots`/<id>, i.e. out/submissions/<id>), as grading saw it: a lone file, or the folder
 * inside any folders that only wrap it (a cloned repo). Students without a snapshot (refused input) are left out.
 */
export function batchEntrants(snapshots: string, ids: string[]): Entrant[] {
  const entrants: Entrant[] = [];
  for (const id of ids) {
    let path = join(snapshots, id);
    if (!existsSync(path)) continue;
    for (;;) {
      const children = readdirSync(path);
      if (children.length !== 1) break;
      const only = join(path, children[0]);
      if (!statSync(only).isDirectory() && !statSync(only).isFile()) break;
      path = only;
      if (statSync(only).isFile()) break;
    }
    entrants.push({ id, path });
  }
  return entrants;
}

/** dolos-lib not installed: one line with the install command (the behaviour half ran without it). */
function warnMissing(report: SimilarityReport): void {
  if (!report.source.ran && report.source.skipped?.includes('npm install')) console.error(`referee: ${report.source.skipped}`);
}

/** `referee batch --similarity`: the batch's own snapshots (out/submissions/<id>), its assignment, its out folder. */
export async function runForBatch(options: { students: Entrant[]; assignment: Assignment; outDir: string; pseudonyms: Map<string, string> | null; quiet?: boolean }): Promise<string[]> {
  const report = await runSimilarity({
    students: options.students,
    assignment: options.assignment,
    onProgress: options.quiet ? undefined : (line) => console.error(line),
  });
  warnMissing(report);
  return [summaryLine(report), ...writeSimilarity(report, options.outDir, options.pseudonyms)];
}

async function similarity(classPath: string, flags: SimilarityFlags): Promise<void> {
  const assignment = assignmentArg(flags.config, flags.game);
  const outDir = resolve(flags.out);
  // Before minutes of probing: an --out that cannot be written is a usage error now, not a crash at the end.
  try {
    mkdirSync(outDir, { recursive: true });
    accessSync(outDir, constants.W_OK);
  } catch (error) {
    throw new UsageError(`--out ${flags.out} cannot be used as the output folder (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}): choose a writable folder`);
  }
  const baseDirs = flags.base.map((dir) => folderArg(dir, '--base'));
  const corpusDirs = flags.corpus.map((dir) => folderArg(dir, '--corpus'));
  const scratch = mkdtempSync(join(tmpdir(), 'referee-similarity-'));
  try {
    const { entrants: students, problems } = await snapshotClass(resolve(classPath), join(scratch, 'class'), '', [outDir]);
    const corpus: Entrant[] = [];
    for (const [index, dir] of corpusDirs.entries()) {
      const found = await snapshotClass(dir, join(scratch, `corpus-${index}`), `${basename(dir).replace(/\.zip$/i, '')}/`);
      corpus.push(...found.entrants);
      problems.push(...found.problems);
    }
    const say = flags.quiet || flags.json ? undefined : (line: string) => console.error(line);
    say?.(`Found ${count(students.length, 'student')} in ${classPath}${corpus.length > 0 ? ` and ${count(corpus.length, 'corpus entry', 'corpus entries')}` : ''}.`);
    const report = await runSimilarity({
      students,
      corpus,
      baseDirs,
      assignment,
      sourceThreshold: flags.threshold,
      probes: flags.probes,
      seed: flags.seed,
      jobs: flags.jobs,
      moveTimeoutMs: flags.probeMs,
      onProgress: say,
    });
    if (problems.length > 0) report.notes.unshift({ id: 'input', lines: problems });
    warnMissing(report);
    mkdirSync(outDir, { recursive: true });
    const names = flags.anonymize ? pseudonyms(report.students, pseudonymKey(outDir)) : null;
    const files = writeSimilarity(report, outDir, names);
    if (flags.json) {
      process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
    } else {
      console.log(summaryLine(report));
      for (const cluster of report.clusters) console.log(`  cluster: ${cluster.members.join(', ')}`);
      console.log(files.join('\n'));
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

export function register(program: Command): void {
  program
    .command('similarity')
    .description('which submissions of a class are worth a look together: source (base code subtracted) and behaviour (sees through ports)')
    .argument('<class>', 'folder of submissions (one folder or file per student) or an LMS zip')
    .option('--out <dir>', 'output folder (similarity.json, similarity.html)', 'referee-similarity')
    .option('--base <dir>', 'handed-out code to subtract, on top of Referee\'s starters, board.py/game.py/func_timeout and the C++ SDK (repeatable)', collect, [])
    .option('--corpus <dir>', 'earlier submissions or solutions found online, compared with every student but not with each other (repeatable)', collect, [])
    .option('--config <file>', 'assignment JSON (its game and time limit); default: the built-in assignment')
    .option('--game <id>', 'without --config: the game whose built-in assignment to use (default: reversi)')
    .option('--threshold <score>', 'source score at which a pair is flagged', share, SOURCE_THRESHOLD)
    .option('--probes <n>', 'probe positions for the behaviour half (each asked twice; 0 skips it)', nonNegativeInt, DEFAULT_PROBES)
    .option('--seed <n>', 'seed of the probe positions and of the players\' randomness', nonNegativeInt, 1)
    .option('--probe-ms <ms>', "time per probe move a player is told and held to (default: the assignment's, at most 10 s)", positiveInt)
    .option('--jobs <n>', 'submissions probed at once (default: the number of cores)', positiveInt)
    .option('--anonymize', 'also write similarity-anonymous.html with stable pseudonyms')
    .option('--json', 'print the report as JSON on stdout (it is written to --out either way)')
    .option('--quiet', 'no progress on stderr')
    .action(async (classPath: string, flags: SimilarityFlags) => {
      await similarity(classPath, flags);
    });
}
