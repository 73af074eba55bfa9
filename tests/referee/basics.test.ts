import { configForGame, DEFAULT_REFEREE_CONFIG, resolveConfig } from '../../harness/referee/config.js';
import { getGame } from '../../harness/games/registry.js';
import { describeValue } from '../../harness/referee/describe-value.js';
import { createRng, deriveSeed } from '../../harness/referee/seed.js';
import { describeFailure, verdictOfAnswer } from '../../harness/referee/verdict.js';

describe('resolveConfig', () => {
  test('defaults are game.py: 60 s an ask and a turn, 3 asks, construction like a move, tamper loses, diff 0, Q illegal', () => {
    expect(resolveConfig()).toEqual({
      moveTimeoutMs: 60000,
      turnTimeoutMs: 60000,
      quitEndsGame: false,
      seedPlayerRandom: true,
      illegalMoveLimit: 3,
      constructTimeoutMs: 60000,
      loadTimeoutMs: 60000,
      memoryMb: 512,
      tamperLoses: true,
      forcedLossDiff: 0,
    });
    expect(resolveConfig({})).toEqual(DEFAULT_REFEREE_CONFIG);
  });

  test("each game's course limits come from its defaultRules, under the explicit config (connect4-nogo: Saiblo's 1 GB)", () => {
    const nogo = getGame('connect4-nogo');
    expect(configForGame(nogo)).toMatchObject({ moveTimeoutMs: 3000, illegalMoveLimit: 1, memoryMb: 1024, loadTimeoutMs: 60000, constructTimeoutMs: 3000 });
    expect(configForGame(getGame('reversi'))).toMatchObject({ moveTimeoutMs: 60000, memoryMb: 512, loadTimeoutMs: 60000 });
    expect(configForGame(nogo, { memoryMb: 2048, loadTimeoutMs: 5000 })).toMatchObject({ memoryMb: 2048, loadTimeoutMs: 5000 });
    expect(() => resolveConfig({ memoryMb: 8 })).toThrow(/memoryMb must be at least 32 \(got 8\)/);
    expect(() => resolveConfig({ loadTimeoutMs: -1 })).toThrow(/loadTimeoutMs must be a positive integer/);
  });

  test('constructTimeoutMs follows moveTimeoutMs unless given', () => {
    expect(resolveConfig({ moveTimeoutMs: 500 }).constructTimeoutMs).toBe(500);
    expect(resolveConfig({ moveTimeoutMs: 500, constructTimeoutMs: 2000 }).constructTimeoutMs).toBe(2000);
  });

  test('turnTimeoutMs follows moveTimeoutMs unless given (game.py uses one 60 for both)', () => {
    expect(resolveConfig({ moveTimeoutMs: 500 }).turnTimeoutMs).toBe(500);
    expect(resolveConfig({ moveTimeoutMs: 500, turnTimeoutMs: 900 }).turnTimeoutMs).toBe(900);
    expect(() => resolveConfig({ turnTimeoutMs: 0 })).toThrow(/turnTimeoutMs must be a positive integer/);
    expect(() => resolveConfig({ quitEndsGame: 'yes' as unknown as boolean })).toThrow(/quitEndsGame must be true or false/);
  });

  test.each<[unknown, RegExp]>([
    [{ moveTimeoutMs: 0 }, /moveTimeoutMs must be a positive integer up to 2147483647 \(got 0\); give milliseconds/],
    [{ moveTimeoutMs: '60s' }, /moveTimeoutMs must be a positive integer up to \d+ \(got "60s"\)/],
    [{ moveTimeoutMs: 2 ** 31 }, /moveTimeoutMs must be a positive integer up to 2147483647/],
    [{ illegalMoveLimit: 2.5 }, /illegalMoveLimit must be a positive integer/],
    [{ constructTimeoutMs: -1 }, /constructTimeoutMs must be a positive integer/],
    [{ tamperLoses: 'yes' }, /tamperLoses must be true or false/],
    [{ forcedLossDiff: -2 }, /forcedLossDiff must be a non-negative integer/],
    [{ moveTimeout: 5 }, /unknown field "moveTimeout"; known fields are moveTimeoutMs/],
    [[1], /must be an object/],
  ])('%j is rejected with a one-line error', (input, message) => {
    let error: Error | undefined;
    try {
      resolveConfig(input as never);
    } catch (thrown) {
      error = thrown as Error;
    }
    expect(error?.message).toMatch(message);
    expect(error?.message).not.toContain('\n');
  });
});

