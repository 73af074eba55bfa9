/**
 * `referee ladder start`'s web server: fastify, like `referee serve`, with the ladder's JSON API and its pages.
 * Every request that names a student carries that student's token (Authorization: Bearer …, or ?token= on a page
 * link); the leaderboard is public under pseudonyms and shows names only to the instructor's token. Every refusal
 * is one line (JSON {error}) and stores nothing: a wrong token, a flood (per-address token buckets, stricter for
 * uploads and for wrong tokens), an upload over the cap (413 before the body is read past it), a hostile zip.
 */
import { build } from 'esbuild';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { fileURLToPath } from 'node:url';
import yazl from 'yazl';
import { getGame } from '../../harness/games/registry.js';
import { submissionLimits } from '../../grading/check-limits.js';
import { ladderExport, LADDER_EXPORTS, type LadderExportName } from '../../grading/exporters/ladder.js';
import { UploadRefused } from '../../grading/ladder/intake.js';
import { readFinal } from '../../grading/ladder/final.js';
import { tableFor } from '../../grading/ladder/ratings.js';
import { INSTRUCTOR_ID, studentForToken } from '../../grading/ladder/roster.js';
import { FINAL_FILE, type LadderService } from '../../grading/ladder/service.js';
import { versionPlayer, type VersionRow } from '../../grading/ladder/store.js';
import { gameView, SvgTokens } from '../../reports/replay-data.js';
import type { GameRecord } from '../../harness/referee/record.js';
import { renderLadderPage, replayViewerScript } from './ladder-pages.js';
import { RateLimiter } from './protocol.js';
import { isLoopbackHost } from './app.js';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface LadderServerOptions {
  host: string;
  port: number;
  service: LadderService;
  /** Requests a second per address (average, burst); uploads and wrong tokens have their own, stricter buckets. */
  rateLimit?: { rate: number; burst: number };
  uploadLimit?: { rate: number; burst: number };
  /** Behind a reverse proxy on this machine: take the client's address from X-Forwarded-For (loopback proxies only). */
  trustProxy?: boolean;
  /** Host names the ladder answers besides loopback names and the bound address (its public name behind a proxy). */
  allowedHosts?: string[];
  /** Wrong tokens from one address within 5 minutes before the address is held back (default 300). */
  wrongTokensPerAddress?: number;
}

export interface RunningLadderServer {
  url: string;
  port: number;
  close(): Promise<void>;
}

/** Source files a single-file upload may be (the page and the CLI zip folders; a lone file is wrapped here). */
const SOURCE_FILE = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,99}\.(ts|js|mjs|cjs|py|cpp|cc)$/;

async function bundleLadderClient(): Promise<string> {
  const entry = fileURLToPath(new URL('../client/ladder.js', import.meta.url));
  const result = await build({ entryPoints: [entry], bundle: true, write: false, format: 'iife', platform: 'browser', target: 'es2022', minify: true, legalComments: 'none' });
  return result.outputFiles[0].text;
}

/** A lone source file as a one-entry zip, so it takes the same intake route as any upload. */
function zipOne(name: string, bytes: Buffer): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const zip = new yazl.ZipFile();
    zip.addBuffer(bytes, name);
    zip.end();
    const chunks: Buffer[] = [];
    zip.outputStream.on('data', (chunk: Buffer) => chunks.push(chunk));
    zip.outputStream.on('error', reject);
    zip.outputStream.on('end', () => resolve(Buffer.concat(chunks)));
  });
}

class Buckets {
  private readonly limiters = new Map<string, RateLimiter>();
  constructor(private readonly rate: number, private readonly burst: number) {}
  allow(key: string): boolean {
    let limiter = this.limiters.get(key);
    if (!limiter) {
      if (this.limiters.size > 10_000) this.limiters.clear();
      this.limiters.set(key, (limiter = new RateLimiter(this.rate, this.burst)));
    }
    return limiter.allow();
  }
}

/** Wrong tokens per address: more than `limit` within `windowMs` blocks the address until the window passes. */
class Failures {
  private readonly seen = new Map<string, number[]>();
  constructor(private readonly limit: number, private readonly windowMs: number) {}
  private recent(key: string): number[] {
    const since = Date.now() - this.windowMs;
    const times = (this.seen.get(key) ?? []).filter((t) => t > since);
    this.seen.set(key, times);
    return times;
  }
  blocked(key: string): boolean {
    return this.recent(key).length >= this.limit;
  }
  failed(key: string): void {
    if (this.seen.size > 10_000) this.seen.clear();
    this.recent(key).push(Date.now());
  }
}

