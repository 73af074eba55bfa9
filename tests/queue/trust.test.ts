/**
 * The queue's trust model without Redis: signed results (a forged or re-targeted result is refused), records
 * checked against their job (a reference AI in a student's seat is refused), caps on what a job may ask, labels
 * made printable, and the Redis password kept off the command line.
 */
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from '@jest/globals';
import { getGame } from '../../harness/games/registry.js';
import { InProcessPlayer } from '../../harness/referee/in-process.js';
import { playGame } from '../../harness/referee/match.js';
import { referenceAgentByName } from '../../reference-ai/budget.js';
import type { GameJob } from '../../grading/pool/job.js';
import { PASSWORD_ENV, queueEndpoint, QueueUsageError } from '../../grading/queue/connection.js';
import { recordMismatch } from '../../grading/queue/record-check.js';
import { printable, QUEUE_LIMITS, validateJob } from '../../grading/queue/schema.js';
import { ensureKeyFile, jobDigest, readKeyFile, signResult, verifyResult } from '../../grading/queue/signing.js';
import { tempDir } from '../batch/helpers.js';

const rules = { moveTimeoutMs: 1000, turnTimeoutMs: 1000, illegalMoveLimit: 3, constructTimeoutMs: 1000, tamperLoses: true, forcedLossDiff: 0, quitEndsGame: false };
const job: GameJob = {
  key: 'k'.repeat(40),
  harness: '0.1.0',
  game: 'reversi',
  config: rules,
  seed: 11,
  players: [
    { kind: 'reference', name: 'random', ai: 'random', openingMoves: 0 },
    { kind: 'reference', name: 'greedy', ai: 'greedy', openingMoves: 0 },
  ],
  label: 'random vs greedy #1',
};

async function recordOf(names: [string, string], ais: [string, string], seed = job.seed) {
  const player = (index: 0 | 1) => new InProcessPlayer(names[index], referenceAgentByName('reversi', ais[index]), getGame);
  return playGame({ game: getGame('reversi'), black: player(0), white: player(1), seed, config: rules });
}

