import { playGame } from '../../harness/referee/match.js';
import type { MoveRequest, PlayerAnswer } from '../../harness/referee/player.js';
import type { GameRecord } from '../../harness/referee/record.js';
import { replayRecord } from '../../harness/referee/replay.js';
import { answering, firstLegal, never, ScriptedPlayer } from './helpers/fake-players.js';
import { makeTinyGame } from './helpers/tiny-game.js';

/** 'xxxo': Black takes A, White D, Black B, White must pass, Black C; Black wins 3–1. */
const passGame = makeTinyGame('xxxo');
const moveOf = (answer: unknown): PlayerAnswer => ({ kind: 'move', value: answer });

function pair(blackScript = firstLegal(passGame), whiteScript = firstLegal(passGame)) {
  return { black: new ScriptedPlayer('B', blackScript), white: new ScriptedPlayer('W', whiteScript) };
}

async function play(black: ScriptedPlayer, white: ScriptedPlayer, config = {}, game = passGame): Promise<GameRecord> {
  const record = await playGame({ game, black, white, seed: 7, config });
  // Every record the referee writes must survive its own replay.
  const replay = replayRecord(record, game);
  expect(replay).toMatchObject({ ok: true });
  return record;
}

describe('playGame: game.py turn order', () => {
  test('Black moves first, a pass is recorded without asking, the board decides the end', async () => {
    const { black, white } = pair();
    const record = await play(black, white);
    expect(record.turns.map((t) => [t.side, t.kind, t.move])).toEqual([
      [0, 'move', 'A'],
      [1, 'move', 'D'],
      [0, 'move', 'B'],
      [1, 'pass', undefined],
      [0, 'move', 'C'],
    ]);
    expect(black.requests).toHaveLength(3);
    expect(white.requests).toHaveLength(1);
    expect(black.requests[0].info.color).toBe('X');
    expect(white.requests[0].info.color).toBe('O');
    expect(record.end).toMatchObject({ winner: 0, reason: 'score', score: [3, 1], diff: 2, finalState: 'XXXO:1' });
    expect(record.end.loser).toBeUndefined();
    expect(record.turns.map((t) => t.ply)).toEqual([1, 2, 3, 4, 5]);
    expect(record.turns[0].details).toEqual({ cell: 0 });
    expect(record.format).toBe('referee.game/1');
    expect(record.players).toEqual(['B', 'W']);
    expect(record.initialState).toBe('xxxo:0');
  });

  test('the game ends when neither side can move, even at the start', async () => {
    const { black, white } = pair();
    const record = await play(black, white, {}, makeTinyGame('##'));
    expect(record.turns).toEqual([]);
    expect(black.requests).toHaveLength(0);
    expect(record.end).toMatchObject({ winner: null, reason: 'score', score: [0, 0], diff: 0 });
  });

  test('a draw by score has winner null', async () => {
    const { black, white } = pair();
    const record = await play(black, white, {}, makeTinyGame('xo#'));
    expect(record.end).toMatchObject({ winner: null, reason: 'score', score: [1, 1], diff: 0 });
  });

  test('MoveInfo counts own moves, carries the last move, the attempt and the referee-measured time', async () => {
    const { black, white } = pair(answering(['Z'], moveValue));
    await play(black, white);
    const infos = black.requests.map((r) => r.info);
    expect(infos.map((i) => [i.moveNumber, i.attempt, i.attemptsAllowed, i.lastMove])).toEqual([
      [1, 1, 3, null],
      [1, 2, 3, null],
      [2, 1, 3, 'D'],
      [3, 1, 3, null], // White passed
    ]);
    expect(white.requests[0].info.lastMove).toBe('A');
    for (let i = 1; i < infos.length; i++) expect(infos[i].timeUsedMs).toBeGreaterThanOrEqual(infos[i - 1].timeUsedMs);
    expect(infos.every((i) => i.timeLimitMs === 60000)).toBe(true);
  });

  test('start information: game id, side, seed, encoded initial state, construction limit', async () => {
    const { black, white } = pair();
    await playGame({ game: passGame, black, white, seed: 7, config: { moveTimeoutMs: 1000 } });
    expect(black.starts).toEqual([{ game: 'tiny', side: 0, seed: 7, initialState: 'xxxo:0', seedRandom: true, timeLimitMs: 1000 }]);
    expect(white.starts[0].side).toBe(1);
    expect(black.endGames).toBe(1);
    expect(white.endGames).toBe(1);
  });

  test('cpu time and captured output are recorded, empty output is not', async () => {
    const script = (request: MoveRequest): PlayerAnswer => ({
      kind: 'move',
      value: moveValue(request),
      cpuMs: 1.5,
      output: { text: request.info.moveNumber === 1 ? 'thinking\n' : '', droppedBytes: 0 },
    });
    const { black, white } = pair(script);
    const record = await play(black, white);
    expect(record.turns[0]).toMatchObject({ cpuMs: 1.5, output: { text: 'thinking\n', droppedBytes: 0 } });
    expect(record.turns[2].output).toBeUndefined();
    expect(typeof record.turns[0].wallMs).toBe('number');
  });

  test('one Player object cannot play both sides', async () => {
    const player = new ScriptedPlayer('same', firstLegal(passGame));
    await expect(playGame({ game: passGame, black: player, white: player, seed: 1 })).rejects.toThrow(/one Player per side/);
  });
});

