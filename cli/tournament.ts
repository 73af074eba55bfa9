/**
 * `referee tournament <participants…>`: rank submissions and reference AIs against each other (round-robin,
 * gauntlet or Swiss), every opening played twice with colours swapped; writes tournament.json, ranking.csv and
 * tournament.html. Participants: submission files or folders, a class folder or LMS zip (the layouts `batch`
 * reads), and reference AIs by name (`weighted`, `mcts:2000`). Resumable with --resume like `batch`.
 * Exit codes: 0 done, 2 usage or input error, 3 grader error (journal intact), 130 interrupted.
 */
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { basename, extname, join, resolve } from 'node:path';
import { InvalidArgumentError, type Command } from 'commander';
import { getGame } from '../harness/games/registry.js';
import { displayWidth, padColumns } from '../grading/text-width.js';
import { resolveSubmission, type SubmissionProtocol } from '../harness/submission/resolve.js';
import { referenceNames } from '../reference-ai/index.js';
import { InputError, openSubmissions } from '../grading/batch/input.js';
import { LAYOUT_NAMES } from '../grading/batch/layout.js';
import { DEFAULT_LIMITS, snapshotStudent } from '../grading/batch/snapshot.js';
import { TOURNAMENT_JOURNAL_FILE, TournamentJournal, TournamentJournalError } from '../grading/tournament/journal.js';
import { fileURLToPath } from 'node:url';
import { ForkPool, WorkerStartError } from '../grading/batch/pool.js';
import { withdrawController, type GamePool } from '../grading/pool/job.js';
import { QueueUsageError, redactUrl, urlWithoutPassword } from '../grading/queue/connection.js';
import type { QueuePool } from '../grading/queue/pool.js';
import { closeLine, openQueuePool, queueResumeWords, workerHint } from './queue-flags.js';
import { OpeningsError, readOpenings } from '../grading/tournament/openings.js';
import { referenceParticipant, submissionParticipant, type Participant } from '../grading/tournament/participants.js';
import { isReferenceName } from '../reference-ai/budget.js';
import { writeRankingCsv, writeTournamentResult, type TournamentFormat, type TournamentParticipant, type TournamentResult } from '../grading/tournament/result.js';
import { GraderError, runTournament, TournamentInterrupted, TournamentUsageError, type TournamentOptions } from '../grading/tournament/runner.js';
import { writeTournamentReport } from '../reports/tournament/render.js';
import { boundedInt, nonNegativeInt, positiveInt, protocolName, shellWord, UsageError } from './args.js';
import { prepareOutDir, rethrowDiskFull } from './out-dir.js';
import { DiskFullError, isDiskFull } from '../grading/batch/disk-full.js';
import { assignmentArg } from './assignment-arg.js';
import { count } from '../grading/words.js';

interface TournamentFlags {
  format: TournamentFormat;
  rounds?: number;
  gamesPerPair: number;
  openings: string;
  config?: string;
  game?: string;
  out: string;
  jobs: number;
  resume?: boolean;
  seed: number;
  anchor?: string;
  gauntlet?: string[];
  queue?: string;
  keyFile?: string;
  redisPasswordFile?: string;
  entry?: string;
  protocol?: SubmissionProtocol;
}

/** With --queue and no --jobs: games kept queued for all workers at once (as batch). */
const QUEUE_DEFAULT_JOBS = 64;

/** The batch's game worker plays tournament games too (REFEREE_BATCH_WORKER overrides it, as for batch). */
const gameWorker = (): string => process.env.REFEREE_BATCH_WORKER || fileURLToPath(new URL('../grading/batch/worker.js', import.meta.url));

const FORMATS: TournamentFormat[] = ['round-robin', 'gauntlet', 'swiss'];

const formatArg = (value: string): TournamentFormat => {
  if (!(FORMATS as string[]).includes(value)) throw new InvalidArgumentError(`must be one of ${FORMATS.join(', ')}.`);
  return value as TournamentFormat;
};

const idList = (value: string): string[] => {
  const ids = value.split(',').map((id) => id.trim()).filter((id) => id !== '');
  if (ids.length === 0) throw new InvalidArgumentError('must list participant ids separated by commas, e.g. weighted,mcts:2000.');
  return ids;
};


/** Whether a path is one submission (a source file, or a folder with an entry file) rather than a class. */
function isOneSubmission(path: string, entry?: string, protocol?: SubmissionProtocol): boolean {
  if (extname(path).toLowerCase() === '.zip') return false;
  try {
    if (statSync(path).isFile()) return true;
    resolveSubmission(path, undefined, entry, protocol);
    return true;
  } catch {
    return false;
  }
}

