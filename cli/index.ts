/**
 * The `referee` command. The top floor: the only folder that imports from all the others. One file per
 * subcommand; each exports register(program).
 * Exit codes: 0 ok, 1 a check/score failed (per command), 2 usage or input error, 3 internal error.
 */
import { isGraderError } from '../harness/referee/grader-error.js';
import { cacheDir, isCacheDirError } from '../harness/sandbox/cache-dir.js';
import { Command, CommanderError } from 'commander';
import { harnessVersion } from '../grading/package-root.js';
import { UsageError } from './args.js';
import { FEATURE_NEEDS, missingMessage, missingOptional } from '../grading/optional-dependency.js';
import { sourceMappedStack } from './stack-trace.js';

/** Each subcommand's module, loaded only when it is the one asked for (start-up is most of a quick command). */
const COMMANDS: Record<string, () => Promise<{ register(program: Command): void }>> = {
  grade: () => import('./grade.js'),
  check: () => import('./check.js'),
  batch: () => import('./batch.js'),
  export: () => import('./export.js'),
  gradescope: () => import('./gradescope.js'),
  play: () => import('./play.js'),
  replay: () => import('./replay.js'),
  init: () => import('./init.js'),
  doctor: () => import('./doctor.js'),
  cache: () => import('./cache.js'),
  perft: () => import('./perft.js'),
  serve: () => import('./serve.js'),
  worker: () => import('./worker.js'),
  tournament: () => import('./tournament.js'),
  ladder: () => import('./ladder.js'),
  list: () => import('./list.js'),
  similarity: () => import('./similarity.js'),
};

const version = harnessVersion();

const program = new Command()
  .name('referee')
  .description('Autograder and match harness for board-game AI assignments')
  .version(version)
  .exitOverride()
  // One line per error, named after the command, like every other message of ours.
  .configureOutput({ outputError: (text, write) => write(`referee: ${text.replace(/^error: /, '')}`) });

// `referee grade …` needs only grade's module; help, a bare `referee` or an unknown command (for "did you mean")
// need every command's.
const asked = process.argv[2];
const wanted = asked !== undefined && Object.hasOwn(COMMANDS, asked) ? [COMMANDS[asked]] : Object.values(COMMANDS);
for (const [name, load] of Object.entries(COMMANDS)) {
  if (!wanted.includes(load)) continue;
  try {
    (await load()).register(program);
  } catch (error) {
    // An instructor command whose packages a student install leaves out: listed, and one line with the fix.
    if (!missingOptional(error)) throw error;
    const fix = missingMessage(`referee ${name}`, FEATURE_NEEDS[name] ?? [missingOptional(error)!]);
    program
      .command(name)
      .description(`(not installed) ${fix}`)
      .allowUnknownOption()
      .allowExcessArguments()
      .helpOption(false)
      .action(() => {
        throw new UsageError(fix);
      });
  }
}

/**
 * The commands that compile or run players need the cache folder: an unusable one is said in one line before they
 * start, rather than midway through a class (where it would be a grader error per student).
 */
const USES_CACHE = new Set(['grade', 'check', 'batch', 'play', 'serve', 'worker', 'tournament', 'similarity', 'gradescope', 'ladder start', 'ladder final']);
program.hook('preAction', (_program, action) => {
  const name = action.parent && action.parent !== program ? `${action.parent.name()} ${action.name()}` : action.name();
  if (USES_CACHE.has(name)) cacheDir();
});

try {
  await program.parseAsync(process.argv);
} catch (err) {
  if (err instanceof CommanderError) {
    // Help and version are "errors" to commander; everything else it already printed in one line.
    process.exitCode = err.exitCode === 0 ? 0 : 2;
  } else if (err instanceof UsageError) {
    console.error(`referee: ${err.message}`);
    process.exitCode = 2;
  } else if (err instanceof Error && err.name === 'DiskFullError') {
    // The output folder's disk filled up: what was finished is journaled, and the message says how to resume.
    console.error(`referee: ${err.message}`);
    process.exitCode = 1;
  } else if (isCacheDirError(err)) {
    // This machine's setting, found before anything ran: a usage error with its fix.
    console.error(`referee: ${err.message}`);
    process.exitCode = 2;
  } else if (isGraderError(err)) {
    // The grading machine failed before any student code ran: one line with the fix, never a verdict.
    console.error(`referee: grader error, nothing was graded: ${err.message}`);
    process.exitCode = 3;
  } else {
    console.error(`referee: internal error: ${err instanceof Error ? (err.stack ? sourceMappedStack(err.stack) : err.message) : String(err)}`);
    process.exitCode = 3;
  }
}
