/**
 * `referee grade <submission>`: the interface check, the rubric's games, then grade.json and report.html.
 * Exit codes: 0 graded (whatever the score), 1 the interface check failed or the score is under --min-score, 2 usage or config error, 3 internal error.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { InvalidArgumentError, type Command } from 'commander';
import { getGame } from '../harness/games/registry.js';
import { referenceNames } from '../reference-ai/index.js';
import type { Assignment } from '../grading/assignment.js';
import { referenceContestant, submissionContestant, type Contestant } from '../grading/contestant.js';
import { platformCheckLimits } from '../grading/check-limits.js';
import { grade, GradeInterrupted } from '../grading/grade.js';
import { JOURNAL_FILE } from '../grading/journal.js';
import type { QueuePool } from '../grading/queue/pool.js';
import { writeGradeResult, type GradeResult } from '../grading/grade-result.js';
import { formatSummary, summaryJson } from '../grading/summary.js';
import { artefactSpec, buildArtefact } from '../grading/pool/artefact.js';
import { withdrawController, type GamePool, type PlayerSpec } from '../grading/pool/job.js';
import { importFor, MissingDependencyError } from '../grading/optional-dependency.js';
import { writeReport } from '../reports/render.js';
import { prepareOutDir, rethrowDiskFull } from './out-dir.js';
import { protocolName, shellWord, UsageError } from './args.js';
import type { SubmissionProtocol } from '../harness/submission/resolve.js';
import { assignmentArg } from './assignment-arg.js';
import { didYouMean } from './players.js';
import { submissionArg } from './zip-arg.js';
import { isSubmissionPath } from '../harness/submission/player.js';
import { count } from '../grading/words.js';

interface GradeFlags {
  config?: string;
  entry?: string;
  protocol?: SubmissionProtocol;
  game?: string;
  out: string;
  seed?: number;
  minScore?: number;
  only?: { item: number; index: number };
  checkOnly?: boolean;
  resume?: boolean;
  json?: boolean;
  open?: boolean;
  quiet?: boolean;
  queue?: string;
  keyFile?: string;
  redisPasswordFile?: string;
}

/** Progress lines on stderr: every game on a terminal; without one (CI logs, pipes) at most one a second. */
export function progressWriter(write: (line: string) => void, tty: boolean, intervalMs = 1000): (line: string, last: boolean) => void {
  let lastAt = -Infinity;
  return (line, last) => {
    const now = Date.now();
    if (!tty && !last && now - lastAt < intervalMs) return;
    lastAt = now;
    write(`${line}\n`);
  };
}

function integer(value: string): number {
  if (!/^-?\d+$/.test(value) || !Number.isSafeInteger(Number(value))) throw new InvalidArgumentError('must be an integer, e.g. 1.');
  return Number(value);
}

function score(value: string): number {
  const number = Number(value);
  if (value.trim() === '' || !Number.isFinite(number) || number < 0) throw new InvalidArgumentError('must be a number ≥ 0, e.g. 60.');
  return number;
}

function gameSlot(value: string): { item: number; index: number } {
  const match = /^(\d+):(\d+)$/.exec(value);
  if (!match) throw new InvalidArgumentError('must be ITEM:GAME counted from 0, e.g. 0:3 (the report prints it for every game).');
  return { item: Number(match[1]), index: Number(match[2]) };
}

/** A shell word that pastes back unchanged (POSIX quoting). */

function rerunCommand(submission: string, flags: GradeFlags): string {
  const words = ['referee', 'grade', submission];
  if (flags.config) words.push('--config', flags.config);
  if (flags.game) words.push('--game', flags.game);
  if (flags.entry) words.push('--entry', flags.entry);
  if (flags.protocol) words.push('--protocol', flags.protocol);
  if (flags.seed !== undefined) words.push('--seed', String(flags.seed));
  return words.map(shellWord).join(' ');
}

function openInBrowser(path: string): void {
  const [command, args] =
    process.platform === 'darwin' ? ['open', [path]] : process.platform === 'win32' ? ['cmd', ['/c', 'start', '', path]] : ['xdg-open', [path]];
  const child = spawn(command, args as string[], { detached: true, stdio: 'ignore' });
  child.on('error', () => console.error(`referee: could not open a browser; open ${path} yourself`));
  child.unref();
}