const fail = (reply: FastifyReply, code: number, error: string): FastifyReply => reply.code(code).type('application/json').send({ error });

function tokenOf(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (typeof header === 'string' && header.startsWith('Bearer ')) return header.slice(7).trim();
  const query = (request.query as Record<string, unknown> | undefined)?.token;
  return typeof query === 'string' ? query : undefined;
}

/**
 * A game's record as one of its players may see it: the other side's stdout, debug and crash stack are another
 * student's (their prints can carry their evaluation or source lines), so only the viewer's own sides keep theirs.
 */
function withoutOpponentOutput(record: GameRecord, ownSide: [boolean, boolean]): GameRecord {
  const bare = <T extends { output?: unknown; debug?: unknown; stack?: unknown; attempts?: unknown[]; illegal?: unknown[] }>(item: T, side: number): T => {
    if (ownSide[side]) return item;
    const { output: _output, debug: _debug, stack: _stack, ...rest } = item;
    const strip = (attempts: unknown[]): unknown[] => attempts.map((attempt) => bare(attempt as T, side));
    return { ...rest, ...(item.attempts ? { attempts: strip(item.attempts) } : {}), ...(item.illegal ? { illegal: strip(item.illegal) } : {}) } as T;
  };
  return {
    ...record,
    start: record.start?.map((entry, side) => bare(entry, side)),
    turns: record.turns.map((turn) => bare(turn, turn.side)),
    end: record.end?.loser ? { ...record.end, loser: bare(record.end.loser, record.end.loser.side) } : record.end,
  } as GameRecord;
}

/** What a student (or the instructor) may see of a version. */
function versionView(version: VersionRow, activeId: number | undefined): Record<string, unknown> {
  return {
    id: version.id,
    status: version.status,
    active: version.id === activeId,
    counts: version.counts,
    language: version.language,
    submittedAt: version.submittedAt,
    verdictAt: version.verdictAt,
    message: version.message,
    checkReport: version.checkReport,
  };
}

