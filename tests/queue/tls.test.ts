/** rediss://: a TLS-only redis-server with a self-signed certificate; workers trust it through NODE_EXTRA_CA_CERTS. */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { tempDir } from '../batch/helpers.js';
import { Cli, freePort, makeQueueClass, RedisServer, startWorker, writeQueueConfig } from './helpers.js';

const certs = tempDir('tls');
let openssl = true;
try {
  execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', join(certs, 'key.pem'), '-out', join(certs, 'cert.pem'), '-days', '2', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1'], { stdio: 'ignore' });
} catch {
  openssl = false;
}
const tls = { cert: join(certs, 'cert.pem'), key: join(certs, 'key.pem') };
let redis: RedisServer;
let worker: Cli | undefined;

beforeAll(async () => {
  if (!openssl) return;
  redis = new RedisServer(await freePort(), tls);
  await redis.start();
});

afterAll(async () => {
  await worker?.stop();
  await redis?.stop();
});

(openssl ? test : test.skip)('a grade through a TLS Redis; an untrusted certificate is one line naming NODE_EXTRA_CA_CERTS, exit 2', async () => {
  expect(redis.url).toMatch(/^rediss:\/\//);
  const untrusted = new Cli(['worker', '--queue', redis.url], { NODE_EXTRA_CA_CERTS: undefined });
  expect((await untrusted.exited).code).toBe(2);
  expect(untrusted.stderr.trim()).toMatch(/^referee: cannot reach Redis at rediss:\/\/127\.0\.0\.1:\d+\/0 \([A-Z_]*CERT[A-Z_]*\): .*NODE_EXTRA_CA_CERTS/);

  const trust = { NODE_EXTRA_CA_CERTS: tls.cert };
  worker = startWorker(redis.url, 'tls', trust);
  await worker.waitFor(/waiting for games/);
  const classDir = makeQueueClass(['q7ann']);
  const graded = new Cli(['grade', join(classDir, 'q7ann', 'AIPlayer.ts'), '--config', writeQueueConfig(700), '--out', join(tempDir('q7'), 'out'), '--queue', redis.url, '--json', '--quiet'], trust);
  expect({ exit: await graded.exited, stderr: graded.stderr }).toMatchObject({ exit: { code: 0 }, stderr: '' });
  expect(worker.stdout.match(/\] played \S+q7ann\S* vs/g)).toHaveLength(4);
  await worker.stop();
}); // the suite's 5-minute hang catcher: this grade alone took 119 s at load 40 (its type check 55 s of that), over the 120 s this test had
