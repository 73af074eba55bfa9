/**
 * `referee serve`'s web server: fastify (HTTP), @fastify/websocket (the game protocol), @fastify/static (the page's
 * files). The page's script is bundled at start-up with esbuild from the same pure harness/games code the referee
 * uses, so the page draws positions and legal moves instantly; the server still decides every rule.
 */
import fastifyStatic from '@fastify/static';
import fastifyWebsocket from '@fastify/websocket';
import { build } from 'esbuild';
import Fastify, { type FastifyInstance } from 'fastify';
import { randomInt, timingSafeEqual } from 'node:crypto';
import { statSync } from 'node:fs';
import { resolve as resolvePath } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { WebSocket } from 'ws';
import type { AnyGame } from '../../harness/games/game.js';
import { gameIds, getGame } from '../../harness/games/registry.js';
import { configForGame, presetConfig, resolveConfig, type RefereeConfig } from '../../harness/referee/config.js';
import type { Player } from '../../harness/referee/player.js';
import type { TurnRecord } from '../../harness/referee/record.js';
import { CompileError } from '../../harness/submission/compile.js';
import { createSubmissionPlayer, submissionName } from '../../harness/submission/player.js';
import { SubmissionError, type SubmissionProtocol } from '../../harness/submission/resolve.js';
import { defaultAssignment, type Assignment } from '../../grading/assignment.js';
import { packageFile } from '../../grading/package-root.js';
import { count, dateTime } from '../../grading/words.js';
import { referenceNames } from '../../reference-ai/index.js';
import { loadRecord } from './load.js';
import {
  MAX_MESSAGE_BYTES,
  parseClientMessage,
  RateLimiter,
  type ClientMessage,
  type ServerMessage,
  type SessionSnapshot,
  type SideSpec,
  type TimePolicy,
} from './protocol.js';
import type { SeatSession } from './seat.js';
import { GameSession } from './session.js';
import type { WatchSource } from './watch.js';

export interface ServeOptions {
  host: string;
  port: number;
  /** Required in every page and socket URL when set (any bind other than loopback). */
  token: string | null;
  defaultGame: string;
  /** Submission paths given on the command line, offered as opponents by index. */
  submissions: string[];
  /** The entry file inside each submission folder (serve's --entry, else the assignment's `entry`). */
  entry?: string;
  /** 'botzone': run the submissions as Botzone bots whatever their source shows (--protocol). */
  protocol?: SubmissionProtocol;
  /** The rules preset of every game but the assignment's (--platform): 'botzone' plays Botzone's judge's limits. */
  platform?: 'course' | 'botzone';
  watch?: WatchSource | null;
  seat?: SeatSession | null;
  /**
   * The assignment whose referee rules (time per move, illegal-answer limit …) games of its game are played under,
   * as in grading; other games use their built-in assignment's rules.
   */
  assignment?: Assignment | null;
  /** Messages a second per connection (average, burst): 20 and 60 unless a bench lifts them. */
  rateLimit?: { rate: number; burst: number };
  /** Games in play kept at most; the least recently used idle one is closed beyond it. */
  maxSessions?: number;
  /**
   * Finished games (records: a few KB each, their players closed) kept at most, and for how long after they ended;
   * the oldest go first. Defaults: 1000 and 24 hours.
   */
  maxFinished?: number;
  finishedTtlMs?: number;
}

export interface RunningServer {
  url: string;
  port: number;
  close(): Promise<void>;
}

type LiveGame = GameSession | SeatSession;

async function bundleClient(): Promise<string> {
  const entry = fileURLToPath(new URL('../client/main.js', import.meta.url));
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    write: false,
    format: 'iife',
    platform: 'browser',
    target: 'es2022',
    minify: true,
    legalComments: 'none',
  });
  return result.outputFiles[0].text;
}