/** Every participant named on the command line, snapshotting classes into out/submissions/. */
async function gatherParticipants(args: string[], game: string, outDir: string, entry?: string, protocol?: SubmissionProtocol): Promise<{ players: Participant[]; excluded: TournamentParticipant[] }> {
  const players: Participant[] = [];
  const excluded: TournamentParticipant[] = [];
  const seen = new Set<string>();
  const add = (participant: Participant, problem?: string): void => {
    if (seen.has(participant.id)) throw new UsageError(`two participants are named ${JSON.stringify(participant.id)}: rename one submission (ids come from file, folder or student names)`);
    seen.add(participant.id);
    const { id, kind, source, hash, language } = participant;
    if (problem === undefined) players.push(participant);
    else excluded.push({ id, kind, source, hash, language, excluded: problem });
  };
  for (const arg of args) {
    const looksLikePath = /[\\/]/.test(arg) || existsSync(arg);
    if (!looksLikePath && isReferenceName(game, arg)) {
      try {
        add(referenceParticipant(game, arg));
      } catch (error) {
        throw new UsageError((error as Error).message);
      }
      continue;
    }
    if (!existsSync(arg)) {
      const hint = /^[\w-]+(:\d+)?$/.test(arg) ? `a reference AI of ${game} (${referenceNames(game).join(', ')}; mcts:N for N playouts), or ` : '';
      throw new UsageError(`participant ${JSON.stringify(arg)} is neither ${hint}an existing submission, class folder or zip: check the name`);
    }
    if (isOneSubmission(arg, entry, protocol)) {
      const id = basename(resolve(arg)).replace(/\.(ts|js|mjs|cjs|py)$/, '');
      const outcome = await submissionParticipant(id, arg, entry, protocol);
      add(outcome.participant, outcome.problem);
      continue;
    }
    let input;
    try {
      input = await openSubmissions(resolve(arg), { exclude: [outDir] });
    } catch (error) {
      if (error instanceof InputError) throw new UsageError(error.message);
      throw error;
    }
    try {
      console.log(`Found ${count(input.students.length, 'student')} in ${arg}: ${LAYOUT_NAMES[input.layout]}.`);
      for (const student of input.students) {
        const snapshot = await snapshotStudent(student, join(outDir, 'submissions'), DEFAULT_LIMITS);
        if (snapshot.problem !== undefined) {
          const { participant } = await submissionParticipant(student.id, join(outDir, 'submissions', student.id), entry, protocol);
          add({ ...participant, source: student.origins.join(', ') }, snapshot.problem);
          continue;
        }
        const outcome = await submissionParticipant(student.id, snapshot.path, entry, protocol);
        add(outcome.participant, outcome.problem);
      }
    } finally {
      input.close();
    }
  }
  return { players, excluded };
}

function resumeCommand(args: string[], flags: TournamentFlags): string {
  const words = ['referee', 'tournament', ...args, '--format', flags.format, '--games-per-pair', String(flags.gamesPerPair), '--openings', flags.openings, '--seed', String(flags.seed), '--out', flags.out];
  if (flags.rounds !== undefined) words.push('--rounds', String(flags.rounds));
  if (flags.config) words.push('--config', flags.config);
  if (flags.game) words.push('--game', flags.game);
  if (flags.entry) words.push('--entry', flags.entry);
  if (flags.protocol) words.push('--protocol', flags.protocol);
  if (flags.anchor) words.push('--anchor', flags.anchor);
  if (flags.gauntlet) words.push('--gauntlet', flags.gauntlet.join(','));
  words.push(...queueResumeWords(flags));
  words.push('--jobs', String(flags.jobs), '--resume');
  return words.map(shellWord).join(' ');
}

function printRanking(result: TournamentResult): void {
  const width = Math.max(4, ...result.ranking.map((row) => displayWidth(row.id)));
  console.log(`\n${'rank'.padStart(4)}  ${'player'.padEnd(width)}  ${'Elo'.padStart(6)}  95% interval       W-D-L        score   LOS(next)`);
  for (const row of result.ranking) {
    const whole = (x: number): string => String(Math.round(x) || 0);
    const interval = `[${whole(row.low)}, ${whole(row.high)}]`.padEnd(17);
    const wdl = `${row.wins}-${row.draws}-${row.losses}`.padEnd(11);
    const score = row.games > 0 ? `${((100 * row.points) / row.games).toFixed(1)}%` : '—';
    const los = row.losNext === null ? '' : `${(100 * row.losNext).toFixed(1)}%`;
    console.log(`${String(row.rank).padStart(4)}  ${padColumns(row.id, width)}  ${whole(row.elo).padStart(6)}  ${interval}  ${wdl}  ${score.padStart(6)}   ${los}`);
  }
}