function moveValue(request: MoveRequest): string {
  return passGame.formatMove(passGame.legalMoves(passGame.decode(request.state))[0]);
}

describe('playGame: illegal answers', () => {
  test('the 2nd illegal answer in a turn does not lose, the 3rd does', async () => {
    const survivor = pair(answering(['Z', 'Z'], moveValue));
    const kept = await play(survivor.black, survivor.white);
    expect(kept.end.reason).toBe('score');
    expect(kept.turns[0].illegal?.map((a) => a.reason)).toEqual(['not-legal', 'not-legal']);
    expect(kept.turns[0].move).toBe('A');

    const loser = pair(answering(['Z', 'Z', 'Z'], moveValue));
    const lost = await play(loser.black, loser.white);
    expect(lost.end).toMatchObject({ winner: 1, reason: 'illegal', diff: 0, score: null, finalState: 'xxxo:0' });
    expect(lost.end.loser).toMatchObject({ side: 0, verdict: 'illegal', phase: 'move' });
    expect(lost.end.loser?.attempts).toHaveLength(3);
    expect(lost.end.loser?.message).toMatch(/3 illegal answers/);
    expect(loser.black.requests).toHaveLength(3);
    expect(lost.turns).toEqual([]);
  });

  test('illegal answers are counted per turn, not per game', async () => {
    const script = (request: MoveRequest, call: number): PlayerAnswer =>
      moveOf(call % 3 === 0 ? moveValue(request) : 'Z'); // two illegal answers in every turn
    const { black, white } = pair(script);
    const record = await play(black, white);
    expect(record.end.reason).toBe('score');
    expect(record.turns.filter((t) => t.side === 0).map((t) => t.illegal?.length)).toEqual([2, 2, 2]);
  });

  test.each([
    [1, 1, 'illegal'],
    [5, 4, 'score'],
    [5, 5, 'illegal'],
  ])('illegalMoveLimit %i with %i illegal answers ends by %s', async (limit, wrong, reason) => {
    const { black, white } = pair(answering(Array(wrong).fill('Z'), moveValue));
    const record = await play(black, white, { illegalMoveLimit: limit });
    expect(record.end.reason).toBe(reason);
    expect(black.requests[0].info.attemptsAllowed).toBe(limit);
  });

  test('every illegal form is recorded with a safe description and the right reason', async () => {
    const cyclic: Record<string, unknown> = { move: 'B' };
    cyclic.self = cyclic;
    // White answers: on 'XxxO'-like boards after Black took A; 'A' is occupied, 'B' is Black's cell.
    const whiteAnswers = [42, null, cyclic, 'd', 'A', 'B', 'AA', '', undefined, 'D'];
    const black = new ScriptedPlayer('B', firstLegal(passGame));
    const white = new ScriptedPlayer('W', answering(whiteAnswers, moveValue));
    const record = await play(black, white, { illegalMoveLimit: 10 });
    const attempts = record.turns[1].illegal ?? [];
    expect(attempts.map((a) => [a.returned.type, a.returned.text, a.reason])).toEqual([
      ['number', '42', 'not-a-string'],
      ['null', 'null', 'not-a-string'],
      ['object', '{"move": "B", "self": [circular]}', 'not-a-string'],
      ['string', 'd', 'not-notation'], // lowercase is not the canonical 'D'
      ['string', 'A', 'not-legal'], // occupied
      ['string', 'B', 'not-legal'], // the opponent's cell
      ['string', 'AA', 'not-notation'],
      ['string', '', 'not-notation'],
      ['undefined', 'undefined', 'not-a-string'],
    ]);
    expect(record.turns[1].move).toBe('D');
    expect(JSON.parse(JSON.stringify(record))).toEqual(record);
  });

  test('long strings are kept verbatim up to the cap', async () => {
    const long = 'Q'.repeat(5000);
    const { black, white } = pair(answering([long], moveValue));
    const record = await play(black, white);
    const returned = record.turns[0].illegal?.[0].returned;
    expect(returned).toEqual({ type: 'string', text: 'Q'.repeat(200), truncated: true });
  });
});