/** Whether a Host header names this machine's loopback: localhost (and *.localhost), 127.0.0.0/8 or [::1], any port. */
export function isLoopbackHost(host: string | undefined): boolean {
  if (!host) return false;
  const name = /^\[([0-9a-f:.]+)\](?::\d{1,5})?$/i.exec(host)?.[1] ?? /^([^:]+)(?::\d{1,5})?$/.exec(host)?.[1];
  if (!name) return false;
  const lower = name.toLowerCase().replace(/\.$/, '');
  return lower === 'localhost' || lower.endsWith('.localhost') || /^127(\.\d{1,3}){3}$/.test(lower) || lower === '::1';
}

function sameToken(given: unknown, token: string): boolean {
  if (typeof given !== 'string') return false;
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

const seedOf = (seed: number | undefined): number => seed ?? randomInt(0, 2 ** 31 - 1);

/** What the page's menus call each submission: the name it plays under, not the server's path to it (repeats numbered). */
function submissionLabels(paths: string[]): string[] {
  const names = paths.map((path) => {
    const input = resolvePath(path);
    let kind: 'file' | 'directory' = 'file';
    try {
      kind = statSync(input).isDirectory() ? 'directory' : 'file';
    } catch {
      // A path that does not exist is refused when it is chosen, in the submission's own words.
    }
    return submissionName({ input, entry: input, kind });
  });
  return names.map((name, index) => (names.indexOf(name) !== index || names.lastIndexOf(name) !== index ? `${name} (#${index + 1})` : name));
}

export async function startServer(options: ServeOptions): Promise<RunningServer> {
  const clientScript = await bundleClient();
  const sessions = new Map<string, GameSession>();
  const maxSessions = options.maxSessions ?? 64;
  const app: FastifyInstance = Fastify({ logger: false, bodyLimit: 64 * 1024 });

  // The token guards everything that shows or changes a game; the page's static files are public code.
  if (options.token !== null) {
    const token = options.token;
    app.addHook('onRequest', async (request, reply) => {
      if (request.url.startsWith('/assets/') || request.url === '/app.js' || request.url === '/favicon.ico') return;
      const given = (request.query as Record<string, unknown> | undefined)?.token;
      if (!sameToken(given, token)) {
        await reply
          .code(401)
          .type('text/plain')
          .send('referee serve: this server needs its token: open the URL printed when it started (…/?token=…)\n');
      }
    });
  }

  // DNS rebinding: a page of evil.example whose name is made to resolve to 127.0.0.1 reaches this server with
  // Host (and Origin) evil.example. Without a token (a loopback bind) only loopback names are answered, on every
  // route: the play and watch pages, their data and their websockets.
  if (options.token === null) {
    app.addHook('onRequest', async (request, reply) => {
      if (!isLoopbackHost(request.headers.host)) {
        await reply
          .code(421)
          .type('text/plain')
          .send(`referee serve: host '${String(request.headers.host ?? '').slice(0, 100).replace(/[^\x20-\x7e]/g, '?')}' refused: open http://localhost:PORT/ (a loopback name), or serve with --host and its token\n`);
      }
    });
  }

  // Another web site open in the same browser must not drive a local game (cross-site websocket hijacking).
  app.addHook('onRequest', async (request, reply) => {
    const origin = request.headers.origin;
    if (origin !== undefined && (request.url.startsWith('/ws') || request.method !== 'GET')) {
      let host: string | null = null;
      try {
        host = new URL(origin).host;
      } catch {
        host = null;
      }
      if (host !== request.headers.host) {
        await reply.code(403).type('text/plain').send('referee serve: websocket from another origin refused\n');
      }
    }
  });

  await app.register(fastifyWebsocket, {
    options: { maxPayload: MAX_MESSAGE_BYTES },
    // Closing cuts the pages' sockets at once. The plugin's graceful close waits up to 30 s for each page to answer,
    // and a page left open (`referee play` once its series is over) would keep the process alive that long.
    preClose(done) {
      for (const client of this.websocketServer.clients) client.terminate();
      this.websocketServer.close();
      done();
    },
  });
  await app.register(fastifyStatic, { root: packageFile('web', 'client'), prefix: '/assets/', index: false });

  app.get('/', async (_request, reply) => reply.sendFile('index.html'));
  app.get('/favicon.ico', async (_request, reply) => reply.code(204).send());
  app.get('/app.js', async (_request, reply) => reply.type('text/javascript; charset=utf-8').send(clientScript));
  app.get('/api/games/:id/record.json', async (request, reply) => {
    const { id } = request.params as { id: string };
    const session = sessions.get(id);
    const why = departed.get(id);
    if (!session && why) return reply.code(410).type('text/plain').send(`${why}\n`);
    if (!session) return reply.code(404).type('text/plain').send('no such game: it was closed or the server restarted\n');
    const record = session.saveRecord();
    const name = `${record.game}-${new Date().toISOString().slice(0, 19).replace(/[:T]/g, '-')}.json`;
    return reply
      .type('application/json')
      .header('content-disposition', `attachment; filename="${name}"`)
      .send(`${JSON.stringify(record, null, 1)}\n`);
  });

  /** The referee rules a grade of this game would use (the assignment's, or the game's built-in assignment's). */
  const rulesFor = (game: AnyGame): RefereeConfig => {
    if (options.assignment?.game === game.id) return options.assignment.referee;
    return options.platform === 'botzone' ? configForGame(game, presetConfig('botzone', game.id, {})) : defaultAssignment(game.id).referee;
  };

  const welcome: ServerMessage = {
    type: 'welcome',
    games: gameIds().map((id) => {
      const game = getGame(id);
      return {
        id,
        title: game.title,
        symbols: [game.symbols[0], game.symbols[1]],
        sideNames: [game.sideNames[0], game.sideNames[1]],
        levels: referenceNames(id),
        seeded: game.seededLayout === true,
        moveTimeMs: rulesFor(game).moveTimeoutMs,
        timeBankMs: rulesFor(game).timeBankMs ?? 0,
        strikeLimit: rulesFor(game).strikeLimit ?? 0,
      };
    }),
    submissions: submissionLabels(options.submissions),
    defaultGame: options.defaultGame,
    watch: Boolean(options.watch),
    seat: options.seat?.id ?? null,
  };

  async function makePlayer(spec: SideSpec, game: AnyGame): Promise<Player | null> {
    if (spec.kind === 'human') return null;
    if (spec.kind === 'reference') {
      const names = referenceNames(game.id);
      if (!names.includes(spec.name)) throw new Error(`unknown reference AI '${spec.name}' for ${game.id}: use one of ${names.join(', ')}`);
      const { WorkerPlayer } = await import('./worker-player.js');
      return new WorkerPlayer(spec.name);
    }
    const path = options.submissions[spec.index];
    if (path === undefined) throw new Error(`no submission #${spec.index}: start referee serve with the submission's path`);
    try {
      // The memory limit of the rules the game is played under, as in grading (Botzone's 256 MB under its preset).
      return await createSubmissionPlayer(path, { game: game.id, entry: options.entry, protocol: options.protocol, memoryMb: rulesFor(game).memoryMb });
    } catch (error) {
      if (error instanceof SubmissionError || error instanceof CompileError) throw new Error(error.message);
      throw error;
    }
  }

  /** Why a game id the server once had is gone (a page or record link that outlived it): the newest few thousand. */
  const departed = new Map<string, string>();
  const DEPARTED_KEPT = 5000;
  
  function closeSession(session: GameSession, why: string): void {
    sessions.delete(session.id);
    departed.set(session.id, why);
    if (departed.size > DEPARTED_KEPT) departed.delete(departed.keys().next().value!);
    void session.close();
  }

  const maxFinished = options.maxFinished ?? 1000;
  const finishedTtlMs = options.finishedTtlMs ?? 24 * 60 * 60 * 1000;
  /** Finished games past their age, then the oldest beyond the cap, are removed (a page showing one keeps it). */
  function evictFinished(now: number): void {
    const finished = [...sessions.values()].filter((session) => session.finishedAt !== null).sort((a, b) => a.finishedAt! - b.finishedAt!);
    let over = finished.length - maxFinished;
    for (const session of finished) {
      const old = now - session.finishedAt! > finishedTtlMs;
      if (!old && over <= 0) break;
      if (session.listenerCount > 0) continue;
      over -= 1;
      const hours = Math.round(finishedTtlMs / 3_600_000);
      closeSession(
        session,
        `this game ended on ${dateTime(session.finishedAt!)} and was removed from the server ${old ? `after ${count(hours, 'hour')}` : `to make room (it keeps the ${count(maxFinished, 'latest finished game')})`}: ` +
          'press Save when a game ends to keep its record; start a new game',
      );
    }
  }

  // Games in play nobody has watched or played for an hour are closed; finished ones go by age and cap.
  const IDLE_MS = 60 * 60 * 1000;
  const sweep = setInterval(() => {
    const now = Date.now();
    for (const session of sessions.values()) {
      if (session.finishedAt === null && session.listenerCount === 0 && now - session.lastUsed > IDLE_MS) {
        closeSession(session, `this game was closed on the server after an hour with nobody at it (last move ${dateTime(session.lastUsed)}): start a new game`);
      }
    }
    evictFinished(now);
  }, Math.min(60_000, Math.max(1000, finishedTtlMs / 4)));
  sweep.unref();

  async function createSession(
    game: AnyGame,
    specs: [SideSpec, SideSpec],
    seed: number,
    config: RefereeConfig,
    history: TurnRecord[] = [],
    future: TurnRecord[] = [],
  ): Promise<GameSession> {
    // Both sides, or none (a side that cannot be made closes the other); a finished game's players are closed, and
    // undo or restart after the end makes them again from the same specs.
    const makePlayers = async (): Promise<[Player | null, Player | null]> => {
      const made: (Player | null)[] = [];
      try {
        for (const spec of specs) made.push(await makePlayer(spec, game));
      } catch (error) {
        await Promise.all(made.map((player) => player?.close()));
        throw error;
      }
      return [made[0], made[1]];
    };
    const made = await makePlayers();
    const session = new GameSession({ game, seed, players: made, specs, config, history, future, remakePlayers: makePlayers, onFinished: () => evictFinished(Date.now()) });
    sessions.set(session.id, session);
    const inPlay = [...sessions.values()].filter((s) => s.finishedAt === null);
    if (inPlay.length > maxSessions) {
      const idle = inPlay.filter((s) => s !== session).sort((a, b) => a.lastUsed - b.lastUsed)[0];
      if (idle) closeSession(idle, `this game was closed on the server to make room for newer ones (it keeps ${maxSessions} games in play): start a new game`);
    }
    evictFinished(Date.now());
    return session;
  }

  /**
   * The page's "time per AI move" is game.py's one number: the limit of each ask and of the whole turn. Its time bank
   * and strikes are the assignment's timeBankMs and strikeLimit (0: none), checked by the same resolveConfig.
   */
  function withMoveTime(rules: RefereeConfig, moveTimeMs: number | undefined, policy: TimePolicy = {}): RefereeConfig {
    if (moveTimeMs === undefined && policy.timeBankMs === undefined && policy.strikeLimit === undefined) return rules;
    const { timeBankMs, strikeLimit, strikeGraceMs, ...rest } = rules;
    const bank = policy.timeBankMs ?? timeBankMs ?? 0;
    const strikes = policy.strikeLimit ?? strikeLimit ?? 0;
    return resolveConfig({
      ...rest,
      ...(moveTimeMs !== undefined ? { moveTimeoutMs: moveTimeMs, turnTimeoutMs: moveTimeMs } : {}),
      ...(bank > 0 ? { timeBankMs: bank } : {}),
      ...(strikes > 0 ? { strikeLimit: strikes, ...(strikeGraceMs !== undefined ? { strikeGraceMs } : {}) } : {}),
    });
  }

  app.register(async (scope) => {
    scope.get('/ws', { websocket: true }, (socket: WebSocket) => {
      const limiter = new RateLimiter(options.rateLimit?.rate, options.rateLimit?.burst);
      let current: LiveGame | null = null;
      let unsubscribe: (() => void) | null = null;
      let watchTimer: ReturnType<typeof setInterval> | null = null;
      let followTimer: ReturnType<typeof setInterval> | null = null;
      const stopFollowing = (): void => {
        if (followTimer) clearInterval(followTimer);
        followTimer = null;
      };
      let busy = Promise.resolve();
      const send = (message: ServerMessage): void => {
        if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(message));
      };
      /** Whether this socket only watches its game (another tab created it): it may not change it. */
      let watching = false;
      /** `controls`: this socket created the game, or showed its control key; otherwise it watches. */
      const attach = (game: LiveGame, controls: boolean): void => {
        unsubscribe?.();
        const previous = current;
        // A game left for a new one with nobody watching is closed (its AI workers and sandboxes with it).
        if (previous instanceof GameSession && previous !== game && previous.listenerCount === 0 && previous.finishedAt === null) {
          closeSession(previous, 'this game was left for another one and closed on the server: start a new game');
        }
        current = game;
        // A game the CLI referees (a seat) has no key: the page the CLI opened and any other may play its turns.
        watching = game instanceof GameSession && !controls;
        unsubscribe = game.subscribe((snapshot: SessionSnapshot) => send({ type: 'session', snapshot, watching }));
        const control = game instanceof GameSession && controls ? game.controlKey : undefined;
        send({ type: 'session', snapshot: game.snapshot(), watching, ...(control ? { control } : {}) });
      };
      const WATCH_ONLY = 'this tab only watches this game: it was started in another tab, which alone can move, undo or restart it (New game starts one of your own here)';
      const fail = (message: string): void => send({ type: 'error', message });
      send(welcome);

      const handle = async (message: ClientMessage): Promise<void> => {
        const session = current instanceof GameSession ? current : null;
        switch (message.type) {
          case 'hello': {
            const found = message.session ? sessions.get(message.session) : undefined;
            if (found) attach(found, message.control !== undefined && sameToken(message.control, found.controlKey));
            else if (options.seat && message.session === options.seat.id) attach(options.seat, true);
            else {
              const why = message.session ? departed.get(message.session) : undefined;
              send({ type: 'gone', ...(message.session ? { session: message.session } : {}), ...(why ? { reason: why } : {}) });
            }
            return;
          }
          case 'new': {
            let game: AnyGame;
            try {
              game = getGame(message.game);
            } catch (error) {
              return fail((error as Error).message);
            }
            const config = withMoveTime(rulesFor(game), message.moveTimeMs, message);
            attach(await createSession(game, [message.black, message.white], seedOf(message.seed), config), true);
            return;
          }
          case 'load': {
            const loaded = loadRecord(message.record, message.ply);
            if (!loaded.ok) return fail(loaded.error);
            const { game, record, history, future } = loaded;
            const config = withMoveTime(record.config, message.moveTimeMs, message);
            attach(await createSession(game, [message.black, message.white], record.seed, config, history, future), true);
            return;
          }
          case 'restore': {
            // The page's copy of a game this server does not have (it restarted): its moves are refereed again under
            // this server's rules for the game, exactly like a loaded record, then play goes on.
            const record = message.record as Record<string, unknown>;
            let game: AnyGame;
            try {
              game = getGame(String(record.game));
            } catch (error) {
              return fail(`the game could not be resumed: ${(error as Error).message}`);
            }
            const config = withMoveTime(rulesFor(game), message.moveTimeMs, message);
            const loaded = loadRecord({ ...record, config, end: undefined }, undefined);
            if (!loaded.ok) return fail(`the game could not be resumed: ${loaded.error}`);
            const session = await createSession(game, [message.black, message.white], loaded.record.seed, config, loaded.history);
            if (message.paused) session.setPaused(true);
            if (message.resignedBy !== undefined) session.resignAs(message.resignedBy);
            attach(session, true);
            return;
          }
          case 'move': {
            if (!current) return fail('no game is open: start a new game first');
            if (watching) return fail(WATCH_ONLY);
            const refused = current.move(message.ply, message.move);
            if (refused) fail(refused);
            return;
          }
          case 'watch': {
            const watch = options.watch;
            if (!watch) return fail('this server was not started with --watch <out-dir>');
            if (message.key !== undefined) {
              const key = message.key;
              stopFollowing();
              const record = watch.record(key);
              if (record) return send({ type: 'watch-game', key, record });
              if (!watch.liveGame(key)) return fail('that game is neither in play nor in the journal: pick another');
              // A game in play: its moves as they come (the journal has them at most 250 ms late), then its record.
              let sent = -1;
              const follow = (): void => {
                const live = watch.liveGame(key);
                if (live) {
                  if (live.progress.moves.length !== sent) {
                    sent = live.progress.moves.length;
                    send({ type: 'watch-live', key, game: live });
                  }
                  return;
                }
                stopFollowing();
                const finished = watch.record(key);
                if (finished) send({ type: 'watch-game', key, record: finished });
                else fail('the game you were watching stopped without a result (its worker failed or the run was stopped)');
              };
              follow();
              followTimer = setInterval(follow, 250);
              return;
            }
            let last = '';
            const push = (): void => {
              const overview = watch.overview();
              const text = JSON.stringify(overview);
              if (text !== last) {
                last = text;
                send({ type: 'watch', data: overview });
              }
            };
            push();
            if (watchTimer === null) watchTimer = setInterval(push, 1000);
            return;
          }
          default: {
            if (!session) return fail('this game is refereed by the command line: undo, restart and pacing are not available');
            if (watching) return fail(WATCH_ONLY);
            if (message.type === 'undo') await session.undo();
            else if (message.type === 'redo') await session.redo();
            else if (message.type === 'restart') await session.restart();
            else if (message.type === 'resign') {
              const refused = session.resign();
              if (refused) fail(refused);
            }
            else if (message.type === 'pause') session.setPaused(true);
            else if (message.type === 'resume') session.setPaused(false);
            else if (message.type === 'step') session.step();
            else if (message.type === 'speed') session.setDelay(message.delayMs);
          }
        }
      };

      socket.on('message', (data, isBinary) => {
        if (!limiter.allow()) return fail(`too many messages: slow down (at most ${options.rateLimit?.rate ?? 20} a second)`);
        if (isBinary) return fail('binary messages are not accepted: send JSON text');
        const parsed = parseClientMessage(String(data));
        if (!parsed.ok) return fail(parsed.error);
        busy = busy
          .then(() => handle(parsed.message))
          .catch((error: unknown) => fail(error instanceof Error ? error.message : String(error)));
      });
      socket.on('close', () => {
        unsubscribe?.();
        if (watchTimer) clearInterval(watchTimer);
        stopFollowing();
      });
    });
  });

  await app.listen({ host: options.host, port: options.port });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  const shownHost = options.host.includes(':') ? `[${options.host}]` : options.host;
  const url = `http://${shownHost}:${port}/${options.token ? `?token=${options.token}` : ''}`;
  return {
    url,
    port,
    async close() {
      clearInterval(sweep);
      await Promise.all([...sessions.values()].map((session) => session.close()));
      sessions.clear();
      options.watch?.close();
      await app.close();
    },
  };
}
