/** `referee serve`: the web app to play and watch games in a browser (web/server). */
import type { Command } from 'commander';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { isGraderError } from '../harness/referee/grader-error.js';
import { CompileError, compileSubmission } from '../harness/submission/compile.js';
import { resolveSubmission, SubmissionError, type SubmissionProtocol } from '../harness/submission/resolve.js';
import { startServer, type RunningServer } from '../web/server/app.js';
import type { WatchSource } from '../web/server/watch.js';
import { importFor, MissingDependencyError } from '../grading/optional-dependency.js';
import type { SeatSession } from '../web/server/seat.js';
import { gameArg, nonNegativeInt, protocolName, UsageError } from './args.js';
import { platformName } from './rule-options.js';
import { assignmentArg } from './assignment-arg.js';

interface ServeFlags {
  port: number;
  host: string;
  game?: string;
  open?: boolean;
  watch?: string;
  token?: string;
  config?: string;
  entry?: string;
  protocol?: SubmissionProtocol;
  platform?: 'course' | 'botzone';
}

const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost']);

export function isLoopback(host: string): boolean {
  return LOOPBACK.has(host) || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/** The token a non-loopback bind requires: the one given, or a fresh random one. */
export function tokenFor(host: string, given: string | undefined): string | null {
  if (given !== undefined) {
    if (!/^[A-Za-z0-9_-]{16,128}$/.test(given)) throw new UsageError('--token must be 16-128 letters, digits, - or _ (or leave it out to get a random one)');
    return given;
  }
  return isLoopback(host) ? null : randomBytes(18).toString('base64url');
}

/** Best effort: the desktop's browser; a failure only means the user opens the printed URL. */
export function openBrowser(url: string): void {
  const command = process.platform === 'darwin' ? 'open' : process.platform === 'win32' ? 'explorer' : 'xdg-open';
  try {
    const child = spawn(command, [url], { stdio: 'ignore', detached: true });
    child.on('error', () => console.error(`referee: could not start a browser (${command}); open ${url} yourself`));
    child.unref();
  } catch {
    console.error(`referee: could not start a browser; open ${url} yourself`);
  }
}

/** Stop the server on Ctrl-C / SIGTERM, then exit. */
export function closeOnSignal(server: RunningServer, before?: () => void): void {
  const stop = (): void => {
    before?.();
    void server.close().finally(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

export interface SeatServerOptions {
  seat: SeatSession;
  port: number;
  host: string;
  open: boolean;
  token?: string;
}

/** The page for `referee play --black human`: the same server, showing the CLI's games. */
export async function startSeatServer(options: SeatServerOptions): Promise<RunningServer> {
  const token = tokenFor(options.host, options.token);
  const server = await startServer({
    host: options.host,
    port: options.port,
    token,
    defaultGame: options.seat.game.id,
    submissions: [],
    seat: options.seat,
  });
  console.error(`referee: play the human side at ${server.url}`);
  if (token) console.error(`referee: bound to ${options.host}: anyone with the token can play; keep the URL to yourself`);
  if (options.open) openBrowser(server.url);
  return server;
}

export function register(program: Command): void {
  program
    .command('serve')
    .description('play and watch games in a browser: human vs AI or a submission, two humans, AI vs AI, live batches and tournaments')
    .argument('[submission...]', 'submissions to offer as opponents (sandboxed exactly as in grading)')
    .option('--port <n>', 'port to listen on (0 picks a free one)', nonNegativeInt, 8080)
    .option('--host <addr>', 'address to bind; anything but loopback requires the printed token', '127.0.0.1')
    .option('--game <id>', "game selected when the page opens (default: the --config's game, else reversi)")
    .option('--watch <out-dir>', 'the live dashboard of a running or finished `batch`, `tournament` or `grade` --out folder instead (read-only)')
    .option('--config <file>', "an assignment JSON: its game's games use its referee rules (time per move, illegal limit), as in grading")
    .option('--token <t>', 'the access token for a non-loopback --host (default: a random one, printed)')
    .option('--open', 'open the page in a browser')
    .option('--entry <file>', "the entry file inside each submission folder, e.g. bot_v2.py (over the --config's entry and the name conventions)")
    .option('--protocol <name>', 'botzone: run the submissions as Botzone bots (whole programs on stdin/stdout) even without the signs in their source', protocolName)
    .option('--platform <name>', "the rules preset of every game but the --config's: course (default) or botzone (1 s a turn x language, first turn x2, one invalid action loses)", platformName)
    .action(async (paths: string[], flags: ServeFlags) => {
      const assignment = flags.config === undefined ? null : assignmentArg(flags.config, undefined);
      const game = gameArg(flags.game ?? assignment?.game ?? 'reversi');
      const token = tokenFor(flags.host, flags.token);
      const entry = flags.entry ?? assignment?.entry;
      // A submission that cannot be found or compiled is reported now, not when someone picks it on the page.
      for (const path of paths) {
        try {
          await compileSubmission(resolveSubmission(path, undefined, entry, flags.protocol), {});
        } catch (error) {
          if (error instanceof SubmissionError || error instanceof CompileError) throw new UsageError(error.message);
          // This machine cannot build or run it (no JDK for a Java bot): said now, not when someone picks it.
          if (isGraderError(error)) throw new UsageError(`cannot serve ${path}: ${error.message}`);
          throw error;
        }
      }
      let watch: WatchSource | null = null;
      if (flags.watch !== undefined) {
        // --watch reads SQLite journals: better-sqlite3 is not in a student install, so it loads only here.
        let WatchSource: typeof import('../web/server/watch.js').WatchSource;
        try {
          ({ WatchSource } = await importFor('--watch', () => import('../web/server/watch.js')));
        } catch (error) {
          if (error instanceof MissingDependencyError) throw new UsageError(error.message);
          throw error;
        }
        const problem = WatchSource.problem(flags.watch);
        if (problem) throw new UsageError(problem);
        watch = new WatchSource(flags.watch);
      }
      let server: RunningServer;
      try {
        server = await startServer({ host: flags.host, port: flags.port, token, defaultGame: game.id, submissions: paths, entry, watch, assignment, protocol: flags.protocol, platform: flags.platform });
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code === 'EADDRINUSE') throw new UsageError(`port ${flags.port} is in use: pick another with --port (0 picks a free one)`);
        if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND') throw new UsageError(`cannot bind ${flags.host}: use an address of this machine, e.g. 127.0.0.1 or 0.0.0.0`);
        if (code === 'EACCES') throw new UsageError(`port ${flags.port} needs privileges: use a port above 1023`);
        throw error;
      }
      const guard = token ? `\nreferee serve: bound to ${flags.host}: every page and socket needs token=${token} (share the URL above)` : '';
      console.log(`referee serve: ${server.url}${watch ? ` (watching ${flags.watch})` : ''} — Ctrl-C stops${guard}`);
      if (flags.open) openBrowser(server.url);
      closeOnSignal(server);
    });
}