describe('playGame: forced losses', () => {
  test('a player that never answers times out, is aborted, and loses with diff 0', async () => {
    const { black, white } = pair(firstLegal(passGame), () => never());
    const record = await play(black, white, { moveTimeoutMs: 50 });
    expect(record.end).toMatchObject({ winner: 0, reason: 'timeout', diff: 0, score: null });
    expect(record.end.loser).toMatchObject({ side: 1, verdict: 'timeout', phase: 'move' });
    expect(record.end.loser?.message).toMatch(/no answer within 50 ms/);
    expect(white.aborts).toHaveLength(1);
    expect(black.aborts).toHaveLength(0);
    expect(black.endGames).toBe(1);
    expect(white.endGames).toBe(1);
  });

  test('each ask gets its own full limit: illegal answers before a timeout stay recorded', async () => {
    const script = (_r: MoveRequest, call: number): Promise<PlayerAnswer> =>
      call <= 2 ? Promise.resolve(moveOf('Z')) : never();
    const { black, white } = pair(script);
    const record = await play(black, white, { moveTimeoutMs: 50 });
    expect(record.end.reason).toBe('timeout');
    expect(record.end.loser?.attempts.map((a) => a.returned.text)).toEqual(['Z', 'Z']);
  });

  test('an answer that arrives after the limit is a timeout, without an abort (nothing left to stop)', async () => {
    const spin = (request: MoveRequest): PlayerAnswer => {
      const until = performance.now() + 40;
      while (performance.now() < until) {
        // A synchronous agent the timer cannot interrupt.
      }
      return moveOf(moveValue(request));
    };
    const { black, white } = pair(spin);
    const record = await play(black, white, { moveTimeoutMs: 10 });
    expect(record.end.reason).toBe('timeout');
    expect(record.end.loser?.message).toMatch(/over the 10 ms limit/);
    expect(black.aborts).toEqual([]);
  });

  test.each<[string, PlayerAnswer, RegExp]>([
    ['error', { kind: 'error', message: 'TypeError: x is undefined', stack: 'at getMove' }, /x is undefined/],
    ['crash', { kind: 'crash', message: 'process exited', exitCode: 134, signal: null }, /exit code 134/],
    ['memory', { kind: 'memory', message: 'over 512 MB' }, /512 MB/],
    ['protocol', { kind: 'protocol', message: 'unsolicited message' }, /unsolicited/],
    ['timeout', { kind: 'timeout' }, /no answer within/],
  ])('a %s answer loses at once', async (verdict, answer, message) => {
    const { black, white } = pair(firstLegal(passGame), () => answer);
    const record = await play(black, white);
    expect(record.end).toMatchObject({ winner: 0, reason: verdict, diff: 0, score: null, finalState: 'Xxxo:1' });
    expect(record.end.loser).toMatchObject({ side: 1, verdict, phase: 'move' });
    expect(record.end.loser?.message).toMatch(message);
    expect(white.requests).toHaveLength(1);
    expect(record.turns).toHaveLength(1);
  });

  test('the error stack is kept for the report', async () => {
    const { black, white } = pair(() => ({ kind: 'error', message: 'boom', stack: 'Error: boom\n    at getMove' }));
    const record = await play(black, white);
    expect(record.end.loser?.stack).toBe('Error: boom\n    at getMove');
  });

  test('with tamperLoses false a changed board is noted and the move still counts', async () => {
    const { black, white } = pair((request) => ({ kind: 'tamper', value: moveValue(request), detail: 'flipped a disc' }));
    const record = await play(black, white, { tamperLoses: false });
    expect(record.end.reason).toBe('score');
    expect(record.turns[0]).toMatchObject({ move: 'A', tamper: expect.stringMatching(/flipped a disc/) });
  });

  test('a player that throws, rejects or answers nonsense loses without crashing the referee', async () => {
    const cases: Array<[() => PlayerAnswer | Promise<PlayerAnswer>, string]> = [
      [() => { throw new Error('sync throw'); }, 'error'],
      [() => Promise.reject(new Error('rejected')), 'error'],
      [() => 'D3' as unknown as PlayerAnswer, 'protocol'],
      [() => ({ kind: 'banana' }) as unknown as PlayerAnswer, 'protocol'],
      [() => ({ kind: 'ready' }), 'protocol'],
    ];
    for (const [script, verdict] of cases) {
      const { black, white } = pair(script);
      const record = await play(black, white);
      expect(record.end).toMatchObject({ winner: 1, reason: verdict });
    }
  });

  test('forcedLossDiff is reported for a forced loss', async () => {
    const { black, white } = pair(() => ({ kind: 'error', message: 'boom' }));
    const record = await play(black, white, { forcedLossDiff: 64 });
    expect(record.end).toMatchObject({ winner: 1, diff: 64 });
  });
});

