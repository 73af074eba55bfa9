/**
 * game.py parity through the real sandbox, one player fixture per row of issue 11's table, in TypeScript and in
 * Python: each fixture plays whole games against the reference `random` AI and the record must show the
 * platform's behaviour (or the documented, configurable deviation), and survive its own replay.
 */
import { resolve } from 'node:path';
import type { AnyGame } from '../../harness/games/game.js';
import { getGame } from '../../harness/games/registry.js';
import type { RefereeConfig } from '../../harness/referee/config.js';
import { InProcessPlayer } from '../../harness/referee/in-process.js';
import { playGame } from '../../harness/referee/match.js';
import type { GameRecord } from '../../harness/referee/record.js';
import { replayRecord } from '../../harness/referee/replay.js';
import type { SandboxPlayer } from '../../harness/sandbox/sandbox-player.js';
import { referenceAgent } from '../../reference-ai/index.js';
import { isolateCache, sandboxed } from './support.js';

const TS = resolve('tests/fixtures/parity');
const PY = resolve('tests/fixtures/python/parity');

beforeAll(() => {
  isolateCache();
});

interface Options {
  gameId?: string;
  config?: Partial<RefereeConfig>;
  /** Games in a row with the same (warm) player, alternating colours from Black. */
  games?: number;
}

async function playFixture(path: string, options: Options = {}): Promise<GameRecord[]> {
  const game: AnyGame = getGame(options.gameId ?? 'reversi');
  const runtime = path.endsWith('.py') ? { runtime: 'python' as const } : {};
  const { player } = await sandboxed(path, { game: game.id, ...runtime });
  const records: GameRecord[] = [];
  try {
    for (let i = 0; i < (options.games ?? 1); i++) {
      const opponent = new InProcessPlayer('random', referenceAgent(game.id, 'random'), getGame);
      const [black, white]: [SandboxPlayer | InProcessPlayer, SandboxPlayer | InProcessPlayer] =
        i % 2 === 0 ? [player, opponent] : [opponent, player];
      const record = await playGame({ game, black, white, seed: 11 + i, config: options.config });
      expect(replayRecord(record, game)).toMatchObject({ ok: true });
      records.push(record);
    }
  } finally {
    await player.close();
  }
  return records;
}

/** The submission's side in game i of playFixture (Black first, then alternating). */
const studentSide = (i: number): 0 | 1 => (i % 2 === 0 ? 0 : 1);

/** Played to the end on the board, the submission never answering illegally. */
function expectCleanGames(records: GameRecord[]): void {
  records.forEach((record, i) => {
    expect({ reason: record.end.reason, loser: record.end.loser?.message }).toEqual({ reason: 'score', loser: undefined });
    const own = record.turns.filter((t) => t.side === studentSide(i) && t.kind === 'move');
    expect(own.length).toBeGreaterThan(3);
    expect(own.filter((t) => t.illegal !== undefined || t.tamper !== undefined)).toEqual([]);
  });
}

