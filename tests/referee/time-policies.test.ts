/**
 * Time policies (#34) for every contract: a per-game time bank, a soft timeout with strikes, per-language
 * multipliers and the first turn's factor (Botzone's). Slow answers wait on a timer well past the limit and fast ones
 * answer at once, so the rulings hold on a loaded machine; no wall time is asserted.
 */
import { BOTZONE_PRESET, configForGame, presetConfig, resolveConfig } from '../../harness/referee/config.js';
import { playGame, playGameUnstalled } from '../../harness/referee/match.js';
import type { MoveRequest, PlayerAnswer } from '../../harness/referee/player.js';
import { replayRecord } from '../../harness/referee/replay.js';
import { nogo } from '../../harness/games/nogo/nogo.js';
import { firstLegal, never, ScriptedPlayer, type MoveScript } from './helpers/fake-players.js';
import { makeTinyGame } from './helpers/tiny-game.js';

const game = makeTinyGame('xxxo');
const LIMIT = 100;
const SLOW = 300;

/** Answers the first legal move, after SLOW ms on the calls listed in `slowCalls`. */
function slowOn(slowCalls: number[]): MoveScript {
  const legal = firstLegal(game);
  return async (request: MoveRequest, call: number): Promise<PlayerAnswer> => {
    if (slowCalls.includes(call)) await new Promise((done) => setTimeout(done, SLOW));
    return legal(request, call);
  };
}

class LanguagePlayer extends ScriptedPlayer {
  constructor(name: string, script: MoveScript, readonly language: string) {
    super(name, script);
  }
}

test('a time bank pays for moves over the limit: the game is played out and each record says what is left', async () => {
  const black = new ScriptedPlayer('B', slowOn([1, 2]));
  const white = new ScriptedPlayer('W', firstLegal(game));
  const record = await playGame({ game, black, white, seed: 1, config: { moveTimeoutMs: LIMIT, timeBankMs: 100_000 } });
  expect(record.end.reason).toBe('score');
  const [first, , second] = record.turns;
  expect(first.bankLeftMs).toBeLessThanOrEqual(100_000 - (SLOW - LIMIT));
  expect(second.bankLeftMs).toBeLessThan(first.bankLeftMs!);
  expect(record.turns.find((turn) => turn.side === 1)?.bankLeftMs).toBeUndefined();
  expect(replayRecord(record, game)).toMatchObject({ ok: true });
});

test('without a bank or strikes the same slow move loses, and a spent bank loses with the bank in the message', async () => {
  const plain = await playGame({ game, black: new ScriptedPlayer('B', slowOn([1])), white: new ScriptedPlayer('W', firstLegal(game)), seed: 1, config: { moveTimeoutMs: LIMIT } });
  expect(plain.end.loser).toMatchObject({ side: 0, verdict: 'timeout' });
  const spent = await playGame({ game, black: new ScriptedPlayer('B', slowOn([1])), white: new ScriptedPlayer('W', firstLegal(game)), seed: 1, config: { moveTimeoutMs: LIMIT, timeBankMs: 1 } });
  expect(spent.end.loser).toMatchObject({ side: 0, verdict: 'timeout' });
  expect(spent.end.loser!.message).toMatch(/time bank 0 of 1 ms left/);
});

test('soft timeout: a move over the limit is played and costs a strike; the strikeLimit-th strike loses', async () => {
  const black = new ScriptedPlayer('B', slowOn([1, 2, 3]));
  const white = new ScriptedPlayer('W', firstLegal(game));
  const record = await playGame({ game, black, white, seed: 1, config: { moveTimeoutMs: LIMIT, strikeLimit: 2, strikeGraceMs: 60_000 } });
  expect(record.turns[0]).toMatchObject({ side: 0, kind: 'move', strikes: 1 });
  expect(record.end.loser).toMatchObject({ side: 0, verdict: 'timeout' });
  expect(record.end.loser!.message).toMatch(/strike 2 of 2, which loses/);
  expect(record.end.loser!.rule).toMatch(/^strikeLimit/);
  expect(replayRecord(record, game)).toMatchObject({ ok: true });
});

test("per-language multipliers and the first turn's factor set each player's own limit (info and record)", async () => {
  const python = new LanguagePlayer('py', firstLegal(game), 'Python');
  const cpp = new LanguagePlayer('cpp', firstLegal(game), 'C++');
  const config = { ...BOTZONE_PRESET, moveTimeoutMs: LIMIT, turnTimeoutMs: LIMIT, illegalMoveLimit: 1 };
  const record = await playGame({ game, black: python, white: cpp, seed: 1, config });
  expect(python.requests.map((request) => request.info.timeLimitMs)).toEqual([LIMIT * 6 * 2, LIMIT * 6, LIMIT * 6]);
  expect(cpp.requests.map((request) => request.info.timeLimitMs)).toEqual([LIMIT * 2]);
  expect(record.turns.map((turn) => turn.limitMs)).toEqual([1200, 200, 600, undefined, 600]);
});