export async function startLadderServer(options: LadderServerOptions): Promise<RunningLadderServer> {
  const { service } = options;
  const store = service.store;
  const clientScript = await bundleLadderClient();
  const maxUpload = submissionLimits(service.assignment).maxBytes;
  const app: FastifyInstance = Fastify({ logger: false, bodyLimit: 64 * 1024, trustProxy: options.trustProxy ? 'loopback' : false });
  const requests = new Buckets(options.rateLimit?.rate ?? 20, options.rateLimit?.burst ?? 60);
  const uploads = new Buckets(options.uploadLimit?.rate ?? 0.2, options.uploadLimit?.burst ?? 10);
  const wrongTokens = new Failures(options.wrongTokensPerAddress ?? 300, 5 * 60_000);
  const wrongToken = new Failures(10, 5 * 60_000);

  app.addContentTypeParser(['application/zip', 'application/octet-stream'], { parseAs: 'buffer', bodyLimit: maxUpload + 64 * 1024 }, (_request, body, done) => done(null, body));
  app.setErrorHandler((error: { statusCode?: number; code?: string; message: string }, _request, reply) => {
    if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE' || error.statusCode === 413) {
      return fail(reply, 413, `the upload is over the cap of ${(maxUpload / 1024 / 1024).toFixed(1)} MB: remove build output, data files and node_modules, then submit again`);
    }
    if (error.statusCode && error.statusCode < 500) return fail(reply, error.statusCode, error.message.split('\n')[0]);
    return fail(reply, 500, `internal error: ${error.message.split('\n')[0]}`);
  });
  app.addHook('onRequest', async (request, reply) => {
    if (!requests.allow(request.ip)) return fail(reply, 429, 'too many requests from this address: slow down and try again in a minute');
  });
  // DNS rebinding (as serve's app.ts): only loopback names, the bound address and --allowed-host names are answered.
  const allowed = new Set([options.host, ...(options.allowedHosts ?? [])].map((name) => name.toLowerCase().replace(/^\[|\]$/g, '')));
  const hostName = (host: string): string => (/^\[([^\]]+)\]/.exec(host)?.[1] ?? host.replace(/:\d{1,5}$/, '')).toLowerCase().replace(/\.$/, '');
  app.addHook('onRequest', async (request, reply) => {
    const host = request.headers.host;
    if (isLoopbackHost(host) || (host !== undefined && allowed.has(hostName(host)))) return;
    const shown = String(host ?? '').slice(0, 100).replace(/[^\x20-\x7e]/g, '?');
    return fail(reply, 421, `host '${shown}' refused: start the ladder with --allowed-host ${hostName(shown) || 'NAME'} to answer that name (its public name behind a proxy)`);
  });
  // Another site open in the same browser must not post to the ladder (uploads, freeze, final).
  app.addHook('onRequest', async (request, reply) => {
    const origin = request.headers.origin;
    if (origin === undefined || request.method === 'GET' || request.method === 'HEAD') return;
    let from: string | null = null;
    try {
      from = new URL(origin).host;
    } catch {
      from = null;
    }
    if (from === null || from !== request.headers.host) return fail(reply, 403, 'a request from another web site was refused: use the ladder\'s own page or `referee ladder submit`');
  });

  /** The student a request's token names, or a one-line refusal already sent. */
  const who = (request: FastifyRequest, reply: FastifyReply): string | null => {
    const token = tokenOf(request);
    if (token === undefined) {
      fail(reply, 401, 'this needs your ladder token: add ?token=… (the link your instructor gave you) or Authorization: Bearer …');
      return null;
    }
    // Guessing is stopped per address (a high bar: a whole class may share one NAT address), a mistyped token
    // retried over and over per address + the token's first characters; a right token is never held back by
    // a classmate's typos.
    if (wrongTokens.blocked(request.ip)) {
      fail(reply, 429, 'too many wrong tokens from this address: wait a few minutes');
      return null;
    }
    const student = studentForToken(store, token);
    if (student === null) {
      const typo = `${request.ip}|${token.slice(0, 6)}`;
      if (wrongToken.blocked(typo)) {
        fail(reply, 429, 'this token was refused many times: copy it again from your instructor\'s message (tokens.csv) and wait a few minutes');
        return null;
      }
      wrongToken.failed(typo);
      wrongTokens.failed(request.ip);
      fail(reply, 401, 'unknown token: use the token from your instructor (tokens.csv), exactly as given');
      return null;
    }
    return student;
  };
  const instructorOnly = (request: FastifyRequest, reply: FastifyReply): boolean => {
    const student = who(request, reply);
    if (student === null) return false;
    if (student !== INSTRUCTOR_ID) {
      fail(reply, 403, 'this is for the instructor\'s token only');
      return false;
    }
    return true;
  };
  const viewerIsInstructor = (request: FastifyRequest): boolean => {
    const token = tokenOf(request);
    return token !== undefined && studentForToken(store, token) === INSTRUCTOR_ID;
  };

  // JSON API ---------------------------------------------------------------------------------------------------------

  app.get('/api/leaderboard', async (request) => ({ phase: store.phase(), ...tableFor(service.table(), viewerIsInstructor(request)) }));

  // The token and the upload bucket are checked before the body is read: a wrong token or a flood costs no upload.
  const uploader = new WeakMap<FastifyRequest, string>();
  const submitGate = async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    const student = who(request, reply);
    if (student === null) return;
    if (!uploads.allow(`${request.ip}|${student}`)) {
      fail(reply, 429, 'too many uploads: wait a minute and submit again');
      return;
    }
    uploader.set(request, student);
  };
  app.post('/api/submit', { onRequest: submitGate }, async (request, reply) => {
    const student = uploader.get(request)!;
    if (!Buffer.isBuffer(request.body)) return fail(reply, 415, 'send the submission as a zip body (Content-Type: application/zip), or a single source file with ?file=AIPlayer.py');
    let body: Buffer = request.body;
    const { file, entry } = request.query as Record<string, unknown>;
    if (entry !== undefined && typeof entry !== 'string') return fail(reply, 400, 'give ?entry= once: the entry file\'s path inside the submitted folder');
    if (entry !== undefined && typeof file === 'string') return fail(reply, 400, '?entry= is for a folder or zip: a single file is its own entry');
    if (typeof file === 'string') {
      if (!SOURCE_FILE.test(file)) return fail(reply, 400, `?file=${JSON.stringify(file).slice(0, 80)} is not a source file name: use e.g. AIPlayer.ts, AIPlayer.py or Strategy.cpp`);
      body = await zipOne(file, body);
    }
    try {
      const { version, duplicate } = await service.submit(student, body, new Date(), entry);
      return reply.code(duplicate ? 200 : 202).send({ version: version.id, status: version.status, duplicate, counts: version.counts });
    } catch (error) {
      if (error instanceof UploadRefused) return fail(reply, 400, error.message);
      throw error;
    }
  });

  app.get('/api/me', async (request, reply) => {
    const student = who(request, reply);
    if (student === null) return reply;
    return meView(student);
  });

  const meView = (student: string): Record<string, unknown> => {
    const row = store.students().find((s) => s.id === student)!;
    const versions = store.versionsOf(student);
    const table = service.table();
    const mine = table.rows.find((r) => r.kind === 'student' && r.student === student) ?? null;
    const active = mine?.version ?? undefined;
    const games = versions.flatMap((v) => store.gamesOf(versionPlayer(v.id), 100)).sort((a, b) => b.id - a.id).slice(0, 100);
    return {
      student,
      pseudonym: row.pseudonym,
      phase: store.phase(),
      references: service.settings.references,
      row: mine ? tableFor({ ...table, rows: [mine] }, false).rows[0] : null,
      versions: versions.map((v) => versionView(v, active)).reverse(),
      games: games.map((g) => ({ id: g.id, kind: g.kind, black: g.black, white: g.white, blackScore: g.blackScore, reason: g.reason, finishedAt: g.finishedAt })),
      history: active === undefined ? [] : store.historyOf(active),
    };
  };

  app.get<{ Params: { id: string } }>('/api/versions/:id', async (request, reply) => {
    const student = who(request, reply);
    if (student === null) return reply;
    const version = /^\d{1,9}$/.test(request.params.id) ? store.version(Number(request.params.id)) : undefined;
    if (!version || (version.student !== student && student !== INSTRUCTOR_ID)) return fail(reply, 404, `no version ${request.params.id.slice(0, 20)} of yours`);
    const active = service.table().rows.find((r) => r.student === version.student)?.version ?? undefined;
    return versionView(version, active);
  });

  app.get<{ Params: { id: string } }>('/api/games/:id', async (request, reply) => {
    const student = who(request, reply);
    if (student === null) return reply;
    const game = /^\d{1,9}$/.test(request.params.id) ? store.game(Number(request.params.id)) : undefined;
    if (!game || !mayView(student, game)) return fail(reply, 404, `no game ${request.params.id.slice(0, 20)} of yours`);
    if (student === INSTRUCTOR_ID) return game;
    const own = new Set(store.versionsOf(student).map((v) => versionPlayer(v.id)));
    return { ...game, record: withoutOpponentOutput(game.record, [own.has(game.black), own.has(game.white)]) };
  });

  /** A student sees the games their versions played; the instructor sees all. */
  const mayView = (student: string, game: { black: string; white: string }): boolean => {
    if (student === INSTRUCTOR_ID) return true;
    const own = new Set(store.versionsOf(student).map((v) => versionPlayer(v.id)));
    return own.has(game.black) || own.has(game.white);
  };

  app.post('/api/practice', async (request, reply) => {
    const student = who(request, reply);
    if (student === null) return reply;
    const opponent = (request.body as Record<string, unknown> | null)?.opponent;
    if (typeof opponent !== 'string') return fail(reply, 400, `name the reference AI to practise against: {"opponent": "${service.settings.references[0]}"}`);
    try {
      return { practice: service.requestPractice(student, opponent) };
    } catch (error) {
      if (error instanceof UploadRefused) return fail(reply, 400, error.message);
      throw error;
    }
  });

  app.get('/api/instructor/roster', async (request, reply) => {
    if (!instructorOnly(request, reply)) return reply;
    return rosterView();
  });

  const rosterView = (): Record<string, unknown>[] => {
    const table = service.table();
    const dayAgo = Date.now() - 24 * 3600 * 1000;
    return store
      .students()
      .filter((s) => !s.instructor)
      .map((s) => {
        const versions = store.versionsOf(s.id);
        const row = table.rows.find((r) => r.student === s.id);
        const last = versions[versions.length - 1];
        return {
          student: s.id,
          name: s.name,
          pseudonym: s.pseudonym,
          versions: versions.length,
          submissionsToday: versions.filter((v) => new Date(v.submittedAt).getTime() > dayAgo && v.status !== 'grader-error').length,
          quota: service.settings.quota.perDay,
          last: last ? { id: last.id, status: last.status, submittedAt: last.submittedAt, message: last.message } : null,
          active: row ? { version: row.version, elo: row.elo, low: row.low, high: row.high, games: row.games, rank: row.rank } : null,
        };
      });
  };

  app.post('/api/instructor/freeze', async (request, reply) => {
    if (!instructorOnly(request, reply)) return reply;
    if (store.phase() === 'open') {
      store.setMeta('phase', 'frozen');
      store.setMeta('frozen-at', new Date().toISOString());
    }
    return { phase: store.phase() };
  });

  app.post('/api/instructor/final', async (request, reply) => {
    if (!instructorOnly(request, reply)) return reply;
    if (store.phase() === 'open' || store.phase() === 'frozen') {
      if (!store.getMeta('frozen-at')) store.setMeta('frozen-at', new Date().toISOString());
      store.setMeta('phase', 'final');
    }
    return { phase: store.phase() };
  });

  app.get<{ Querystring: { format?: string } }>('/api/instructor/export', async (request, reply) => {
    if (!instructorOnly(request, reply)) return reply;
    const format = request.query.format ?? 'csv';
    if (!Object.hasOwn(LADDER_EXPORTS, format)) return fail(reply, 400, `format must be one of ${Object.keys(LADDER_EXPORTS).join(', ')}`);
    const finalPath = join(service.dataDir, FINAL_FILE);
    const final = readFinal(finalPath);
    if (final === null) return fail(reply, 409, 'there is no final yet: run the final first (the button on this page, or `referee ladder final`)');
    if ('damaged' in final) return fail(reply, 409, `${FINAL_FILE} is damaged (${final.damaged}): run \`referee ladder final --data …\` to write it again from the journal`);
    const body = ladderExport(format as LadderExportName, final);
    return reply.type(LADDER_EXPORTS[format as LadderExportName].type).header('content-disposition', `attachment; filename="${LADDER_EXPORTS[format as LadderExportName].file}"`).send(body);
  });

  // Pages ------------------------------------------------------------------------------------------------------------

  app.get('/ladder.js', async (_request, reply) => reply.type('text/javascript').header('cache-control', 'no-cache').send(clientScript));
  const viewerScript = replayViewerScript();
  app.get('/replay-viewer.js', async (_request, reply) => reply.type('text/javascript').send(viewerScript));

  const page = (reply: FastifyReply, name: Parameters<typeof renderLadderPage>[0], data: Record<string, unknown>): FastifyReply =>
    reply.type('text/html').header('referrer-policy', 'no-referrer').header('content-security-policy', "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:").send(renderLadderPage(name, { title: service.assignment.title, ...data }));

  app.get('/', async (request, reply) => {
    const instructor = viewerIsInstructor(request);
    return page(reply, 'leaderboard', { table: tableFor(service.table(), instructor), instructor, phase: store.phase(), token: instructor ? tokenOf(request) : null });
  });

  app.get('/me', async (request, reply) => {
    const student = who(request, reply);
    if (student === null) return reply;
    return page(reply, 'student', { me: meView(student), token: tokenOf(request) });
  });

  app.get('/upload', async (request, reply) => {
    const student = who(request, reply);
    if (student === null) return reply;
    return page(reply, 'upload', { me: meView(student), token: tokenOf(request), maxMb: (maxUpload / 1024 / 1024).toFixed(1) });
  });

  app.get('/instructor', async (request, reply) => {
    if (!instructorOnly(request, reply)) return reply;
    return page(reply, 'instructor', { roster: rosterView(), table: service.table(), phase: store.phase(), token: tokenOf(request), settings: service.settings, dataDir: service.dataDir, hasFinal: existsSync(join(service.dataDir, FINAL_FILE)) });
  });

  app.get<{ Params: { id: string } }>('/game/:id', async (request, reply) => {
    const student = who(request, reply);
    if (student === null) return reply;
    const game = /^\d{1,9}$/.test(request.params.id) ? store.game(Number(request.params.id)) : undefined;
    if (!game || !mayView(student, game)) return fail(reply, 404, `no game ${request.params.id.slice(0, 20)} of yours`);
    const rules = getGame(game.record.game);
    const tokens = new SvgTokens();
    const own = new Set(store.versionsOf(student).map((v) => versionPlayer(v.id)));
    const side = own.has(game.black) ? 0 : own.has(game.white) ? 1 : null;
    const result = game.blackScore === 0.5 ? 'draw' : `${rules.sideNames[game.blackScore === 1 ? 0 : 1]} won (${game.reason})`;
    const view = gameView(rules, game.record, tokens, { title: `Game #${game.id} (${game.kind}): ${game.record.players[0]} vs ${game.record.players[1]}`, studentSide: side, result });
    return page(reply, 'game', { game, result, moveTimeoutMs: game.record.config.moveTimeoutMs, dataJson: { sideNames: rules.sideNames, tokens: tokens.list, games: [view] }, token: tokenOf(request) });
  });

  await app.listen({ host: options.host, port: options.port });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  const shownHost = options.host.includes(':') ? `[${options.host}]` : options.host;
  return {
    url: `http://${shownHost}:${port}/`,
    port,
    close: () => app.close(),
  };
}
