/**
 * `referee ladder`: the always-on class ladder. `start` runs the service and its pages; `submit` is what a student
 * (and the starter's CI) runs; `freeze`, `final`, `export` and `rebuild` are the instructor's, on the data folder.
 * `submit` needs nothing beyond a student install; the rest load the journal's packages (better-sqlite3,
 * openskill) only when asked, and say in one line how to install them when they are missing.
 */
import { availableParallelism } from 'node:os';
import { InvalidArgumentError, type Command } from 'commander';
import { importFor, MissingDependencyError } from '../grading/optional-dependency.js';
import { nonNegativeInt, positiveInt, UsageError } from './args.js';
import type { LadderStartFlags } from './ladder-admin.js';

const admin = async (): Promise<typeof import('./ladder-admin.js')> => {
  try {
    return await importFor('ladder', () => import('./ladder-admin.js'));
  } catch (error) {
    if (error instanceof MissingDependencyError) throw new UsageError(error.message);
    throw error;
  }
};

const probability = (value: string): number => {
  const x = Number(value);
  if (!(x > 0.5 && x < 1)) throw new InvalidArgumentError('must be a probability between 0.5 and 1, e.g. 0.95.');
  return x;
};

const nameList = (value: string): string[] => value.split(',').map((name) => name.trim()).filter((name) => name !== '');

export function register(program: Command): void {
  const ladder = program.command('ladder').description('the always-on class ladder: submit any time, a rating with its interval within minutes, a fair final');

  ladder
    .command('start')
    .description('run the ladder: intake, matchmaking, ratings, and its pages and JSON API')
    .requiredOption('--config <file>', 'the assignment JSON (game, rules, and the tournament rubric the final uses)')
    .requiredOption('--roster <csv>', 'the class: a CSV with a "student" column (and optionally "name")')
    .requiredOption('--data <dir>', 'the ladder\'s folder: journal, submissions, tokens.csv, leaderboard.json')
    .option('--port <n>', 'port to listen on (0 picks a free one)', nonNegativeInt, 8090)
    .option('--host <addr>', 'address to bind (a reverse proxy with TLS in front for a class; see the instructor guide)', '127.0.0.1')
    .option('--trust-proxy', 'behind a reverse proxy on this machine: rate-limit by the X-Forwarded-For address')
    .option('--allowed-host <name>', 'a host name to answer besides loopback names and --host (the public name a proxy passes on); repeatable', (value: string, previous: string[] = []) => [...previous, value])
    .option('--jobs <n>', 'games at once on this machine (default: the number of cores)', positiveInt, availableParallelism())
    .option('--queue <url>', 'play the games on `referee worker`s through Redis (redis://host:6379/0)')
    .option('--key-file <path>', 'with --queue: the key that signs results, shared with every worker')
    .option('--redis-password-file <path>', "with --queue: a file whose first line is Redis's password")
    .option('--references <names>', 'the reference ladder, weakest first (the first is rated 0 and validates each submission); default: random and the assignment\'s reference opponents', nameList)
    .option('--quota <n>', 'submissions a student may make in 24 hours', positiveInt, 20)
    .option('--cooldown <s>', 'seconds between two submissions of one student', nonNegativeInt, 300)
    .option('--opening-plies <n>', 'random plies of each meeting\'s opening (played twice, colours swapped)', nonNegativeInt, 4)
    .option('--final-games <n>', 'the final plays at most this many games', positiveInt, 2000)
    .option('--pair-cap <n>', 'the final gives up separating two neighbours after this many games between them', positiveInt, 40)
    .option('--los <p>', 'the likelihood of superiority that separates two neighbours in the final', probability, 0.95)
    .action(async (flags: LadderStartFlags) => (await admin()).startLadder(flags));

  ladder
    .command('submit')
    .description('submit a file, folder or zip to a running ladder and wait for its check and validation')
    .argument('<path>', 'the submission: a source file, its folder, or a zip')
    .option('--url <url>', 'the ladder\'s address (default: $REFEREE_LADDER_URL)')
    .option('--token <token>', 'your token from the instructor (default: $REFEREE_LADDER_TOKEN; prefer the variable in CI)')
    .option('--entry <file>', 'the entry file inside the folder or zip (relative to it), over the name conventions, as `grade --entry`')
    .option('--no-wait', 'return once the upload is accepted, without waiting for the verdict')
    .option('--timeout <s>', 'give up waiting for the verdict after this many seconds', positiveInt, 900)
    .action(async (path: string, flags: { url?: string; token?: string; entry?: string; wait: boolean; timeout: number }) => (await import('./ladder-submit.js')).submitToLadder(path, flags));

  for (const [name, description] of [
    ['freeze', 'freeze the ladder: versions submitted from now on are checked and can practise, but never count'],
    ['final', 'run the final (freezes first): play until every pair of neighbours is separated or a cap, then points by the rubric'],
    ['rebuild', 're-derive the leaderboard (and the final) from the journal alone and compare it with the published one'],
  ] as const) {
    ladder
      .command(name)
      .description(description)
      .requiredOption('--data <dir>', 'the ladder\'s folder')
      .option('--jobs <n>', 'final without a running server: games at once here', positiveInt, availableParallelism())
      .action(async (flags: { data: string; jobs: number }) => (await admin())[name](flags));
  }

  ladder
    .command('export')
    .description('the final\'s points as a gradebook: csv, gradescope (results.json per student, with a leaderboard) or classroom')
    .requiredOption('--data <dir>', 'the ladder\'s folder')
    .option('--format <name>', 'csv, gradescope or classroom', 'csv')
    .option('--out <path>', 'csv: the file (default: stdout); gradescope/classroom: a folder with one folder per student')
    .action(async (flags: { data: string; format: string; out?: string }) => (await admin()).exportLadder(flags));
}
