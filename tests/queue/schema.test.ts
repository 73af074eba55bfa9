/** What a queue worker accepts: hostile jobs and artefacts are refused before anything runs or is written. */
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from '@jest/globals';
import { artefactHash, storeArtefact, type Artefact } from '../../grading/pool/artefact.js';
import { checkQueueUrl, redactUrl } from '../../grading/queue/connection.js';
import { decodeArtefact, encodeArtefact, validateJob, type QueuedJob } from '../../grading/queue/schema.js';

const rules = { moveTimeoutMs: 1000, turnTimeoutMs: 1000, illegalMoveLimit: 3, constructTimeoutMs: 1000, tamperLoses: true, forcedLossDiff: 0, quitEndsGame: false };
const good: QueuedJob = {
  key: 'a'.repeat(64),
  harness: '0.1.0',
  game: 'reversi',
  config: rules,
  seed: 7,
  players: [
    { kind: 'artefact', name: 'alice', artefact: 'b'.repeat(64), runtime: 'node', entry: 'submission.cjs' },
    { kind: 'reference', name: 'greedy', ai: 'greedy', openingMoves: 2 },
  ],
  label: 'alice vs greedy #1',
  coordinator: 'host:1:abcd',
  signature: 'c'.repeat(64),
};
const withPlayer = (player: unknown): unknown => ({ ...good, players: [player, good.players[1]] });

describe('validateJob', () => {
  test('a well-formed job passes unchanged (also with a paired opening and a budgeted reference AI)', () => {
    expect(validateJob(JSON.parse(JSON.stringify(good)))).toEqual(good);
    const paired = { ...good, opening: ['d3', 'c5'], players: [good.players[0], { kind: 'reference', name: 'mcts', ai: 'mcts:2000', openingMoves: 0 }] };
    expect(validateJob(paired)).toEqual(paired);
  });

  test("a game's own rule switch travels with the job (NoGo's centre rule off)", () => {
    const players = [good.players[0], { kind: 'reference', name: 'random', ai: 'random', openingMoves: 0 }];
    const nogo = { ...good, game: 'nogo', players, config: { ...rules, gameRules: { centerFirstMoveBanned: false } } };
    expect(validateJob(JSON.parse(JSON.stringify(nogo)))).toEqual(nogo);
  });

  test.each([
    ['a host command', withPlayer({ kind: 'command', name: 'x', command: 'touch /tmp/pwned' })],
    ['an extra field on a player', withPlayer({ ...good.players[0], path: '/etc' })],
    ['an entry above the artefact', withPlayer({ ...good.players[0], entry: '../../etc/passwd' })],
    ['an absolute entry', withPlayer({ ...good.players[0], entry: '/etc/passwd' })],
    ['a hidden .. segment', withPlayer({ ...good.players[0], entry: 'a/../../b' })],
    ['an artefact that is not a hash', withPlayer({ ...good.players[0], artefact: '../x' })],
    ['an unknown reference AI', withPlayer({ kind: 'reference', name: 'x', ai: 'rm-rf', openingMoves: 0 })],
    ['an unknown game', { ...good, game: 'chess' }],
    ['an extra top-level field', { ...good, shell: 'sh -c id' }],
    ['a bad rule', { ...good, config: { ...rules, moveTimeoutMs: -1 } }],
    ['a rule switch that is not a boolean', { ...good, game: 'nogo', config: { ...rules, gameRules: { centerFirstMoveBanned: 'rm -rf /' } } }],
    ['a rule switch the game does not have', { ...good, config: { ...rules, gameRules: { centerFirstMoveBanned: false } } }],
    ['a config without the turn limit', { ...good, config: { ...rules, turnTimeoutMs: undefined } }],
    ['three players', { ...good, players: [...good.players, good.players[1]] }],
    ['an opening move that is not notation', { ...good, opening: ['d3; rm -rf /'] }],
    ['not an object', 'rm -rf /'],
    ['no coordinator (played for nobody)', { ...good, coordinator: undefined }],
    ['no signature', { ...good, signature: undefined }],
  ])('refuses %s', (_what, job) => {
    expect(() => validateJob(job)).toThrow(/^job refused/);
  });
});

describe('artefacts from Redis', () => {
  const files = [{ path: 'submission.cjs', bytes: Buffer.from('module.exports = {};') }];
  const artefact: Artefact = { hash: artefactHash('node', 'submission.cjs', files), runtime: 'node', entry: 'submission.cjs', files };

  test('round trip: stored under its hash in the cache, world-readable for the sandbox', () => {
    const root = mkdtempSync(join(tmpdir(), 'referee-artefacts-'));
    const dir = storeArtefact(decodeArtefact(encodeArtefact(artefact), artefact.hash), root);
    expect(dir).toBe(join(root, artefact.hash));
    expect(existsSync(join(dir, 'submission.cjs'))).toBe(true);
  });

  test('a forged artefact (content not matching its hash), a path outside, another hash: refused, nothing written', () => {
    const root = mkdtempSync(join(tmpdir(), 'referee-artefacts-'));
    const forged = JSON.parse(encodeArtefact(artefact)) as { files: { path: string; base64: string }[] };
    forged.files[0].base64 = Buffer.from('require("child_process").execSync("id")').toString('base64');
    expect(() => storeArtefact(decodeArtefact(JSON.stringify(forged), artefact.hash), root)).toThrow(/does not match its content/);
    const escaping = JSON.parse(encodeArtefact(artefact)) as { files: { path: string }[] };
    escaping.files[0].path = '../../.bashrc';
    expect(() => decodeArtefact(JSON.stringify(escaping), artefact.hash)).toThrow(/refused/);
    expect(() => decodeArtefact(encodeArtefact(artefact), 'c'.repeat(64))).toThrow(/holds another artefact/);
    expect(() => decodeArtefact('not json', artefact.hash)).toThrow(/not JSON/);
    expect(existsSync(join(root, artefact.hash))).toBe(false);
  });
});

test('queue URLs: redis:// and rediss:// only; the password never shows', () => {
  expect(checkQueueUrl('rediss://:pw@host:6380/2')).toBe('rediss://:pw@host:6380/2');
  expect(() => checkQueueUrl('http://host')).toThrow(/redis:\/\/ or rediss:\/\//);
  expect(() => checkQueueUrl('redis://host/abc')).toThrow(/database number/);
  expect(redactUrl('redis://:hunter2@host:6379/0')).toBe('redis://:***@host:6379/0');
  expect(redactUrl('redis://user:hunter2@host:6379/0')).toBe('redis://user:***@host:6379/0');
});