describe('playGame: construction', () => {
  test('a constructor failure loses for that side before any move; both players are ended', async () => {
    const black = new ScriptedPlayer('B', firstLegal(passGame));
    const white = new ScriptedPlayer('W', firstLegal(passGame), () => ({ kind: 'error', message: 'ctor threw' }));
    const record = await play(black, white);
    expect(record.end).toMatchObject({ winner: 0, reason: 'error', diff: 0, score: null });
    expect(record.end.loser).toMatchObject({ side: 1, phase: 'start', message: 'ctor threw' });
    expect(record.turns).toEqual([]);
    expect(black.requests).toHaveLength(0);
    expect([black.endGames, white.endGames]).toEqual([1, 1]);
  });

  test('when both constructors fail, Black (built first) loses', async () => {
    const fail = (): PlayerAnswer => ({ kind: 'crash', message: 'died' });
    const black = new ScriptedPlayer('B', firstLegal(passGame), fail);
    const white = new ScriptedPlayer('W', firstLegal(passGame), fail);
    const record = await play(black, white);
    expect(record.end).toMatchObject({ winner: 1, reason: 'crash' });
  });

  test('a constructor that hangs times out under constructTimeoutMs and is aborted', async () => {
    const black = new ScriptedPlayer('B', firstLegal(passGame), () => never());
    const white = new ScriptedPlayer('W', firstLegal(passGame));
    const record = await play(black, white, { constructTimeoutMs: 50 });
    expect(record.end).toMatchObject({ winner: 1, reason: 'timeout' });
    expect(record.end.loser?.phase).toBe('start');
    expect(black.aborts).toHaveLength(1);
    expect(black.starts[0].timeLimitMs).toBe(50);
  });

  test('endGame runs on both players even when the harness itself fails mid-game', async () => {
    const { black, white } = pair();
    const failing = playGame({
      game: passGame,
      black,
      white,
      seed: 1,
      onTurn: () => {
        throw new Error('viewer broke');
      },
    });
    await expect(failing).rejects.toThrow('viewer broke');
    expect([black.endGames, white.endGames]).toEqual([1, 1]);
  });

  test('a player whose endGame throws or hangs does not hang the referee', async () => {
    const { black, white } = pair();
    black.endGame = () => never();
    white.endGame = () => Promise.reject(new Error('already closed'));
    const record = await playGame({ game: passGame, black, white, seed: 1, config: { moveTimeoutMs: 50 } });
    expect(record.end.reason).toBe('score');
  });
});
