/**
 * The CLI's own listing and help, as a user reads them (the built CLI as a subprocess): `referee list` names every
 * game with its ladder and the languages; help mentions `human` and Python; doctor marks a layer left out by
 * design with '–', not a red ✗.
 */
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { expect, test } from '@jest/globals';
import { gameIds } from '../../harness/games/registry.js';
import { referenceNames } from '../../reference-ai/index.js';

const CLI = resolve('dist/cli/index.js');
const referee = (...args: string[]) => spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', timeout: 120_000, env: { ...process.env, NODE_OPTIONS: '' } });

test('referee list: every game, its reference AIs weakest first, the languages; --json the same', () => {
  const text = referee('list');
  expect(text.status).toBe(0);
  const json = JSON.parse(referee('list', '--json').stdout) as { games: { id: string; referenceAIs: { level: number; name: string }[] }[]; languages: { language: string }[] };
  expect(json.games.map((game) => game.id)).toEqual(gameIds());
  for (const game of json.games) {
    expect(game.referenceAIs.map((ai) => ai.name)).toEqual(referenceNames(game.id));
    expect(text.stdout).toContain(`${game.id} — `);
  }
  expect(json.languages.map((entry) => entry.language)).toEqual(['TypeScript', 'JavaScript', 'Python', 'C++', 'Java']);
  expect(text.stdout).toMatch(/^ {3}1\. random /m);
});

test('help names human for play and Python for check; doctor shows vm2 as left out, not failed', () => {
  expect(referee('play', '--help').stdout).toMatch(/--black <player>[\s\S]*human/);
  expect(referee('check', '--help').stdout).toMatch(/\.py/);
  expect(referee('doctor').stdout).toMatch(/^ {2}– vm2 /m);
});
