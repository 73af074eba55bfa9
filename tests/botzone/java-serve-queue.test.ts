/**
 * Java Botzone bots beyond grade, batch and tournament (#34's leftovers): `referee serve` plays the kept Java bot
 * over a real websocket and its record replays; the queue plays it on a real redis-server, where a worker without
 * a JDK refuses its games in one line naming the fix (never the student's loss) and a worker with one plays them.
 * Lean on purpose (a JVM start is slow): one server game, one tournament of two games. Skipped without a JDK.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { beforeAll, describe, expect, test } from '@jest/globals';
import WebSocket from 'ws';
import type { ServerMessage } from '../../web/server/protocol.js';
import { referee, startCli, stop, tempDir } from '../web/serve-helpers.js';
import { Cli, redisForTests, startWorker } from '../queue/helpers.js';

const BOTS = resolve('tests/fixtures/botzone');
const JAVA_KEPT = join(BOTS, 'reversi-java-keep');
const hasJdk = spawnSync('javac', ['-version']).status === 0;
const maybe = hasJdk ? describe : describe.skip;
if (!hasJdk) console.warn('java-serve-queue.test: no JDK (javac) on this machine: apt-get install default-jdk-headless to run these tests');
const NO_JDK = { REFEREE_JAVA_HOME: '/nonexistent-jdk' };
const NO_JDK_LINE = 'REFEREE_JAVA_HOME=/nonexistent-jdk is not a JDK (no bin/java and bin/javac): point it at one, or unset it to use javac on PATH';

let work: string;
beforeAll(() => {
  work = tempDir('referee-java-serve-queue-');
});

maybe('Java bots in serve and on the queue', () => {
  test('serve: the kept Java bot plays random to the end over a real websocket, the record replays; no JDK is one line at start', async () => {
    const server = await startCli(['serve', '--port', '0', '--platform', 'botzone', JAVA_KEPT]);
    try {
      const socket = new WebSocket(`${server.url.replace(/^http/, 'ws')}ws`);
      const ended = new Promise<Extract<ServerMessage, { type: 'session' }>>((resolveEnd, reject) => {
        socket.on('error', reject);
        socket.on('message', (data) => {
          const message = JSON.parse(String(data)) as ServerMessage;
          // Botzone's 1 s x Java's 3, raised for a loaded machine: the game must end on the board, not the clock.
          if (message.type === 'welcome') socket.send(JSON.stringify({ type: 'new', game: 'reversi', black: { kind: 'submission', index: 0 }, white: { kind: 'reference', name: 'random' }, moveTimeMs: 10_000 }));
          if (message.type === 'error') reject(new Error(JSON.stringify(message)));
          if (message.type === 'session' && message.snapshot.end) resolveEnd(message);
        });
      });
      const over = await ended;
      socket.close();
      expect(over.snapshot.end).toMatchObject({ reason: 'score' });
      const response = await fetch(new URL(`/api/games/${over.snapshot.id}/record.json`, server.url));
      expect(response.status).toBe(200);
      const file = join(work, 'java-served.json');
      writeFileSync(file, await response.text());
      const record = JSON.parse(readFileSync(file, 'utf8')) as { players: string[]; end: { reason: string } };
      expect(record.players).toEqual(['reversi-java-keep', 'random']);
      const replay = await referee('replay', file);
      expect({ code: replay.code, stderr: replay.stderr }).toEqual({ code: 0, stderr: '' });
    } finally {
      await stop(server);
    }
    // Without a JDK the server does not start half-able: one line naming the fix, before any page is served.
    const cli = new Cli(['serve', '--port', '0', '--platform', 'botzone', JAVA_KEPT], NO_JDK);
    const refused = { code: (await cli.closed).code, stderr: cli.stderr };
    expect({ code: refused.code, stderr: refused.stderr.trimEnd() }).toEqual({ code: 2, stderr: `referee: cannot serve ${JAVA_KEPT}: ${NO_JDK_LINE}` });
  }, 300_000);

  describe('the queue', () => {
    const server = redisForTests();

    test('a worker without a JDK refuses the Java games in one line, nobody is charged; a worker with one plays them on --resume', async () => {
      const redis = server();
      const config = join(work, 'botzone.json');
      writeFileSync(config, JSON.stringify({ title: 'Reversi on Botzone', game: 'reversi', platform: 'botzone', moveTimeoutMs: 10_000, opponents: [{ name: 'random', games: 2, points: 100 }] }));
      const out = join(work, 'tournament');
      const args = ['tournament', JAVA_KEPT, join(BOTS, 'reversi-jsoncpp'), '--config', config, '--games-per-pair', '2', '--out', out, '--queue', redis.url];
      const noJdk = startWorker(redis.url, 'no-jdk', NO_JDK);
      await noJdk.waitFor(/waiting for games/);
      const first = new Cli(args);
      // The grader's failure, never a result: exit 3, the worker's reason once with its fix, no ranking written.
      expect((await first.closed).code).toBe(3);
      const last = first.stderr.trimEnd().split('\n').at(-1)!;
      expect(last).toContain(`(no-jdk: worker no-jdk cannot play it: reversi-java-keep is a Java Botzone bot: ${NO_JDK_LINE}): fix what the workers said (or start a worker that can play it), then run again with --resume`);
      expect(last.split(NO_JDK_LINE).length).toBe(2);
      expect(existsSync(join(out, 'ranking.csv'))).toBe(false);
      expect(noJdk.stdout).not.toMatch(/\] playing /);

      // A worker with a JDK joins (the one without stays): every game is played there, the tournament completes.
      const withJdk = startWorker(redis.url, 'with-jdk');
      await withJdk.waitFor(/waiting for games/);
      const resumed = new Cli([...args, '--resume']);
      const code = (await resumed.closed).code;
      expect({ code, stderr: code === 0 ? '' : resumed.stderr }).toEqual({ code: 0, stderr: '' });
      // Said, if the worker without a JDK took a game first: its one line, and the game played elsewhere.
      const said = resumed.stderr.split('\n').filter((line) => line.startsWith('warning: refused'));
      for (const line of said) expect(line).toMatch(/^warning: refused the failure of .* from no-jdk: worker no-jdk cannot play it: reversi-java-keep is a Java Botzone bot: .*; playing it again on another worker$/);
      expect(resumed.stdout).toMatch(/2 games \(2 played/);
      // The worker's log may reach this process after the coordinator's end: waited for, not read at once.
      await withJdk.waitFor(/\] played reversi-[\s\S]*\] played reversi-/);
      expect(withJdk.stdout.match(/\] played reversi-/g)).toHaveLength(2);
      expect(noJdk.stdout).not.toMatch(/\] playing /);
      const ranking = readFileSync(join(out, 'ranking.csv'), 'utf8');
      expect(ranking).toContain('reversi-java-keep');
      await Promise.all([noJdk.stop(), withJdk.stop()]);
    }, 400_000);
  });
});