test('config: the policies are validated with the fix in one line; the Botzone preset carries its rulings per game', () => {
  expect(() => resolveConfig({ strikeGraceMs: 500 })).toThrow(/strikeGraceMs needs strikeLimit/);
  expect(() => resolveConfig({ timeBankMs: -1 })).toThrow(/timeBankMs must be a non-negative integer/);
  expect(() => resolveConfig({ firstMoveFactor: 0.5 })).toThrow(/firstMoveFactor must be a number from 1 to 100/);
  expect(() => resolveConfig({ timeMultipliers: { Python: 'six' } as unknown as Record<string, number> })).toThrow(/timeMultipliers.Python/);
  const nogoBotzone = configForGame(nogo, presetConfig('botzone', 'nogo'));
  expect(nogoBotzone).toMatchObject({ moveTimeoutMs: 1000, illegalMoveLimit: 1, firstMoveFactor: 2, gameRules: { centerFirstMoveBanned: false } });
  // What the caller sets wins over the preset.
  expect(configForGame(nogo, presetConfig('botzone', 'nogo', { moveTimeoutMs: 3000 })).moveTimeoutMs).toBe(3000);
  expect(configForGame(nogo, presetConfig('course', 'nogo')).gameRules).toEqual({ centerFirstMoveBanned: true });
});

/** A player that keeps time itself (as the Botzone spawner does): it answers late on the grader's clock, but says
 * how long the ask took on its own (`timedMs`), or that its own deadline stopped it. */
class SelfTimedPlayer extends ScriptedPlayer {
  readonly keepsTime = true;
}

test('a player that keeps time itself is ruled from its own clock: its deadline is the wait allowed, its figure is the time', async () => {
  const legal = firstLegal(game);
  // Call 1 answers after SLOW ms of the grader's clock but 90 ms of its own (under the limit): played, at 90 ms.
  // Call 2 reports that its own deadline stopped it: a timeout at exactly that deadline, however late the grader heard.
  // Call 3 (next game) claims more time than the grader itself saw pass: not believed, the grader's own figure stands.
  const black = new SelfTimedPlayer('B', async (request, call) => {
    if (call === 3) return { ...(legal(request, call) as PlayerAnswer), timedMs: 60_000 };
    await new Promise((done) => setTimeout(done, SLOW));
    return call === 1 ? { ...(legal(request, call) as PlayerAnswer), timedMs: 90 } : { kind: 'timeout', timedMs: request.deadlineMs };
  });
  const record = await playGame({ game, black, white: new ScriptedPlayer('W', firstLegal(game)), seed: 1, config: { moveTimeoutMs: LIMIT, timeBankMs: 50 } });
  expect(record.turns[0]).toMatchObject({ side: 0, kind: 'move', wallMs: 90 });
  // The deadline it was given is the whole wait the rules allow: the limit and the bank.
  expect(black.requests.map((request) => request.deadlineMs)).toEqual([LIMIT + 50, LIMIT + 50]);
  expect(record.end.loser).toMatchObject({ side: 0, verdict: 'timeout', wallMs: LIMIT + 50 });
  expect(record.end.loser!.message).toBe(`no answer within ${LIMIT + 50} ms (time bank 0 of 50 ms left)`);
  const again = await playGame({ game, black, white: new ScriptedPlayer('W', firstLegal(game)), seed: 1, config: { moveTimeoutMs: LIMIT } });
  expect(again.turns[0].wallMs).toBeLessThan(60_000);
  // A trusted player keeps no deadline of its own: none is sent.
  const trusted = Object.assign(new SelfTimedPlayer('T', firstLegal(game)), { trusted: true });
  await playGame({ game, black: trusted, white: new ScriptedPlayer('W', firstLegal(game)), seed: 1, config: { moveTimeoutMs: LIMIT } });
  expect(trusted.requests[0].deadlineMs).toBeUndefined();
});

/**
 * A player whose scheduler says it waited for a CPU all along but its last `ranMs` of each ask (a starved sandbox, as
 * the referee sees it through Player.scheduling): its moves are ruled on that own time.
 */
class StarvedPlayer extends ScriptedPlayer {
  private readonly born = performance.now();

  constructor(name: string, script: MoveScript, private readonly ranPerAskMs: number) {
    super(name, script);
  }

  scheduling(): { ranMs: number; waitedMs: number; runnable: boolean } {
    return { ranMs: 0, waitedMs: Math.max(0, performance.now() - this.born - this.requests.length * this.ranPerAskMs), runnable: true };
  }
}

test('a sandboxed move is ruled on its own time: the wait is credited, kept in the record, and draws on neither bank nor strikes', async () => {
  const black = new StarvedPlayer('B', slowOn([1]), 10);
  const record = await playGame({ game, black, white: new ScriptedPlayer('W', firstLegal(game)), seed: 1, config: { moveTimeoutMs: LIMIT, timeBankMs: 50, strikeLimit: 2 } });
  expect(record.end.reason).toBe('score');
  const first = record.turns[0];
  expect(first.wallMs).toBeGreaterThan(LIMIT);
  expect(first.cpuWaitMs).toBeGreaterThan(first.wallMs! - LIMIT);
  expect({ bank: first.bankLeftMs, strikes: first.strikes }).toEqual({ bank: undefined, strikes: undefined });
  // The referee told the sandbox it credits (its own timer then only backstops), with the whole wait allowed.
  expect(black.requests[0].ownTimeLimitMs).toBe(LIMIT + 50 + LIMIT);
  expect(replayRecord(record, game)).toMatchObject({ ok: true });
});

test('a move the machine never let run is a stall: the game is played again, then a grader error naming fewer --jobs', async () => {
  let games = 0;
  const black = new StarvedPlayer('B', () => never<PlayerAnswer>(), 0);
  const played = playGameUnstalled(() => {
    games += 1;
    return playGame({ game, black, white: new ScriptedPlayer('W', firstLegal(game)), seed: 1, config: { moveTimeoutMs: 20 } });
  });
  await expect(played).rejects.toThrow(/^a game could not be timed fairly 3 times \(the last: B's move 1 waited \d+ ms for a CPU .*fewer --jobs/);
  await expect(played).rejects.toMatchObject({ name: 'GraderError' });
  expect(games).toBe(3);
});