async function contestantFor(arg: string, assignment: Assignment, platformCheck = false): Promise<Contestant> {
  if (isSubmissionPath(arg)) {
    // A path that is not there is a typo on the command line, not a submission to grade 0: say so (exit 2).
    // A folder without an entry file is graded, and its report explains the failed interface check.
    if (!existsSync(arg)) throw new UsageError(`submission not found: ${resolve(arg)}; pass a file like src/AIPlayer.ts or a folder`);
    if (!platformCheck) return submissionContestant(arg, assignment);
    // Without a config the check judges the platform's contract (60 s a move), the ladder's limit as its pace:
    // a correct slow AI passes the check, and the warning below says up front that the ladder will time it out.
    const platform = platformCheckLimits(assignment.game);
    return submissionContestant(arg, assignment, {
      moveTimeoutMs: platform.moveTimeoutMs,
      constructTimeoutMs: platform.constructTimeoutMs,
      limitsSource: platform.limitsSource,
      pace: { moveTimeoutMs: assignment.referee.moveTimeoutMs, source: 'the built-in ladder' },
    });
  }
  const names = referenceNames(assignment.game);
  if (names.includes(arg)) return referenceContestant(assignment.game, arg);
  const near = didYouMean(arg, names);
  throw new UsageError(`'${arg}' is neither a submission (a .ts/.js/.py file or a folder) nor a reference AI (${names.join(', ')})${near ? `: did you mean '${near}'?` : ''}`);
}