async function runCommand(args: string[], flags: TournamentFlags): Promise<void> {
  const assignment = assignmentArg(flags.config, flags.game);
  const game = getGame(assignment.game);
  const outDir = prepareOutDir(flags.out);
  let openings: TournamentOptions['openings'];
  if (/^\d+$/.test(flags.openings)) {
    openings = { kind: 'random', plies: Number(flags.openings) };
  } else {
    try {
      openings = { kind: 'file', path: flags.openings, lines: readOpenings(flags.openings, game) };
    } catch (error) {
      if (error instanceof OpeningsError) throw new UsageError(error.message);
      throw error;
    }
  }
  if (flags.format !== 'swiss' && flags.rounds !== undefined && flags.format === 'gauntlet') {
    throw new UsageError('--rounds applies to swiss (rounds) and round-robin (cycles), not gauntlet: use --games-per-pair for more games');
  }
  let journal: TournamentJournal;
  try {
    journal = TournamentJournal.open(join(outDir, TOURNAMENT_JOURNAL_FILE));
  } catch (error) {
    if (error instanceof TournamentJournalError) throw new UsageError(error.message);
    rethrowDiskFull(error, outDir);
  }
  let pool: GamePool;
  let queuePool: QueuePool | undefined;
  try {
    if (flags.queue) {
      pool = queuePool = await openQueuePool({ ...flags, queue: flags.queue }, flags.jobs);
      console.log(`Games go to the queue at ${redactUrl(urlWithoutPassword(flags.queue))}: start \`${workerHint({ ...flags, queue: flags.queue })}\` on each machine.`);
    } else {
      pool = new ForkPool(gameWorker(), flags.jobs, { onWarning: (line) => console.error(`warning: ${line}`) });
    }
  } catch (error) {
    journal.close();
    if (error instanceof QueueUsageError) throw new UsageError(error.message);
    if (error instanceof WorkerStartError) {
      console.error(`referee: grader error: ${error.message}`);
      process.exitCode = 3;
      return;
    }
    throw error;
  }
  const controller = withdrawController();
  let stoppedBy: NodeJS.Signals | null = null;
  const onSignal = (signal: NodeJS.Signals): void => {
    if (stoppedBy) process.exit(signal === 'SIGTERM' ? 143 : 130);
    stoppedBy = signal;
    console.error(`\nreferee: stopping (${signal}) — every finished game is journaled${flags.queue ? '; taking queued games off the queue' : ''} (${signal === 'SIGINT' ? 'Ctrl-C' : 'SIGTERM'} again to quit at once)…`);
    controller.abort();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  try {
    if (!flags.resume && !journal.isEmpty()) {
      throw new UsageError(`${outDir} already holds a tournament journal: add --resume to continue it (finished games are kept), or choose an empty --out`);
    }
    const { players, excluded } = await gatherParticipants(args, game.id, outDir, flags.entry ?? assignment.entry, flags.protocol ?? assignment.protocol);
    for (const participant of players) if (participant.artefact) await pool.publish(participant.artefact);
    const references = players.filter((spec) => spec.kind === 'reference').map((spec) => spec.id);
    const anchor = flags.anchor ?? (players.some((spec) => spec.id === 'random') ? 'random' : references[0] ?? players[0]?.id ?? '');
    const tty = process.stderr.isTTY === true;
    console.log(`${count(players.length, 'player')}${excluded.length > 0 ? `, ${excluded.length} excluded` : ''}; ${flags.format}, ${count(flags.gamesPerPair, 'game')} a meeting, ${game.title}; ratings anchored to ${anchor} = 0.`);
    const result = await runTournament({
      title: `${assignment.title} — ${flags.format} tournament`,
      game: game.id,
      referee: assignment.referee,
      pairing: flags.format,
      players,
      excluded,
      gauntletFixed: flags.gauntlet ?? references,
      rounds: flags.rounds,
      gamesPerPair: flags.gamesPerPair,
      openings,
      seed: flags.seed,
      anchor,
      anchorElo: 0,
      journal,
      pool,
      rubric: assignment.tournament,
      command: resumeCommand(args, flags).replace(/ --resume$/, ''),
      signal: controller.signal,
      onEvent: (event) => {
        if (event.type === 'round') {
          console.log(`round ${event.round}/${event.rounds}: ${count(event.games, 'game')}${event.resumed > 0 ? `, ${event.resumed} from the journal` : ''}`);
        } else if (tty) {
          process.stderr.write(`\r${event.finished}/${event.total} games`);
        }
      },
    });
    if (tty) process.stderr.write('\n');
    try {
      writeTournamentResult(join(outDir, 'tournament.json'), result);
      writeRankingCsv(join(outDir, 'ranking.csv'), result);
      writeTournamentReport(join(outDir, 'tournament.html'), result);
    } catch (error) {
      rethrowDiskFull(error, outDir);
    }
    printRanking(result);
    for (const warning of result.warnings) console.error(`warning: ${warning}`);
    console.log(`\n${result.games.length} games (${result.timings.gamesPlayed} played, ${result.timings.gamesResumed} from the journal) in ${(result.timings.totalMs / 1000).toFixed(1)} s.`);
    console.log(`report: ${join(outDir, 'tournament.html')}\nresults: ${join(outDir, 'tournament.json')}\nranking: ${join(outDir, 'ranking.csv')}`);
  } catch (error) {
    if (error instanceof TournamentInterrupted) {
      await pool.close();
      const closed = closeLine(queuePool);
      if (closed) console.error(closed);
      console.error(`referee: interrupted; every finished game is journaled in ${journal.path}.\nResume with: ${resumeCommand(args, flags)}`);
      process.exitCode = stoppedBy === 'SIGTERM' ? 143 : 130;
      return;
    }
    if (error instanceof TournamentUsageError) throw new UsageError(error.message);
    // A full disk mid-tournament: the games journaled so far are kept, and the resume line says how to go on.
    if (isDiskFull(error) || error instanceof DiskFullError) {
      console.error(`referee: ${error instanceof DiskFullError ? error.message : new DiskFullError(outDir, (error as NodeJS.ErrnoException).code ?? (error as Error).message).message}\nResume with: ${resumeCommand(args, flags)}`);
      process.exitCode = 1;
      return;
    }
    if (error instanceof GraderError || error instanceof WorkerStartError) {
      console.error(`referee: grader error: ${error.message}; finished games are journaled — fix the cause and resume with: ${resumeCommand(args, flags)}`);
      process.exitCode = 3;
      return;
    }
    throw error;
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    await pool.close();
    journal.close();
  }
}

export function register(program: Command): void {
  program
    .command('tournament')
    .description('rank submissions and reference AIs against each other (round-robin, gauntlet or Swiss) with maximum-likelihood Elo')
    .argument('<participants...>', 'submission files or folders, class folders or LMS zips (as for batch), reference AI names (weighted, mcts:2000)')
    .option('--format <format>', 'round-robin, gauntlet (everyone vs the reference AIs) or swiss', formatArg, 'round-robin' as TournamentFormat)
    .option('--rounds <n>', 'swiss: rounds (default log2(players) + 2); round-robin: cycles (default 1)', boundedInt(1000))
    .option('--games-per-pair <n>', 'games per meeting: each opening twice, colours swapped (an odd count ends on one game)', boundedInt(1000), 2)
    .option('--openings <n|file>', 'random plies per opening drawn from the seed, or a file with one opening (a line of moves) per line', '4')
    .option('--config <file>', 'assignment JSON whose game and rules the games use (moveTimeoutMs …)')
    .option('--game <id>', 'without --config: the game (default reversi)')
    .option('--entry <file>', "the entry file inside every submission folder, e.g. bot_v2.py (over the --config's entry); one name for all, as the assignment's entry")
    .option('--protocol <name>', "botzone: take every submission for a Botzone bot (a whole program on stdin/stdout) even without Botzone's signs in its source; course: never (over the --config's protocol); reference AIs are unaffected", protocolName)
    .option('--out <dir>', 'output folder (journal, tournament.json, ranking.csv, tournament.html)', 'referee-tournament')
    .option('--jobs <n>', 'games at once, one worker process each (default: the number of cores); with --queue, the games all workers play at once (default 64)', positiveInt, availableParallelism())
    .option('--queue <url>', 'play the games on `referee worker`s through Redis: redis://host:6379/0 (rediss:// for TLS; the password from --redis-password-file or $REFEREE_REDIS_PASSWORD)')
    .option('--key-file <path>', `with --queue: the key that signs results, shared with every worker (created, mode 600, if the file does not exist; default: $REFEREE_QUEUE_KEY_FILE)`)
    .option('--redis-password-file <path>', "with --queue: a file (mode 600) whose first line is Redis's password (default: $REFEREE_REDIS_PASSWORD; never put it in the URL)")
    .option('--resume', 'continue the journal in --out: replay no finished game')
    .option('--seed <s>', 'tournament seed: every game seed and opening derives from it', nonNegativeInt, 1)
    .option('--anchor <id>', 'the participant rated 0 (default: random if it plays, else the first reference AI)')
    .option('--gauntlet <ids>', 'gauntlet: the fixed opponents (default: every reference AI named)', idList)
    .action(async (participants: string[], flags: TournamentFlags, command: Command) => {
      if (flags.queue && command.getOptionValueSource('jobs') === 'default') flags.jobs = QUEUE_DEFAULT_JOBS;
      await runCommand(participants, flags);
    });
}