describe('seeds', () => {
  test('deriveSeed is deterministic, distinct per index and per series seed', () => {
    const seeds = Array.from({ length: 1000 }, (_, i) => deriveSeed(42, i));
    expect(new Set(seeds).size).toBe(1000);
    expect(seeds.every((s) => Number.isInteger(s) && s >= 0 && s < 2 ** 32)).toBe(true);
    expect(deriveSeed(42, 7)).toBe(seeds[7]);
    expect(deriveSeed(43, 7)).not.toBe(seeds[7]);
    expect(() => deriveSeed(1.5, 0)).toThrow(/seed must be an integer/);
    expect(() => deriveSeed(1, -1)).toThrow(/non-negative integer/);
  });

  test('createRng repeats for a seed, stays in range and spreads', () => {
    const a = createRng(9);
    const b = createRng(9);
    const draws = Array.from({ length: 2000 }, () => a.next());
    expect(Array.from({ length: 2000 }, () => b.next())).toEqual(draws);
    expect(draws.every((x) => x >= 0 && x < 1)).toBe(true);
    const counts = [0, 0, 0, 0];
    const rng = createRng(10);
    for (let i = 0; i < 4000; i++) counts[rng.int(4)] += 1;
    expect(Math.min(...counts)).toBeGreaterThan(800);
    expect(createRng(1).next()).not.toBe(createRng(2).next());
    expect(() => rng.int(0)).toThrow(/positive integer/);
  });
});

describe('describeValue', () => {
  test('previews anything without throwing', () => {
    const hostile = new Proxy(
      {},
      {
        ownKeys: () => {
          throw new Error('no keys for you');
        },
      },
    );
    const revocable = Proxy.revocable({}, {});
    revocable.revoke();
    expect(describeValue(hostile)).toEqual({ type: 'object', text: '<unreadable>' });
    expect(describeValue(revocable.proxy).type).toBe('object');
    expect(describeValue(10n)).toEqual({ type: 'bigint', text: '10n' });
    expect(describeValue(-0)).toEqual({ type: 'number', text: '-0' });
    expect(describeValue(NaN)).toEqual({ type: 'number', text: 'NaN' });
    expect(describeValue(Symbol('s'))).toEqual({ type: 'symbol', text: 'Symbol(s)' });
    expect(describeValue(function getMove() {})).toEqual({ type: 'function', text: '[function getMove]' });
    expect(describeValue([1, [2, [3]]])).toEqual({ type: 'array', text: '[1, [2, […]]]' });
    expect(describeValue(Array(20).fill(0)).text).toBe('[0, 0, 0, 0, 0, 0, 0, 0, … 12 more]');
    expect(describeValue({ get x() { throw new Error('getter'); } })).toEqual({ type: 'object', text: '{"x": <unreadable>}' });
    const big = describeValue({ text: 'y'.repeat(1000) });
    expect(big.text).toHaveLength(200);
    expect(big.truncated).toBe(true);
  });
});

describe('verdicts', () => {
  test('answer kinds map to loss verdicts; move and ready carry none', () => {
    expect(verdictOfAnswer({ kind: 'move', value: 'D3' })).toBeNull();
    expect(verdictOfAnswer({ kind: 'ready' })).toBeNull();
    expect(verdictOfAnswer({ kind: 'memory', message: 'x' })).toBe('memory');
    expect(describeFailure({ kind: 'error', message: 'line one\nline two' }, 1000)).toBe('line one ⏎ line two');
    expect(describeFailure({ kind: 'crash', message: 'died', exitCode: null, signal: 'SIGKILL' }, 1000)).toBe('died (signal SIGKILL)');
  });
});