export function register(program: Command): void {
  program
    .command('grade')
    .description('grade a submission: the interface check, games against the reference ladder, grade.json and report.html')
    .argument('<submission>', 'the AIPlayer file or folder (a reference AI name grades that reference)')
    .option('--config <file>', 'assignment JSON (see grading/assignment.schema.json); default: the built-in ladder')
    .option('--game <id>', 'without --config: the game whose built-in assignment to use (default: reversi)')
    .option('--entry <file>', "the entry file inside the submission folder, e.g. AIplayer.py (over the assignment's entry and the name conventions)")
    .option('--protocol <name>', "botzone: grade it as a Botzone bot (a whole program on stdin/stdout) even without Botzone's signs in its source; course: never (over the assignment's protocol)", protocolName)
    .option('--out <dir>', 'folder for grade.json, report.html and games.jsonl', 'referee-report')
    .option('--seed <s>', "replace every rubric item's series seed", integer)
    .option('--min-score <x>', 'exit with code 1 when the score is below x', score)
    .option('--only <item:game>', 'play one game only, e.g. 0:3 (to reproduce one game of a report)', gameSlot)
    .option('--check-only', 'run the interface check and stop (no games)')
    .option('--resume', 'reuse the finished games of an interrupted grade in --out')
    .option('--json', 'print the summary as JSON')
    .option('--queue <url>', 'play the games on `referee worker`s through Redis: redis://host:6379/0 (rediss:// for TLS; the password from --redis-password-file or $REFEREE_REDIS_PASSWORD)')
    .option('--key-file <path>', `with --queue: the key that signs results, shared with every worker (created, mode 600, if the file does not exist; default: $REFEREE_QUEUE_KEY_FILE)`)
    .option('--redis-password-file <path>', "with --queue: a file (mode 600) whose first line is Redis's password (default: $REFEREE_REDIS_PASSWORD; never put it in the URL)")
    .option('--open', 'open report.html in a browser when done')
    .option('--quiet', 'no progress lines on stderr')
    .action(async (submission: string, flags: GradeFlags) => {
      let assignment = assignmentArg(flags.config, flags.game);
      if (flags.checkOnly) assignment = { ...assignment, opponents: [] };
      if (flags.entry !== undefined) assignment = { ...assignment, entry: flags.entry };
      if (flags.protocol !== undefined) assignment = { ...assignment, protocol: flags.protocol };
      if (flags.only && (flags.only.item >= assignment.opponents.length || flags.only.index >= assignment.opponents[flags.only.item].games)) {
        throw new UsageError(`--only ${flags.only.item}:${flags.only.index} names no game: items are 0..${assignment.opponents.length - 1}`);
      }
      // A zip is graded as the folder it holds; reports and the rerun command keep the name the user gave.
      const path = await submissionArg(submission);
      const found = await contestantFor(path, assignment, !flags.config);
      // Before any game: an --out that cannot hold the results is one line now, not a stack after the games (and a
      // submission that is not there leaves no empty output folder behind).
      const outDir = prepareOutDir(flags.out);
      const contestant = path === submission || found.submission.kind !== 'submission' ? found : { ...found, submission: { ...found.submission, name: submission } };
      const progress = flags.quiet ? null : progressWriter((line) => process.stderr.write(line), process.stderr.isTTY === true);
      const game = getGame(assignment.game);
      let pool: GamePool | undefined;
      let contestantSpec: PlayerSpec | undefined;
      if (flags.queue) {
        try {
          // The queue's packages are not in a student install: loaded only here.
          const { openQueuePool } = await importFor('--queue', () => import('./queue-flags.js'));
          pool = await openQueuePool({ ...flags, queue: flags.queue }, 16);
        } catch (error) {
          if (error instanceof MissingDependencyError) throw new UsageError(error.message);
          throw error;
        }
        const { submission: graded } = contestant;
        if (graded.kind === 'reference') {
          contestantSpec = { kind: 'reference', name: graded.name, ai: graded.name, openingMoves: 0 };
        } else {
          // Code that does not compile fails the interface check and plays no game: no artefact needed.
          const artefact = await buildArtefact(path, assignment.entry, assignment.protocol).catch(() => null);
          if (artefact) {
            await pool.publish(artefact);
            contestantSpec = artefactSpec(artefact, graded.name);
          }
        }
      }
      // Ctrl-C or SIGTERM: queued games are withdrawn, games in play finish and are journaled, then a resume line.
      const controller = withdrawController();
      let stoppedBy: NodeJS.Signals | null = null;
      const onSignal = (signal: NodeJS.Signals): void => {
        if (stoppedBy) process.exit(signal === 'SIGTERM' ? 143 : 130);
        stoppedBy = signal;
        console.error(`\nreferee: stopping (${signal}) — finishing the games in play${flags.queue ? ' and taking queued games off the queue' : ''} (${signal === 'SIGINT' ? 'Ctrl-C' : 'SIGTERM'} again to quit at once)…`);
        controller.abort();
      };
      process.on('SIGINT', onSignal);
      process.on('SIGTERM', onSignal);
      let result: GradeResult;
      try {
        result = await grade({
          signal: controller.signal,
          pool,
          contestantSpec,
          assignment,
          assignmentSource: flags.config ?? 'built-in',
          contestant,
          outDir,
          resume: flags.resume,
          seed: flags.seed ?? null,
          only: flags.only,
          command: rerunCommand(submission, flags),
          onCheck: (check) => {
            // The check's 'moves' step warns only about pace: answers within the platform's limit, over this one.
            const pace = check.items.find((item) => item.id === 'moves' && item.status === 'warn');
            if (pace) console.error(`warning: ${pace.detail ?? ''}: games of the built-in ladder will be lost on time. ${pace.fix ?? ''}`);
          },
          onGame: progress
            ? (entry, finished, total) =>
                progress(`[${finished}/${total}] ${assignment.opponents[entry.item].title}, game ${entry.index + 1} as ${game.sideNames[entry.studentSide]}: ${entry.result}`, finished === total)
            : undefined,
        });
      } catch (error) {
        if (error instanceof GradeInterrupted) {
          await pool?.close();
          // Only a queue pool exists here (a grade's own games run in-process): its words come from queue-flags.
          const queueFlags = pool ? await import('./queue-flags.js') : null;
          const closed = queueFlags?.closeLine(pool as QueuePool);
          if (closed) console.error(closed);
          const resume = [rerunCommand(submission, flags), ...['--out', flags.out, ...(queueFlags?.queueResumeWords(flags) ?? []), '--resume'].map(shellWord)].join(' ');
          console.error(`referee: interrupted after ${count(error.gamesFinished, 'game')}; every finished game is journaled in ${join(outDir, JOURNAL_FILE)}.\nResume with: ${resume}`);
          process.exitCode = stoppedBy === 'SIGTERM' ? 143 : 130;
          return;
        }
        if ((error as Error).name === 'SubmissionError' || (error as Error).name === 'CompileError') throw new UsageError((error as Error).message);
        rethrowDiskFull(error, outDir);
      } finally {
        process.off('SIGINT', onSignal);
        process.off('SIGTERM', onSignal);
        await pool?.close();
      }
      const gradePath = join(outDir, 'grade.json');
      const reportPath = join(outDir, 'report.html');
      try {
        writeGradeResult(gradePath, result);
        writeReport(reportPath, result);
      } catch (error) {
        rethrowDiskFull(error, outDir);
      }
      console.log(flags.json ? JSON.stringify(summaryJson(result, { gradePath, reportPath })) : formatSummary(result, reportPath));
      if (result.status === 'grader-error') {
        // Not the student's failure: no verdict, exit 3 (the grade.json and report say what to fix).
        console.error(`referee: not graded: grader error: ${result.graderError}`);
        process.exitCode = 3;
        return;
      }
      if (!result.interfaceCheck.passed) {
        // The gate failed: no games were played. Exit 1 so scripts and CI stop here (the report says why).
        if (!flags.json) console.error('referee: the interface check failed, so no games were played (exit 1)');
        process.exitCode = 1;
      } else if (flags.minScore !== undefined && result.score < flags.minScore) {
        if (!flags.json) console.error(`referee: score ${result.score} is below the minimum ${flags.minScore}`);
        process.exitCode = 1;
      }
      if (flags.open) openInBrowser(reportPath);
    });
}