describe('signed results', () => {
  const dir = tempDir('qtrust');
  const keyFile = join(dir, 'queue.key');
  const { key, created } = ensureKeyFile(keyFile);

  test('the coordinator creates a key file (mode 600) once; a worker reads the same key', () => {
    expect(created).toBe(true);
    expect(ensureKeyFile(keyFile).created).toBe(false);
    expect(readKeyFile(keyFile).equals(key)).toBe(true);
  });

  test('a key file that is missing, short or readable by others is a one-line usage error naming the fix', () => {
    expect(() => readKeyFile(null)).toThrow(/--key-file PATH or set REFEREE_QUEUE_KEY_FILE/);
    expect(() => readKeyFile(join(dir, 'nope'))).toThrow(/cannot read the queue key file .*ENOENT/);
    const short = join(dir, 'short.key');
    writeFileSync(short, 'abc', { mode: 0o600 });
    expect(() => readKeyFile(short)).toThrow(/fewer than 32: create one with `openssl rand -hex 32/);
    const open = join(dir, 'open.key');
    writeFileSync(open, 'x'.repeat(64));
    chmodSync(open, 0o644);
    expect(() => readKeyFile(open)).toThrow(/can be read by others: chmod 600/);
  });

  test('a signed result verifies; forged, re-signed with another key, or moved to another game: refused', async () => {
    const record = await recordOf(['random', 'greedy'], ['random', 'greedy']);
    const signed = signResult(key, { job: job.key, jobDigest: jobDigest(job), record, wallMs: 5, worker: 'wa' });
    const ok = verifyResult(key, job.key, signed);
    expect(ok.ok && ok.result.record).toEqual(JSON.parse(JSON.stringify(record)));
    // What a rogue Redis writer can do: an unsigned result, a payload edited after signing, its own key.
    expect(verifyResult(key, job.key, { record, wallMs: 5, worker: 'rogue' })).toMatchObject({ ok: false, reason: expect.stringMatching(/not a signed result/) });
    const edited = { ...signed, payload: signed.payload.replace('"greedy"', '"alphabeta"') };
    expect(verifyResult(key, job.key, edited)).toMatchObject({ ok: false, reason: expect.stringMatching(/signature does not verify/) });
    expect(verifyResult(key, job.key, signResult(Buffer.alloc(32, 7), { job: job.key, jobDigest: jobDigest(job), record, wallMs: 5, worker: 'rogue' }))).toMatchObject({ ok: false });
    expect(verifyResult(key, 'another-game', signed)).toMatchObject({ ok: false, reason: 'it was signed for another game' });
    expect(verifyResult(key, job.key, JSON.stringify(signed)).ok).toBe(true);
  });
});

describe('records checked against their job', () => {
  test('a faithful record passes; a reference AI in a student seat, another seed or renamed seats are refused', async () => {
    expect(recordMismatch(job, await recordOf(['random', 'greedy'], ['random', 'greedy']))).toBeNull();
    expect(recordMismatch(job, await recordOf(['random', 'greedy'], ['random', 'greedy'], 12))).toMatch(/seed is 12/);
    expect(recordMismatch(job, await recordOf(['greedy', 'random'], ['greedy', 'random']))).toMatch(/seat 0 is "greedy"/);
    // The student's seat played by alphabeta under the student's name: no sandbox record for that seat.
    const student: GameJob = { ...job, players: [{ kind: 'artefact', name: 'alice', artefact: 'a'.repeat(64), runtime: 'node', entry: 'x.cjs' }, job.players[1]] };
    expect(recordMismatch(student, await recordOf(['alice', 'greedy'], ['alphabeta', 'greedy']))).toMatch(/alice's seat was not played by a sandboxed submission/);
    const tampered = await recordOf(['random', 'greedy'], ['random', 'greedy']);
    tampered.end = { ...tampered.end, winner: tampered.end.winner === 0 ? 1 : 0 };
    expect(recordMismatch(job, tampered)).toMatch(/does not replay/);
  });
});

describe('caps and labels', () => {
  const queued = { ...job, coordinator: 'host:1:ab', signature: '0'.repeat(64) };
  test.each([
    ['a move limit over the cap', { ...queued, config: { ...rules, moveTimeoutMs: 2 ** 31 } }, /moveTimeoutMs must be <= 600000 \(the queue's cap/],
    ['a turn limit over the cap', { ...queued, config: { ...rules, turnTimeoutMs: QUEUE_LIMITS.turnTimeoutMs + 1 } }, /turnTimeoutMs/],
    ['an illegal-move limit over the cap', { ...queued, config: { ...rules, illegalMoveLimit: 1000 } }, /illegalMoveLimit/],
    ['mcts with a million playouts', { ...queued, players: [{ kind: 'reference', name: 'm', ai: 'mcts:1000000', openingMoves: 0 }, queued.players[1]] }, /mcts:1000000 asks 1000000 playouts a move, over the queue's cap of 100000/],
  ])('refuses %s in one line', (_what, data, message) => {
    let thrown: Error | null = null;
    try {
      validateJob(data);
    } catch (error) {
      thrown = error as Error;
    }
    expect(thrown?.message).toMatch(message);
    expect(thrown?.message).not.toContain('\n');
  });

  test('labels lose ANSI escapes and control characters before they reach a log line', () => {
    expect(printable('alice\u001b[2J\u001b[31m vs \u001b]0;pwned\u0007greedy\r\nfake line')).toBe('alice vs ?]0;pwned?greedy??fake line');
    expect(printable('x'.repeat(300))).toHaveLength(201);
    expect(printable('\u202eevil')).toBe('?evil');
  });
});

describe('the Redis password', () => {
  test('from a file (mode 600) or the environment, and the URL the CLIs keep has none', () => {
    const dir = tempDir('qpw');
    const file = join(dir, 'pw');
    writeFileSync(file, 's3cret\n', { mode: 0o600 });
    expect(queueEndpoint('redis://127.0.0.1:6379/0', file, {})).toEqual({ url: 'redis://127.0.0.1:6379/0', password: 's3cret', passwordInUrl: false });
    expect(queueEndpoint('redis://127.0.0.1:6379/0', undefined, { [PASSWORD_ENV]: 'envpw' })).toMatchObject({ password: 'envpw', passwordInUrl: false });
    // In the URL it still works (the CLI warns): an old command line keeps running.
    expect(queueEndpoint('redis://:argv@127.0.0.1:6379/0', undefined, {})).toMatchObject({ url: 'redis://:argv@127.0.0.1:6379/0', passwordInUrl: true });
    chmodSync(file, 0o644);
    expect(() => queueEndpoint('redis://127.0.0.1:6379/0', file, {})).toThrow(QueueUsageError);
    expect(() => queueEndpoint('redis://127.0.0.1:6379/0', file, {})).toThrow(/chmod 600/);
  });
});
