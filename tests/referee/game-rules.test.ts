import { describe, expect, test } from '@jest/globals';
import { connect4, connect4Nogo } from '../../harness/games/connect4/index.js';
import { nogo } from '../../harness/games/nogo/index.js';
import { reversi } from '../../harness/games/reversi/index.js';
import type { AgentFactory } from '../../harness/referee/agent.js';
import { configForGame } from '../../harness/referee/config.js';
import { playSeries } from '../../harness/referee/series.js';
import { inProcess, randomAgent } from './helpers/agents.js';

describe("a game's own rule defaults", () => {
  test('platform defaults for Reversi; the game sets its own; explicit config wins', () => {
    expect(configForGame(reversi)).toMatchObject({ moveTimeoutMs: 60000, illegalMoveLimit: 3 });
    expect(configForGame(connect4Nogo)).toMatchObject({ moveTimeoutMs: 3000, illegalMoveLimit: 1, constructTimeoutMs: 3000 });
    expect(configForGame(nogo)).toMatchObject({ moveTimeoutMs: 60000, illegalMoveLimit: 1 });
    expect(configForGame(nogo, { illegalMoveLimit: 3, moveTimeoutMs: undefined })).toMatchObject({ illegalMoveLimit: 3, moveTimeoutMs: 60000 });
  });
});

describe('seeded layouts are played once each way', () => {
  test('connect4-nogo: games 2k and 2k+1 share the drawn board, colours swapped; the next pair draws anew', async () => {
    const a = inProcess('a', randomAgent, connect4Nogo);
    const b = inProcess('b', randomAgent, connect4Nogo);
    const result = await playSeries({ game: connect4Nogo, a, b, games: 6, seed: 3 });
    const layouts = result.records.map((r) => r.initialState);
    expect(layouts[0]).toBe(layouts[1]);
    expect(layouts[2]).toBe(layouts[3]);
    expect(layouts[4]).toBe(layouts[5]);
    expect(new Set(layouts).size).toBe(3);
    expect(result.records[0].players).toEqual(['a', 'b']);
    expect(result.records[1].players).toEqual(['b', 'a']);
    expect(result.records[0].config.illegalMoveLimit).toBe(1);
  });

  test('games without a seeded layout get a seed per game', async () => {
    const a = inProcess('a', randomAgent, connect4);
    const b = inProcess('b', randomAgent, connect4);
    const result = await playSeries({ game: connect4, a, b, games: 4, seed: 3 });
    expect(new Set(result.records.map((r) => r.seed)).size).toBe(4);
  });
});

describe('trusted reference players are timed but never ruled late', () => {
  test('a slow trusted agent keeps playing past the move limit; its time is still recorded', async () => {
    const slow: AgentFactory = (game) => ({
      choose(state) {
        const until = Date.now() + 30;
        while (Date.now() < until) { /* a search that overruns a 10 ms limit */ }
        return game.legalMoves(state)[0];
      },
    });
    const a = inProcess('slow', slow, connect4);
    const b = inProcess('random', randomAgent, connect4);
    const result = await playSeries({ game: connect4, a, b, games: 2, seed: 1, config: { moveTimeoutMs: 10 } });
    expect(result.verdicts.timeout).toEqual([0, 0]);
    expect(result.records.every((r) => r.end.reason === 'score')).toBe(true);
    const slowTurn = result.records[0].turns.find((t) => t.side === 0)!;
    expect(slowTurn.wallMs).toBeGreaterThan(10);
  });
});