describe.each([
  ['TypeScript', TS, '.ts', 'default-param', 'keeps-board', 'restores-board', 'illegal-and-changed', 'quits', 'center-first'],
  ['Python', PY, '.py', 'default_param', 'keeps_board', 'restores_board', 'illegal_and_changed', 'quits', 'center_first'],
])('%s players', (_language, dir, ext, defaultParam, keepsBoard, restoresBoard, illegalAndChanged, quits, centerFirst) => {
  const at = (name: string): string => resolve(dir, `${name}${ext}`);

  test('a default parameter (depth=1) never receives anything: whole games, no error', async () => {
    expectCleanGames(await playFixture(at(defaultParam)));
  });

  test('a board kept from the first turn is the same live Board every turn, in every game (two games, both colours)', async () => {
    expectCleanGames(await playFixture(at(keepsBoard), { games: 2 }));
  });

  test.each(['connect4', 'gomoku', 'nogo'])('the live board in %s', async (gameId) => {
    const [record] = await playFixture(at(keepsBoard), { gameId });
    expect(record.end.loser?.side).not.toBe(0);
    expect(record.turns.filter((t) => t.side === 0 && t.illegal !== undefined)).toEqual([]);
  });

  test('a board changed on ask 1 and restored before ask 2 is accepted (compared once, after the turn)', async () => {
    const [record] = await playFixture(at(restoresBoard));
    expect(record.end.reason).toBe('score');
    const own = record.turns.filter((t) => t.side === 0 && t.kind === 'move');
    expect(own.length).toBeGreaterThan(3);
    for (const turn of own) {
      expect(turn.illegal).toHaveLength(1);
      expect(turn.illegal?.[0].tamper).toMatch(/differs from how it was before this turn/);
      expect(turn.tamper).toBeUndefined();
    }
  });

  test('three illegal answers that also changed the board: illegal, as game.py rules', async () => {
    const [record] = await playFixture(at(illegalAndChanged));
    expect(record.end).toMatchObject({ reason: 'illegal', winner: 1 });
    expect(record.end.loser?.attempts).toHaveLength(3);
    expect(record.end.loser?.rule).toMatch(/changed board does not decide/);
  });

  test("'Q' is an illegal answer by default, and ends the game by the count under quitEndsGame", async () => {
    const [illegal] = await playFixture(at(quits));
    expect(illegal.end).toMatchObject({ reason: 'illegal', winner: 1 });
    const [quit] = await playFixture(at(quits), { config: { quitEndsGame: true } });
    expect(quit.end).toMatchObject({ reason: 'quit', quitBy: 0, diff: expect.any(Number) });
    expect(quit.turns.filter((t) => t.side === 0)).toHaveLength(1);
  });

  test("NoGo: Black's first move at the centre is illegal under the centre rule, and fine without it", async () => {
    const [banned] = await playFixture(at(centerFirst), { gameId: 'nogo' });
    expect(banned.initialState).toBe('9/9/9/9/9/9/9/9/9 - !E5');
    expect(banned.end).toMatchObject({ reason: 'illegal', winner: 1 });
    expect(banned.end.loser?.attempts.map((a) => a.returned.text)).toEqual(['E5']);
    const [open] = await playFixture(at(centerFirst), { gameId: 'nogo', config: { gameRules: { centerFirstMoveBanned: false } } });
    expect(open.turns[0]).toMatchObject({ side: 0, move: 'E5' });
  });
});

describe('TypeScript: MoveInfo through moveInfo() from referee, and the turn limit', () => {
  test('getMove receives one argument; moveInfo() gives the frozen limits of the current ask', async () => {
    expectCleanGames(await playFixture(resolve(TS, 'move-info.ts')));
  });

  // Ask 2 starts after ask 1 and its own limit is 20x the turn's: only a limit on the whole turn can end it first.
  test('a retry still within the per-ask limit when the turn limit runs out loses by timeout', async () => {
    const [record] = await playFixture(resolve(TS, 'slow-turn.ts'), { config: { moveTimeoutMs: 60_000, turnTimeoutMs: 3000 } });
    expect(record.end).toMatchObject({ reason: 'timeout', winner: 1 });
    expect(record.end.loser?.attempts.map((a) => a.returned.text)).toEqual(['Z9']);
    expect(record.end.loser?.rule).toMatch(/^turnTimeoutMs/);
  });
});

describe('Python: game.py call conventions and limits', () => {
  test('get_move(self, b) plays (the interface check warns that the platform would fail it)', async () => {
    expectCleanGames(await playFixture(resolve(PY, 'other_name.py')));
  });

  test('MoveInfo reaches a parameter literally named info, by keyword, even after a default parameter', async () => {
    expectCleanGames(await playFixture(resolve(PY, 'info_keyword.py')));
  });

  test('a retry still within the per-ask limit when the turn limit runs out loses by timeout', async () => {
    const [record] = await playFixture(resolve(PY, 'slow_turn.py'), {
      config: { moveTimeoutMs: 60_000, turnTimeoutMs: 3000 },
    });
    expect(record.end).toMatchObject({ reason: 'timeout', winner: 1 });
    expect(record.end.loser?.attempts.map((a) => a.returned.text)).toEqual(['Z9']);
    expect(record.end.loser?.rule).toMatch(/^turnTimeoutMs/);
  });

  test('a func_timeout search that swallows the stop: counted in the record while alive, reaped by the re-raise', async () => {
    const [record] = await playFixture(resolve(PY, 'reaped_timeout.py'));
    expect(record.end.reason).toBe('score');
    const own = record.turns.filter((t) => t.side === 0 && t.kind === 'move');
    expect(own[0].leftoverThreads).toBe(1);
    expect(own.length).toBeGreaterThan(20);
    expect(own[own.length - 1].leftoverThreads).toBeUndefined();
  });

  test('SystemExit inside a func_timeout call returns None instead of ending the process', async () => {
    expectCleanGames(await playFixture(resolve(PY, 'system_exit_timeout.py')));
  });
});
